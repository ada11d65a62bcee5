//! The browser's side of a page that hydrates only its islands
//! ([`crate::hydrates_only_islands`]): the server rendered the whole page, and the browser makes
//! interactive only what reacts on it, each from the same component the server rendered it
//! with. The rest of the page stays the server's HTML; the router and the pages' code are not
//! in its bundle.
//!
//! The islands: the bell (its count, read from the server), the toast (gone after a while), and
//! on the search page the results following what is typed ([`crate::pages::follow_typing`]).

use leptos::prelude::*;
use leptos::reactive::owner::Owner;
use leptos::tachys::reactive_graph::OwnedView;
use leptos::tachys::view::{Position, RenderHtml};
use web_sys::Element;

use crate::components::{Bell, Toast};

pub fn hydrate() {
    // The reactive root, as Leptos's own islands have it: its effects run on the browser's
    // event loop, and a child owner per island hydrates that island's view.
    leptos::mount::hydrate_islands();
    let lang = crate::Lang::of_path(&crate::page_path());
    provide_context(lang);

    island("[data-role=bell]", |_| view! { <Bell/> });
    island("[data-role=toast]", |el| {
        let shown = el.query_selector(".toast").ok().flatten().and_then(|p| p.text_content());
        view! { <Toast message=RwSignal::new(shown)/> }
    });
    crate::pages::follow_typing(lang);
}

/// Hydrates the view `make` returns at the first element matching `selector`, which the server
/// rendered from the same view: the element itself is the view's root.
fn island<V: IntoView + 'static>(selector: &str, make: impl FnOnce(Element) -> V + 'static) {
    let Some(el) = document().query_selector(selector).ok().flatten() else { return };
    let owner = Owner::new();
    let root = el.clone();
    let view = owner.with(|| Owner::with_hydration(move || OwnedView::new(make(root).into_view())));
    // Lives as long as the page: nothing unmounts an island.
    std::mem::forget(view.hydrate_from_position::<true>(&el, Position::Current));
}
