//! `lockstep admin …`: what only an operator at the command line may do. The browser can never
//! grant a role or set someone else's password; this talks to the database directly.

use lockstep_store::{Role, Store, StoreError, TokenKind};

use crate::auth::policy;

#[derive(Debug, thiserror::Error)]
pub enum AdminError {
    #[error("no account has the email `{0}`")]
    NoAccount(String),
    #[error("{0}")]
    Invalid(String),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("no live worker token is named `{0}`")]
    NoToken(String),
    #[error("no randomness for a password: {0}")]
    Random(getrandom::Error),
}

impl AdminError {
    /// Whether the operator asked for something that cannot be done (exit code 2), as
    /// opposed to the database failing (exit code 1).
    pub fn is_usage(&self) -> bool {
        matches!(self, AdminError::NoAccount(_) | AdminError::Invalid(_) | AdminError::NoToken(_))
    }
}

fn email(raw: &str) -> Result<String, AdminError> {
    policy::normalize_email(raw).map_err(|e| AdminError::Invalid(e.to_string()))
}

pub async fn set_role(store: &Store, raw_email: &str, role: Role) -> Result<String, AdminError> {
    let email = email(raw_email)?;
    if !store.set_role(&email, role).await? {
        return Err(AdminError::NoAccount(email));
    }
    Ok(format!(
        "{email} is now {} {}",
        if role == Role::Instructor { "an" } else { "a" },
        role.as_str()
    ))
}

/// Sets a new password (`given`, or a random one, which is printed) and signs the account out
/// everywhere.
pub async fn reset_password(
    store: &Store,
    raw_email: &str,
    given: Option<String>,
) -> Result<String, AdminError> {
    let email = email(raw_email)?;
    let account =
        store.account_by_email(&email).await?.ok_or(AdminError::NoAccount(email.clone()))?;
    let (password, show) = match given {
        Some(p) => {
            policy::check_password(&p, &email).map_err(|e| AdminError::Invalid(e.to_string()))?;
            (p, false)
        }
        None => (random_password().map_err(AdminError::Random)?, true),
    };
    let to_hash = password.clone();
    let hash = tokio::task::spawn_blocking(move || password_auth::generate_hash(to_hash))
        .await
        .expect("hashing does not panic");
    store.set_password_hash(account.id, &hash, lockstep_clock::now_s()).await?;
    Ok(if show {
        format!("new password for {email}: {password}\n(every session of this account is signed out; give the learner the password privately)")
    } else {
        format!("password of {email} changed; every session of this account is signed out")
    })
}

/// One line per account: id, email, role, created (Unix seconds).
pub async fn list(store: &Store) -> Result<String, AdminError> {
    let mut out = String::from("id\temail\trole\tcreated_at\n");
    for a in store.accounts().await? {
        out += &format!("{}\t{}\t{}\t{}\n", a.id, a.email, a.role.as_str(), a.created_at);
    }
    Ok(out)
}

/// Makes a worker token named `name` and prints it: the only time it is shown.
pub async fn create_worker_token(store: &Store, name: &str) -> Result<String, AdminError> {
    let valid = !name.is_empty()
        && name.len() <= 64
        && name.chars().all(|c| c.is_ascii_alphanumeric() || "._-".contains(c));
    if !valid {
        return Err(AdminError::Invalid(format!(
            "worker name `{name}`: use letters, digits, '.', '_' and '-' (at most 64)"
        )));
    }
    let (token, hash) = lockstep_rules::tokens::new_token(lockstep_rules::tokens::WORKER_PREFIX)
        .map_err(AdminError::Random)?;
    let now = lockstep_clock::now_s();
    if !store.create_token(TokenKind::Worker, name, None, &hash, now).await? {
        return Err(AdminError::Invalid(format!(
            "a live worker token is already named `{name}`: revoke it first, or choose another name"
        )));
    }
    Ok(token)
}

pub async fn revoke_worker_token(store: &Store, name: &str) -> Result<String, AdminError> {
    let now = lockstep_clock::now_s();
    if !store.revoke_worker_token(name, now).await? {
        return Err(AdminError::NoToken(name.to_string()));
    }
    Ok(format!("worker token `{name}` revoked: its workers can claim and report nothing more"))
}

/// One line per live worker token: name, created (Unix seconds).
pub async fn worker_tokens(store: &Store) -> Result<String, AdminError> {
    let mut out = String::from("name\tcreated_at\n");
    for (name, created) in store.worker_tokens().await? {
        out += &format!("{name}\t{created}\n");
    }
    Ok(out)
}

/// 20 characters from an alphabet without look-alikes (no 0/O, 1/l/I): about 114 bits.
fn random_password() -> Result<String, getrandom::Error> {
    const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    let mut bytes = [0u8; 20];
    getrandom::fill(&mut bytes)?;
    // 256 % 56 != 0 leaves a slight bias; at 20 characters it costs under a bit of strength.
    Ok(bytes.iter().map(|b| ALPHABET[*b as usize % ALPHABET.len()] as char).collect())
}
