//! The browser bundle's only export. Everything it renders lives in `lockstep-web`, so this crate
//! stays a few lines and the server and the browser can never disagree about the view tree.

#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    console_error_panic_hook::set_once();
    leptos::mount::hydrate_body(lockstep_web::App);
}
