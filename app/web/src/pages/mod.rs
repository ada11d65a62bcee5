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
mod xp;

pub use account::AccountPage;
pub use exercise::ExercisePage;
pub use index::{CataloguePage, CoursePage};
pub use instructor::InstructorPage;
pub use lesson::LessonPage;
#[cfg(feature = "ssr")]
pub(crate) use lesson::{learner_part, LearnerPart, LearnerState};
pub use not_found::NotFound;
pub use notifications::NotificationsPage;
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

/// The pages as routes, each loaded with a part of the browser bundle: a reader downloads the
/// code of a group of pages with the first visit to one of them, and never the groups they do
/// not open. Groups, not one part per page, because what several parts share becomes a part of
/// its own: one per page made a lesson page ask for a hundred files. The server renders the
/// pages as before; a page that arrives from the server has its part loaded before it is
/// hydrated (`hydrate_from_async`, in the hydrate crate, through each route's `preload`). Each page reads its own
/// resources, so `data` has nothing to start ahead of the code.
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

    #[lazy]
    fn site(page: Site) -> AnyView {
        match page {
            Site::Catalogue => super::CataloguePage().into_any(),
            Site::Course => super::CoursePage().into_any(),
            Site::Xp => super::XpPage().into_any(),
            Site::Search => super::SearchPage().into_any(),
            Site::Account => super::AccountPage().into_any(),
            Site::Notifications => super::NotificationsPage().into_any(),
        }
    }

    /// A lesson: alone, as the page most readers open first.
    #[lazy]
    fn lesson() -> AnyView {
        super::LessonPage().into_any()
    }

    /// Graded work and its review: an exercise, a submission, the instructor view.
    #[derive(Clone, Copy)]
    pub enum Work {
        Exercise,
        Submission,
        Instructor,
    }

    #[lazy]
    fn work(page: Work) -> AnyView {
        match page {
            Work::Exercise => super::ExercisePage().into_any(),
            Work::Submission => super::SubmissionPage().into_any(),
            Work::Instructor => super::InstructorPage().into_any(),
        }
    }

    /// A route whose view is `$view` (an awaited lazy function) and whose part of the bundle
    /// is `$preload`.
    macro_rules! route {
        ($name:ident, $view:expr, $preload:ident) => {
            pub struct $name;

            impl LazyRoute for $name {
                fn data() -> Self {
                    $name
                }

                async fn view(this: Self) -> AnyView {
                    let $name = this;
                    $view.await
                }

                async fn preload() {
                    #[cfg(feature = "hydrate")]
                    $preload().await;
                }
            }
        };
    }

    route!(Catalogue, site(Site::Catalogue), __preload_site);
    route!(Course, site(Site::Course), __preload_site);
    route!(Xp, site(Site::Xp), __preload_site);
    route!(Search, site(Site::Search), __preload_site);
    route!(Account, site(Site::Account), __preload_site);
    route!(Notifications, site(Site::Notifications), __preload_site);
    route!(Lesson, lesson(), __preload_lesson);
    route!(Exercise, work(Work::Exercise), __preload_work);
    route!(Submission, work(Work::Submission), __preload_work);
    route!(Instructor, work(Work::Instructor), __preload_work);
}
