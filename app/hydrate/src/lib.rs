//! The browser bundle's only export. Everything it renders lives in `lockstep-web`, so this crate
//! stays a few lines and the server and the browser can never disagree about the view tree.

#[wasm_bindgen::prelude::wasm_bindgen]
pub async fn hydrate() {
    lockstep_web::crash::install();
    // What `hydrate_lazy` does, but awaited here: the route's part of the bundle is loaded
    // before its page is hydrated, and the page is marked hydrated only once all of it is.
    let body = leptos::prelude::document().body().expect("a page has a body");
    let owner = leptos::mount::hydrate_from_async(body, lockstep_web::App).await;
    lockstep_web::mark_hydrated();
    owner.forget();
}

/// Panics on purpose, so that an operator (or a test) can see the crash notice and its line in
/// the server's log without waiting for a real bug: `(await import(document.querySelector(
/// "meta[name=lockstep-bundle]").content + "/lockstep.js")).check_crash_notice()` in the
/// browser's console. It breaks only the page it is called on.
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn check_crash_notice() {
    panic!("check_crash_notice: a panic on purpose, to check the crash notice");
}
