//! The comments' forms and their live side. Every form is a plain post answered by a redirect
//! back to the comment it touched (post, redirect, get), with what happened as the page's
//! notice; a refused text comes back in its form (`flash::CommentDraft`), so nothing typed is
//! lost. The rules that must hold under parallel requests (limits, repeats, locks) are the
//! store's, decided in the transaction that writes.
//!
//! Live: `GET /api/comments/events?place=…&version=…` says `changed` whenever the place's
//! version is no longer the one the page has, and `GET /api/comments?place=…` is the comments'
//! HTML for the requester, which the browser swaps in. The version is in the database, so a
//! comment posted through another app machine shows up too (within [`POLL`]).
//!
//! # Comments, live
//!
//! A comment form posts to `/comments` (or `/comments/{id}/{action}`); the handler
//! (`app/server/src/talk.rs`) checks the text (`lockstep-comments`), the place and the section
//! against the course, and the store decides the rest in one transaction; the browser is sent back
//! to the comment with a notice, or, refused, to its form with its text kept in the session
//! (`flash::CommentDraft`). The comments are a request part: `lockstep_pages::talk` renders them
//! for each reader from the store. A page with JavaScript opens
//! `/api/comments/events?place=…&version=…`, which answers `changed` when the place's version in
//! the database differs (woken at once by a write through this process, and polling every 500 ms
//! for the other machines'), and then fetches `/api/comments?place=…`, the same part's HTML, to
//! swap in. The bell asks `/api/notifications` when a page loads, when the comments change and
//! every minute.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::time::Duration;

use axum::extract::{ConnectInfo, Path, Query, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Form};
use lockstep_clock::now_ms;
use lockstep_course::LessonEntry;
use lockstep_i18n::talk::TalkWords;
use lockstep_lang::Text;
use lockstep_pages::request_parts::PartRequest;
use lockstep_routes::{self as routes, Lang, Place};
use lockstep_rules::comments::EDIT_WINDOW_MS;
use lockstep_rules::flash::{self, CommentDraft};
use lockstep_rules::Requester;
use lockstep_store::{Limit, Moderation, NewComment, Rejected, HOLD_FIRST_COMMENTS};
use tower_sessions::Session;

use crate::http_error::HttpError;
use crate::language::PageLang;
use crate::state::AppState;

/// Comments one account may post in ten minutes, and one address in an hour: enough for a
/// conversation, not for a flood; an address is shared by a classroom, so it allows more.
const PER_ACCOUNT: (u64, i64) = (10, 600);
const PER_ADDRESS: (u64, i64) = (60, 3_600);

/// How often a live reader's stream looks at the database for what other machines wrote.
const POLL: Duration = Duration::from_millis(500);

#[derive(serde::Deserialize)]
pub struct NewForm {
    place: String,
    #[serde(default)]
    parent: Option<String>,
    #[serde(default)]
    body: String,
    #[serde(default)]
    section: Option<String>,
}

/// `POST /comments`: a new thread, or a reply (`parent`).
pub async fn post(
    State(state): State<AppState>,
    session: Session,
    requester: Requester,
    PageLang(lang): PageLang,
    peer: Option<Extension<ConnectInfo<SocketAddr>>>,
    headers: HeaderMap,
    Form(form): Form<NewForm>,
) -> Result<Response, HttpError> {
    let w = lockstep_i18n::talk(lang);
    let account = signed_in(&requester)?;
    let place = known_place(&state, &form.place)?;
    let parent = match form.parent.as_deref().filter(|p| !p.is_empty()) {
        Some(p) => Some(p.parse::<i64>().map_err(|_| no_thread())?),
        None => None,
    };
    // Only a heading the page has: anything else is not kept.
    let section = form.section.filter(|s| sections_of(&state, &place).contains(s));
    let draft = CommentDraft { place: place.key(), parent, edit: None, body: form.body.clone() };
    let back = |id: Option<i64>| match (id, parent) {
        (Some(id), _) | (None, Some(id)) => anchored(&place, lang, id),
        (None, None) => format!("{}#comment-form", lang.path(&place.page())),
    };
    let body = match lockstep_comments::check(&form.body) {
        Ok(body) => body,
        Err(refused) => {
            return refuse(&session, text_refused(w, &refused), draft, &back(None)).await
        }
    };
    // A thread this learner may not read is, to them, no thread: answered as an id that does
    // not exist, so refusals tell nothing of what waits for review.
    if let Some(parent) = parent {
        let root = state.context.store.comment(parent).await.map_err(failed)?;
        if !root.is_some_and(|c| requester.may_read_comment(&c)) {
            let words = rejected_words(w, &Rejected::NoSuchThread, now_ms());
            return refuse(&session, words, draft, &back(None)).await;
        }
    }
    let address = crate::auth::client_address(&state, &headers, peer);
    let limits = [
        Limit::new(format!("comment:account:{account}"), PER_ACCOUNT.0, PER_ACCOUNT.1),
        Limit::new(format!("comment:address:{address}"), PER_ADDRESS.0, PER_ADDRESS.1),
    ];
    let store = &state.context.store;
    let hold = !requester.is_instructor()
        && store.setting(HOLD_FIRST_COMMENTS).await.map_err(failed)?.as_deref() == Some("on");
    let key = place.key();
    let new = NewComment {
        place: &key,
        parent,
        account,
        body: &body,
        section: section.as_deref(),
        hold_newcomers: hold,
    };
    let now = now_ms();
    match store.post_comment(&new, &limits, now).await.map_err(failed)? {
        Ok(id) => {
            state.talk.notify_waiters();
            let held =
                store.comment(id).await.map_err(failed)?.is_some_and(|c| c.held_ms.is_some());
            let notice = if held { w.posted_held } else { w.posted };
            leave(&session, notice.to_string()).await?;
            Ok(crate::redirect::see_other(&back(Some(id)), None))
        }
        Err(rejected) => {
            refuse(&session, rejected_words(w, &rejected, now), draft, &back(None)).await
        }
    }
}

#[derive(serde::Deserialize)]
pub struct EditForm {
    #[serde(default)]
    body: String,
}

/// `POST /comments/{id}/{action}`: the author's `edit` and `delete`, anyone's `follow` and
/// `unfollow` of a thread they can see, the instructors' `hide`, `restore`, `lock`, `unlock`
/// and `remove`.
pub async fn act(
    State(state): State<AppState>,
    Path((id, action)): Path<(i64, String)>,
    session: Session,
    requester: Requester,
    PageLang(lang): PageLang,
    Form(form): Form<EditForm>,
) -> Result<Response, HttpError> {
    let w = lockstep_i18n::talk(lang);
    let account = signed_in(&requester)?;
    let store = &state.context.store;
    let comment = store.comment(id).await.map_err(failed)?;
    // A comment this learner cannot read, or one on a page they cannot see, is to them no
    // comment at all; so is a reply in a thread they cannot read.
    let comment = comment.filter(|c| requester.may_read_comment(c)).ok_or_else(no_comment)?;
    let place = known_place(&state, &comment.place).map_err(|_| no_comment())?;
    let thread = comment.parent_id.unwrap_or(comment.id);
    if thread != id {
        let root = store.comment(thread).await.map_err(failed)?;
        root.filter(|c| requester.may_read_comment(c)).ok_or_else(no_comment)?;
    }
    let now = now_ms();
    let moderation = match action.as_str() {
        "hide" => Some(Moderation::Hide),
        "restore" => Some(Moderation::Restore),
        "lock" => Some(Moderation::Lock),
        "unlock" => Some(Moderation::Unlock),
        "remove" => Some(Moderation::Delete),
        _ => None,
    };
    let (outcome, back) = if let Some(moderation) = moderation {
        if !requester.is_instructor() {
            return Err(HttpError::said(
                StatusCode::FORBIDDEN,
                Text::each(|l| lockstep_i18n::talk(l).only_instructors.into()),
            )
            .page());
        }
        store.moderate(id, moderation, now).await.map_err(failed)?;
        let back = match moderation {
            Moderation::Delete => format!("{}#comments", lang.path(&place.page())),
            _ => anchored(&place, lang, id),
        };
        (Ok(w.done), back)
    } else {
        match action.as_str() {
            "edit" => {
                let draft = CommentDraft {
                    place: comment.place.clone(),
                    parent: None,
                    edit: Some(id),
                    body: form.body.clone(),
                };
                let back = anchored(&place, lang, id);
                let body = match lockstep_comments::check(&form.body) {
                    Ok(body) => body,
                    Err(refused) => {
                        return refuse(&session, text_refused(w, &refused), draft, &back).await
                    }
                };
                match store.edit_comment(id, account, &body, EDIT_WINDOW_MS, now).await {
                    Ok(Ok(())) => (Ok(w.saved), back),
                    Ok(Err(rejected)) => {
                        let words = rejected_words(w, &rejected, now);
                        return refuse(&session, words, draft, &back).await;
                    }
                    Err(e) => return Err(failed(e)),
                }
            }
            "delete" => {
                let done = store.delete_comment(id, account, now).await.map_err(failed)?;
                let back = match comment.parent_id {
                    Some(thread) => anchored(&place, lang, thread),
                    None => format!("{}#comments", lang.path(&place.page())),
                };
                (done.map(|()| w.removed), back)
            }
            "follow" | "unfollow" => {
                store.follow(account, thread, action == "follow").await.map_err(failed)?;
                (Ok(w.done), anchored(&place, lang, thread))
            }
            _ => return Err(HttpError::refused(StatusCode::NOT_FOUND, "no such action").page()),
        }
    };
    let notice = match outcome {
        Ok(words) => {
            state.talk.notify_waiters();
            words.to_string()
        }
        Err(rejected) => rejected_words(w, &rejected, now),
    };
    leave(&session, notice).await?;
    Ok(crate::redirect::see_other(&back, None))
}

#[derive(serde::Deserialize)]
pub struct NameForm {
    #[serde(default)]
    display_name: String,
}

/// `POST /account/name`: the name shown beside the learner's comments; empty clears it.
pub async fn set_name(
    State(state): State<AppState>,
    session: Session,
    requester: Requester,
    PageLang(lang): PageLang,
    Form(form): Form<NameForm>,
) -> Result<Response, HttpError> {
    let account = signed_in(&requester)?;
    let w = &lockstep_i18n::t(lang).account;
    match lockstep_comments::check_display_name(&form.display_name) {
        Ok(name) => {
            let store = &state.context.store;
            store.set_display_name(account, name.as_deref()).await.map_err(failed)?;
            leave(&session, w.name_saved.to_string()).await?;
        }
        Err(_) => {
            let why = (w.name_too_long)(lockstep_comments::MAX_NAME_CHARS);
            flash::leave_form_error(&session, why).await.map_err(failed)?;
        }
    }
    Ok(crate::redirect::see_other(&lang.path(routes::ACCOUNT), None))
}

#[derive(serde::Deserialize)]
pub struct ReportForm {
    place: String,
    #[serde(default)]
    section: Option<String>,
    #[serde(default)]
    question: Option<String>,
    #[serde(default)]
    submission: Option<String>,
    #[serde(default)]
    body: String,
}

/// Reports one signed-in account may send in an hour, and one address; a visitor's address
/// far fewer, as nothing else stands behind them.
const REPORTS_PER_ACCOUNT: (u64, i64) = (10, 3_600);
const REPORTS_PER_ADDRESS: (u64, i64) = (30, 3_600);
const REPORTS_PER_VISITOR_ADDRESS: (u64, i64) = (3, 3_600);

/// `POST /reports`: "report a problem" about a lesson (a section, a quiz question) or an
/// exercise (a verdict), from anyone. What it names is kept only where the server issued it:
/// a section of that page, a question of its quizzes, a submission the reporter may read.
pub async fn report(
    State(state): State<AppState>,
    session: Session,
    requester: Requester,
    PageLang(lang): PageLang,
    peer: Option<Extension<ConnectInfo<SocketAddr>>>,
    headers: HeaderMap,
    Form(form): Form<ReportForm>,
) -> Result<Response, HttpError> {
    let w = &lockstep_i18n::t(lang).report;
    let place = known_place(&state, &form.place)?;
    let section = form.section.filter(|s| sections_of(&state, &place).contains(s));
    let question = form.question.filter(|q| has_question(&state, &place, q));
    let store = &state.context.store;
    let submission = match form.submission.as_deref().and_then(|s| s.parse::<i64>().ok()) {
        Some(id) => store
            .submission(id)
            .await
            .map_err(failed)?
            .filter(|s| requester.may_read(s) && place == Place::Exercise(s.exercise.clone()))
            .map(|s| s.id),
        None => None,
    };
    let back = match submission {
        Some(id) => format!("{}#report", lang.path(&routes::submission(id))),
        None => format!("{}#report", lang.path(&place.page())),
    };
    // A refused report from a lesson or exercise page comes back in its form there; a
    // verdict's form is folded under the verdict, which is no place to find it again.
    let keep = |body: &str| {
        submission.is_none().then(|| flash::ReportDraft {
            place: place.key(),
            section: section.clone(),
            question: question.clone(),
            body: body.to_string(),
        })
    };
    let body = match lockstep_comments::check(&form.body) {
        Ok(body) if body.chars().count() <= lockstep_web::model::MAX_REPORT_CHARS => body,
        Ok(body) => {
            let why = (w.too_long)(lockstep_web::model::MAX_REPORT_CHARS);
            return refused_report(&session, why, keep(&body), &back).await;
        }
        Err(_) => {
            leave(&session, w.empty.to_string()).await?;
            return Ok(crate::redirect::see_other(&back, None));
        }
    };
    let address = crate::auth::client_address(&state, &headers, peer);
    let account = requester.account().map(|a| a.id);
    let limits = match account {
        Some(id) => vec![
            Limit::new(
                format!("report:account:{id}"),
                REPORTS_PER_ACCOUNT.0,
                REPORTS_PER_ACCOUNT.1,
            ),
            Limit::new(
                format!("report:address:{address}"),
                REPORTS_PER_ADDRESS.0,
                REPORTS_PER_ADDRESS.1,
            ),
        ],
        None => vec![Limit::new(
            format!("report:visitor:{address}"),
            REPORTS_PER_VISITOR_ADDRESS.0,
            REPORTS_PER_VISITOR_ADDRESS.1,
        )],
    };
    let key = place.key();
    let submission = submission.map(|s| s.to_string());
    let new = lockstep_store::NewReport {
        place: &key,
        section: section.as_deref(),
        question: question.as_deref(),
        submission: submission.as_deref(),
        account,
        body: &body,
    };
    let now = now_ms();
    let notice = match store.file_report(&new, &limits, now).await.map_err(failed)? {
        Ok(_) if account.is_some() => w.thanks_signed_in.to_string(),
        Ok(_) => w.thanks.to_string(),
        Err(refused) => {
            let why = (w.too_many)(refused.minutes_left(now / 1000));
            return refused_report(&session, why, keep(&body), &back).await;
        }
    };
    leave(&session, notice).await?;
    Ok(crate::redirect::see_other(&back, None))
}

async fn refused_report(
    session: &Session,
    why: String,
    draft: Option<flash::ReportDraft>,
    back: &str,
) -> Result<Response, HttpError> {
    if let Some(draft) = draft {
        flash::leave_report_draft(session, &draft).await.map_err(failed)?;
    }
    leave(session, why).await?;
    Ok(crate::redirect::see_other(back, None))
}

/// Whether `question` (`QUIZ.QUESTION`, both from 0) is a question of the lesson's quizzes.
fn has_question(state: &AppState, place: &Place, question: &str) -> bool {
    let Place::Lesson(slug) = place else { return false };
    let Some((quiz, n)) = question.split_once('.') else { return false };
    let (Ok(quiz), Ok(n)) = (quiz.parse::<usize>(), n.parse::<usize>()) else { return false };
    let course = state.context.course.current();
    let Some((_, LessonEntry::Ready(lesson))) = course.find(slug) else { return false };
    let quizzes = lesson.body.iter().filter_map(|b| match b {
        lockstep_course::Block::Quiz(q) => Some(q.questions.len()),
        _ => None,
    });
    quizzes.into_iter().nth(quiz).is_some_and(|count| n < count)
}

#[derive(serde::Deserialize)]
pub struct ReadForm {
    #[serde(default)]
    id: Option<String>,
}

/// `POST /notifications/read`: with `id`, marks that notification read and opens what it is
/// about (the comment, or the page and section a report was about); without, marks them all
/// read. Only the learner's own: another's id changes nothing and leads nowhere.
pub async fn read(
    State(state): State<AppState>,
    requester: Requester,
    PageLang(lang): PageLang,
    Form(form): Form<ReadForm>,
) -> Result<Response, HttpError> {
    let account = signed_in(&requester)?;
    let store = &state.context.store;
    let all = lang.path(routes::NOTIFICATIONS);
    let id = form.id.as_deref().and_then(|id| id.parse::<i64>().ok());
    store.mark_read(account, id, now_ms()).await.map_err(failed)?;
    let Some(id) = id else { return Ok(crate::redirect::see_other(&all, None)) };
    let mine = store.notifications(account, i64::MAX).await.map_err(failed)?;
    let to = mine.into_iter().find(|n| n.id == id).and_then(|n| match n.about {
        lockstep_store::About::Reply { comment, .. } => {
            lockstep_pages::talk::href_of(&n.place, Some(comment), lang)
        }
        // An answer to a report leads to what was reported: its page, at its section.
        lockstep_store::About::Answer { section, .. } => {
            let page = lockstep_pages::talk::href_of(&n.place, None, lang)?;
            Some(match section {
                Some(id) if id.chars().all(|c| c == '-' || routes::is_anchor_char(c)) => {
                    format!("{page}#{id}")
                }
                _ => page,
            })
        }
    });
    Ok(crate::redirect::see_other(&to.unwrap_or(all), None))
}

/// `GET /api/notifications`: `{"unread": N}` for the bell; 0 for a visitor.
pub async fn unread(
    State(state): State<AppState>,
    requester: Requester,
) -> Result<Response, HttpError> {
    let unread = match requester.account() {
        Some(a) => state.context.store.unread_notifications(a.id).await.map_err(failed)?,
        None => 0,
    };
    let mut response = axum::Json(serde_json::json!({ "unread": unread })).into_response();
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}

#[derive(serde::Deserialize)]
pub struct PlaceQuery {
    place: String,
    #[serde(default)]
    lang: Option<Lang>,
    #[serde(default)]
    version: Option<i64>,
}

/// `GET /api/comments?place=…&lang=…`: the comments' HTML for the requester, as their page
/// has it, for the browser to swap in.
pub async fn part(
    State(state): State<AppState>,
    Query(query): Query<PlaceQuery>,
    session: Session,
    requester: Requester,
) -> Result<Response, HttpError> {
    let lang = query.lang.unwrap_or(Lang::En);
    let place = known_place(&state, &query.place)?;
    let request = PartRequest {
        rules: state.rules(),
        place: &place,
        lang,
        requester: &requester,
        session: Some(&session),
    };
    let html = state.comments.comments_html(request).await.map_err(failed)?;
    let mut response = html.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}

/// `GET /api/comments/events?place=…&version=…`: a `changed` event carrying the new version
/// whenever the place's comments are no longer at `version`.
pub async fn events(
    State(state): State<AppState>,
    Query(query): Query<PlaceQuery>,
) -> Result<Response, HttpError> {
    let place = known_place(&state, &query.place)?.key();
    let seen = query.version.unwrap_or(0);
    let stream = futures::stream::unfold(seen, move |seen| {
        let (state, place) = (state.clone(), place.clone());
        async move {
            loop {
                // Listen before looking, so a change between the two is not missed.
                let changed = state.talk.notified();
                tokio::pin!(changed);
                changed.as_mut().enable();
                match state.context.store.comments_version(&place).await {
                    Ok(version) if version != seen => {
                        let event = SseEvent::default().event("changed").data(version.to_string());
                        return Some((Ok::<_, Infallible>(event), version));
                    }
                    Ok(_) => {}
                    Err(e) => {
                        tracing::error!("comments of {place}: {e}");
                        return None;
                    }
                }
                tokio::select! {
                    _ = changed => {}
                    _ = tokio::time::sleep(POLL) => {}
                }
            }
        }
    });
    let mut response = Sse::new(stream).keep_alive(KeepAlive::default()).into_response();
    response.headers_mut().insert("x-accel-buffering", HeaderValue::from_static("no"));
    Ok(response)
}

fn signed_in(requester: &Requester) -> Result<i64, HttpError> {
    requester.account().map(|a| a.id).ok_or_else(|| {
        HttpError::said(
            StatusCode::FORBIDDEN,
            Text::each(|l| lockstep_i18n::talk(l).sign_in_first.into()),
        )
        .page()
    })
}

/// The place `key` names, when this course has it: a lesson (ready or not) or an exercise.
fn known_place(state: &AppState, key: &str) -> Result<Place, HttpError> {
    let course = state.context.course.current();
    let place = Place::parse(key).filter(|p| match p {
        Place::Lesson(slug) => course.find(slug).is_some(),
        Place::Exercise(id) => course.exercise(id).is_some(),
    });
    place.ok_or_else(|| {
        HttpError::said(
            StatusCode::NOT_FOUND,
            Text::each(|l| lockstep_i18n::talk(l).no_place.into()),
        )
        .page()
    })
}

/// The heading ids of a lesson, in any language: what a comment's section may be.
fn sections_of(state: &AppState, place: &Place) -> Vec<String> {
    let Place::Lesson(slug) = place else { return Vec::new() };
    let loaded = state.context.course.loaded();
    loaded.editions().flat_map(|e| e.course.sections(slug)).map(|(id, _)| id).collect()
}

fn anchored(place: &Place, lang: Lang, id: i64) -> String {
    format!("{}#{}", lang.path(&place.page()), routes::comment_anchor(id))
}

fn no_thread() -> HttpError {
    HttpError::said(
        StatusCode::BAD_REQUEST,
        Text::each(|l| lockstep_i18n::talk(l).no_thread.into()),
    )
    .page()
}

fn no_comment() -> HttpError {
    HttpError::said(StatusCode::NOT_FOUND, Text::each(|l| lockstep_i18n::talk(l).not_yours.into()))
        .page()
}

fn text_refused(w: &TalkWords, refused: &lockstep_comments::Refused) -> String {
    match refused {
        lockstep_comments::Refused::Empty => w.empty_body.to_string(),
        lockstep_comments::Refused::TooLong { chars } => {
            (w.too_long)(*chars, lockstep_comments::MAX_CHARS)
        }
    }
}

fn rejected_words(w: &TalkWords, rejected: &Rejected, now_ms: i64) -> String {
    match rejected {
        Rejected::Limit(refused) => (w.too_fast)(refused.minutes_left(now_ms / 1000)),
        Rejected::Repeated => w.repeated.to_string(),
        Rejected::NoSuchThread | Rejected::Locked => w.no_thread.to_string(),
        Rejected::NotYours => w.not_yours.to_string(),
        Rejected::TooLate => (w.too_late)(EDIT_WINDOW_MS / 60_000),
    }
}

/// Sends the learner back to the form with why, and their text in it.
async fn refuse(
    session: &Session,
    why: String,
    draft: CommentDraft,
    back: &str,
) -> Result<Response, HttpError> {
    flash::leave_comment_draft(session, &draft).await.map_err(failed)?;
    leave(session, why).await?;
    Ok(crate::redirect::see_other(back, None))
}

async fn leave(session: &Session, notice: String) -> Result<(), HttpError> {
    flash::leave_notice(session, notice).await.map_err(failed)
}

fn failed(e: impl std::fmt::Display) -> HttpError {
    HttpError::internal("comments", e).page()
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_name_form_and_the_check_agree_on_the_longest_name() {
        assert_eq!(lockstep_web::model::MAX_NAME_CHARS, lockstep_comments::MAX_NAME_CHARS);
    }
}
