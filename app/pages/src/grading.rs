//! The exercise and submission pages' models, from the course and the store. Submissions are
//! read only for their learner, or an instructor: anyone else gets `None`, as for one that
//! does not exist.

use lockstep_course::{Course, Edition};
use lockstep_store::{Store, StoreError, Submission};

use lockstep_rules::Requester;
use lockstep_web::model::{
    CheckPreview, EditorStart, ExerciseView, LiveEvent, ScriptSource, SubmissionRow, SubmissionView,
};

/// The exercise's page in `edition`'s language: its task and starting script from that
/// edition's lesson, its links to that edition's sections.
pub fn exercise(edition: &Edition, id: &str) -> Option<ExerciseView> {
    let lang = edition.lang;
    let (lesson, e) = edition.course.exercise(id)?;
    Some(ExerciseView {
        id: e.id.clone(),
        title: e.section.as_ref().map_or_else(|| lesson.front.title.clone(), |s| s.title.clone()),
        lesson_slug: lesson.slug.clone(),
        lesson_title: lesson.front.title.clone(),
        section_href: lang.path(&lockstep_routes::lesson_section(
            &lesson.slug,
            e.section.as_ref().map(|s| s.id.as_str()),
        )),
        task_html: e.task_html.clone(),
        checks: declared_checks(edition, id)
            .iter()
            .map(|c| CheckPreview {
                title: c.title.get(lang).to_string(),
                asks: c.asks.get(lang).to_string(),
                // The declaration names the course's own headings; the edition says which of
                // its headings stands for each.
                href: lang.path(&lockstep_routes::lesson_section(
                    &c.lesson,
                    Some(edition.heading(&c.lesson, &c.heading)),
                )),
            })
            .collect(),
        file_name: e.file_name.clone(),
        xp: lockstep_xp::EXERCISE_XP,
    })
}

/// The checks exercise `id` declares in its folder of the course (none for one without).
fn declared_checks<'a>(edition: &'a Edition, id: &str) -> &'a [exercise_spec::Check] {
    let declared = edition.course.exercises.iter().find(|x| x.id == id);
    declared.map_or(&[], |x| &x.checks)
}

/// The section of each check `exercise` can report, and of each check `verdict` names (an
/// older verdict's may be one the registry no longer does), linked in `edition`'s language.
fn section_links(
    edition: &Edition,
    exercise: &str,
    verdict: Option<&grading_protocol::Verdict>,
) -> Vec<lockstep_web::model::SectionLink> {
    let checks = declared_checks(edition, exercise);
    let registered = checks.iter().map(|c| (c.lesson.as_str(), c.heading.as_str()));
    let named = verdict.into_iter().flat_map(|v| &v.checks);
    let named = named.map(|c| (c.section.lesson.as_str(), c.section.heading.as_str()));
    let mut sections: Vec<(&str, &str)> = registered.chain(named).collect();
    sections.sort_unstable();
    sections.dedup();
    sections
        .into_iter()
        .map(|(lesson, heading)| lockstep_web::model::SectionLink {
            lesson: lesson.to_string(),
            heading: heading.to_string(),
            href: edition.lang.path(&lockstep_routes::lesson_section(
                lesson,
                Some(edition.heading(lesson, heading)),
            )),
        })
        .collect()
}

pub fn starter(script: String) -> EditorStart {
    EditorStart { script, source: ScriptSource::Starter, saved_ms: 0 }
}

/// What the exercise editor opens on: the script a refused submission left, else what `from`
/// asks for (`start`, or a submission of the requester's own), else the account's latest draft,
/// else the starting script. A submission that is not the requester's is not shown: the starting
/// script takes its place, as for one that does not exist.
pub async fn editor_start(
    store: &Store,
    requester: &Requester,
    e: &lockstep_course::Exercise,
    refused: Option<String>,
    from: Option<&str>,
) -> Result<EditorStart, StoreError> {
    if let Some(script) = refused {
        return Ok(EditorStart { script, source: ScriptSource::Refused, saved_ms: 0 });
    }
    if from == Some("start") {
        let script = e.starter.clone();
        return Ok(EditorStart { script, source: ScriptSource::StartOver, saved_ms: 0 });
    }
    let Some(account) = requester.account() else { return Ok(starter(e.starter.clone())) };
    if let Some(id) = from {
        let found = match id.parse::<i64>() {
            Ok(id) => store.submission(id).await?,
            Err(_) => None,
        };
        return Ok(match found {
            Some(s) if requester.owns(&s) && s.exercise == e.id => EditorStart {
                script: s.script,
                source: ScriptSource::Submission(s.id),
                saved_ms: 0,
            },
            _ => starter(e.starter.clone()),
        });
    }
    Ok(match store.draft(&account.learner_id, &e.id).await? {
        Some(d) => {
            EditorStart { script: d.script, source: ScriptSource::Draft, saved_ms: d.saved_ms }
        }
        None => starter(e.starter.clone()),
    })
}

pub fn row(s: &Submission) -> SubmissionRow {
    SubmissionRow {
        id: s.id,
        status: s.status.as_str().to_string(),
        verdict: s.verdict_status.map(|v| v.as_str().to_string()),
        created_at: s.created_at,
        when: crate::moment(s.created_at * 1000),
    }
}

/// The submission as its page shows it, if `requester` may read it. `events`: the requester's XP
/// events, for what the submission earned.
pub async fn submission(
    store: &Store,
    edition: &Edition,
    requester: &Requester,
    xp_events: &[lockstep_xp::Event],
    id: i64,
) -> Result<Option<SubmissionView>, StoreError> {
    let Some(s) = store.submission(id).await? else { return Ok(None) };
    if !requester.may_read(&s) {
        return Ok(None);
    }
    let owns = requester.owns(&s);
    let lang = edition.lang;
    let events = store.submission_events(id, 0).await?;
    let course = &edition.course;
    let lesson = course.exercise(&s.exercise).map(|(l, _)| l);
    let verdict = s.verdict();
    Ok(Some(SubmissionView {
        id: s.id,
        sections: section_links(edition, &s.exercise, verdict.as_ref()),
        lesson_slug: lesson.map(|l| l.slug.clone()),
        lesson_title: lesson.map(|l| l.front.title.clone()),
        file_name: s.file_name.clone(),
        status: s.status.as_str().to_string(),
        done: s.status.is_final(),
        // Worded in the page's language here: the browser has no sentences to word them with.
        events: events
            .into_iter()
            .map(|e| LiveEvent { id: e.id, event: e.event.in_language(lang) })
            .collect(),
        verdict: verdict.map(|v| v.in_language(lang)),
        can_cancel: owns && s.status == lockstep_store::SubmissionStatus::Queued,
        can_rerun: requester.is_instructor() && s.status.is_final(),
        own: owns,
        script: lockstep_highlight::highlight("python", &s.script),
        earned: if owns { earned(course, requester, xp_events, &s) } else { None },
        exercise: s.exercise,
    }))
}

/// What grading `s` recorded for its learner: the exercise's events written in the same
/// transaction as its verdict carry its finishing second. The progress without them is the
/// progress before it.
fn earned(
    course: &Course,
    requester: &Requester,
    events: &[lockstep_xp::Event],
    s: &Submission,
) -> Option<lockstep_web::model::Progressed> {
    use lockstep_xp::Action;
    if s.verdict_status != Some(grading_protocol::Status::Pass) {
        return None;
    }
    let at = s.finished_at?;
    let of_this = |e: &&lockstep_xp::Event| {
        e.at == at
            && matches!(&e.action,
                Action::ExercisePassed { exercise } | Action::ExerciseFirstTry { exercise }
                    if *exercise == s.exercise)
    };
    if !events.iter().any(|e| of_this(&e)) {
        return None;
    }
    let before: Vec<lockstep_xp::Event> = events.iter().filter(|e| !of_this(e)).cloned().collect();
    let facts = lockstep_rules::progress::facts(course);
    Some(crate::page_models::progressed(
        &lockstep_xp::progress(&facts, &before),
        &lockstep_xp::progress(&facts, events),
        requester.account().map(|a| a.email.as_str()),
    ))
}
