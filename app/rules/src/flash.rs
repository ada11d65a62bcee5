//! One-time messages a request leaves in the session for the next page the browser loads
//! (post, redirect, get): shown once, then removed.

use tower_sessions::Session;

use crate::RulesError;

/// What was merged, XP earned by a form post.
pub const NOTICE: &str = "notice";
/// What went wrong with the last account form, for the account page.
pub const FORM_ERROR: &str = "form_error";
/// The email a refused sign-in or sign-up was typed with, as `FORM:EMAIL`
/// (`sign-in:ada@example.org`), so the account page gives it back.
pub const FORM_EMAIL: &str = "form_email";
/// A refused submission's script, so the exercise page keeps it.
pub const DRAFT: &str = "draft";
/// A refused comment's text, so the form it came from gives it back ([`CommentDraft`]).
pub const COMMENT_DRAFT: &str = "comment_draft";
/// A refused report's text, so the form it came from gives it back ([`ReportDraft`]).
pub const REPORT_DRAFT: &str = "report_draft";
/// A terminal token just made, for the account page to show once.
pub const NEW_TOKEN: &str = "new_token";

/// Takes the one-time notice for this page, if there is one.
pub async fn take_notice(session: Option<&Session>) -> Result<Option<String>, RulesError> {
    take(session, NOTICE).await
}

/// Takes the account form's error, if the last post left one.
pub async fn take_form_error(session: Option<&Session>) -> Result<Option<String>, RulesError> {
    take(session, FORM_ERROR).await
}

/// Takes the email the last refused account form was typed with: (form, email).
pub async fn take_form_email(
    session: Option<&Session>,
) -> Result<Option<(String, String)>, RulesError> {
    let kept = take(session, FORM_EMAIL).await?;
    Ok(kept.and_then(|k| k.split_once(':').map(|(f, e)| (f.to_string(), e.to_string()))))
}

/// Takes the refused submission's script, if the last post left one.
pub async fn take_draft(session: Option<&Session>) -> Result<Option<String>, RulesError> {
    take(session, DRAFT).await
}

pub async fn take_new_token(session: Option<&Session>) -> Result<Option<String>, RulesError> {
    take(session, NEW_TOKEN).await
}

/// What a refused comment or edit was: where it was written and its text.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct CommentDraft {
    /// The place's key (`lesson:SLUG`), so the draft comes back only there.
    pub place: String,
    /// The thread replied to, or the comment edited; neither for a new thread.
    pub parent: Option<i64>,
    pub edit: Option<i64>,
    pub body: String,
}

pub async fn leave_comment_draft(
    session: &Session,
    draft: &CommentDraft,
) -> Result<(), RulesError> {
    Ok(session.insert(COMMENT_DRAFT, draft).await?)
}

/// Takes the refused comment left for `place`, if any; one left for another place stays.
pub async fn take_comment_draft(
    session: Option<&Session>,
    place: &str,
) -> Result<Option<CommentDraft>, RulesError> {
    take_at(session, COMMENT_DRAFT, place, |d: &CommentDraft| &d.place).await
}

/// What a refused report on a lesson or exercise page was: where, about what, and its text.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ReportDraft {
    /// The place's key, so the draft comes back only there.
    pub place: String,
    pub section: Option<String>,
    /// A quiz question, `QUIZ.QUESTION`.
    pub question: Option<String>,
    pub body: String,
}

pub async fn leave_report_draft(session: &Session, draft: &ReportDraft) -> Result<(), RulesError> {
    Ok(session.insert(REPORT_DRAFT, draft).await?)
}

/// Takes the refused report left for `place`, if any; one left for another place stays.
pub async fn take_report_draft(
    session: Option<&Session>,
    place: &str,
) -> Result<Option<ReportDraft>, RulesError> {
    take_at(session, REPORT_DRAFT, place, |d: &ReportDraft| &d.place).await
}

/// Takes what is under `key` when it was left for `place`. Looks before removing, as [`take`].
async fn take_at<T: serde::de::DeserializeOwned>(
    session: Option<&Session>,
    key: &str,
    place: &str,
    place_of: impl Fn(&T) -> &String,
) -> Result<Option<T>, RulesError> {
    let Some(session) = session else { return Ok(None) };
    match session.get::<T>(key).await? {
        Some(draft) if place_of(&draft) == place => Ok(session.remove(key).await?),
        _ => Ok(None),
    }
}

/// Removes a one-time message from the session and returns it.
///
/// Looks before removing: tower-sessions marks a session modified on every `remove`, even of a
/// key that is not there, and a modified session is written back to the database, so removing
/// blindly would cost every page view a write.
async fn take(session: Option<&Session>, key: &str) -> Result<Option<String>, RulesError> {
    let Some(session) = session else { return Ok(None) };
    if session.get_value(key).await?.is_none() {
        return Ok(None);
    }
    Ok(session.remove::<String>(key).await?)
}

/// Leaves what went wrong with a form for the page it came from.
pub async fn leave_form_error(session: &Session, message: String) -> Result<(), RulesError> {
    Ok(session.insert(FORM_ERROR, message).await?)
}

/// Leaves a message for the next page the browser loads.
pub async fn leave_notice(session: &Session, message: String) -> Result<(), RulesError> {
    Ok(session.insert(NOTICE, message).await?)
}
