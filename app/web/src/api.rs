//! Server functions: the browser calls these over HTTP, the server calls them in-process while
//! rendering. Their bodies compile only into the server.

use leptos::prelude::*;

use crate::model::{CourseOverview, LessonLookup, Progressed, XpRules};

#[server]
pub async fn get_course_overview() -> Result<CourseOverview, ServerFnError> {
    let ctx = crate::ssr::context()?;
    let events = ctx.events().await?;
    let completed = crate::ssr::AppContext::completed_in(&events);
    Ok(crate::ssr::page_models::overview(
        &ctx.course.current(),
        &completed,
        ctx.progress_view(&events),
    ))
}

#[server]
pub async fn get_lesson(slug: String) -> Result<LessonLookup, ServerFnError> {
    let ctx = crate::ssr::context()?;
    let answers = ctx.last_quiz_answers(&slug).await?;
    let events = ctx.events().await?;
    let completed = crate::ssr::AppContext::completed_in(&events);
    let progress = ctx.progress_view(&events);
    let has_progress = crate::ssr::AppContext::has_progress_in(&events, &slug);
    Ok(crate::ssr::page_models::lookup(
        &ctx.course.current(),
        &slug,
        &completed,
        &answers,
        progress,
        has_progress,
    ))
}

/// Records that the learner finished a lesson. Works as a plain form post without JavaScript.
#[server]
pub async fn complete_lesson(slug: String) -> Result<(), ServerFnError> {
    let ctx = crate::ssr::context()?;
    ctx.complete_lesson(&slug).await
}

/// Records that the learner explored simulation `index` of a lesson to its end, once. Called by
/// the page when a simulation reaches its last step; what it earns is the server's to decide.
#[server(endpoint = "explore_simulation")]
pub async fn explore_simulation(slug: String, index: u32) -> Result<Progressed, ServerFnError> {
    let ctx = crate::ssr::context()?;
    let action = lockstep_xp::Action::SimulationExplored { lesson: slug.clone(), sim: index };
    if !crate::ssr::page_models::facts(&ctx.course.current()).knows(&action) {
        return Err(ServerFnError::new(format!("lesson `{slug}` has no simulation {index}")));
    }
    ctx.record(action).await
}

/// Resets the learner's progress in one lesson: its XP goes, and can be earned again. Works as
/// a plain form post without JavaScript.
#[server(endpoint = "reset_lesson")]
pub async fn reset_lesson(slug: String) -> Result<(), ServerFnError> {
    crate::ssr::context()?.reset_lesson(&slug).await
}

#[server]
pub async fn get_xp_rules() -> Result<XpRules, ServerFnError> {
    let ctx = crate::ssr::context()?;
    let progress = ctx.progress_of(&ctx.events().await?);
    Ok(crate::ssr::page_models::xp_rules(&progress))
}
