use leptos::prelude::*;
use leptos::server_fn::ServerFn;
use leptos_meta::Title;
use leptos_router::hooks::{use_params_map, use_query_map};

use crate::api::{get_lesson, get_lesson_learner, CompleteLesson, ExploreSimulation, ResetLesson};
use crate::clock::Time;
use crate::components::{on_lesson_click, ProgressPanel, Tags, Toast, Toc, TocFolded};
use crate::model::{BodyBlock, LessonLearner, LessonLookup, LessonView, ProgressView, QuizBlock};
use crate::quiz::QuizView;
use crate::resource::resource;
use crate::sims::SimulationView;

#[component]
pub fn LessonPage() -> impl IntoView {
    let params = use_params_map();
    // `?as=learner`: an instructor's preview of a draft as learners will get it.
    let query = use_query_map();
    let as_learner = move || query.read().get("as").is_some_and(|v| v == "learner");
    let complete = ServerAction::<CompleteLesson>::new();
    let reset = ServerAction::<ResetLesson>::new();
    let slug = move || params.read().get("slug").unwrap_or_default();
    let lang = crate::page::use_lang();
    let t = lockstep_i18n::t(lang);
    let page = resource(
        move || (slug(), lang, as_learner()),
        |(slug, lang, as_learner)| get_lesson(slug, lang, as_learner),
    );
    // The learner's part is fetched apart from the lesson: the server renders the lesson once
    // for everyone and this per request (`super::template`). Completing or resetting the
    // lesson updates it in place (`Lesson`): fetching it again here would render the whole
    // lesson anew, disposing its simulations under their own running timers and handlers.
    let learner = resource(move || (slug(), lang), |(slug, lang)| get_lesson_learner(slug, lang));
    view! {
        <Suspense fallback=move || view! { <p class="loading">{t.lesson.loading}</p> }>
            {move || Suspend::new(async move {
                let (page, learner) = (page.await, learner.await);
                match (page, learner) {
                    (Ok(LessonLookup::Found(lesson)), Ok(learner)) => {
                        view! { <Lesson lesson learner complete reset/> }.into_any()
                    }
                    (Ok(LessonLookup::Broken { title, problems }), _) => {
                        super::set_status(500);
                        view! { <BrokenLesson slug=slug() title problems/> }.into_any()
                    }
                    (Ok(LessonLookup::Missing), _) => view! { <super::NotFound/> }.into_any(),
                    (Err(e), _) | (_, Err(e)) => {
                        super::set_status(500);
                        view! { <p class="error">{t.lesson.load_failed} {e.to_string()}</p> }.into_any()
                    }
                }
            })}
        </Suspense>
    }
}

/// The parts of a lesson page that show the learner reading it. Everything else on the page is
/// the same for every learner; the server renders it once per course version with a
/// placeholder for each part, and fills them per request (`super::template`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LearnerPart {
    /// The progress panel and the toast, in the lesson's header.
    Progress,
    /// A quiz, which shows the review of the learner's last attempt.
    Quiz(u32),
    /// "Mark lesson complete" or "You completed this lesson", and the reset.
    Completion,
}

// Only the server renders placeholders and reads them back.
#[cfg(feature = "ssr")]
impl LearnerPart {
    /// Its name in the placeholder, `<template data-slot="NAME">`.
    pub fn name(self) -> String {
        match self {
            LearnerPart::Progress => "progress".into(),
            LearnerPart::Quiz(i) => format!("quiz-{i}"),
            LearnerPart::Completion => "completion".into(),
        }
    }

    pub fn from_name(name: &str) -> Option<LearnerPart> {
        match name {
            "progress" => Some(LearnerPart::Progress),
            "completion" => Some(LearnerPart::Completion),
            _ => name.strip_prefix("quiz-")?.parse().ok().map(LearnerPart::Quiz),
        }
    }
}

/// What the learner's parts are drawn from: their state on this page and the actions that
/// change it.
#[derive(Clone)]
pub struct LearnerState {
    pub learner: RwSignal<LessonLearner>,
    pub progress: RwSignal<ProgressView>,
    pub toast: RwSignal<Option<String>>,
    pub complete: ServerAction<CompleteLesson>,
    pub reset: ServerAction<ResetLesson>,
}

impl LearnerState {
    pub fn new(
        learner: LessonLearner,
        complete: ServerAction<CompleteLesson>,
        reset: ServerAction<ResetLesson>,
    ) -> LearnerState {
        LearnerState {
            progress: RwSignal::new(learner.progress.clone()),
            toast: RwSignal::new(learner.progress.notice.clone()),
            learner: RwSignal::new(learner),
            complete,
            reset,
        }
    }
}

/// What the learner's parts show of the lesson, the same for every learner: its slug, its XP
/// and its quizzes. The server writes it into the page (`data-role="lesson-parts"`), for the
/// browser's [`islands`], which have no other copy of the lesson.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct LessonParts {
    pub slug: String,
    pub xp: u32,
    pub quizzes: Vec<QuizBlock>,
}

impl LessonParts {
    pub fn of(lesson: &LessonView) -> LessonParts {
        let quizzes = lesson
            .body
            .iter()
            .filter_map(|b| if let BodyBlock::Quiz(q) = b { Some(q.clone()) } else { None })
            .collect();
        LessonParts { slug: lesson.slug.clone(), xp: lesson.xp, quizzes }
    }
}

/// One of the learner's parts of the lesson page. The page, the server's per-request rendering
/// and the browser's islands all draw them here, so they cannot differ.
pub fn learner_part(part: LearnerPart, lesson: &LessonParts, state: &LearnerState) -> AnyView {
    match part {
        LearnerPart::Progress => {
            // The learner's state as the server had it, for the islands (only the server
            // writes it: the application has it from the page's data).
            #[cfg(feature = "ssr")]
            let data = serde_json::to_string(&state.learner.get_untracked()).ok();
            #[cfg(not(feature = "ssr"))]
            let data = None::<String>;
            view! {
                <ProgressPanel progress=state.progress/>
                <Toast message=state.toast/>
                <div hidden data-role="learner" data-learner=data></div>
            }
            .into_any()
        }
        LearnerPart::Quiz(index) => {
            let quiz = lesson.quizzes.iter().find(|q| q.index == index).cloned();
            let learner = state.learner;
            // Drawn again only when the learner's side changes (a reset takes the review away), so choices
            // being made in it survive the lesson being completed.
            let mine = Memo::new(move |_| {
                learner.with(|l| l.quizzes.get(index as usize).cloned().unwrap_or_default())
            });
            quiz.map(|quiz| {
                view! { {move || view! { <QuizView quiz=quiz.clone() learner=mine.get()/> }} }
            })
            .into_any()
        }
        LearnerPart::Completion => {
            let (slug, xp) = (lesson.slug.clone(), lesson.xp);
            let reset_slug = slug.clone();
            let (complete, reset, learner) = (state.complete, state.reset, state.learner);
            let w = &crate::page::use_t().lesson;
            let done = move || learner.with(|l| l.completed);
            let has_progress = move || learner.with(|l| l.has_progress);
            view! {
                <section class="lesson-complete" aria-label=w.progress_label>
                    {move || if done() {
                        view! { <p class="done">{(w.completed)(xp)}</p> }.into_any()
                    } else {
                        let (slug, lang) = (slug.clone(), crate::page::use_lang());
                        view! {
                            <form action=CompleteLesson::url() method="post" on:submit=post(complete, move || CompleteLesson { slug: slug.clone(), lang })>
                                <input type="hidden" name="slug" value=slug.clone()/>
                                <input type="hidden" name="lang" value=lang.code()/>
                                <button type="submit" class="primary">{(w.mark_complete)(xp)}</button>
                            </form>
                        }
                            .into_any()
                    }}
                    {move || has_progress().then(|| {
                        let slug = reset_slug.clone();
                        // Destructive, so it asks first: a native disclosure (no JavaScript
                        // needed) holds what a reset takes back and the button that does it.
                        view! {
                            <details class="reset-lesson" data-role="reset">
                                <summary>{w.reset_summary}</summary>
                                <p class="muted">{w.reset_explain}</p>
                                <form action=ResetLesson::url() method="post" on:submit=post(reset, move || ResetLesson { slug: slug.clone() })>
                                    <input type="hidden" name="slug" value=slug.clone()/>
                                    <button type="submit" class="danger" data-role="reset-confirm">{w.reset_confirm}</button>
                                </form>
                            </details>
                        }
                    })}
                </section>
            }
            .into_any()
        }
    }
}

/// What a lesson's form does in the browser: it dispatches `action` with `input`, the
/// arguments the page already knows. Without JavaScript the same form is a plain post to the
/// server function, which sends the learner back to the lesson. Not Leptos's `ActionForm`,
/// which reads the arguments back from the form's fields: that needs a parser of form data in
/// the bundle for two forms whose fields the page wrote itself.
fn post<S>(
    action: ServerAction<S>,
    input: impl Fn() -> S + 'static,
) -> impl FnMut(leptos::ev::SubmitEvent) + 'static
where
    S: ServerFn + Clone + Send + Sync + 'static,
    S::Output: Send + Sync + 'static,
    S::Error: Send + Sync + 'static,
{
    move |ev| {
        if !ev.default_prevented() {
            ev.prevent_default();
            action.dispatch(input());
        }
    }
}

/// A learner's part, or its placeholder while the server renders the page's template.
fn slot(part: LearnerPart, lesson: &LessonParts, state: &LearnerState) -> AnyView {
    #[cfg(feature = "ssr")]
    if super::template::rendering_template() {
        return view! { <template data-slot=part.name()></template> }.into_any();
    }
    learner_part(part, lesson, state)
}

/// A per-request part's place. Its content is the server's, written into the page it sends
/// (`ssr::request_parts`); the page itself renders the element empty, and hydration leaves what
/// the server wrote inside it alone (an `inner_html` is not set again on hydration).
pub(crate) fn request_part(name: &str) -> AnyView {
    #[cfg(feature = "ssr")]
    if super::template::rendering_template() {
        let slot = format!("{}{name}", crate::ssr::request_parts::SLOT_PREFIX);
        return view! { <template data-slot=slot></template> }.into_any();
    }
    view! { <section class="request-part" data-part=name.to_string() inner_html=""></section> }
        .into_any()
}

#[component]
fn Lesson(
    lesson: LessonView,
    learner: LessonLearner,
    complete: ServerAction<CompleteLesson>,
    reset: ServerAction<ResetLesson>,
) -> impl IntoView {
    let state = LearnerState::new(learner, complete, reset);
    crate::talk_live::follow(crate::page::use_lang());
    // The router scrolls to a link's section when its navigation completes, before the lesson
    // it loads on the way is on the page: a verdict's "read the section" opened the lesson at
    // its top. Once the lesson is there, its section is scrolled to.
    Effect::new(move |_| scroll_to_fragment());
    let explore = ServerAction::<ExploreSimulation>::new();
    follow_learner(&state, explore, lesson.slug.clone(), crate::page::use_lang());
    let parts = LessonParts::of(&lesson);
    let header = slot(LearnerPart::Progress, &parts, &state);
    let completion = slot(LearnerPart::Completion, &parts, &state);
    let mut simulations = 0u32;
    let body = lesson
        .body
        .iter()
        .map(|block| match block {
            BodyBlock::Html(html) => {
                view! { <div class="prose" inner_html=html.clone()></div> }.into_any()
            }
            BodyBlock::Simulation(sim) => {
                let (slug, index) = (lesson.slug.clone(), simulations);
                simulations += 1;
                let explored = Callback::new(move |()| {
                    explore.dispatch(ExploreSimulation { slug: slug.clone(), index });
                });
                view! { <SimulationView sim=sim.clone() explored/> }.into_any()
            }
            BodyBlock::Quiz(quiz) => slot(LearnerPart::Quiz(quiz.index), &parts, &state),
        })
        .collect_view();
    // After the completion, in the same child of the article: a page without request parts is
    // byte for byte what it was before they existed (an empty list would leave a marker).
    let completion = if lesson.request_parts.is_empty() {
        completion
    } else {
        let requests = lesson.request_parts.iter().map(|name| request_part(name)).collect_view();
        view! { {completion} {requests} }.into_any()
    };
    let LessonView {
        position,
        total,
        title,
        minutes,
        tags,
        summary,
        toc,
        prev,
        next,
        untranslated,
        sections,
        unpublished,
        slug,
        course,
        ..
    } = lesson;
    let lang = crate::page::use_lang();
    let w = &lockstep_i18n::t(lang).lesson;
    // What is in another language than the page says so, for screen readers and search engines.
    let written_in = untranslated.map(lockstep_i18n::Lang::code);
    // Each language's contents ids, in the same order, for the language switcher
    // (`components::SiteHeader`): one list per language, `data-lang="ko" data-ids="…"`.
    let section_ids = sections
        .iter()
        .map(|(l, ids)| {
            view! { <div hidden data-role="section-ids" data-lang=l.code() data-ids=ids.join(" ")></div> }
        })
        .collect_view();
    // What the islands need of the lesson ([`LessonParts`]); only the server writes it.
    #[cfg(feature = "ssr")]
    let parts = serde_json::to_string(&parts).ok();
    #[cfg(not(feature = "ssr"))]
    let parts = None::<String>;
    let section_ids = view! {
        {section_ids}
        <div hidden data-role="lesson-parts" data-parts=parts></div>
    };
    view! {
        <Title text=title.clone()/>
        <div class="lesson-layout">
            <article class="lesson" on:click=on_lesson_click>
                <header class="lesson-header">
                    <p class="eyebrow">
                        {course.map(|c| view! {
                            <a class="lesson-course" href=lang.path(&lockstep_routes::course(&c.slug))>{c.title}</a>
                            " · "
                        })}
                        <span class="lesson-position">{(w.position)(position, total)}</span>
                        " · " {(w.minutes)(minutes)}
                    </p>
                    <h1 lang=written_in>{title}</h1>
                    {untranslated.map(|written_in| view! { <p class="notice" data-role="untranslated" lang=lang.code()>{(w.not_translated)(written_in)}</p> })}
                    {unpublished.map(|u| unpublished_banner(&u, &slug, lang))}
                    <p class="lede" lang=written_in>{summary}</p>
                    <Tags tags/>
                    {header}
                </header>
                {section_ids}
                <TocFolded entries=toc.clone()/>
                <div class="lesson-body" lang=written_in>{body}</div>
                {completion}
                <nav class="prev-next" aria-label=w.prev_next>
                    {prev.map(|p| view! { <a class="prev" rel="prev" href=lang.path(&lockstep_routes::lesson(&p.slug))>"← " {p.title}</a> })}
                    {next.map(|n| view! { <a class="next" rel="next" href=lang.path(&lockstep_routes::lesson(&n.slug))>{n.title} " →"</a> })}
                </nav>
            </article>
            <aside class="lesson-aside">
                <Toc entries=toc/>
                <p><a href="#report" class="report-link" data-role="report-link" on:click=crate::talk_live::report_here>{crate::page::use_t().report.link}</a></p>
            </aside>
        </div>
    }
}

/// Keeps the learner's parts up to date without reloading the lesson, which would reset every
/// simulation on it: exploring a simulation updates the panel and says what it earned; after
/// "Mark lesson complete" or a reset, the learner's part is read again and updated in place
/// (the panel, the toast with what it earned, the completion and the quiz reviews).
fn follow_learner(
    state: &LearnerState,
    explore: ServerAction<ExploreSimulation>,
    slug: String,
    lang: lockstep_i18n::Lang,
) {
    let (progress, toast, learner) = (state.progress, state.toast, state.learner);
    let (complete, reset) = (state.complete, state.reset);
    Effect::new(move |_| {
        if let Some(Ok(p)) = explore.value().get() {
            toast.set(p.message(lang));
            progress.set(p.progress);
        }
    });
    Effect::new(move |before: Option<(usize, usize)>| {
        let now = (complete.version().get(), reset.version().get());
        if before.is_some_and(|b| b != now) {
            let slug = slug.clone();
            leptos::task::spawn_local(async move {
                if let Ok(fresh) = get_lesson_learner(slug, lang).await {
                    // The learner may have left the lesson meanwhile: then nothing is set.
                    let _ = progress.try_set(fresh.progress.clone());
                    let _ = toast.try_set(fresh.progress.notice.clone());
                    let _ = learner.try_set(fresh);
                }
            });
        }
        now
    });
}

/// While an instructor reads a draft, the page follows its file, and reloads once it is saved
/// again. `shown`: the version the page shows; a page without one (a broken lesson) takes the
/// first it is told. Anyone else is told nothing, and the page stops asking.
fn follow_draft(slug: String, shown: Option<String>) {
    #[cfg(feature = "hydrate")]
    {
        use leptos::prelude::*;
        let shown = StoredValue::new(shown);
        // Asking now, or told nothing (not an instructor): no request goes.
        let (asking, quiet) = (StoredValue::new(false), StoredValue::new(false));
        let handle = set_interval_with_handle(
            move || {
                if asking.get_value() || quiet.get_value() {
                    return;
                }
                asking.set_value(true);
                let slug = slug.clone();
                leptos::task::spawn_local(async move {
                    let now = crate::api::lesson_version(slug).await;
                    let _ = asking.try_set_value(false);
                    match (now, shown.try_get_value().flatten()) {
                        (Ok(Some(now)), Some(shown)) if now != shown => {
                            let _ = window().location().reload();
                        }
                        (Ok(Some(now)), None) => {
                            let _ = shown.try_set_value(Some(now));
                        }
                        (Ok(None), _) => {
                            let _ = quiet.try_set_value(true);
                        }
                        _ => {}
                    }
                });
            },
            std::time::Duration::from_secs(1),
        );
        if let Ok(handle) = handle {
            on_cleanup(move || handle.clear());
        }
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = (slug, shown);
}

/// Scrolls to the element the address's fragment names. The lesson's body is written into the
/// page a moment after this component is made, and the router's own scroll (to the top, when
/// it found no such element) may come after that: so it looks again over the next two seconds,
/// each time the section is not where the reader would see it, while the address still names
/// it.
fn scroll_to_fragment() {
    #[cfg(feature = "hydrate")]
    {
        let hash = window().location().hash().unwrap_or_default();
        let Some(id) = hash.strip_prefix('#').filter(|id| !id.is_empty()) else { return };
        let id = lockstep_routes::percent_decode(id);
        for delay in [0, 50, 150, 300, 600, 1000, 2000] {
            let (id, hash) = (id.clone(), hash.clone());
            set_timeout(
                move || {
                    if window().location().hash().unwrap_or_default() != hash {
                        return;
                    }
                    let Some(el) = document().get_element_by_id(&id) else { return };
                    let top = el.get_bounding_client_rect().top();
                    let height = window().inner_height().ok().and_then(|h| h.as_f64());
                    if top < 0.0 || height.is_some_and(|h| top > h / 2.0) {
                        el.scroll_into_view();
                    }
                },
                std::time::Duration::from_millis(delay),
            );
        }
    }
}

/// What an instructor reads above a lesson learners do not see yet, or above its preview.
fn unpublished_banner(
    u: &crate::model::Unpublished,
    slug: &str,
    lang: lockstep_i18n::Lang,
) -> AnyView {
    let w = &lockstep_i18n::t(lang).lesson;
    let page = lang.path(&lockstep_routes::lesson(slug));
    follow_draft(slug.to_string(), Some(u.version.clone()));
    if u.preview {
        return view! {
            <p class="notice preview-bar" data-role="preview" role="status" data-version=u.version.clone()>
                {w.previewing} " " <a href=page>{w.back_to_draft}</a>
            </p>
        }
        .into_any();
    }
    let says = match u.scheduled.clone() {
        None => view! { {w.draft} }.into_any(),
        Some(at) => view! { {w.scheduled[0]} <Time moment=at/> {w.scheduled[1]} }.into_any(),
    };
    view! {
        <p class="notice draft-banner" data-role="draft" role="status" data-version=u.version.clone()>
            <strong>{says}</strong> " " <a href=format!("{page}?as=learner")>{w.preview_as_learner}</a>
        </p>
    }
    .into_any()
}

#[component]
fn BrokenLesson(slug: String, title: String, problems: Vec<String>) -> impl IntoView {
    // An instructor fixing a draft sees it the moment it is saved right.
    follow_draft(slug.clone(), None);
    let lang = crate::page::use_lang();
    let w = &lockstep_i18n::t(lang).lesson;
    view! {
        <Title text=title.clone()/>
        <section class="message-page" data-role="broken-lesson" data-slug=slug>
            <h1>{title}</h1>
            <p>{w.broken}</p>
            <p>{w.broken_for_instructor_before} <code>"lessons check"</code> {w.broken_for_instructor_after}</p>
            <ul class="problems">
                {problems.into_iter().map(|p| view! { <li><code>{p}</code></li> }).collect_view()}
            </ul>
            <p><a href=lang.path(lockstep_routes::HOME)>{w.back_to_course}</a></p>
        </section>
    }
}

/// A lesson page as the server sent it, made interactive where it reacts
/// ([`crate::page::hydrates_only_islands`]): the progress panel and its toast, each quiz, the
/// completion, each simulation (whose code loads when it comes near, as in the application),
/// the contents' toggle, and the listeners the application's view has on the rest. The islands
/// share the learner's state as the application's page does, from the data the server wrote
/// into the page ([`LessonParts`], and the learner's, `data-role="learner"`).
///
/// In a bundle of its own, the lessons' (`lockstep-lesson`): in the site's islands bundle, the
/// site's pages were 70 kB (Brotli) larger, and as a part of that bundle loaded after its main
/// module, the two with what they share were 20 kB more than this one bundle.
#[cfg(feature = "hydrate")]
pub(crate) mod islands {
    use leptos::prelude::*;
    use web_sys::Element;

    use super::{
        follow_draft, follow_learner, learner_part, LearnerPart, LearnerState, LessonParts,
    };
    use crate::api::{CompleteLesson, ExploreSimulation, ResetLesson};
    use crate::components::{ProgressPanel, Toast, Toc};
    use crate::islands::{all, elements, island_at, listen};
    use crate::model::{LessonLearner, TocItem};
    use crate::sims::{Embedded, SimulationView};
    use lockstep_i18n::Lang;

    /// Hydrates the lesson's islands, its toast among them; a lesson that does not read has
    /// only its instructor's reload.
    pub fn hydrate(lang: Lang) {
        let _ = lessons_islands(lang);
    }

    fn lessons_islands(lang: Lang) -> Option<()> {
        let doc = document();
        let attr = |selector: &str, name: &str| {
            doc.query_selector(selector).ok().flatten().and_then(|e| e.get_attribute(name))
        };
        if let Some(slug) = attr("[data-role=broken-lesson]", "data-slug") {
            follow_draft(slug, None);
        }
        let parts: LessonParts =
            serde_json::from_slice(attr("[data-role=lesson-parts]", "data-parts")?.as_bytes())
                .map_err(|e| leptos::logging::error!("the lesson's parts do not read: {e}"))
                .ok()?;
        if let Some(version) = attr("[data-role=draft], [data-role=preview]", "data-version") {
            follow_draft(parts.slug.clone(), Some(version));
        }
        let learner: LessonLearner = attr("[data-role=learner]", "data-learner")
            // From bytes, as server functions read their answers (`crate::resource`): one
            // copy of the reading code.
            .and_then(|json| serde_json::from_slice(json.as_bytes()).ok())
            .unwrap_or_default();
        let state = LearnerState::new(
            learner,
            ServerAction::<CompleteLesson>::new(),
            ServerAction::<ResetLesson>::new(),
        );
        let explore = ServerAction::<ExploreSimulation>::new();
        follow_learner(&state, explore, parts.slug.clone(), lang);
        crate::talk_live::follow(lang);

        let progress = state.progress;
        for panel in all("[data-role=progress]") {
            island_at(panel, move |_| view! { <ProgressPanel progress/> });
        }
        let parts = std::rc::Rc::new(parts);
        for quiz in all("section.quiz") {
            let Some(index) = quiz.id().strip_prefix("quiz-").and_then(|i| i.parse().ok()) else {
                continue;
            };
            let (parts, state) = (parts.clone(), state.clone());
            island_at(quiz, move |_| learner_part(LearnerPart::Quiz(index), &parts, &state));
        }
        for completion in all("section.lesson-complete") {
            let (parts, state) = (parts.clone(), state.clone());
            island_at(completion, move |_| learner_part(LearnerPart::Completion, &parts, &state));
        }
        for (index, sim) in (0u32..).zip(all("section.sim")) {
            let (name, params) = (sim.get_attribute("data-sim"), sim.get_attribute("data-params"));
            let (Some(name), Some(params)) = (name, params) else { continue };
            let slug = parts.slug.clone();
            let explored = Callback::new(move |()| {
                explore.dispatch(ExploreSimulation { slug: slug.clone(), index });
            });
            island_at(sim, move |_| {
                view! { <SimulationView sim=Embedded::new(name, params) explored/> }
            });
        }
        for toc in all("nav.toc") {
            island_at(toc, |toc| view! { <Toc entries=toc_entries(&toc)/> });
        }
        for article in all("article.lesson") {
            listen(&article, crate::components::on_lesson_click);
        }
        for link in all("[data-role=report-link]") {
            listen(&link, crate::talk_live::report_here);
        }
        for link in all("[data-role=language-switch]") {
            let Some(to) = link.get_attribute("hreflang").and_then(|c| Lang::from_code(&c)) else {
                continue;
            };
            listen(&link, move |ev| crate::components::switch_keeps_section(ev, lang, to));
        }
        let toast = state.toast;
        for region in all("[data-role=toast]") {
            island_at(region, move |_| view! { <Toast message=toast/> });
        }
        Some(())
    }

    /// The contents' entries, read back from the list the server drew from them.
    fn toc_entries(toc: &Element) -> Vec<TocItem> {
        elements(toc.query_selector_all("ol > li"))
            .into_iter()
            .filter_map(|item| {
                let level = item.class_name().strip_prefix("toc-l")?.parse().ok()?;
                let link = item.query_selector("a").ok()??;
                let id = link.get_attribute("href")?.strip_prefix('#')?.to_string();
                Some(TocItem { level, id, title: link.text_content().unwrap_or_default() })
            })
            .collect()
    }
}
