//! Search across the course: a GET form (`/search?q=…`, `/ko/search?q=…`), so it works without
//! JavaScript; with it, the results follow what is typed. A snippet's matches are `<mark>`s
//! around text nodes: the page never takes HTML from the index.

use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::{use_navigate, use_query_map};
use leptos_router::NavigateOptions;

use crate::api::search;
use crate::model::{SearchHit, SearchResults};
use crate::resource::resource;

#[component]
pub fn SearchPage() -> impl IntoView {
    let lang = crate::page::use_lang();
    let w = &lockstep_i18n::t(lang).search;
    let query = use_query_map();
    let q = move || query.read().get("q").unwrap_or_default();
    let results = resource(
        move || (q(), lang),
        |(q, lang)| async move {
            if q.trim().is_empty() {
                Ok(None)
            } else {
                search(q, lang).await.map(Some)
            }
        },
    );
    let action = lang.path(lockstep_routes::SEARCH);
    let navigate = use_navigate();
    let typed = {
        let action = action.clone();
        move |ev: leptos::ev::Event| {
            let value = event_target_value(&ev);
            let to = format!("{action}?q={}", lockstep_routes::percent_encode(&value, |_| false));
            navigate(&to, NavigateOptions { replace: true, scroll: false, ..Default::default() });
        }
    };
    view! {
        <Title text=w.title/>
        <section class="search-page">
            <h1>{w.title}</h1>
            <form method="get" action=action role="search" class="search-form">
                <label for="search-q">{w.label}</label>
                <input id="search-q" type="search" name="q" value=q() maxlength="200" on:input=typed autocomplete="off"/>
                <button type="submit" class="primary">{w.button}</button>
            </form>
            <p class="muted">{w.hint}</p>
            <div data-role="search-live">
                <Transition fallback=move || view! { <p class="loading">{w.loading}</p> }>
                    {move || Suspend::new(async move { answer(results.await, q()) })}
                </Transition>
            </div>
        </section>
    }
}

/// What a search shows for `q`, given the server's answer: the same on the server's page, in the
/// application, and on a page that hydrates only its islands ([`follow_typing`]).
fn answer(got: Result<Option<SearchResults>, ServerFnError>, q: String) -> AnyView {
    let w = &crate::page::use_t().search;
    match got {
        Ok(None) => ().into_any(),
        Ok(Some(SearchResults::Refused(why))) => {
            view! { <p class="form-error" role="alert" data-role="search-refused">{why}</p> }
                .into_any()
        }
        Ok(Some(SearchResults::Hits(hits))) if hits.is_empty() => {
            view! { <p data-role="search-nothing">{(w.nothing)(&q)}</p> }.into_any()
        }
        Ok(Some(SearchResults::Nothing { try_words, elsewhere })) => {
            let lang = crate::page::use_lang();
            let search_in = |lang: lockstep_i18n::Lang, q: &str| {
                let q = lockstep_routes::percent_encode(q, |_| false);
                format!("{}?q={q}", lang.path(lockstep_routes::SEARCH))
            };
            let tries = (!try_words.is_empty()).then(|| {
                let links = try_words
                    .into_iter()
                    .map(|word| {
                        let href = search_in(lang, &word);
                        view! { " " <a href=href>{word}</a> }
                    })
                    .collect_view();
                view! { <p data-role="search-try">{w.try_words} {links}</p> }
            });
            let elsewhere = elsewhere
                .into_iter()
                .map(|(other, n)| {
                    view! {
                        <p data-role="search-elsewhere">
                            <a href=search_in(other, &q) hreflang=other.code()>{(w.elsewhere)(other, n)}</a>
                        </p>
                    }
                })
                .collect_view();
            view! {
                <p data-role="search-nothing">{(w.nothing)(&q)}</p>
                {tries}
                {elsewhere}
            }
            .into_any()
        }
        Ok(Some(SearchResults::Hits(hits))) => view! { <Hits hits/> }.into_any(),
        Err(e) => view! { <p class="error">{w.failed} {e.to_string()}</p> }.into_any(),
    }
}

/// On a page that hydrates only its islands: the results follow what is typed into the search
/// page's box, as the application's page does (its address too), each answer replacing the
/// last; an answer that arrives after a later letter's is dropped.
#[cfg(feature = "hydrate")]
pub(crate) fn follow_typing(lang: lockstep_i18n::Lang) {
    use std::cell::{Cell, RefCell};
    use wasm_bindgen::{closure::Closure, JsCast};

    let doc = document();
    let (Some(input), Ok(Some(live))) =
        (doc.get_element_by_id("search-q"), doc.query_selector("[data-role=search-live]"))
    else {
        return;
    };
    type Shown = leptos::mount::UnmountHandle<leptos::tachys::view::any_view::AnyViewState>;
    thread_local! {
        static LATEST: Cell<u64> = const { Cell::new(0) };
        static SHOWN: RefCell<Option<Shown>> = const { RefCell::new(None) };
    }
    let owner = leptos::reactive::owner::Owner::current().expect("the islands' root owner");
    let action = lang.path(lockstep_routes::SEARCH);
    let typed = Closure::<dyn Fn(web_sys::Event)>::new(move |ev: web_sys::Event| {
        let q = event_target_value(&ev);
        let to = format!("{action}?q={}", lockstep_routes::percent_encode(&q, |_| false));
        let _ = window()
            .history()
            .and_then(|h| h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&to)));
        let this = LATEST.with(|l| {
            l.set(l.get() + 1);
            l.get()
        });
        let (live, owner) = (live.clone(), owner.clone());
        leptos::task::spawn_local(async move {
            let got = if q.trim().is_empty() {
                Ok(None)
            } else {
                search(q.clone(), lang).await.map(Some)
            };
            if LATEST.with(Cell::get) != this {
                return;
            }
            let view = owner.with(|| answer(got, q));
            // The server's results go with the first answer; each later one unmounts the last.
            drop(SHOWN.with(|s| s.borrow_mut().take()));
            live.set_text_content(None);
            let shown = leptos::mount::mount_to(live.unchecked_into(), move || view);
            SHOWN.with(|s| *s.borrow_mut() = Some(shown));
        });
    });
    let _ = input.add_event_listener_with_callback("input", typed.as_ref().unchecked_ref());
    typed.forget();
}

#[component]
fn Hits(hits: Vec<SearchHit>) -> impl IntoView {
    let w = &crate::page::use_t().search;
    view! {
        <p class="muted" role="status" data-role="search-count">{(w.found)(hits.len())}</p>
        <ol class="search-results" data-role="search-results">
            {hits
                .into_iter()
                .map(|h| {
                    let crumb = (h.heading != h.lesson_title).then(|| view! { <span class="muted">{h.lesson_title.clone()} " › "</span> });
                    view! {
                        <li>
                            <p class="search-hit-course muted" data-role="search-hit-course">{h.course}</p>
                            <p class="search-hit-title">{crumb} <a href=h.href>{h.heading}</a></p>
                            <p class="search-snippet">
                                {h.snippet
                                    .into_iter()
                                    .map(|(text, matched)| {
                                        if matched {
                                            view! { <mark>{text}</mark> }.into_any()
                                        } else {
                                            text.into_any()
                                        }
                                    })
                                    .collect_view()}
                            </p>
                        </li>
                    }
                })
                .collect_view()}
        </ol>
    }
}
