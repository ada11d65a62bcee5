//! The server functions' bodies: [`lockstep_web::ssr::Backend`] answered from the rules, the
//! course, the search index and the store.

use leptos::prelude::*;
use lockstep_web::model::{
    AccountPage, CatalogueView, CourseOverview, ExercisePage, InstructorView, LessonLearner,
    LessonLookup, NotificationsPage, Progressed, SearchResults, SubmissionPage, XpRules,
};
use lockstep_web::ssr::{Answer, Backend};
use lockstep_web::Lang;

use crate::AppContext;

impl Backend for AppContext {
    fn catalogue(&self, lang: Lang) -> Answer<'_, CatalogueView> {
        Box::pin(async move {
            let (loaded, completed, progress) = courses_as_seen(self).await?;
            Ok(crate::page_models::catalogue(&loaded, lang, &completed, progress))
        })
    }

    fn course_overview(&self, slug: String, lang: Lang) -> Answer<'_, Option<CourseOverview>> {
        Box::pin(async move {
            let (loaded, completed, progress) = courses_as_seen(self).await?;
            Ok(crate::page_models::overview(&loaded, &slug, lang, &completed, progress))
        })
    }

    fn lesson(&self, slug: String, lang: Lang, as_learner: bool) -> Answer<'_, LessonLookup> {
        Box::pin(async move {
            use crate::page_models::Viewer;
            let viewer = match (self.requester().await?.is_instructor(), as_learner) {
                (false, _) => Viewer::Learner,
                (true, false) => Viewer::Instructor,
                (true, true) => Viewer::Preview,
            };
            if viewer != Viewer::Learner {
                crate::context::private_page();
            }
            Ok(self.lesson_view(&slug, lang, viewer))
        })
    }

    fn lesson_learner(&self, slug: String, lang: Lang) -> Answer<'_, LessonLearner> {
        Box::pin(async move {
            let requester = self.requester().await?;
            let notice = self.take_notice().await?;
            self.learner_view(&requester, lockstep_rules::Reads::Fresh, &slug, notice, lang).await
        })
    }

    fn lesson_version(&self, slug: String) -> Answer<'_, Option<String>> {
        Box::pin(async move {
            if !self.requester().await?.is_instructor() {
                return Ok(None);
            }
            // The file itself, read now: the course's own look may not have happened yet, and a file
            // saved broken has a version too.
            let loaded = self.course.loaded_for(true);
            let Some((entry, lesson)) = loaded.catalogue.find(&slug) else { return Ok(None) };
            let path = entry.dir.join(lesson.file());
            Ok(std::fs::read(path)
                .ok()
                .map(|bytes| lockstep_course::lesson::version(&String::from_utf8_lossy(&bytes))))
        })
    }

    fn complete_lesson(&self, slug: String, lang: Lang) -> Answer<'_, ()> {
        Box::pin(async move { self.record_completion(&slug, lang).await })
    }

    fn explore_simulation(&self, slug: String, index: u32) -> Answer<'_, Progressed> {
        Box::pin(async move {
            let action =
                lockstep_xp::Action::SimulationExplored { lesson: slug.clone(), sim: index };
            let requester = self.requester().await?;
            let seen = self.course.loaded_for(requester.is_instructor());
            if !lockstep_rules::progress::facts(&seen.course).knows(&action) {
                let why = format!("lesson `{slug}` has no simulation {index}");
                return Err(crate::context::refuse(http::StatusCode::NOT_FOUND, why));
            }
            self.record(&requester, action).await
        })
    }

    fn reset_lesson(&self, slug: String) -> Answer<'_, ()> {
        Box::pin(async move { self.reset_progress_in(&slug).await })
    }

    fn xp_rules(&self, lang: Lang) -> Answer<'_, XpRules> {
        Box::pin(async move {
            let requester = self.requester().await?;
            let events = self.events(&requester).await?;
            let view = page_progress(self, &requester, &events).await?;
            let loaded = self.course.loaded();
            Ok(crate::page_models::xp_rules(&loaded, lang, &self.progress_of(&events), view))
        })
    }

    fn notifications(&self, lang: Lang) -> Answer<'_, NotificationsPage> {
        Box::pin(async move {
            let requester = self.requester().await?;
            let events = self.events(&requester).await?;
            let progress = page_progress(self, &requester, &events).await?;
            let items = match requester.account() {
                Some(account) => crate::talk::notifications(self, account.id, lang)
                    .await
                    .map_err(crate::context::internal)?,
                None => Vec::new(),
            };
            Ok(NotificationsPage { signed_in: requester.account().is_some(), items, progress })
        })
    }

    fn account(&self) -> Answer<'_, AccountPage> {
        Box::pin(async move {
            let requester = self.requester().await?;
            let events = self.events(&requester).await?;
            Ok(AccountPage {
                account: requester.account().map(|a| lockstep_web::model::AccountInfo {
                    email: a.email.clone(),
                    instructor: requester.is_instructor(),
                    display_name: a.display_name.clone(),
                }),
                error: self.take_form_error().await?,
                new_token: self.take_new_token().await?,
                form_email: self.take_form_email().await?,
                progress: page_progress(self, &requester, &events).await?,
            })
        })
    }

    fn instructor(&self, lang: Lang, course: Option<String>) -> Answer<'_, Option<InstructorView>> {
        Box::pin(async move {
            let requester = self.requester().await?;
            if !requester.is_instructor() {
                return Ok(None);
            }
            crate::context::private_page();
            let scope = crate::instructor::Scope::of(&self.course, course.as_deref())
                .map_err(|why| crate::context::refuse(http::StatusCode::NOT_FOUND, why))?;
            let events = self.events(&requester).await?;
            let progress = page_progress(self, &requester, &events).await?;
            let rows = self.store.learners_report().await.map_err(crate::context::internal)?;
            let answers =
                self.store.first_quiz_answers().await.map_err(crate::context::internal)?;
            let submissions =
                self.store.recent_submissions(200).await.map_err(crate::context::internal)?;
            let reports = self.store.reports().await.map_err(crate::context::internal)?;
            let hold = self.store.setting(lockstep_store::HOLD_FIRST_COMMENTS).await;
            let hold = hold.map_err(crate::context::internal)?.as_deref() == Some("on");
            let mut view =
                crate::instructor::view(&scope, &rows, &answers, &submissions, progress, lang);
            view.reports = crate::instructor::reports(self, &reports, lang);
            view.hold_first_comments = hold;
            let all = &scope.all;
            view.courses = all
                .catalogue
                .courses
                .iter()
                .map(|e| (e.slug.clone(), all.course_meta(e, lang).title.clone()))
                .collect();
            Ok(Some(view))
        })
    }

    fn exercise(&self, id: String, from: Option<String>, lang: Lang) -> Answer<'_, ExercisePage> {
        Box::pin(async move {
            use crate::{context::internal, grading};
            let requester = self.requester().await?;
            let events = self.events(&requester).await?;
            let edition = self.course.edition(lang);
            let course = &edition.course;
            let exercise = grading::exercise(&edition, &id);
            let submissions = match (requester.account(), &exercise) {
                (Some(a), Some(_)) => self
                    .store
                    .submissions_of(&a.learner_id, Some(&id))
                    .await
                    .map_err(internal)?
                    .iter()
                    .map(grading::row)
                    .collect(),
                _ => Vec::new(),
            };
            let refused = self.take_draft().await?;
            // The starting script comes from the course: the page carries it once, in the editor.
            let editor = match course.exercise(&id) {
                Some((_, e)) => {
                    grading::editor_start(&self.store, &requester, e, refused, from.as_deref())
                        .await
                        .map_err(internal)?
                }
                None => grading::starter(String::new()),
            };
            Ok(ExercisePage {
                exercise,
                signed_in: requester.account().is_some(),
                error: self.take_form_error().await?,
                editor,
                submissions,
                progress: page_progress(self, &requester, &events).await?,
            })
        })
    }

    fn search(&self, q: String, lang: Lang) -> Answer<'_, SearchResults> {
        Box::pin(async move {
            use lockstep_search::Refused;
            use lockstep_web::model::{SearchHit, SearchResults};
            // Learners' view: what search finds is published, as the index it reads is.
            let loaded = self.course.loaded();
            let index = self.search.of(&loaded).map_err(crate::context::internal)?;
            let w = &lockstep_i18n::t(lang).search;
            let course_of = |slug: &str| {
                let (entry, _) = loaded.catalogue.find(slug)?;
                Some(loaded.course_meta(entry, lang).title.clone())
            };
            Ok(match index.search(lang, &q, 30).map_err(crate::context::internal)? {
                Ok(hits) if hits.is_empty() => {
                    let s = index.suggest(lang, &q).map_err(crate::context::internal)?;
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
                Err(Refused::TooLong { max_chars }) => {
                    SearchResults::Refused((w.too_long)(max_chars))
                }
                Err(Refused::TooManyWords { max_words }) => {
                    SearchResults::Refused((w.too_many_words)(max_words))
                }
                Err(Refused::NoWords) => SearchResults::Refused(w.no_words.into()),
            })
        })
    }

    fn submission(&self, id: i64, lang: Lang) -> Answer<'_, SubmissionPage> {
        Box::pin(async move {
            let requester = self.requester().await?;
            let events = self.events(&requester).await?;
            let loaded = self.course.loaded();
            let edition = loaded.edition(lang);
            let submission =
                crate::grading::submission(&self.store, &edition, &requester, &events, id)
                    .await
                    .map_err(crate::context::internal)?;
            Ok(SubmissionPage {
                submission,
                progress: page_progress(self, &requester, &events).await?,
            })
        })
    }
}

/// The courses as the requester may see them (an instructor's page of them is private), the
/// lessons they completed and their progress panel.
async fn courses_as_seen(
    ctx: &AppContext,
) -> Result<
    (std::sync::Arc<lockstep_course::live::Loaded>, Vec<String>, lockstep_web::model::ProgressView),
    ServerFnError,
> {
    let requester = ctx.requester().await?;
    let events = ctx.events(&requester).await?;
    if requester.is_instructor() {
        crate::context::private_page();
    }
    let loaded = ctx.course.loaded_for(requester.is_instructor());
    let progress = page_progress(ctx, &requester, &events).await?;
    Ok((loaded, lockstep_rules::progress::completed_in(&events), progress))
}

/// The progress panel of a page load, with the one-time notice left for it.
async fn page_progress(
    ctx: &crate::AppContext,
    requester: &lockstep_rules::Requester,
    events: &[lockstep_xp::Event],
) -> Result<lockstep_web::model::ProgressView, ServerFnError> {
    let mut view = ctx.progress_view(requester, events);
    view.notice = ctx.take_notice().await?;
    Ok(view)
}
