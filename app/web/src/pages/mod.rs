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

/// The pages as routes, each a part of the browser bundle of its own (`#[lazy_route]`): a page's
/// code is downloaded with the first visit to it, and a reader never downloads the pages they
/// never open. The server renders them as before; a page that arrives from the server has its
/// part loaded before it is hydrated (`hydrate_lazy`). Each page reads its own resources, so
/// `data` has nothing to start ahead of the code.
pub mod lazy {
    use leptos::prelude::*;
    use leptos_router::{lazy_route, LazyRoute};

    pub struct Catalogue;

    #[lazy_route]
    impl LazyRoute for Catalogue {
        fn data() -> Self {
            Catalogue
        }

        fn view(this: Self) -> AnyView {
            let Catalogue = this;
            super::CataloguePage().into_any()
        }
    }

    pub struct Course;

    #[lazy_route]
    impl LazyRoute for Course {
        fn data() -> Self {
            Course
        }

        fn view(this: Self) -> AnyView {
            let Course = this;
            super::CoursePage().into_any()
        }
    }

    pub struct Lesson;

    #[lazy_route]
    impl LazyRoute for Lesson {
        fn data() -> Self {
            Lesson
        }

        fn view(this: Self) -> AnyView {
            let Lesson = this;
            super::LessonPage().into_any()
        }
    }

    pub struct Exercise;

    #[lazy_route]
    impl LazyRoute for Exercise {
        fn data() -> Self {
            Exercise
        }

        fn view(this: Self) -> AnyView {
            let Exercise = this;
            super::ExercisePage().into_any()
        }
    }

    pub struct Submission;

    #[lazy_route]
    impl LazyRoute for Submission {
        fn data() -> Self {
            Submission
        }

        fn view(this: Self) -> AnyView {
            let Submission = this;
            super::SubmissionPage().into_any()
        }
    }

    pub struct Xp;

    #[lazy_route]
    impl LazyRoute for Xp {
        fn data() -> Self {
            Xp
        }

        fn view(this: Self) -> AnyView {
            let Xp = this;
            super::XpPage().into_any()
        }
    }

    pub struct Search;

    #[lazy_route]
    impl LazyRoute for Search {
        fn data() -> Self {
            Search
        }

        fn view(this: Self) -> AnyView {
            let Search = this;
            super::SearchPage().into_any()
        }
    }

    pub struct Account;

    #[lazy_route]
    impl LazyRoute for Account {
        fn data() -> Self {
            Account
        }

        fn view(this: Self) -> AnyView {
            let Account = this;
            super::AccountPage().into_any()
        }
    }

    pub struct Notifications;

    #[lazy_route]
    impl LazyRoute for Notifications {
        fn data() -> Self {
            Notifications
        }

        fn view(this: Self) -> AnyView {
            let Notifications = this;
            super::NotificationsPage().into_any()
        }
    }

    pub struct Instructor;

    #[lazy_route]
    impl LazyRoute for Instructor {
        fn data() -> Self {
            Instructor
        }

        fn view(this: Self) -> AnyView {
            let Instructor = this;
            super::InstructorPage().into_any()
        }
    }
}
