//! The site's islands bundle's entry point, for the pages that the browser makes interactive only
//! where their islands are (`lockstep_web::hydrates_only_islands`), but the lessons, which have
//! a bundle of their own (`lockstep-lesson`). A bundle of its own, not a part of
//! the application's: what the application's main module holds (the router, the reactive code
//! every page shares) would be split into many small parts for the application's pages if it
//! left the main module, and the site's pages need none of it.
//!
//! # What is where
//!
//! The browser entry point of the site's pages (the catalogue, a course's page, `/xp`, `/search`,
//! `/account`, `/notifications`: `lockstep_web::hydrates_only_islands`, by address), which hydrate
//! only their islands (`lockstep_web::hydrate_islands`, `islands.rs`: the bell, the toast, and on
//! `/search` the results following what is typed), each from the component the server rendered it
//! with, under a reactive root of its own; the rest of the page stays the server's HTML and a link
//! from it is an ordinary page load. A bundle of its own (`islands.js`, `islands_bg.wasm`), built
//! without the `app` feature, so none of the router's or the pages' code is in it: moved out of the
//! application's main module into a lazy part instead, that code was cut into many small parts that
//! every lesson page loaded. Built only for wasm32.

#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    lockstep_web::crash::install();
    lockstep_web::hydrate_islands();
}
