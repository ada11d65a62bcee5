//! The site's islands bundle's entry point, for the pages that the browser makes interactive only
//! where their islands are (`lockstep_web::hydrates_only_islands`), but the lessons, which have
//! a bundle of their own (`lockstep-lesson`). A bundle of its own, not a part of
//! the application's: what the application's main module holds (the router, the reactive code
//! every page shares) would be split into many small parts for the application's pages if it
//! left the main module, and the site's pages need none of it.

#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    lockstep_web::crash::install();
    lockstep_web::hydrate_islands();
}
