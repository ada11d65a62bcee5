//! Terminal tokens for learners (`lockstep submit`); tokens themselves are
//! `lockstep_rules::tokens`.

use axum::extract::State;
use axum::response::Response;
use lockstep_rules::flash::NEW_TOKEN;
use lockstep_rules::tokens::{new_token, LEARNER_PREFIX};
use lockstep_rules::Requester;
use tower_sessions::Session;

use crate::http_error::HttpError;
use crate::state::AppState;

/// `POST /account/token`: a new terminal token for the signed-in learner, replacing their last
/// one, shown once on the account page.
pub async fn create_learner_token(
    State(state): State<AppState>,
    session: Session,
    requester: Requester,
) -> Result<Response, HttpError> {
    let failed = |e: &dyn std::fmt::Display| HttpError::internal("learner token", e).page();
    if let Some(account) = requester.account() {
        let store = &state.context.store;
        let (token, hash) = new_token(LEARNER_PREFIX).map_err(|e| failed(&e))?;
        let now = lockstep_clock::now_s();
        store.revoke_learner_tokens(&account.learner_id, now).await.map_err(|e| failed(&e))?;
        let kind = lockstep_store::TokenKind::Learner;
        let learner = Some(account.learner_id.as_str());
        store.create_token(kind, "terminal", learner, &hash, now).await.map_err(|e| failed(&e))?;
        session.insert(NEW_TOKEN, token).await.map_err(|e| failed(&e))?;
    }
    Ok(crate::redirect::see_other(lockstep_routes::ACCOUNT, None))
}
