// `sqlx::migrate!` reads the migrations when the crate compiles: without this, a new or edited
// migration alone would not rebuild it, and the binary would carry the schema from before.
fn main() {
    println!("cargo:rerun-if-changed=migrations");
}
