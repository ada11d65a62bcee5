//! Bearer tokens for what is not a browser: grading workers, and learners' terminal clients.
//! Only a hash of each token is stored; the server makes and hashes them.

use crate::{Store, StoreError};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenKind {
    /// Claims and grades jobs; never acts for a learner.
    Worker,
    /// Submits and reads submissions as one learner.
    Learner,
}

impl TokenKind {
    fn as_str(self) -> &'static str {
        match self {
            TokenKind::Worker => "worker",
            TokenKind::Learner => "learner",
        }
    }
}

/// A live token: what it is, its name, and the learner it acts for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TokenOwner {
    Worker { name: String },
    Learner { learner_id: String, name: String },
}

impl Store {
    /// Keeps a new token's hash. `false` when a live worker token already has `name`.
    pub async fn create_token(
        &self,
        kind: TokenKind,
        name: &str,
        learner: Option<&str>,
        hash: &str,
        now: i64,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "INSERT INTO api_tokens (kind, name, learner_id, token_hash, created_at) \
             VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING",
        )
        .bind(kind.as_str())
        .bind(name)
        .bind(learner)
        .bind(hash)
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Whose live token has this hash.
    pub async fn token_owner(&self, hash: &str) -> Result<Option<TokenOwner>, StoreError> {
        #[derive(sqlx::FromRow)]
        struct Token {
            kind: String,
            name: String,
            learner_id: Option<String>,
        }
        let token = sqlx::query_as::<_, Token>(
            "SELECT kind, name, learner_id FROM api_tokens WHERE token_hash = $1 AND revoked_at IS NULL",
        )
        .bind(hash)
        .fetch_optional(&self.pool)
        .await?;
        let Some(Token { kind, name, learner_id }) = token else { return Ok(None) };
        Ok(match (kind.as_str(), learner_id) {
            ("worker", _) => Some(TokenOwner::Worker { name }),
            ("learner", Some(learner_id)) => Some(TokenOwner::Learner { learner_id, name }),
            _ => None,
        })
    }

    /// Revokes the live worker token named `name`; `false` when there is none.
    pub async fn revoke_worker_token(&self, name: &str, now: i64) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE api_tokens SET revoked_at = $1 WHERE kind = 'worker' AND name = $2 AND revoked_at IS NULL",
        )
        .bind(now)
        .bind(name)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() > 0)
    }

    /// Revokes every live token of the learner's.
    pub async fn revoke_learner_tokens(&self, learner: &str, now: i64) -> Result<u64, StoreError> {
        let done = sqlx::query(
            "UPDATE api_tokens SET revoked_at = $1 WHERE kind = 'learner' AND learner_id = $2 AND revoked_at IS NULL",
        )
        .bind(now)
        .bind(learner)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected())
    }

    /// The names of the live worker tokens, with when each was made.
    pub async fn worker_tokens(&self) -> Result<Vec<(String, i64)>, StoreError> {
        #[derive(sqlx::FromRow)]
        struct WorkerToken {
            name: String,
            created_at: i64,
        }
        let rows = sqlx::query_as::<_, WorkerToken>(
            "SELECT name, created_at FROM api_tokens WHERE kind = 'worker' AND revoked_at IS NULL ORDER BY name",
        )
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.into_iter().map(|r| (r.name, r.created_at)).collect())
    }
}
