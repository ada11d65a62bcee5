//! The exercise and submission pages' models, from the course and the store. Submissions are
//! read only for their learner, or an instructor: anyone else gets `None`, as for one that
//! does not exist.

use lockstep_course::Course;
use lockstep_store::{Store, StoreError, Submission};

use super::viewer::Viewer;
use crate::model::{CheckPreview, ExerciseView, LiveEvent, SubmissionRow, SubmissionView};

pub fn exercise(course: &Course, id: &str) -> Option<ExerciseView> {
    let (lesson, e) = course.exercise(id)?;
    let checks = grading_checks::lessons::checks_of(&e.id).unwrap_or_default();
    Some(ExerciseView {
        id: e.id.clone(),
        title: e.section.as_ref().map_or_else(|| lesson.front.title.clone(), |s| s.title.clone()),
        lesson_slug: lesson.slug.clone(),
        lesson_title: lesson.front.title.clone(),
        section_href: lockstep_routes::lesson_section(
            &lesson.slug,
            e.section.as_ref().map(|s| s.id.as_str()),
        ),
        task_html: e.task_html.clone(),
        checks: checks
            .iter()
            .map(|&c| CheckPreview {
                title: c.title().to_string(),
                asks: c.asks().to_string(),
                href: grading_checks::lessons::url(c),
            })
            .collect(),
        file_name: e.file_name.clone(),
        starter: e.starter.clone(),
        xp: lockstep_xp::EXERCISE_XP,
    })
}

pub fn row(s: &Submission) -> SubmissionRow {
    SubmissionRow {
        id: s.id,
        status: s.status.as_str().to_string(),
        verdict: s.verdict_status.map(|v| v.as_str().to_string()),
        created_at: s.created_at,
    }
}

/// The submission as its page shows it, if `viewer` may read it.
pub async fn submission(
    store: &Store,
    course: &Course,
    viewer: &Viewer,
    id: i64,
) -> Result<Option<SubmissionView>, StoreError> {
    let Some(s) = store.submission(id).await? else { return Ok(None) };
    let owns = viewer.account().is_some_and(|a| a.learner_id == s.learner_id);
    if !owns && !viewer.is_instructor() {
        return Ok(None);
    }
    let events = store.submission_events(id, 0).await?;
    let lesson = course.exercise(&s.exercise).map(|(l, _)| l);
    Ok(Some(SubmissionView {
        id: s.id,
        lesson_slug: lesson.map(|l| l.slug.clone()),
        lesson_title: lesson.map(|l| l.front.title.clone()),
        file_name: s.file_name.clone(),
        status: s.status.as_str().to_string(),
        done: s.status.is_final(),
        events: events.into_iter().map(|e| LiveEvent { id: e.id, event: e.event }).collect(),
        verdict: s.verdict.as_deref().and_then(|v| serde_json::from_str(v).ok()),
        can_cancel: owns && s.status == lockstep_store::SubmissionStatus::Queued,
        can_rerun: viewer.is_instructor() && s.status.is_final(),
        exercise: s.exercise,
    }))
}
