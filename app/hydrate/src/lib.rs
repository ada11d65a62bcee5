//! The browser bundle's entry point. Everything it renders lives in `lockstep-web`, so this crate
//! stays a few lines and the server and the browser can never disagree about the view tree.

#[wasm_bindgen::prelude::wasm_bindgen]
pub async fn hydrate() {
    lockstep_web::crash::install();
    lockstep_web::hydrate().await;
}
