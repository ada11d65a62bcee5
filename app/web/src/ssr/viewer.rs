//! Who is looking at the page: a signed-in account (its server-side session names it), or an
//! anonymous learner (the learner cookie, if this browser has recorded anything yet). Resolved
//! once per request and handed to whatever needs the learner.

use lockstep_store::{Account, StoreError};
use serde::{Deserialize, Serialize};
use tower_sessions::Session;

use super::AppContext;

/// The session key of a signed-in session.
pub const SIGNED_IN: &str = "signed_in";
/// The session key of a one-time message for the next page (what was merged, XP earned by a
/// form post): shown once, then removed.
pub const NOTICE: &str = "notice";
/// The session key of what went wrong with the last account form, for the account page.
pub const FORM_ERROR: &str = "form_error";

/// What a signed-in session stores: the account and the epoch it signed in at. A password
/// change bumps the account's epoch, which ends every session signed in before it.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
pub struct SignedIn {
    pub account: i64,
    pub epoch: i64,
    /// The day (since 1970, UTC) the session was last written. A session expires after 30
    /// days without a write, so the first request of each day writes it once more; writing it
    /// on every page view would cost every view a database write.
    #[serde(default)]
    pub day: i64,
}

impl SignedIn {
    pub fn today(account: i64, epoch: i64) -> SignedIn {
        SignedIn { account, epoch, day: today() }
    }
}

fn today() -> i64 {
    let since_epoch =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    (since_epoch.as_secs() / 86_400) as i64
}

#[derive(Debug, Clone)]
pub enum Viewer {
    Anonymous { learner: Option<String> },
    SignedIn(Account),
}

impl Viewer {
    /// Whose progress the page shows and records go to; `None` for a browser that has recorded
    /// nothing yet.
    pub fn learner(&self) -> Option<&str> {
        match self {
            Viewer::Anonymous { learner } => learner.as_deref(),
            Viewer::SignedIn(account) => Some(&account.learner_id),
        }
    }

    pub fn is_instructor(&self) -> bool {
        self.account().is_some_and(|a| a.role == lockstep_store::Role::Instructor)
    }

    pub fn account(&self) -> Option<&Account> {
        match self {
            Viewer::SignedIn(account) => Some(account),
            Viewer::Anonymous { .. } => None,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ViewerError {
    #[error("session store: {0}")]
    Session(#[from] tower_sessions::session::Error),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// The viewer of a request. A session whose account is gone or whose epoch is stale is treated
/// as signed out (and forgets the account).
pub async fn resolve(
    ctx: &AppContext,
    session: Option<&Session>,
    headers: &http::HeaderMap,
) -> Result<Viewer, ViewerError> {
    resolve_with(ctx, Reads::Fresh, session, headers).await
}

/// Whether a request may use what this process keeps between its writes
/// ([`Store::cached`]): a page that only shows the learner may; anything that decides or
/// records reads the database.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reads {
    Fresh,
    Kept,
}

/// [`resolve`], reading the account as `reads` says.
pub async fn resolve_with(
    ctx: &AppContext,
    reads: Reads,
    session: Option<&Session>,
    headers: &http::HeaderMap,
) -> Result<Viewer, ViewerError> {
    let store = &ctx.store;
    if let Some(session) = session {
        if let Some(signed_in) = session.get::<SignedIn>(SIGNED_IN).await? {
            let mut account = match reads {
                Reads::Fresh => store.account_by_id(signed_in.account).await?,
                Reads::Kept => store.cached().account_by_id(signed_in.account).await?,
            };
            let current = |a: &Option<Account>| {
                a.as_ref().is_some_and(|a| a.session_epoch == signed_in.epoch)
            };
            if reads == Reads::Kept && !current(&account) {
                // A kept account may predate a password reset made by another process;
                // the database decides before the session is ended.
                account = store.account_by_id(signed_in.account).await?;
            }
            match account {
                Some(account) if account.session_epoch == signed_in.epoch => {
                    if signed_in.day != today() {
                        let renewed = SignedIn::today(signed_in.account, signed_in.epoch);
                        session.insert(SIGNED_IN, renewed).await?;
                    }
                    return Ok(Viewer::SignedIn(account));
                }
                _ => {
                    session.remove_value(SIGNED_IN).await?;
                }
            }
        }
    }
    Ok(Viewer::Anonymous { learner: anonymous_learner(ctx, headers).await? })
}

/// The anonymous learner the request's cookie names, if the server issued it and it has not
/// been merged into an account since; anything else is treated as no cookie at all, so the
/// next recorded action issues a fresh learner.
pub async fn anonymous_learner(
    ctx: &AppContext,
    headers: &http::HeaderMap,
) -> Result<Option<String>, StoreError> {
    let Some(id) = ctx.learner_cookie.read(headers) else { return Ok(None) };
    Ok(ctx.store.is_live_learner(&id).await?.then_some(id))
}

/// Takes the one-time notice for this page, if there is one.
pub async fn take_notice(session: Option<&Session>) -> Result<Option<String>, ViewerError> {
    take(session, NOTICE).await
}

/// Takes the account form's error, if the last post left one.
pub async fn take_form_error(session: Option<&Session>) -> Result<Option<String>, ViewerError> {
    take(session, FORM_ERROR).await
}

/// The session key of the email a refused sign-in or sign-up was typed with, as
/// `FORM:EMAIL` (`sign-in:ada@example.org`), so the account page gives it back.
pub const FORM_EMAIL: &str = "form_email";

/// Takes the email the last refused account form was typed with: (form, email).
pub async fn take_form_email(
    session: Option<&Session>,
) -> Result<Option<(String, String)>, ViewerError> {
    let kept = take(session, FORM_EMAIL).await?;
    Ok(kept.and_then(|k| k.split_once(':').map(|(f, e)| (f.to_string(), e.to_string()))))
}

/// Removes a one-time message from the session and returns it.
///
/// Looks before removing: tower-sessions marks a session modified on every `remove`, even of a
/// key that is not there, and a modified session is written back to the database, so removing
/// blindly would cost every page view a write.
async fn take(session: Option<&Session>, key: &str) -> Result<Option<String>, ViewerError> {
    let Some(session) = session else { return Ok(None) };
    if session.get_value(key).await?.is_none() {
        return Ok(None);
    }
    Ok(session.remove::<String>(key).await?)
}

/// The session key of a refused submission's script, so the exercise page keeps it.
pub const DRAFT: &str = "draft";

/// Takes the refused submission's script, if the last post left one.
pub async fn take_draft(session: Option<&Session>) -> Result<Option<String>, ViewerError> {
    take(session, DRAFT).await
}

/// The session key of a terminal token just made, for the account page to show once.
pub const NEW_TOKEN: &str = "new_token";

pub async fn take_new_token(session: Option<&Session>) -> Result<Option<String>, ViewerError> {
    take(session, NEW_TOKEN).await
}

/// Leaves what went wrong with a form for the page it came from.
pub async fn leave_form_error(session: &Session, message: String) -> Result<(), ViewerError> {
    Ok(session.insert(FORM_ERROR, message).await?)
}

/// Leaves a message for the next page the browser loads.
pub async fn leave_notice(session: &Session, message: String) -> Result<(), ViewerError> {
    Ok(session.insert(NOTICE, message).await?)
}
