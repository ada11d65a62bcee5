//! Server functions: the browser calls these over HTTP, the server calls them in-process while
//! rendering. Their bodies compile only into the server.

use leptos::prelude::*;

use crate::model::{CourseOverview, LessonLookup};

#[server]
pub async fn get_course_overview() -> Result<CourseOverview, ServerFnError> {
    let ctx = crate::ssr::context()?;
    let completed = ctx.completed_lessons().await?;
    let progress = ctx.progress().await?;
    Ok(crate::ssr::page_models::overview(&ctx.course.current(), &completed, progress))
}

#[server]
pub async fn get_lesson(slug: String) -> Result<LessonLookup, ServerFnError> {
    let ctx = crate::ssr::context()?;
    let completed = ctx.completed_lessons().await?;
    let answers = ctx.last_quiz_answers(&slug).await?;
    let progress = ctx.progress().await?;
    Ok(crate::ssr::page_models::lookup(
        &ctx.course.current(),
        &slug,
        &completed,
        &answers,
        progress,
    ))
}

/// Records that the learner finished a lesson. Works as a plain form post without JavaScript.
#[server]
pub async fn complete_lesson(slug: String) -> Result<(), ServerFnError> {
    let ctx = crate::ssr::context()?;
    ctx.complete_lesson(&slug).await
}
