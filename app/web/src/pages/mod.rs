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
