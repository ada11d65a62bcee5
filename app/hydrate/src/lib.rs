//! The browser bundle's entry point. Everything it renders lives in `lockstep-web`, so this crate
//! stays a few lines and the server and the browser can never disagree about the view tree.
//!
//! # What is where
//!
//! The browser entry point of the application: one `hydrate()` function, which hydrates the whole
//! page (`lockstep_web::hydrate`). It is built only for wasm32, with lockstep-web's `app` feature
//! (the pages behind the router: a lesson in the main module, the other groups of pages and the
//! simulations `#[lazy]` parts). It starts only on graded work (an exercise, a submission, the
//! instructor view); a lesson it shows only when it goes to one from there.

#[wasm_bindgen::prelude::wasm_bindgen]
pub async fn hydrate() {
    lockstep_web::crash::install();
    lockstep_web::hydrate().await;
}
