mod account;
mod exercise;
mod index;
mod instructor;
mod lesson;
mod not_found;
mod notifications;
mod run_vs_model;
mod search;
mod submission;
#[cfg(feature = "ssr")]
pub mod template;
mod xp;

pub use account::AccountPage;
pub use exercise::ExercisePage;
pub use index::{CataloguePage, CoursePage};
pub use instructor::InstructorPage;
#[cfg(feature = "hydrate")]
pub(crate) use lesson::islands as lesson_islands;
pub use lesson::LessonPage;
#[cfg(feature = "ssr")]
pub(crate) use lesson::{learner_part, LearnerPart, LearnerState, LessonParts};
pub use not_found::NotFound;
pub use notifications::NotificationsPage;
#[cfg(feature = "hydrate")]
pub(crate) use search::follow_typing;
pub use search::SearchPage;
pub use submission::SubmissionPage;
pub use xp::XpPage;

/// Sets the HTTP status of the page being rendered on the server; nothing in the browser.
fn set_status(code: u16) {
    #[cfg(feature = "ssr")]
    if let Some(response) = leptos::prelude::use_context::<leptos_axum::ResponseOptions>() {
        if let Ok(status) = http::StatusCode::from_u16(code) {
            response.set_status(status);
        }
    }
    #[cfg(not(feature = "ssr"))]
    let _ = code;
}

/// The pages as routes. A lesson's code is in the application's main module; the other pages
/// come in groups, each a part of the browser bundle that a reader downloads with the first
/// visit to one of its pages, and never when they open none. Groups, not one part per page,
/// because what several parts share becomes a part of its own: one per page made a lesson page
/// ask for a hundred files. A page that arrives from the server has its part loaded before it
/// is hydrated (`hydrate_from_async`, in the crate's `hydrate`, through each route's `preload`).
/// Each page reads its own resources, so `data` has nothing to start ahead of the code.
///
/// The lesson is not a part: when the application started on lessons, the lesson's code and
/// what it shares with the others were eight files as a part, and a lesson page loaded 298 kB
/// of wasm (Brotli); in the main module, one file of 256 kB. A lesson from the server now has
/// the lessons' bundle ([`crate::page::hydrates_only_islands`]); the application shows one only after
/// a link from graded work.
///
/// Each part is a `#[lazy]` function where the bundle is the application's (the `app` feature;
/// and on the server, for the parts it preloads), and a plain one elsewhere: a
/// lazy function is exported for the splitter, and the site's islands and the lessons' bundles,
/// which reach none of them, would otherwise keep every part's code.
///
/// The site's pages (`Site`) arrive from the server hydrating only their islands, with a bundle
/// of their own ([`crate::page::hydrates_only_islands`]), so the server does not preload their part:
/// the browser loads it only when the application, started on another page, goes to one.
pub mod lazy {
    use leptos::prelude::*;
    use leptos_router::LazyRoute;

    /// The pages every reader meets: the catalogue, a course, XP, search, the account, the
    /// notifications.
    #[derive(Clone, Copy)]
    pub enum Site {
        Catalogue,
        Course,
        Xp,
        Search,
        Account,
        Notifications,
    }

    /// A site page, as both the server and the site's part of the bundle render it.
    fn site_page(page: Site) -> AnyView {
        match page {
            Site::Catalogue => super::CataloguePage().into_any(),
            Site::Course => super::CoursePage().into_any(),
            Site::Xp => super::XpPage().into_any(),
            Site::Search => super::SearchPage().into_any(),
            Site::Account => super::AccountPage().into_any(),
            Site::Notifications => super::NotificationsPage().into_any(),
        }
    }

    #[cfg(not(feature = "ssr"))]
    #[cfg_attr(feature = "app", lazy)]
    async fn site(page: Site) -> AnyView {
        site_page(page)
    }

    /// A lesson: in the main module.
    async fn lesson() -> AnyView {
        super::LessonPage().into_any()
    }

    /// Graded work and its review: an exercise, a submission, the instructor view.
    #[derive(Clone, Copy)]
    pub enum Work {
        Exercise,
        Submission,
        Instructor,
    }

    #[cfg_attr(any(feature = "app", not(feature = "hydrate")), lazy)]
    async fn work(page: Work) -> AnyView {
        match page {
            Work::Exercise => super::ExercisePage().into_any(),
            Work::Submission => super::SubmissionPage().into_any(),
            Work::Instructor => super::InstructorPage().into_any(),
        }
    }

    /// A route whose view is `$view` (awaiting a lazy function, but for a lesson) and which
    /// loads its part of the bundle with `$preload`; where given, whether it hydrates only its
    /// islands, and its view on the server.
    macro_rules! route {
        ($name:ident, $view:expr, $preload:expr) => {
            route!($name, false, $view, $view, $preload);
        };
        ($name:ident, $islands:expr, $server:expr, $view:expr, $preload:expr) => {
            pub struct $name;

            impl LazyRoute for $name {
                fn data() -> Self {
                    $name
                }

                async fn view(this: Self) -> AnyView {
                    let $name = this;
                    // The head, written before the route was known, loaded the bundle the
                    // address names (`hydrates_only_islands`): it must be the page's own, or
                    // the page would not become interactive. Every page a test renders checks.
                    #[cfg(feature = "ssr")]
                    debug_assert_eq!(
                        crate::page::hydrates_only_islands(&crate::page::page_path()),
                        $islands,
                        "{}: the bundle its address names is not its own",
                        crate::page::page_path()
                    );
                    #[cfg(feature = "ssr")]
                    return $server.await;
                    #[cfg(not(feature = "ssr"))]
                    $view.await
                }

                async fn preload() {
                    #[cfg(all(feature = "hydrate", feature = "app"))]
                    $preload.await;
                }
            }
        };
    }

    /// A site page's route: rendered on the server without its part of the bundle.
    macro_rules! site_route {
        ($name:ident) => {
            route!(
                $name,
                true,
                async { site_page(Site::$name) },
                site(Site::$name),
                __preload_site()
            );
        };
    }

    site_route!(Catalogue);
    site_route!(Course);
    site_route!(Xp);
    site_route!(Search);
    site_route!(Account);
    site_route!(Notifications);
    route!(Lesson, true, lesson(), lesson(), async {});
    route!(Exercise, work(Work::Exercise), __preload_work());
    route!(Submission, work(Work::Submission), __preload_work());
    route!(Instructor, work(Work::Instructor), __preload_work());
}
