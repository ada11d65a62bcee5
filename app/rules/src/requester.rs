//! Who is asking: an anonymous browser (with the learner its cookie names, once it has
//! recorded anything), a signed-in learner or instructor (their server-side session names the
//! account), a learner's terminal token, or a grading worker's token. Resolved once per request
//! and handed to whatever needs it; what each may read is decided here too.

use lockstep_store::{Account, Comment, Role, Submission, TokenOwner};
use serde::{Deserialize, Serialize};
use tower_sessions::Session;

use crate::{tokens, Rules, RulesError};

/// The session key of a signed-in session.
pub const SIGNED_IN: &str = "signed_in";

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
    lockstep_clock::now_s().div_euclid(86_400)
}

#[derive(Debug, Clone)]
pub enum Requester {
    /// A browser without an account; `learner` once it has recorded anything.
    Anonymous { learner: Option<String> },
    /// A signed-in account whose role is learner…
    Learner(Account),
    /// …or instructor.
    Instructor(Account),
    /// A learner's terminal token: that learner, never more (a token made by an instructor
    /// does not carry the role outside the browser).
    Terminal { learner: String },
    /// A grading worker's token, by the name it was made with.
    Worker { name: String },
}

impl Requester {
    /// The requester of a signed-in `account`, by its role.
    pub fn signed_in(account: Account) -> Requester {
        match account.role {
            Role::Instructor => Requester::Instructor(account),
            Role::Learner => Requester::Learner(account),
        }
    }

    /// Whose progress the page shows and records go to; `None` for a browser that has recorded
    /// nothing yet, and for a worker.
    pub fn learner(&self) -> Option<&str> {
        match self {
            Requester::Anonymous { learner } => learner.as_deref(),
            Requester::Learner(account) | Requester::Instructor(account) => {
                Some(&account.learner_id)
            }
            Requester::Terminal { learner } => Some(learner),
            Requester::Worker { .. } => None,
        }
    }

    pub fn is_instructor(&self) -> bool {
        matches!(self, Requester::Instructor(_))
    }

    /// The signed-in account, if the request comes from one's browser session.
    pub fn account(&self) -> Option<&Account> {
        match self {
            Requester::Learner(account) | Requester::Instructor(account) => Some(account),
            _ => None,
        }
    }

    /// The learner a requester is known to be: a signed-in account's or a terminal token's.
    /// Submissions, drafts and tokens need one; an anonymous browser's learner has none of them.
    pub fn known_learner(&self) -> Option<&str> {
        match self {
            Requester::Anonymous { .. } | Requester::Worker { .. } => None,
            _ => self.learner(),
        }
    }

    /// Whether the requester submitted `s`.
    pub fn owns(&self, s: &Submission) -> bool {
        self.known_learner() == Some(s.learner_id.as_str())
    }

    /// The rule for every way of reading a submission (its page, the API, its events, the
    /// editor opening it): its learner, or an instructor. Anyone else is answered as for one
    /// that does not exist.
    pub fn may_read(&self, s: &Submission) -> bool {
        self.owns(s) || self.is_instructor()
    }

    /// The rule for every way of reaching a comment (its page, replying under it, following,
    /// editing or deleting it): [`crate::comments::sees`] for this requester. One it may not read is,
    /// to it, no comment at all, and is answered as an id that does not exist.
    pub fn may_read_comment(&self, c: &Comment) -> bool {
        crate::comments::sees(c, self.account().map(|a| a.id), self.is_instructor())
    }
}

/// Whether a request may use what this process keeps between its writes
/// ([`lockstep_store::Store::cached`]): a page that only shows the learner may; anything that
/// decides or records reads the database.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reads {
    Fresh,
    Kept,
}

impl Rules {
    /// The requester of a browser request: its session's account, else the anonymous learner
    /// of its cookie. A session whose account is gone or whose epoch is stale is treated as
    /// signed out (and forgets the account).
    pub async fn requester(
        &self,
        session: Option<&Session>,
        headers: &http::HeaderMap,
    ) -> Result<Requester, RulesError> {
        self.requester_reading(Reads::Fresh, session, headers).await
    }

    /// [`Rules::requester`], reading the account as `reads` says.
    pub async fn requester_reading(
        &self,
        reads: Reads,
        session: Option<&Session>,
        headers: &http::HeaderMap,
    ) -> Result<Requester, RulesError> {
        let store = &self.store;
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
                        return Ok(Requester::signed_in(account));
                    }
                    _ => {
                        session.remove_value(SIGNED_IN).await?;
                    }
                }
            }
        }
        Ok(Requester::Anonymous { learner: self.anonymous_learner(headers).await? })
    }

    /// The requester of an API request: the bearer token when the request has one (a token
    /// the server did not issue, or one revoked, is nobody), else as [`Rules::requester`].
    pub async fn api_requester(
        &self,
        session: Option<&Session>,
        headers: &http::HeaderMap,
    ) -> Result<Requester, RulesError> {
        match tokens::bearer(headers) {
            Some(token) => self.token_requester(token).await,
            None => self.requester(session, headers).await,
        }
    }

    /// The requester a bearer token names.
    pub async fn token_requester(&self, token: &str) -> Result<Requester, RulesError> {
        Ok(match self.store.token_owner(&tokens::hash(token)).await? {
            Some(TokenOwner::Learner { learner_id, .. }) => {
                Requester::Terminal { learner: learner_id }
            }
            Some(TokenOwner::Worker { name }) => Requester::Worker { name },
            None => Requester::Anonymous { learner: None },
        })
    }

    /// The anonymous learner the request's cookie names, if the server issued it and it has
    /// not been merged into an account since; anything else is treated as no cookie at all, so
    /// the next recorded action issues a fresh learner.
    pub async fn anonymous_learner(
        &self,
        headers: &http::HeaderMap,
    ) -> Result<Option<String>, RulesError> {
        let Some(id) = self.learner_cookie.read(headers) else { return Ok(None) };
        Ok(self.store.is_live_learner(&id).await?.then_some(id))
    }

    /// A new anonymous learner, recorded as issued, and the `Set-Cookie` value that gives it
    /// to the browser.
    pub async fn issue_learner(&self) -> Result<(String, http::HeaderValue), RulesError> {
        let id = crate::learner_cookie::new_id().map_err(RulesError::Randomness)?;
        self.store.issue_learner(&id, lockstep_clock::now_s()).await?;
        let cookie = self.learner_cookie.set(&id);
        Ok((id, cookie))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lockstep_store::SubmissionStatus;

    fn account(learner: &str, role: Role) -> Account {
        Account {
            id: 1,
            email: format!("{learner}@example.org"),
            password_hash: String::new(),
            role,
            learner_id: learner.into(),
            session_epoch: 0,
            created_at: 0,
            display_name: None,
        }
    }

    fn submission_of(learner: &str) -> Submission {
        Submission {
            id: 7,
            learner_id: learner.into(),
            exercise: "ddp-conversion".into(),
            file_name: "train.py".into(),
            script: String::new(),
            status: SubmissionStatus::Queued,
            verdict_json: None,
            verdict_status: None,
            created_at: 0,
            finished_at: None,
        }
    }

    /// A submission is read by its learner, however they ask, and by an instructor; nobody
    /// else, not even an anonymous browser whose learner id happens to be the submitter's.
    #[test]
    fn who_may_read_a_submission() {
        let s = submission_of("ada");
        let cases = [
            (Requester::Learner(account("ada", Role::Learner)), true, true),
            (Requester::Terminal { learner: "ada".into() }, true, true),
            (Requester::Learner(account("bob", Role::Learner)), false, false),
            (Requester::Terminal { learner: "bob".into() }, false, false),
            (Requester::Instructor(account("eve", Role::Instructor)), false, true),
            (Requester::Instructor(account("ada", Role::Instructor)), true, true),
            (Requester::Anonymous { learner: Some("ada".into()) }, false, false),
            (Requester::Anonymous { learner: None }, false, false),
            (Requester::Worker { name: "ada".into() }, false, false),
        ];
        for (requester, owns, reads) in cases {
            assert_eq!(
                (requester.owns(&s), requester.may_read(&s)),
                (owns, reads),
                "{requester:?}"
            );
        }
    }

    #[test]
    fn an_account_is_a_learner_or_an_instructor_by_its_role() {
        assert!(Requester::signed_in(account("a", Role::Instructor)).is_instructor());
        let learner = Requester::signed_in(account("a", Role::Learner));
        assert!(!learner.is_instructor());
        assert_eq!(learner.known_learner(), Some("a"));
        assert!(!Requester::Terminal { learner: "a".into() }.is_instructor());
        assert_eq!(Requester::Anonymous { learner: Some("x".into()) }.learner(), Some("x"));
        assert_eq!(Requester::Anonymous { learner: Some("x".into()) }.known_learner(), None);
    }
}
