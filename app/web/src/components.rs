//! Pieces shared by several pages.

use leptos::prelude::*;
use leptos_router::components::A;

use crate::model::{ProgressView, TocItem};
use lockstep_i18n::Lang;

#[component]
pub fn SiteHeader() -> impl IntoView {
    let lang = crate::page::use_lang();
    let t = lockstep_i18n::t(lang);
    let home = lang.path(lockstep_routes::HOME);
    let location = leptos_router::hooks::use_location();
    view! {
        <a class="skip-link" href="#main">{t.site.skip_to_content}</a>
        <header class="site-header">
            <A href=home.clone() attr:class="brand">
                <span class="brand-mark" aria-hidden="true">"⇄"</span>
                " Lockstep"
            </A>
            <nav aria-label=t.site.nav_label>
                <A href=home>{t.site.nav_course}</A>
                <A href=lang.path(lockstep_routes::XP)>{t.site.nav_xp}</A>
                <A href=lang.path(lockstep_routes::ACCOUNT)>{t.site.nav_account}</A>
            </nav>
            <Bell follows_navigation=true/>
            <form method="get" action=lang.path(lockstep_routes::SEARCH) role="search" class="header-search">
                <input type="search" name="q" aria-label=t.search.label placeholder=t.site.search_placeholder maxlength="200"/>
            </form>
            <nav class="language-switch" aria-label=t.site.language>
                {crate::page::languages()
                    .into_iter()
                    .filter(move |l| *l != lang)
                    .map(|to| {
                        let words = lockstep_i18n::t(to);
                        // A plain link through the server, which remembers the choice; the
                        // click handler adds the section being read (`switch_keeps_section`).
                        view! {
                            <a
                                href=move || lockstep_routes::language_switch(&location.pathname.get(), to)
                                hreflang=to.code()
                                lang=to.code()
                                rel="external"
                                data-role="language-switch"
                                on:click=move |ev| switch_keeps_section(ev, lang, to)
                            >
                                {words.site.language_name}
                            </a>
                        }
                    })
                    .collect_view()}
            </nav>
        </header>
    }
}

/// A form's choice of a section of the page (`name="section"`): the whole page, or one of
/// `sections` (id, title).
#[component]
pub fn SectionChoice(
    sections: Vec<(String, String)>,
    label: &'static str,
    whole_page: &'static str,
    /// `data-role`, by which the browser fills it in.
    role: &'static str,
    #[prop(optional)] class: Option<&'static str>,
    /// The section chosen when the form was refused.
    #[prop(optional_no_strip)]
    chosen: Option<String>,
) -> impl IntoView {
    let options = sections
        .into_iter()
        .map(|(id, title)| {
            let selected = chosen.as_ref() == Some(&id);
            view! { <option value=id selected=selected>{title}</option> }
        })
        .collect_view();
    view! {
        <label class=class>{label} " "
            <select name="section" data-role=role>
                <option value="">{whole_page}</option>
                {options}
            </select>
        </label>
    }
}

/// "Report a problem": a short form for the page's `place` (a lesson or an exercise), with the
/// page's sections to choose from, or about one `submission`'s verdict. Anyone may send one,
/// signed in or not. On a lesson, the links to it fill in the section being read, or a quiz
/// question (`talk_live::report_here`).
#[component]
pub fn ReportForm(
    place: String,
    #[prop(optional)] sections: Vec<(String, String)>,
    #[prop(optional)] submission: Option<i64>,
    /// Starts open (a verdict's page shows it folded under its own link).
    #[prop(optional)]
    open: bool,
    /// A report the server refused, given back as it was sent.
    #[prop(optional_no_strip)]
    refused: Option<crate::model::RefusedReport>,
) -> impl IntoView {
    let lang = crate::page::use_lang();
    let w = &lockstep_i18n::t(lang).report;
    let summary = if submission.is_some() { w.verdict } else { w.link };
    let refused = refused.unwrap_or_default();
    let open = open || !refused.body.is_empty();
    let chosen = refused.section.clone();
    let sections = (!sections.is_empty()).then(|| {
        view! { <SectionChoice sections label=w.section whole_page=w.whole_page role="report-section" chosen/> }
    });
    // Worded as the browser words it when a question's link fills the form in.
    let question_label = refused
        .question
        .as_deref()
        .and_then(|q| q.split_once('.'))
        .and_then(|(quiz, n)| Some((w.question)(quiz.parse().ok()?, n.parse().ok()?)));
    let no_question = question_label.is_none();
    view! {
        <div class="report" id="report">
            <p class="muted">{w.lead}</p>
            <details data-role="report" open=open>
                <summary>{summary}</summary>
                <form method="post" action=lang.path(lockstep_routes::REPORTS) data-form="report">
                    <input type="hidden" name="place" value=place/>
                    <input type="hidden" name="submission" value=submission.map(|s| s.to_string()).unwrap_or_default()/>
                    <input type="hidden" name="question" value=refused.question.unwrap_or_default() data-role="report-question"/>
                    <p class="muted" data-role="report-question-label" hidden=no_question>{question_label}</p>
                    {sections}
                    <TextArea text=refused.body name="body" rows=3 required=true
                              maxlength=crate::model::MAX_REPORT_CHARS label=w.what placeholder=w.what/>
                    <button type="submit" class="secondary">{w.send}</button>
                </form>
            </details>
        </div>
    }
    // Erased: it sits inside deep views (a verdict), whose types would grow past the limit.
    .into_any()
}

/// The bell: the number of unread notifications, kept current in the browser
/// (`talk_live::watch_bell`); the server renders it without a number, as the page is the same
/// for everyone. Without JavaScript it is a link to the notifications page, which lists them.
#[component]
pub(crate) fn Bell(
    /// Reads the count again on each navigation: in the application, not on a page that
    /// hydrates only its islands, which has no router and whose links load a new page.
    #[prop(optional)]
    follows_navigation: bool,
) -> impl IntoView {
    let lang = crate::page::use_lang();
    let w = &lockstep_i18n::t(lang).notifications;
    let unread = RwSignal::new(0i64);
    crate::talk_live::watch_bell(unread, follows_navigation);
    view! {
        <a class="bell" data-role="bell" href=lang.path(lockstep_routes::NOTIFICATIONS) aria-label=move || (w.bell)(unread.get())>
            // Drawn, not an emoji: a browser without an emoji font showed a box.
            <svg class="bell-icon" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
                <path d="M12 3a6 6 0 0 0-6 6v3.6L4.3 16a1 1 0 0 0 .9 1.5h13.6a1 1 0 0 0 .9-1.5L18 12.6V9a6 6 0 0 0-6-6Z M9.5 19a2.5 2.5 0 0 0 5 0" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linejoin="round"/>
            </svg>
            <span class="bell-count" data-role="bell-count" hidden=move || unread.get() == 0>{move || unread.get().to_string()}</span>
        </a>
    }
}

/// On a lesson page, the switcher goes to the section being read: the n-th heading of the page's
/// edition stands for the n-th of the other ([`crate::page::section_ids`]).
pub(crate) fn switch_keeps_section(ev: leptos::ev::MouseEvent, from: Lang, to: Lang) {
    #[cfg(feature = "hydrate")]
    {
        use wasm_bindgen::JsCast;
        let Some(link) = ev.current_target().and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        else {
            return;
        };
        let (mine, other) = (crate::page::section_ids(from), crate::page::section_ids(to));
        if let (Some(i), Some(href)) = (crate::page::reading(&mine), link.get_attribute("href")) {
            if let Some(target) = other.get(i) {
                let _ = link.set_attribute(
                    "href",
                    &format!("{}#{target}", href.split('#').next().unwrap_or("")),
                );
            }
        }
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = (ev, from, to);
}

#[component]
pub fn Tags(tags: Vec<String>) -> impl IntoView {
    view! {
        <ul class="tags" aria-label=crate::page::use_t().course.tags>
            {tags.into_iter().map(|t| view! { <li class="tag">{t}</li> }).collect_view()}
        </ul>
    }
}

/// The in-page table of contents. Readable without JavaScript; once hydrated it can be folded
/// away, which is also how browser tests prove hydration.
#[component]
pub fn Toc(entries: Vec<TocItem>) -> impl IntoView {
    let (open, set_open) = signal(true);
    let t = crate::page::use_t();
    view! {
        <nav class="toc" aria-labelledby="toc-heading">
            <div class="toc-head">
                <h2 id="toc-heading">{t.lesson.on_this_page}</h2>
                <button
                    type="button"
                    class="toc-toggle"
                    aria-controls="toc-list"
                    aria-expanded=move || open.get().to_string()
                    on:click=move |_| set_open.update(|o| *o = !*o)
                >
                    {move || if open.get() { t.lesson.hide } else { t.lesson.show }}
                </button>
            </div>
            <ol id="toc-list" class="toc-list" hidden=move || !open.get()>
                {toc_items(entries)}
            </ol>
        </nav>
    }
}

/// The contents' entries, one link each, as both contents lists show them.
fn toc_items(entries: Vec<TocItem>) -> impl IntoView {
    entries
        .into_iter()
        .map(|e| {
            view! {
                <li class=format!("toc-l{}", e.level)>
                    <a href=format!("#{}", e.id)>{e.title}</a>
                </li>
            }
        })
        .collect_view()
}

/// The contents as a phone shows them: folded under the lesson's header, opened by a tap (a
/// native `<details>`, so it works before and without JavaScript). Wide screens show
/// [`Toc`] beside the lesson instead; CSS shows one or the other.
#[component]
pub fn TocFolded(entries: Vec<TocItem>) -> impl IntoView {
    view! {
        <details class="toc toc-folded" data-role="toc-folded">
            <summary>{crate::page::use_t().lesson.on_this_page}</summary>
            <ol class="toc-list">{toc_items(entries)}</ol>
        </details>
    }
}

/// Clicks inside rendered markdown: the copy buttons on code blocks. One listener on the
/// article, because the buttons are part of server-rendered HTML, not of the view tree.
pub fn on_lesson_click(ev: leptos::ev::MouseEvent) {
    #[cfg(feature = "hydrate")]
    copy_code(ev);
    #[cfg(not(feature = "hydrate"))]
    let _ = ev;
}

#[cfg(feature = "hydrate")]
fn copy_code(ev: leptos::ev::MouseEvent) {
    use wasm_bindgen::JsCast;

    let Some(target) = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else {
        return;
    };
    let Ok(Some(button)) = target.closest(".copy-button") else {
        return;
    };
    let code = button
        .closest(".code-block")
        .ok()
        .flatten()
        .and_then(|figure| figure.query_selector("code").ok().flatten())
        .and_then(|code| code.text_content())
        .unwrap_or_default();
    let promise = window().navigator().clipboard().write_text(&code);
    wasm_bindgen_futures::spawn_local(async move {
        let copied = wasm_bindgen_futures::JsFuture::from(promise).await.is_ok();
        let words = &crate::page::use_t().markdown;
        button.set_text_content(Some(if copied { words.copied } else { words.copy_failed }));
    });
}

/// The learner's level, XP and achievements, and the bar to the next level: on every page.
/// It follows `progress`, so a page can update it without reloading.
#[component]
pub fn ProgressPanel(#[prop(into)] progress: Signal<ProgressView>) -> impl IntoView {
    let p = move || progress.get();
    let lang = crate::page::use_lang();
    let w = &lockstep_i18n::t(lang).progress;
    view! {
        <section class="xp-panel" aria-label=w.panel_label data-role="progress">
            <p class="xp-level">
                <strong data-role="level">{move || (w.level)(p().level)}</strong>
                " · "
                <span data-role="level-name">{move || p().level_name(lang)}</span>
            </p>
            <ul class="xp-stats">
                <li data-role="xp">{move || (w.xp)(p().xp)}</li>
                <li data-role="lessons">{move || p().lessons_text(lang)}</li>
                <li data-role="achievements">
                    {move || (w.achievements)(p().achievements, p().achievements_total)}
                </li>
            </ul>
            <div
                class="bar"
                role="progressbar"
                aria-label=w.bar_label
                aria-valuemin="0"
                aria-valuemax="100"
                aria-valuenow=move || p().level_percent()
            >
                <span style=move || format!("width:{}%", p().level_percent())></span>
            </div>
            <p class="xp-next muted" data-role="to-go">{move || p().bar_text(lang)}</p>
            {move || match p().account {
                None => view! {
                    <p class="xp-local muted" data-role="sync">
                        {w.local_only_before} <a href=lang.path(lockstep_routes::ACCOUNT_SIGN_IN)>{w.sign_in}</a> {w.local_only_after}
                    </p>
                }
                    .into_any(),
                Some(email) => view! {
                    <p class="xp-synced muted" data-role="sync">
                        {w.signed_in_before} <a href=lang.path(lockstep_routes::ACCOUNT)>{email}</a> {w.signed_in_after}
                    </p>
                }
                    .into_any(),
            }}
            <p class="xp-rules"><a href=lang.path(lockstep_routes::XP)>{w.how_xp_works}</a></p>
        </section>
    }
}

/// A short message about XP just earned, announced to screen readers, gone after a while.
#[component]
pub fn Toast(message: RwSignal<Option<String>>) -> impl IntoView {
    Effect::new(move |_| {
        if message.get().is_some() {
            set_timeout(move || message.set(None), std::time::Duration::from_secs(6));
        }
    });
    view! {
        <div class="toast-region" role="status" aria-live="polite" data-role="toast">
            {move || message.get().map(|m| view! { <p class="toast">{m}</p> })}
        </div>
    }
}

/// A text area holding `text` (a learner's script). Every `<textarea>` of the site is this
/// component (`cargo xtask lint` checks): Leptos writes a text area's children into the HTML as
/// they are, as it does a `<script>`'s, so `</textarea><script>…` in the text would close the
/// element and run. The server writes the text escaped, which the browser reads back as the
/// same text; a page built in the browser sets it as a text node, which needs no escaping.
#[component]
pub fn TextArea(
    text: String,
    name: &'static str,
    rows: u32,
    #[prop(optional)] id: Option<&'static str>,
    /// `data-editor`: the language of the editor that upgrades it (`app/web/editor`). A text
    /// area without one holds prose, which the browser may spell-check.
    #[prop(optional)]
    editor: Option<&'static str>,
    #[prop(optional)] required: bool,
    #[prop(optional)] maxlength: Option<usize>,
    #[prop(optional)] placeholder: Option<&'static str>,
    /// `aria-label`, for a text area without a visible label.
    #[prop(optional)]
    label: Option<&'static str>,
) -> impl IntoView {
    #[cfg(feature = "ssr")]
    let text = html_escape::encode_text(&text).into_owned();
    let code = editor.is_some();
    view! {
        <textarea id=id name=name rows=rows spellcheck=(!code).to_string()
                  autocomplete=code.then_some("off") data-editor=editor required=required
                  maxlength=maxlength.map(|n| n.to_string()) placeholder=placeholder
                  aria-label=label>{text}</textarea>
    }
}
