//! The browser's side of a page that hydrates only its islands
//! ([`crate::page::hydrates_only_islands`]): the server rendered the whole page, and the browser
//! makes interactive only what reacts on it, each from the same component the server rendered it
//! with. The rest of the page stays the server's HTML; the router and the pages' code are not in
//! its bundle.
//!
//! The islands: the bell (its count, read from the server), the toast (gone after a while), on
//! the search page the results following what is typed, and on a lesson page its own (which
//! pages are hydrated how is the crate's `hydrate_islands` and `hydrate_lesson`).

use leptos::prelude::*;
use leptos::reactive::owner::Owner;
use leptos::tachys::reactive_graph::OwnedView;
use leptos::tachys::view::{Position, RenderHtml};
use web_sys::Element;

use crate::components::Bell;

/// The reactive root, as Leptos's own islands have it (its effects run on the browser's event
/// loop, and a child owner per island hydrates that island's view), with the page's language;
/// and the bell, which every page has.
pub(crate) fn root() -> lockstep_i18n::Lang {
    leptos::mount::hydrate_islands();
    let lang = lockstep_i18n::Lang::of_path(&crate::page::page_path());
    provide_context(lang);
    island("[data-role=bell]", |_| view! { <Bell/> });
    lang
}

/// Hydrates the view `make` returns at the first element matching `selector`, which the server
/// rendered from the same view: the element itself is the view's root.
pub(crate) fn island<V: IntoView + 'static>(
    selector: &str,
    make: impl FnOnce(Element) -> V + 'static,
) {
    if let Some(el) = document().query_selector(selector).ok().flatten() {
        island_at(el, make);
    }
}

/// The elements matching `selector`, in page order.
pub(crate) fn all(selector: &str) -> Vec<Element> {
    elements(document().query_selector_all(selector))
}

/// The elements of a query's answer (`query_selector_all`), in page order.
pub(crate) fn elements(list: Result<web_sys::NodeList, wasm_bindgen::JsValue>) -> Vec<Element> {
    use wasm_bindgen::JsCast;
    let Ok(list) = list else { return Vec::new() };
    (0..list.length()).filter_map(|i| list.item(i)?.dyn_into().ok()).collect()
}

/// Calls `handler` on each click on `el`, for as long as the page is there.
pub(crate) fn listen(el: &Element, handler: impl Fn(web_sys::MouseEvent) + 'static) {
    use wasm_bindgen::{closure::Closure, JsCast};
    let handler = Closure::<dyn Fn(web_sys::MouseEvent)>::new(handler);
    let _ = el.add_event_listener_with_callback("click", handler.as_ref().unchecked_ref());
    handler.forget();
}

/// Hydrates the view `make` returns at `el`, which the server rendered from the same view: the
/// element itself is the view's root.
pub(crate) fn island_at<V: IntoView + 'static>(
    el: Element,
    make: impl FnOnce(Element) -> V + 'static,
) {
    let owner = Owner::new();
    let root = el.clone();
    let view = owner.with(|| Owner::with_hydration(move || OwnedView::new(make(root).into_view())));
    // Lives as long as the page: nothing unmounts an island.
    std::mem::forget(view.hydrate_from_position::<true>(&el, Position::Current));
}
