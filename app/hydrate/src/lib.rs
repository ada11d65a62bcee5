//! The browser bundle's only export. Everything it renders lives in `lockstep-web`, so this crate
//! stays a few lines and the server and the browser can never disagree about the view tree.

#[wasm_bindgen::prelude::wasm_bindgen]
pub async fn hydrate() {
    lockstep_web::crash::install();
    lockstep_web::hydrate().await;
}

/// Panics on purpose, so that an operator (or a test) can see the crash notice and its line in
/// the server's log without waiting for a real bug: `(await import(document.querySelector(
/// "meta[name=lockstep-bundle]").content + "/lockstep.js")).check_crash_notice()` in the
/// browser's console. It breaks only the page it is called on.
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn check_crash_notice() {
    panic!("check_crash_notice: a panic on purpose, to check the crash notice");
}
