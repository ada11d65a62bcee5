//! Accounts over plain form posts (they work without JavaScript): sign up, sign in, sign out,
//! change password. Every form posts, the server answers with a redirect (post, redirect, get),
//! and what happened is left in the session for the next page: an error for the account page,
//! or a notice (what was merged) for the course page.
//!
//! Signing in (or up) merges this browser's anonymous progress into the account in one
//! transaction and forgets the anonymous learner cookie, so from then on progress follows the
//! account. Failed sign-ins are counted in the database per account and per address, so the
//! limit holds across app machines.
//!
//! # Accounts and merging
//!
//! The account forms post to `app/server/src/auth/` (plain forms, post, redirect, get). Sessions
//! are tower-sessions records in the same database (table `tower_sessions`); a signed-in session
//! holds `SignedIn { account, epoch }`, and `Rules::requester` accepts it only while the account's
//! `session_epoch` is the same, so a password change or reset signs out every other session. A
//! session is written back only when it changes (tower-sessions writes any session marked modified,
//! and `remove` marks it even for a missing key, so one-time messages are looked at first);
//! `SignedIn.day` renews it on the first request of each day, which keeps the 30-day expiry sliding
//! without a write per page view. An account owns its own learner, whose id (`acct-…`) is not in
//! the learner cookie's format, so no cookie can name it. Signing in or up cycles the session id,
//! then `Store::merge_learner` moves the anonymous learner's events and quiz answers to the
//! account's learner in one transaction: events the account lacks move, events it has stay behind
//! (kept, counted nowhere), and the learner cookie is expired. What merged is left in the session
//! as a notice, which the next page's progress panel shows as a toast (the same path tells a
//! learner what a quiz or "Mark lesson complete" post earned). Failed sign-ins are rows in
//! `sign_in_failures`, counted per account and per address over 15 minutes, so the limit holds
//! across app machines. Argon2 runs in `spawn_blocking`; an unknown email is verified against a
//! stand-in hash so both failures take as long.

pub mod policy;

use std::net::SocketAddr;
use std::sync::LazyLock;

use axum::extract::{ConnectInfo, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::{Extension, Form};
use lockstep_clock::now_s;
use lockstep_i18n::{t, Lang};
use lockstep_rules::flash::{self, FORM_EMAIL, FORM_ERROR};
use lockstep_rules::requester::{SignedIn, SIGNED_IN};
use lockstep_rules::{learner_cookie, Requester};
use lockstep_store::Account;

use crate::language::PageLang;
use lockstep_xp::Action;
use policy::FormError;
use serde::Deserialize;
use tower_sessions::Session;

use crate::http_error::HttpError;
use crate::state::AppState;

#[derive(Debug, thiserror::Error)]
enum AuthError {
    #[error(transparent)]
    Form(#[from] FormError),
    #[error("database: {0}")]
    Store(#[from] lockstep_store::StoreError),
    #[error("session: {0}")]
    Session(#[from] tower_sessions::session::Error),
    #[error(transparent)]
    Rules(#[from] lockstep_rules::RulesError),
    #[error("password hashing: {0}")]
    Hashing(String),
    #[error("{0}")]
    Random(String),
}

#[derive(Deserialize)]
pub struct Credentials {
    email: String,
    password: String,
}

#[derive(Deserialize)]
pub struct PasswordChange {
    current: String,
    new: String,
}

pub async fn sign_up(
    State(state): State<AppState>,
    PageLang(lang): PageLang,
    session: Session,
    headers: HeaderMap,
    address: Option<Extension<ConnectInfo<SocketAddr>>>,
    Form(form): Form<Credentials>,
) -> Response {
    let typed = form.email.clone();
    let outcome = async {
        let email = policy::normalize_email(&form.email)?;
        policy::check_password(&form.password, &email)?;
        let address = client_address(&state, &headers, address);
        let limit = policy::sign_up_limit(&address, state.sign_ups_per_hour);
        let now = now_s();
        // Counted before the hash and the lookup, like a sign-in: every sign-up costs Argon2
        // and tells whether an email has an account.
        if let Err(refused) = state.context.store.attempt(&[limit], now).await? {
            tracing::warn!("sign-up refused: {} reached its limit", refused.key);
            return Err(FormError::TooManySignUps(refused.minutes_left(now)).into());
        }
        let hash = hash(form.password).await?;
        // Not in the learner cookie's format, so no cookie can ever name an account's learner.
        let learner = format!("acct-{}", learner_cookie::new_id().map_err(AuthError::Random)?);
        let account = state
            .context
            .store
            .create_account(&email, &hash, &learner, now)
            .await?
            .ok_or(FormError::EmailTaken)?;
        tracing::info!("account {} signed up", account.id);
        sign_in_as(&state, &session, &headers, &account, lang).await
    };
    finish(&session, outcome.await, Some(("sign-up", &typed)), lang).await
}

pub async fn sign_in(
    State(state): State<AppState>,
    PageLang(lang): PageLang,
    session: Session,
    headers: HeaderMap,
    address: Option<Extension<ConnectInfo<SocketAddr>>>,
    Form(form): Form<Credentials>,
) -> Response {
    let typed = form.email.clone();
    let outcome = async {
        let store = &state.context.store;
        // An address that is not an email cannot have an account: the same answer as a wrong
        // password, and counted the same.
        let email = policy::normalize_email(&form.email).unwrap_or_else(|_| form.email.clone());
        let address = client_address(&state, &headers, address);
        let [account_limit, address_limit] = policy::sign_in_limits(&email, &address);
        let now = now_s();
        // The attempt counts as a failure from before the password is checked: parallel
        // guesses each find the ones before them already counted.
        let attempt =
            match store.attempt(&[account_limit.clone(), address_limit.clone()], now).await? {
                Ok(attempt) => attempt,
                Err(refused) => {
                    tracing::warn!("sign-in refused: {} reached its limit", refused.key);
                    return Err(FormError::TooManyAttempts(refused.minutes_left(now)).into());
                }
            };
        let account = store.account_by_email(&email).await?;
        // Verify against a stand-in hash when there is no account, so the answer takes as long
        // either way.
        let stored =
            account.as_ref().map_or_else(|| DUMMY_HASH.clone(), |a| a.password_hash.clone());
        let matches = verify(form.password, stored).await?;
        match account {
            Some(account) if matches => {
                // The right password: no failure after all, for the account or the address.
                store.clear_attempts(&account_limit.key).await?;
                store.forgive(&attempt, &address_limit.key).await?;
                sign_in_as(&state, &session, &headers, &account, lang).await
            }
            _ => Err(FormError::WrongCredentials.into()),
        }
    };
    finish(&session, outcome.await, Some(("sign-in", &typed)), lang).await
}

pub async fn sign_out(session: Session) -> Response {
    if let Err(e) = session.flush().await {
        return internal(AuthError::from(e));
    }
    crate::redirect::see_other(lockstep_routes::HOME, None)
}

pub async fn change_password(
    State(state): State<AppState>,
    PageLang(lang): PageLang,
    session: Session,
    requester: Requester,
    Form(form): Form<PasswordChange>,
) -> Response {
    let outcome = async {
        let store = &state.context.store;
        let Some(account) = requester.account() else {
            return Ok(crate::redirect::see_other(lockstep_routes::ACCOUNT, None));
        };
        policy::check_password(&form.new, &account.email)?;
        // Checking the current password is a guess at it like a sign-in: counted against the
        // same account limit, before Argon2 runs.
        let limit = policy::account_limit(&account.email);
        let now = now_s();
        if let Err(refused) = store.attempt(std::slice::from_ref(&limit), now).await? {
            tracing::warn!("password change refused: {} reached its limit", refused.key);
            return Err(FormError::TooManyAttempts(refused.minutes_left(now)).into());
        }
        if !verify(form.current, account.password_hash.clone()).await? {
            return Err(FormError::CurrentPasswordWrong.into());
        }
        store.clear_attempts(&limit.key).await?;
        let hash = hash(form.new).await?;
        let Some(epoch) = store.set_password_hash(account.id, &hash, now).await? else {
            return Ok(crate::redirect::see_other(lockstep_routes::ACCOUNT, None));
        };
        // The new epoch ends every other session, and the terminal tokens are revoked; this
        // session carries on under a new id.
        session.cycle_id().await?;
        session.insert(SIGNED_IN, SignedIn::today(account.id, epoch)).await?;
        flash::leave_notice(&session, t(lang).account.password_changed.into()).await?;
        Ok(crate::redirect::see_other(lockstep_routes::ACCOUNT, None))
    };
    finish(&session, outcome.await, None, lang).await
}

/// Starts a signed-in session for `account` and merges this browser's anonymous progress.
async fn sign_in_as(
    state: &AppState,
    session: &Session,
    headers: &HeaderMap,
    account: &Account,
    lang: Lang,
) -> Result<Response, AuthError> {
    // A new session id on every sign-in: an id planted before it (session fixation) is useless.
    session.cycle_id().await?;
    session.insert(SIGNED_IN, SignedIn::today(account.id, account.session_epoch)).await?;
    // Only a learner this server issued and has not merged yet: a planted or replayed cookie
    // merges nothing.
    let Some(anonymous) = state.rules().anonymous_learner(headers).await? else {
        flash::leave_notice(session, (t(lang).account.signed_in_as)(&account.email)).await?;
        return Ok(crate::redirect::see_other(lockstep_routes::HOME, None));
    };
    let store = &state.context.store;
    let before = state.rules().progress_of(&store.events(&account.learner_id).await?);
    let merged = store.merge_learner(&anonymous, &account.learner_id).await?;
    let after = state.rules().progress_of(&store.events(&account.learner_id).await?);
    let gained = after.xp.saturating_sub(before.xp);
    tracing::info!(
        "account {} merged {} actions from this browser ({} already had)",
        account.id,
        merged.moved.len(),
        merged.already_had
    );
    flash::leave_notice(
        session,
        merge_message(&account.email, &merged.moved, merged.already_had, gained, lang),
    )
    .await?;
    Ok(crate::redirect::see_other(
        lockstep_routes::HOME,
        Some(state.context.learner_cookie.forget()),
    ))
}

/// "Signed in as ada@example.org. Merged from this browser: 2 lessons, 1 quiz (+170 XP);
/// 1 was already in your account."
fn merge_message(email: &str, moved: &[Action], already_had: u64, xp: u32, lang: Lang) -> String {
    let w = &t(lang).account;
    let mut counts: Vec<(&str, usize)> = Vec::new();
    for action in moved {
        let name = match action {
            Action::LessonCompleted { .. } => "lesson",
            Action::SimulationExplored { .. } => "simulation",
            Action::QuizPassed { .. } => "quiz",
            Action::QuizPerfect { .. } => "perfect score",
            Action::ExercisePassed { .. } => "exercise",
            Action::ExerciseFirstTry { .. } => "first-try pass",
        };
        match counts.iter_mut().find(|(n, _)| *n == name) {
            Some((_, c)) => *c += 1,
            None => counts.push((name, 1)),
        }
    }
    let mut message = (w.signed_in_as)(email);
    if !counts.is_empty() {
        let parts: Vec<String> = counts.iter().map(|(kind, n)| (w.merged_item)(kind, *n)).collect();
        message += &(w.merged)(&parts.join(", "), xp);
    }
    if already_had > 0 {
        message += &(w.already_had)(already_had);
    }
    message
}

/// The client's address: the socket's peer, or the last `X-Forwarded-For` entry when the
/// server is configured to sit behind a proxy (which appends the address it saw).
pub(crate) fn client_address(
    state: &AppState,
    headers: &HeaderMap,
    peer: Option<Extension<ConnectInfo<SocketAddr>>>,
) -> String {
    if state.trust_forwarded_for {
        let forwarded = headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .last()
            .map(|a| a.trim().to_string());
        if let Some(address) = forwarded.filter(|a| !a.is_empty()) {
            return address;
        }
    }
    peer.map_or_else(|| "unknown".to_string(), |Extension(ConnectInfo(a))| a.ip().to_string())
}

static DUMMY_HASH: LazyLock<String> =
    LazyLock::new(|| password_auth::generate_hash("no account has this password"));

async fn hash(password: String) -> Result<String, AuthError> {
    argon2(move || password_auth::generate_hash(password)).await
}

async fn verify(password: String, hash: String) -> Result<bool, AuthError> {
    argon2(move || password_auth::verify_password(password, &hash).is_ok()).await
}

/// Argon2 runs one per core at most, first come first served. Each run takes a core for tens
/// of milliseconds and 19 MiB, so a burst of sign-ins all hashing at once would take memory
/// without bound, and it starved the database's threads of the cores: on SQLite, one holding
/// the write lock then kept the others waiting past `busy_timeout`, and a sign-in got a 500
/// (60 parallel sign-ins beside a browser test, on two cores).
static ARGON2_TURNS: LazyLock<tokio::sync::Semaphore> = LazyLock::new(|| {
    tokio::sync::Semaphore::new(std::thread::available_parallelism().map_or(1, |n| n.get()))
});

async fn argon2<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, AuthError> {
    let _turn = ARGON2_TURNS.acquire().await.map_err(|e| AuthError::Hashing(e.to_string()))?;
    tokio::task::spawn_blocking(work).await.map_err(|e| AuthError::Hashing(e.to_string()))
}

/// A form error goes back to the account page, said in words; anything else is logged.
/// The response to an account form; a refusal goes back to the account page with its reason
/// and, for `typed` (the form and the email typed in it), the email kept.
async fn finish(
    session: &Session,
    outcome: Result<Response, AuthError>,
    typed: Option<(&str, &str)>,
    lang: Lang,
) -> Response {
    match outcome {
        Ok(response) => response,
        Err(AuthError::Form(e)) => {
            let kept = async {
                session.insert(FORM_ERROR, e.words(lang)).await?;
                if let Some((form, email)) = typed {
                    // Only a plausible length is kept: it is shown back in the form.
                    let email: String = email.trim().chars().take(254).collect();
                    session.insert(FORM_EMAIL, format!("{form}:{email}")).await?;
                }
                Ok::<_, tower_sessions::session::Error>(())
            };
            match kept.await {
                Ok(()) => crate::redirect::see_other(lockstep_routes::ACCOUNT, None),
                Err(e) => internal(AuthError::from(e)),
            }
        }
        Err(e) => internal(e),
    }
}

fn internal(e: AuthError) -> Response {
    HttpError::internal("account", e).page().into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_merge_is_said_in_words() {
        let lesson = |s: &str| Action::LessonCompleted { lesson: s.into() };
        let quiz = Action::QuizPassed { lesson: "a".into(), quiz: 0 };
        assert_eq!(merge_message("a@b.org", &[], 0, 0, Lang::En), "Signed in as a@b.org.");
        assert_eq!(
            merge_message("a@b.org", &[lesson("a"), quiz.clone(), lesson("b")], 1, 170, Lang::En),
            "Signed in as a@b.org. Merged from this browser: 2 lessons, 1 quiz (+170 XP). \
             1 already in your account, counted once."
        );
        assert!(
            merge_message("a@b.org", &[quiz.clone(), quiz], 0, 40, Lang::En).contains("2 quizzes")
        );
    }
}
