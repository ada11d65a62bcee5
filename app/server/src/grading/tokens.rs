//! Terminal tokens for learners (`lockstep submit`); tokens themselves are
//! `lockstep_rules::tokens`.

use axum::response::IntoResponse;
use lockstep_rules::flash::NEW_TOKEN;
use lockstep_rules::tokens::{new_token, LEARNER_PREFIX};
use lockstep_rules::Requester;

use crate::http_error::HttpError;

/// `POST /account/token`: a new terminal token for the signed-in learner, replacing their last
/// one, shown once on the account page.
pub async fn create_learner_token(
    axum::extract::State(state): axum::extract::State<crate::AppState>,
    session: tower_sessions::Session,
    requester: Requester,
) -> axum::response::Response {
    let made = async {
        let store = &state.context.store;
        let Some(account) = requester.account() else { return Ok(()) };
        let (token, hash) = new_token(LEARNER_PREFIX).map_err(|e| e.to_string())?;
        let now = lockstep_rules::unix_now();
        store.revoke_learner_tokens(&account.learner_id, now).await.map_err(|e| e.to_string())?;
        let kind = lockstep_store::TokenKind::Learner;
        store
            .create_token(kind, "terminal", Some(&account.learner_id), &hash, now)
            .await
            .map_err(|e| e.to_string())?;
        session.insert(NEW_TOKEN, token).await.map_err(|e| e.to_string())
    };
    match made.await {
        Ok(()) => crate::see_other(lockstep_routes::ACCOUNT, None),
        Err(e) => HttpError::internal("learner token", e).into_response(),
    }
}
