//! The lessons' bundle's entry point (`lockstep_web::hydrates_only_islands`): the site's islands
//! and a lesson's own, which the site's other pages never load, with the simulations split off
//! into parts loaded when one comes near. A bundle of its own: as a part of the site's islands
//! bundle, the lesson's code and what it shared with the simulations' parts came in more files
//! and 20 kB (Brotli) more.

#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    lockstep_web::crash::install();
    lockstep_web::hydrate_lesson();
}
