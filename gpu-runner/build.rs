// tch links libtorch from the Python environment's torch package; let the binaries find it
// there at run time without LD_LIBRARY_PATH. torch-sys (`links = "tch"`) reports the folder.
fn main() {
    println!("cargo:rerun-if-env-changed=DEP_TCH_LIBTORCH_LIB");
    if let Ok(lib) = std::env::var("DEP_TCH_LIBTORCH_LIB") {
        println!("cargo:rustc-link-arg=-Wl,-rpath,{lib}");
    }
}
