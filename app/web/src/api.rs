//! Server functions: the browser calls these over HTTP, the server calls them in-process while
//! rendering. Their bodies compile only into the server.

use leptos::prelude::*;

use crate::model::{
    AccountPage, CatalogueView, CourseOverview, InstructorView, LessonLearner, LessonLookup,
    Progressed, XpRules,
};

/// The catalogue as the requester may see it: an instructor's has the drafts, marked.
#[server]
pub async fn get_catalogue(lang: crate::Lang) -> Result<CatalogueView, ServerFnError> {
    let (loaded, completed, progress) = courses_as_seen().await?;
    Ok(crate::ssr::page_models::catalogue(&loaded, lang, &completed, progress))
}

/// A course's page; `None` for a course the requester may not see.
#[server]
pub async fn get_course_overview(
    slug: String,
    lang: crate::Lang,
) -> Result<Option<CourseOverview>, ServerFnError> {
    let (loaded, completed, progress) = courses_as_seen().await?;
    Ok(crate::ssr::page_models::overview(&loaded, &slug, lang, &completed, progress))
}

/// The courses as the requester may see them (an instructor's page of them is private), the
/// lessons they completed and their progress panel.
#[cfg(feature = "ssr")]
async fn courses_as_seen() -> Result<
    (std::sync::Arc<lockstep_course::live::Loaded>, Vec<String>, crate::model::ProgressView),
    ServerFnError,
> {
    let ctx = crate::ssr::context()?;
    let requester = ctx.requester().await?;
    let events = ctx.events(&requester).await?;
    if requester.is_instructor() {
        crate::ssr::context::private_page();
    }
    let loaded = ctx.course.loaded_for(requester.is_instructor());
    let progress = page_progress(&ctx, &requester, &events).await?;
    Ok((loaded, lockstep_rules::progress::completed_in(&events), progress))
}

/// The lesson, the same for every learner; a draft only for an instructor, who may ask for it
/// `as_learner`s will get it once it is published.
#[server(endpoint = "get_lesson")]
pub async fn get_lesson(
    slug: String,
    lang: crate::Lang,
    #[server(default)] as_learner: bool,
) -> Result<LessonLookup, ServerFnError> {
    use crate::ssr::page_models::Viewer;
    let ctx = crate::ssr::context()?;
    let viewer = match (ctx.requester().await?.is_instructor(), as_learner) {
        (false, _) => Viewer::Learner,
        (true, false) => Viewer::Instructor,
        (true, true) => Viewer::Preview,
    };
    if viewer != Viewer::Learner {
        crate::ssr::context::private_page();
    }
    Ok(ctx.lesson(&slug, lang, viewer))
}

/// What the lesson page shows of the learner reading it.
#[server]
pub async fn get_lesson_learner(
    slug: String,
    lang: crate::Lang,
) -> Result<LessonLearner, ServerFnError> {
    let ctx = crate::ssr::context()?;
    let requester = ctx.requester().await?;
    let notice = ctx.take_notice().await?;
    ctx.lesson_learner(&requester, lockstep_rules::Reads::Fresh, &slug, notice, lang).await
}

/// The version of a lesson's file as it is now, for an instructor's page of a draft, which
/// reloads when it changes; `None` for anyone else, or a lesson that is gone.
#[server(endpoint = "lesson_version")]
pub async fn lesson_version(slug: String) -> Result<Option<String>, ServerFnError> {
    let ctx = crate::ssr::context()?;
    if !ctx.requester().await?.is_instructor() {
        return Ok(None);
    }
    // The file itself, read now: the course's own look may not have happened yet, and a file
    // saved broken has a version too.
    let loaded = ctx.course.loaded_for(true);
    let Some((entry, lesson)) = loaded.catalogue.find(&slug) else { return Ok(None) };
    let path = entry.dir.join(lesson.file());
    Ok(std::fs::read(path)
        .ok()
        .map(|bytes| lockstep_course::lesson::version(&String::from_utf8_lossy(&bytes))))
}

/// Records that the learner finished a lesson. Works as a plain form post without JavaScript.
#[server]
pub async fn complete_lesson(
    slug: String,
    // The page's, for the words of what it earned; a form without it gets English.
    #[server(default)] lang: crate::Lang,
) -> Result<(), ServerFnError> {
    let ctx = crate::ssr::context()?;
    ctx.complete_lesson(&slug, lang).await
}

/// Records that the learner explored simulation `index` of a lesson to its end, once. Called by
/// the page when a simulation reaches its last step; what it earns is the server's to decide.
#[server(endpoint = "explore_simulation")]
pub async fn explore_simulation(slug: String, index: u32) -> Result<Progressed, ServerFnError> {
    let ctx = crate::ssr::context()?;
    let action = lockstep_xp::Action::SimulationExplored { lesson: slug.clone(), sim: index };
    let requester = ctx.requester().await?;
    let seen = ctx.course.loaded_for(requester.is_instructor());
    if !lockstep_rules::progress::facts(&seen.course).knows(&action) {
        let why = format!("lesson `{slug}` has no simulation {index}");
        return Err(crate::ssr::context::refuse(http::StatusCode::NOT_FOUND, why));
    }
    ctx.record(&requester, action).await
}

/// Resets the learner's progress in one lesson: its XP goes, and can be earned again. Works as
/// a plain form post without JavaScript.
#[server(endpoint = "reset_lesson")]
pub async fn reset_lesson(slug: String) -> Result<(), ServerFnError> {
    crate::ssr::context()?.reset_lesson(&slug).await
}

#[server]
pub async fn get_xp_rules(lang: crate::Lang) -> Result<XpRules, ServerFnError> {
    let ctx = crate::ssr::context()?;
    let requester = ctx.requester().await?;
    let events = ctx.events(&requester).await?;
    let view = page_progress(&ctx, &requester, &events).await?;
    let loaded = ctx.course.loaded();
    Ok(crate::ssr::page_models::xp_rules(&loaded, lang, &ctx.progress_of(&events), view))
}

/// The requester's notifications, worded in `lang`; none for a visitor.
#[server]
pub async fn get_notifications(
    lang: crate::Lang,
) -> Result<crate::model::NotificationsPage, ServerFnError> {
    let ctx = crate::ssr::context()?;
    let requester = ctx.requester().await?;
    let events = ctx.events(&requester).await?;
    let progress = page_progress(&ctx, &requester, &events).await?;
    let items = match requester.account() {
        Some(account) => crate::ssr::talk::notifications(&ctx, account.id, lang)
            .await
            .map_err(crate::ssr::context::internal)?,
        None => Vec::new(),
    };
    Ok(crate::model::NotificationsPage {
        signed_in: requester.account().is_some(),
        items,
        progress,
    })
}

#[server]
pub async fn get_account() -> Result<AccountPage, ServerFnError> {
    let ctx = crate::ssr::context()?;
    let requester = ctx.requester().await?;
    let events = ctx.events(&requester).await?;
    Ok(AccountPage {
        account: requester.account().map(|a| crate::model::AccountInfo {
            email: a.email.clone(),
            instructor: requester.is_instructor(),
            display_name: a.display_name.clone(),
        }),
        error: ctx.take_form_error().await?,
        new_token: ctx.take_new_token().await?,
        form_email: ctx.take_form_email().await?,
        progress: page_progress(&ctx, &requester, &events).await?,
    })
}

/// Every learner's progress and every question's statistics; `None` unless the requester is an
/// instructor.
/// `course`: the slug of the course to show alone; an unknown one is refused.
#[server]
pub async fn get_instructor(
    lang: crate::Lang,
    #[server(default)] course: Option<String>,
) -> Result<Option<InstructorView>, ServerFnError> {
    let ctx = crate::ssr::context()?;
    let requester = ctx.requester().await?;
    if !requester.is_instructor() {
        return Ok(None);
    }
    crate::ssr::context::private_page();
    let scope = crate::ssr::instructor::Scope::of(&ctx.course, course.as_deref())
        .map_err(|why| crate::ssr::context::refuse(http::StatusCode::NOT_FOUND, why))?;
    let events = ctx.events(&requester).await?;
    let progress = page_progress(&ctx, &requester, &events).await?;
    let rows = ctx.store.learners_report().await.map_err(crate::ssr::context::internal)?;
    let answers = ctx.store.first_quiz_answers().await.map_err(crate::ssr::context::internal)?;
    let submissions =
        ctx.store.recent_submissions(200).await.map_err(crate::ssr::context::internal)?;
    let reports = ctx.store.reports().await.map_err(crate::ssr::context::internal)?;
    let hold = ctx.store.setting(lockstep_store::HOLD_FIRST_COMMENTS).await;
    let hold = hold.map_err(crate::ssr::context::internal)?.as_deref() == Some("on");
    let mut view =
        crate::ssr::instructor::view(&scope, &rows, &answers, &submissions, progress, lang);
    view.reports = crate::ssr::instructor::reports(&ctx, &reports, lang);
    view.hold_first_comments = hold;
    let all = &scope.all;
    view.courses = all
        .catalogue
        .courses
        .iter()
        .map(|e| (e.slug.clone(), all.course_meta(e, lang).title.clone()))
        .collect();
    Ok(Some(view))
}

/// The progress panel of a page load, with the one-time notice left for it.
#[cfg(feature = "ssr")]
async fn page_progress(
    ctx: &crate::ssr::AppContext,
    requester: &lockstep_rules::Requester,
    events: &[lockstep_xp::Event],
) -> Result<crate::model::ProgressView, ServerFnError> {
    let mut view = ctx.progress_view(requester, events);
    view.notice = ctx.take_notice().await?;
    Ok(view)
}

/// A graded exercise's page, with the requester's submissions of it.
///
/// `from`: `start` for the lesson's starting script, or the id of one of the requester's
/// submissions to edit and resubmit; otherwise the editor opens on the latest draft.
#[server]
pub async fn get_exercise(
    id: String,
    from: Option<String>,
    lang: crate::Lang,
) -> Result<crate::model::ExercisePage, ServerFnError> {
    use crate::ssr::{context::internal, grading};
    let ctx = crate::ssr::context()?;
    let requester = ctx.requester().await?;
    let events = ctx.events(&requester).await?;
    let edition = ctx.course.edition(lang);
    let course = &edition.course;
    let exercise = grading::exercise(&edition, &id);
    let submissions = match (requester.account(), &exercise) {
        (Some(a), Some(_)) => ctx
            .store
            .submissions_of(&a.learner_id, Some(&id))
            .await
            .map_err(internal)?
            .iter()
            .map(grading::row)
            .collect(),
        _ => Vec::new(),
    };
    let refused = ctx.take_draft().await?;
    // The starting script comes from the course: the page carries it once, in the editor.
    let editor = match course.exercise(&id) {
        Some((_, e)) => grading::editor_start(&ctx.store, &requester, e, refused, from.as_deref())
            .await
            .map_err(internal)?,
        None => grading::starter(String::new()),
    };
    Ok(crate::model::ExercisePage {
        exercise,
        signed_in: requester.account().is_some(),
        error: ctx.take_form_error().await?,
        editor,
        submissions,
        progress: page_progress(&ctx, &requester, &events).await?,
    })
}

/// Search in `lang`'s edition of the course.
#[server]
pub async fn search(
    q: String,
    lang: crate::Lang,
) -> Result<crate::model::SearchResults, ServerFnError> {
    use crate::model::{SearchHit, SearchResults};
    use lockstep_search::Refused;
    let ctx = crate::ssr::context()?;
    // Learners' view: what search finds is published, as the index it reads is.
    let loaded = ctx.course.loaded();
    let index = ctx.search.of(&loaded).map_err(crate::ssr::context::internal)?;
    let w = &lockstep_i18n::t(lang).search;
    let course_of = |slug: &str| {
        let (entry, _) = loaded.catalogue.find(slug)?;
        Some(loaded.course_meta(entry, lang).title.clone())
    };
    Ok(match index.search(lang, &q, 30).map_err(crate::ssr::context::internal)? {
        Ok(hits) if hits.is_empty() => {
            let s = index.suggest(lang, &q).map_err(crate::ssr::context::internal)?;
            SearchResults::Nothing { try_words: s.try_words, elsewhere: s.elsewhere }
        }
        Ok(hits) => SearchResults::Hits(
            hits.into_iter()
                .map(|h| SearchHit {
                    course: course_of(&h.slug).unwrap_or_default(),
                    lesson_title: h.lesson_title,
                    heading: h.heading,
                    href: h.href,
                    snippet: h.snippet,
                })
                .collect(),
        ),
        Err(Refused::TooLong { max_chars }) => SearchResults::Refused((w.too_long)(max_chars)),
        Err(Refused::TooManyWords { max_words }) => {
            SearchResults::Refused((w.too_many_words)(max_words))
        }
        Err(Refused::NoWords) => SearchResults::Refused(w.no_words.into()),
    })
}

/// A submission's page: its events so far and its verdict, for its learner or an instructor.
#[server]
pub async fn get_submission(
    id: i64,
    lang: crate::Lang,
) -> Result<crate::model::SubmissionPage, ServerFnError> {
    let ctx = crate::ssr::context()?;
    let requester = ctx.requester().await?;
    let events = ctx.events(&requester).await?;
    let loaded = ctx.course.loaded();
    let edition = loaded.edition(lang);
    let submission = crate::ssr::grading::submission(&ctx.store, &edition, &requester, &events, id)
        .await
        .map_err(crate::ssr::context::internal)?;
    Ok(crate::model::SubmissionPage {
        submission,
        progress: page_progress(&ctx, &requester, &events).await?,
    })
}
