//! The Leptos application, compiled twice: with `ssr` into the server (which renders every page
//! to HTML) and with `hydrate` into the browser bundle (which makes those pages interactive).
//!
//! Server-only dependencies are optional and enabled by `ssr` alone, so the browser bundle never
//! carries them; the course loader and the database are not dependencies at all. Data crosses
//! the boundary as the plain serde types in [`model`], fetched with the server functions in
//! [`api`].
//!
//! # What is where
//!
//! The Leptos application: `shell`, `App`, the pages (the catalogue at `/`, a course's page at
//! `/courses/<slug>`, lesson, 404, broken lesson; an instructor's draft has its banner,
//! `?as=learner` shows it as learners will get it, and the page reloads when its file is saved),
//! components, the serde page models (`model.rs`), server functions (`api.rs`) and the pages'
//! resources (`resource.rs`: their JSON read from bytes, as server functions read theirs, so the
//! bundle has one copy of each model type's reading code), and the simulations (`sims/`: one file
//! per simulation, `ring.rs`, `sampler.rs`, `dp_vs_ddp.rs`, `scatter_gather.rs`, `accumulation.rs`,
//! `memory.rs`, with what the last two share in `mlp_on_gpus.rs` and the shared controls and
//! formatting in `player.rs`, `number_field.rs`, `format.rs`; `window.rs` draws only the part of a
//! large grid that is in view, on a plane sized as the whole grid (the ring's values table, the
//! sampler's ranks and dataset), because what a step costs the browser grows with the cells drawn,
//! not with those it changed; each is a view model computed by sim-engine, unit-tested natively,
//! and a component that draws it; the server renders their first state and the browser runs them as
//! WebAssembly). With the `ssr` feature it also has `ssr/`: what the server functions ask of the
//! server (`Backend`, answered by `lockstep-pages`, since this crate cannot reach the database)
//! and what every page's head needs (`Site`), and `pages/template.rs` cuts a rendered lesson
//! page where the learner's and the request's parts go. `page.rs` is the page being rendered
//! (its language, words, path, bundle), below everything that asks. In the browser, `talk_live.rs` follows a page's comments
//! (their place's server-sent events, then the server's HTML of them swapped in, keeping what the
//! reader typed), keeps the header's bell current and fills the report form in from the link
//! clicked. Pages: index, lesson, `/xp`, `/account` (the display name too), `/notifications`,
//! `/instructor` (reports and the comments setting too), `/exercises/<id>` (the starting script in
//! a form, upgraded by the CodeMirror 6 editor in `editor/editor.js`, which the build bundles with
//! esbuild from npm), `/search` (a GET form; with JavaScript, results as the learner types; a
//! snippet's matches are `<mark>`s around text), `/submissions/<id>` (status, runs, checks and
//! verdict; with JavaScript it follows the submission's server-sent events, without it reloads
//! itself until the verdict; a failed sampler check embeds the sampler simulation set to the
//! learner's world size; `pages/run_vs_model.rs` sets the graded run's measurements beside
//! sim-engine's DDP cost model for the same MLP, batch and world size, as SVG charts with the gap
//! in words), 404. The server-only dependencies are optional and come in only with `ssr`.

// Views are nested types; the simulations' are deep enough to need more than the default 128.
#![recursion_limit = "256"]

// The unit tests render views to HTML and build the server's worded verdicts, both of which
// only `ssr` compiles; the workspace's test build has it through the server.
#[cfg(all(test, not(feature = "ssr")))]
compile_error!(
    "lockstep-web's tests render pages as the server does: run them with `--features ssr`"
);

pub mod api;
pub mod clock;
pub mod components;
pub mod crash;
#[cfg(feature = "hydrate")]
mod islands;
pub mod model;
mod page;
mod pages;
#[cfg(feature = "ssr")]
pub use pages::template;
mod quiz;
mod resource;
pub mod sims;
#[cfg(feature = "ssr")]
pub mod ssr;
mod talk_live;

use leptos::prelude::*;
use leptos_meta::{provide_meta_context, MetaTags, Title};
use leptos_router::components::{Outlet, ParentRoute, Route, Router, Routes};
use leptos_router::{path, Lazy, ParamSegment, SsrMode, StaticSegment};
pub use lockstep_i18n::Lang;
pub use page::{bundle_dir, bundle_file, hydrates_only_islands, use_lang, use_t, COMMENTS_PART};

/// The name of the browser bundle's files under `/pkg/<hash>/`: `lockstep.js`,
/// `lockstep_bg.wasm`, `lockstep.css`. The build (`cargo xtask`) writes them under this name.
pub const OUTPUT_NAME: &str = "lockstep";

/// The name of the site's islands bundle's files beside them: `islands.js`, `islands_bg.wasm`
/// ([`hydrates_only_islands`]).
pub const ISLANDS_OUTPUT_NAME: &str = "islands";

/// The name of the lessons' bundle's files ([`hydrates_only_islands`]), in a folder of its own
/// beside them: `lesson/lesson.js`, `lesson/lesson_bg.wasm`. Its own because it is split too,
/// and its parts' loader finds them and its main module beside itself.
pub const LESSON_OUTPUT_NAME: &str = "lesson/lesson";

/// Marks the document once the browser bundle has hydrated the whole page, the route's lazily
/// loaded part included (or, on a page that hydrates only its islands, all of them): CSS shows
/// the controls that need JavaScript (copy buttons, the contents toggle) only from then on,
/// browser tests wait for it, and the `lockstep-hydrated` performance mark is when the page
/// became interactive (`tests/bundle_budget.rs`). Called by [`hydrate`] and
/// [`hydrate_islands`] after hydration has finished, not from an effect: an effect of `App`
/// runs while a lazy route's part is still loading.
#[cfg(feature = "hydrate")]
fn mark_hydrated() {
    if let Some(root) = document().document_element() {
        let _ = root.set_attribute("data-hydrated", "true");
    }
    if let Some(performance) = window().performance() {
        let _ = performance.mark("lockstep-hydrated");
    }
}

/// The whole HTML document, rendered on the server around [`App`].
pub fn shell(options: LeptosOptions) -> impl IntoView {
    let path = page::page_path();
    let lang = Lang::of_path(&path);
    // Each page names its twin in the other language; `/` also picks one by the reader's.
    // Absolute where the site knows its public address, as search engines ask.
    #[cfg(feature = "ssr")]
    let origin = use_context::<ssr::Site>().and_then(|c| c.public_origin).unwrap_or_default();
    #[cfg(not(feature = "ssr"))]
    let origin = String::new();
    let languages = page::languages();
    let alternates = languages
        .iter()
        .map(|l| {
            let href = format!("{origin}{}", Lang::switch(&path, l));
            view! { <link rel="alternate" hreflang=l.code() href=href/> }
        })
        .collect_view();
    let x_default = format!("{origin}{}", lockstep_routes::HOME);
    let t = lockstep_i18n::t(lang);
    let mut options = options;
    if hydrates_only_islands(&path) {
        let lesson = lockstep_routes::lesson_slug(page::page_of(&path)).is_some();
        options.output_name = if lesson { LESSON_OUTPUT_NAME } else { ISLANDS_OUTPUT_NAME }.into();
    }
    view! {
        <!DOCTYPE html>
        <html lang=lang.code()>
            <head>
                <meta charset="utf-8"/>
                <meta name="viewport" content="width=device-width, initial-scale=1"/>
                <meta name="color-scheme" content="light dark"/>
                <link rel="icon" href="/favicon.svg" type="image/svg+xml"/>
                <meta name=page::BUNDLE_META content=bundle_dir()/>
                <meta name=page::LANGUAGES_META content=languages.to_string()/>
                // Before the bundle's stylesheet and scripts, so that their failing to load is
                // seen.
                <script nonce=leptos::nonce::use_nonce() data-notice=t.site.broken_page
                        data-reload=t.site.reload>{crash::SCRIPT}</script>
                <script nonce=leptos::nonce::use_nonce()
                        data-cookie=lockstep_routes::TIME_ZONE_COOKIE>{clock::SCRIPT}</script>
                <link rel="stylesheet" href=bundle_file(&format!("{OUTPUT_NAME}.css"))/>
                {alternates}
                <link rel="alternate" hreflang="x-default" href=x_default/>
                <HydrationScripts options/>
                <MetaTags/>
            </head>
            <body>
                <App/>
            </body>
        </html>
    }
}

/// Makes the server's page interactive as a whole: the browser bundle's entry point
/// (`lockstep-hydrate`). Marks the page hydrated ([`mark_hydrated`]) once all of it is.
#[cfg(feature = "hydrate")]
pub async fn hydrate() {
    // What `hydrate_lazy` does, but awaited here: the route's part of the bundle is loaded
    // before its page is hydrated, and the page is marked hydrated only once all of it is.
    let body = document().body().expect("a page has a body");
    let owner = leptos::mount::hydrate_from_async(body, App).await;
    owner.forget();
    mark_hydrated();
}

/// Makes only the islands of the server's page interactive ([`hydrates_only_islands`]): the
/// site's islands bundle's entry point (`lockstep-islands`).
#[cfg(feature = "hydrate")]
pub fn hydrate_islands() {
    let lang = islands::root();
    pages::follow_typing(lang);
    islands::island("[data-role=toast]", |el| {
        let shown = el.query_selector(".toast").ok().flatten().and_then(|p| p.text_content());
        view! { <components::Toast message=RwSignal::new(shown)/> }
    });
    mark_hydrated();
}

/// [`hydrate_islands`] for a lesson page: the lessons' bundle's entry point (`lockstep-lesson`).
#[cfg(feature = "hydrate")]
pub fn hydrate_lesson() {
    pages::lesson_islands::hydrate(islands::root());
    mark_hydrated();
}

#[component]
pub fn App() -> impl IntoView {
    provide_meta_context();
    let lang = Lang::of_path(&page::page_path());
    provide_context(lang);
    let t = lockstep_i18n::t(lang);
    view! {
        <Title formatter=|text: String| if text.is_empty() { "Lockstep".to_string() } else { format!("{text} · Lockstep") }/>
        <Router>
            <components::SiteHeader/>
            <main id="main">
                // Each page in every language: in English where it has always been, in each
                // other under its code, from one list (a test checks every page has its twins).
                // The server answers only those of the languages it serves.
                <Routes fallback=pages::NotFound>
                    <Route path=path!("/") view={Lazy::<pages::lazy::Catalogue>::new()} ssr=SsrMode::Async/>
                    <Pages/>
                    <ParentRoute path=StaticSegment("ko") view=Outlet ssr=SsrMode::Async>
                        <Route path=path!("") view={Lazy::<pages::lazy::Catalogue>::new()} ssr=SsrMode::Async/>
                        <Pages/>
                    </ParentRoute>
                    <ParentRoute path=StaticSegment("ja") view=Outlet ssr=SsrMode::Async>
                        <Route path=path!("") view={Lazy::<pages::lazy::Catalogue>::new()} ssr=SsrMode::Async/>
                        <Pages/>
                    </ParentRoute>
                </Routes>
            </main>
            <footer class="site-footer">
                <p>{t.site.footer}</p>
            </footer>
        </Router>
    }
}

/// The site's pages but its home, relative to where they are mounted: at `/` in English and
/// under each other language's code (`/ko`).
#[component(transparent)]
fn Pages() -> impl leptos_router::MatchNestedRoutes + Clone {
    use lockstep_routes as r;
    use pages::lazy;
    let routes = view! {
        <Route path=StaticSegment(r::XP_SEGMENT) view={Lazy::<lazy::Xp>::new()} ssr=SsrMode::Async/>
        <Route path=StaticSegment(r::SEARCH_SEGMENT) view={Lazy::<lazy::Search>::new()} ssr=SsrMode::Async/>
        <Route path=StaticSegment(r::ACCOUNT_SEGMENT) view={Lazy::<lazy::Account>::new()} ssr=SsrMode::Async/>
        <Route path=StaticSegment(r::NOTIFICATIONS_SEGMENT) view={Lazy::<lazy::Notifications>::new()} ssr=SsrMode::Async/>
        <Route path=StaticSegment(r::INSTRUCTOR_SEGMENT) view={Lazy::<lazy::Instructor>::new()} ssr=SsrMode::Async/>
        <Route path=(StaticSegment(r::COURSES_SEGMENT), ParamSegment("slug")) view={Lazy::<lazy::Course>::new()} ssr=SsrMode::Async/>
        <Route path=(StaticSegment(r::LESSONS_SEGMENT), ParamSegment("slug")) view={Lazy::<lazy::Lesson>::new()} ssr=SsrMode::Async/>
        <Route path=(StaticSegment(r::EXERCISES_SEGMENT), ParamSegment("id")) view={Lazy::<lazy::Exercise>::new()} ssr=SsrMode::Async/>
        <Route path=(StaticSegment(r::SUBMISSIONS_SEGMENT), ParamSegment("id")) view={Lazy::<lazy::Submission>::new()} ssr=SsrMode::Async/>
    }
    .into_inner();
    // With components erased, the routes a transparent component returns must be erased by it:
    // `Routes` takes its children's routes as one erased type.
    #[cfg(erase_components)]
    let routes = leptos_router::any_nested_route::IntoAnyNestedRoute::into_any_nested_route(routes);
    routes
}

#[cfg(test)]
mod tests {
    use super::hydrates_only_islands;

    #[test]
    fn the_site_pages_hydrate_only_their_islands_in_either_language() {
        for path in ["/", "/ko", "/ko/", "/xp", "/ko/search", "/search?q=ddp", "/account#sign-in"]
            .into_iter()
            .chain(["/notifications", "/courses/ddp", "/ko/courses/ddp"])
            .chain(["/lessons/ddp-allreduce", "/ko/lessons/ddp-allreduce", "/lessons/x?as=learner"])
        {
            assert!(hydrates_only_islands(path), "{path}");
        }
        for path in ["/lessons", "/lessons/a/b", "/exercises/ddp-conversion"].into_iter().chain([
            "/submissions/3",
            "/instructor",
            "/courses",
            "/courses/ddp/more",
            "/nowhere",
        ]) {
            assert!(!hydrates_only_islands(path), "{path}");
        }
    }
}
