//! The comments, live: the server renders them into the page (`lockstep_pages::talk`); in the browser this
//! listens for their place's changes and swaps in the server's fresh HTML of them, keeping
//! what the reader is typing. The browser renders no comment itself: the text it shows is
//! always the server's, escaped and sanitized there.

/// Follows the comments of the page now shown, from its mount to its unmount: fetched at once
/// when the page came without them (a page the browser rendered after a link), then each time
/// the server says they changed.
///
/// The stream is open only while the page is visible. A browser gives a site six connections
/// over HTTP/1.1, and a stream holds one: six tabs in the background, or pages kept for the
/// Back button, would leave none for the seventh page. A page shown again catches up first.
pub fn follow(lang: lockstep_i18n::Lang) {
    #[cfg(feature = "hydrate")]
    {
        use leptos::prelude::*;
        let page = live::next_page();
        // After the page's DOM exists: on hydration it is there already; after a link, it is
        // once this effect runs.
        Effect::new(move |_| live::start(page, lang));
        // Only this page's: the next page may have started before this one is cleaned up.
        on_cleanup(move || live::stop(page));
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = lang;
}

/// A "report a problem" link on a lesson: fills the report form in with the section being
/// read and, from a quiz question, the question, and opens it; the link then goes to it.
pub fn report_here(ev: leptos::ev::MouseEvent) {
    #[cfg(feature = "hydrate")]
    live::report_here(ev);
    #[cfg(not(feature = "hydrate"))]
    let _ = ev;
}

/// Keeps `unread` at the learner's number of unread notifications: read when the page loads,
/// on each navigation (where it `follows_navigation`), whenever the comments on the page
/// change, and every minute.
pub fn watch_bell(unread: leptos::prelude::RwSignal<i64>, follows_navigation: bool) {
    #[cfg(feature = "hydrate")]
    {
        use leptos::prelude::*;
        live::bell_listeners(unread);
        if follows_navigation {
            let location = leptos_router::hooks::use_location();
            Effect::new(move |_| {
                location.pathname.track();
                live::read_bell(unread);
            });
        } else {
            live::read_bell(unread);
        }
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = (unread, follows_navigation);
}

#[cfg(feature = "hydrate")]
mod live {
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;
    use web_sys::{Element, EventSource, HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};

    fn part() -> Option<Element> {
        let selector = format!("section[data-part=\"{}\"]", crate::page::COMMENTS_PART);
        leptos::prelude::document().query_selector(&selector).ok().flatten()
    }

    /// The comments followed now: on which page (mount), where, and the open stream, if any.
    struct Followed {
        page: u64,
        place: String,
        lang: lockstep_i18n::Lang,
        stream: Option<Stream>,
    }

    /// An open stream and its listener, which lives as long as it.
    type Stream = (EventSource, Closure<dyn Fn(web_sys::MessageEvent)>);

    thread_local! {
        static FOLLOWED: std::cell::RefCell<Option<Followed>> = const { std::cell::RefCell::new(None) };
        static PAGES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
        static LISTENING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    }

    pub fn next_page() -> u64 {
        PAGES.with(|p| {
            p.set(p.get() + 1);
            p.get()
        })
    }

    pub fn start(page: u64, lang: lockstep_i18n::Lang) {
        listen_to_the_page();
        let Some(part) = part() else { return };
        let shown = part.query_selector("[data-role=comments]").ok().flatten();
        let place = match &shown {
            Some(comments) => comments.get_attribute("data-place"),
            // Rendered in the browser: the place is the page's, and the server has the rest.
            None => place_of_page(),
        };
        let Some(place) = place else { return };
        close_stream();
        FOLLOWED.with(|f| *f.borrow_mut() = Some(Followed { page, place, lang, stream: None }));
        if shown.is_some() {
            open_stream();
        } else {
            catch_up();
        }
    }

    pub fn stop(page: u64) {
        if FOLLOWED.with(|f| f.borrow().as_ref().is_some_and(|f| f.page == page)) {
            close_stream();
            FOLLOWED.with(|f| *f.borrow_mut() = None);
        }
    }

    /// Fetches the comments, then follows them again.
    fn catch_up() {
        let Some((place, lang)) =
            FOLLOWED.with(|f| f.borrow().as_ref().map(|f| (f.place.clone(), f.lang)))
        else {
            return;
        };
        wasm_bindgen_futures::spawn_local(async move {
            refresh(&place, lang).await;
            open_stream();
        });
    }

    fn visible() -> bool {
        leptos::prelude::document().visibility_state() == web_sys::VisibilityState::Visible
    }

    /// Opens the followed place's stream, from the version the page shows, unless one is open
    /// or the page is hidden.
    fn open_stream() {
        if !visible() {
            return;
        }
        FOLLOWED.with(|f| {
            let mut f = f.borrow_mut();
            let Some(followed) = f.as_mut().filter(|f| f.stream.is_none()) else { return };
            let Some(comments) =
                part().and_then(|p| p.query_selector("[data-role=comments]").ok().flatten())
            else {
                return;
            };
            let (Some(live), version) =
                (comments.get_attribute("data-live"), comments.get_attribute("data-version"))
            else {
                return;
            };
            let url = format!("{live}&version={}", version.unwrap_or_default());
            let Ok(source) = EventSource::new(&url) else { return };
            let (place, lang) = (followed.place.clone(), followed.lang);
            let on_change = Closure::<dyn Fn(web_sys::MessageEvent)>::new(move |_| {
                let place = place.clone();
                wasm_bindgen_futures::spawn_local(async move { refresh(&place, lang).await });
            });
            let _ = source
                .add_event_listener_with_callback("changed", on_change.as_ref().unchecked_ref());
            followed.stream = Some((source, on_change));
        });
    }

    fn close_stream() {
        FOLLOWED.with(|f| {
            if let Some((source, _)) = f.borrow_mut().as_mut().and_then(|f| f.stream.take()) {
                source.close();
            }
        });
    }

    /// Once per visit: the stream closes while the page is hidden (another tab, or kept for the
    /// Back button) and the page catches up when it is shown again.
    fn listen_to_the_page() {
        if LISTENING.with(|l| l.replace(true)) {
            return;
        }
        let on_visibility = Closure::<dyn Fn()>::new(|| {
            if visible() {
                catch_up();
            } else {
                close_stream();
            }
        });
        let doc = leptos::prelude::document();
        let _ = doc.add_event_listener_with_callback(
            "visibilitychange",
            on_visibility.as_ref().unchecked_ref(),
        );
        on_visibility.forget();
        let on_hide = Closure::<dyn Fn()>::new(close_stream);
        let on_show = Closure::<dyn Fn(web_sys::PageTransitionEvent)>::new(
            |e: web_sys::PageTransitionEvent| {
                if e.persisted() {
                    catch_up();
                }
            },
        );
        let window = leptos::prelude::window();
        let _ =
            window.add_event_listener_with_callback("pagehide", on_hide.as_ref().unchecked_ref());
        let _ =
            window.add_event_listener_with_callback("pageshow", on_show.as_ref().unchecked_ref());
        on_hide.forget();
        on_show.forget();
    }

    /// The place of the page the browser is on: a lesson or an exercise.
    fn place_of_page() -> Option<String> {
        let path = leptos::prelude::window().location().pathname().ok()?;
        let english = lockstep_routes::Lang::strip(&path).to_string();
        if let Some(slug) = lockstep_routes::lesson_slug(&english) {
            return Some(lockstep_routes::Place::Lesson(slug.to_string()).key());
        }
        let id = english.strip_prefix(&lockstep_routes::exercise(""))?;
        lockstep_routes::is_exercise_id(id)
            .then(|| lockstep_routes::Place::Exercise(id.to_string()).key())
    }

    pub fn report_here(ev: leptos::ev::MouseEvent) {
        let doc = leptos::prelude::document();
        let question = ev
            .current_target()
            .and_then(|t| t.dyn_into::<Element>().ok())
            .and_then(|link| link.get_attribute("data-question"));
        let lang = lockstep_routes::Lang::of_path(
            &leptos::prelude::window().location().pathname().unwrap_or_default(),
        );
        let ids = crate::page::section_ids(lang);
        let section = crate::page::reading(&ids).and_then(|i| ids.get(i).cloned());
        let find = |css: &str| doc.query_selector(css).ok().flatten();
        if let Some(select) =
            find("[data-role=report-section]").and_then(|e| e.dyn_into::<HtmlSelectElement>().ok())
        {
            select.set_value(section.as_deref().unwrap_or(""));
        }
        if let Some(input) =
            find("[data-role=report-question]").and_then(|e| e.dyn_into::<HtmlInputElement>().ok())
        {
            input.set_value(question.as_deref().unwrap_or(""));
        }
        if let Some(label) = find("[data-role=report-question-label]") {
            let words = &lockstep_i18n::t(lang).report;
            let text = question
                .as_deref()
                .and_then(|q| q.split_once('.'))
                .and_then(|(quiz, n)| Some((words.question)(quiz.parse().ok()?, n.parse().ok()?)));
            label.set_text_content(text.as_deref());
            let _ = if text.is_some() {
                label.remove_attribute("hidden")
            } else {
                label.set_attribute("hidden", "")
            };
        }
        if let Some(details) = find("details[data-role=report]") {
            let _ = details.set_attribute("open", "");
        }
    }

    /// The event the comments' refresh sends, which the bell listens for.
    const TALK_CHANGED: &str = "lockstep-talk";

    thread_local! {
        /// Whether a page of this visit showed a signed-in learner: visitors never ask.
        static SIGNED_IN: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    }

    pub fn read_bell(unread: leptos::prelude::RwSignal<i64>) {
        use leptos::prelude::Set;
        let panel = leptos::prelude::document().query_selector(".xp-synced").ok().flatten();
        if panel.is_some() {
            SIGNED_IN.with(|s| s.set(true));
        }
        if !SIGNED_IN.with(|s| s.get()) {
            return;
        }
        wasm_bindgen_futures::spawn_local(async move {
            let Some(text) = fetch_text(lockstep_routes::NOTIFICATIONS_API).await else { return };
            #[derive(serde::Deserialize)]
            struct Bell {
                unread: i64,
            }
            if let Ok(bell) = serde_json::from_str::<Bell>(&text) {
                unread.set(bell.unread);
            }
        });
    }

    pub fn bell_listeners(unread: leptos::prelude::RwSignal<i64>) {
        let window = leptos::prelude::window();
        let on_talk = Closure::<dyn Fn()>::new(move || read_bell(unread));
        let _ =
            window.add_event_listener_with_callback(TALK_CHANGED, on_talk.as_ref().unchecked_ref());
        let _ = window.set_interval_with_callback_and_timeout_and_arguments_0(
            on_talk.as_ref().unchecked_ref(),
            60_000,
        );
        on_talk.forget();
    }

    /// Replaces the part's HTML with the server's, keeping the text typed into its text areas
    /// and the replies and edits left open.
    async fn refresh(place: &str, lang: lockstep_i18n::Lang) {
        let url = format!(
            "{}?place={}&lang={}",
            lockstep_routes::COMMENTS_API,
            lockstep_routes::percent_encode(place, |_| false),
            lang.code()
        );
        let Some(html) = fetch_text(&url).await else { return };
        let Some(part) = part() else { return };
        let typed = typed(&part);
        // The server's render of this same request part (`lockstep_pages::talk`): every value in it
        // escaped, every comment's text sanitized there.
        part.set_inner_html(&html);
        if let Ok(event) = web_sys::Event::new(TALK_CHANGED) {
            let _ = leptos::prelude::window().dispatch_event(&event);
        }
        for (form, text, open) in typed {
            let selector = format!("form[data-form=\"{form}\"] textarea");
            let Some(area) = part
                .query_selector(&selector)
                .ok()
                .flatten()
                .and_then(|e| e.dyn_into::<HtmlTextAreaElement>().ok())
            else {
                continue;
            };
            area.set_value(&text);
            if open {
                if let Some(details) = area.closest("details").ok().flatten() {
                    let _ = details.set_attribute("open", "");
                }
            }
        }
    }

    /// (form's name, text, inside an open `<details>`) of every text area with text in it.
    fn typed(part: &Element) -> Vec<(String, String, bool)> {
        let mut typed = Vec::new();
        let Ok(areas) = part.query_selector_all("form[data-form] textarea") else { return typed };
        for i in 0..areas.length() {
            let Some(area) = areas.item(i).and_then(|n| n.dyn_into::<HtmlTextAreaElement>().ok())
            else {
                continue;
            };
            let form =
                area.closest("form").ok().flatten().and_then(|f| f.get_attribute("data-form"));
            let (Some(form), false) = (form, area.value().is_empty()) else { continue };
            // Form names are the server's ("new", "reply-12", "edit-13"): safe in a selector.
            if form.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-') {
                let open = area.closest("details[open]").ok().flatten().is_some();
                typed.push((form, area.value(), open));
            }
        }
        typed
    }

    async fn fetch_text(url: &str) -> Option<String> {
        let window = leptos::prelude::window();
        let response =
            wasm_bindgen_futures::JsFuture::from(window.fetch_with_str(url)).await.ok()?;
        let response: web_sys::Response = response.dyn_into().ok()?;
        if !response.ok() {
            return None;
        }
        let text = wasm_bindgen_futures::JsFuture::from(response.text().ok()?).await.ok()?;
        text.as_string()
    }
}
