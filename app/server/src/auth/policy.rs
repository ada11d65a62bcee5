//! The account rules, pure: what an email and a password must be, and what each form is
//! counted against.

use lockstep_store::Limit;

/// Failed sign-ins are counted over this window (seconds)…
pub const WINDOW_SECS: i64 = 15 * 60;
/// …and an account takes this many before it is locked for the rest of the window…
pub const PER_ACCOUNT: u64 = 5;
/// …and an address this many (a classroom behind one NAT signs in from one address).
pub const PER_ADDRESS: u64 = 50;

pub const MIN_PASSWORD_CHARS: usize = 10;
/// Argon2 hashes whatever it is given; a megabyte password would be a cheap way to burn CPU.
pub const MAX_PASSWORD_BYTES: usize = 256;

/// Passwords people choose first, refused whatever their length.
const COMMON: &[&str] = &[
    "password123",
    "password1234",
    "1234567890",
    "12345678910",
    "qwertyuiop",
    "qwerty12345",
    "iloveyou123",
    "letmein1234",
    "abcdefghij",
    "0987654321",
    "1q2w3e4r5t",
    "passw0rd123",
];

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FormError {
    #[error("Enter an email address such as ada@example.org.")]
    EmailInvalid,
    #[error("An account with this email already exists. Sign in instead.")]
    EmailTaken,
    #[error("Choose a stronger password: {0}.")]
    PasswordWeak(Weakness),
    /// The same words whether the email has no account or the password is wrong, so the form
    /// does not tell which emails have accounts.
    #[error("The email or the password is wrong.")]
    WrongCredentials,
    #[error("Your current password is wrong.")]
    CurrentPasswordWrong,
    #[error("Too many failed sign-ins. Try again in {0} minutes.")]
    TooManyAttempts(i64),
    #[error("Too many sign-ups from your network. Try again in {0} minutes.")]
    TooManySignUps(i64),
}

/// Why a password is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Weakness {
    TooShort,
    TooLong,
    HasEmail,
    Common,
}

impl std::fmt::Display for Weakness {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.words(lockstep_routes::Lang::En))
    }
}

impl Weakness {
    fn words(self, lang: lockstep_routes::Lang) -> &'static str {
        let w = &lockstep_i18n::t(lang).account;
        match self {
            Weakness::TooShort => w.weak_too_short,
            Weakness::TooLong => w.weak_too_long,
            Weakness::HasEmail => w.weak_has_email,
            Weakness::Common => w.weak_common,
        }
    }
}

impl FormError {
    /// What the form says, in the language of the page it was posted from.
    pub fn words(&self, lang: lockstep_routes::Lang) -> String {
        let w = &lockstep_i18n::t(lang).account;
        match self {
            FormError::EmailInvalid => w.email_invalid.into(),
            FormError::EmailTaken => w.email_taken.into(),
            FormError::PasswordWeak(why) => (w.password_weak)(why.words(lang)),
            FormError::WrongCredentials => w.wrong_credentials.into(),
            FormError::CurrentPasswordWrong => w.current_password_wrong.into(),
            FormError::TooManyAttempts(m) => (w.too_many_attempts)(*m),
            FormError::TooManySignUps(m) => (w.too_many_sign_ups)(*m),
        }
    }
}

/// Trimmed and lower-cased, so `Ada@Example.org ` and `ada@example.org` are one account.
pub fn normalize_email(raw: &str) -> Result<String, FormError> {
    let email = raw.trim().to_lowercase();
    let valid = email.len() <= 254
        && !email.chars().any(|c| c.is_whitespace() || c.is_control())
        && matches!(email.split_once('@'), Some((local, domain))
            if !local.is_empty() && domain.contains('.') && !domain.starts_with('.')
                && !domain.ends_with('.') && !domain.contains('@'));
    if valid {
        Ok(email)
    } else {
        Err(FormError::EmailInvalid)
    }
}

pub fn check_password(password: &str, email: &str) -> Result<(), FormError> {
    let chars = password.chars().count();
    if chars < MIN_PASSWORD_CHARS {
        return Err(FormError::PasswordWeak(Weakness::TooShort));
    }
    if password.len() > MAX_PASSWORD_BYTES {
        return Err(FormError::PasswordWeak(Weakness::TooLong));
    }
    let lower = password.to_lowercase();
    let local = email.split('@').next().unwrap_or_default();
    if lower == email || (local.len() >= 4 && lower.contains(local)) {
        return Err(FormError::PasswordWeak(Weakness::HasEmail));
    }
    let mut distinct: Vec<char> = lower.chars().collect();
    distinct.sort_unstable();
    distinct.dedup();
    if distinct.len() < 4 || COMMON.contains(&lower.as_str()) {
        return Err(FormError::PasswordWeak(Weakness::Common));
    }
    Ok(())
}

/// The limits a sign-in is counted against: its account (whatever the address) and its
/// address (whatever the account). A wrong current password on the change-password form counts
/// against the account too, so that form is no way around the lock.
pub fn sign_in_limits(email: &str, address: &str) -> [Limit; 2] {
    [account_limit(email), Limit::new(format!("address:{address}"), PER_ADDRESS, WINDOW_SECS)]
}

pub fn account_limit(email: &str) -> Limit {
    Limit::new(format!("account:{email}"), PER_ACCOUNT, WINDOW_SECS)
}

/// Sign-ups an address may make in an hour. Each one costs an Argon2 hash and says whether an
/// email has an account, so they are counted like sign-ins; a classroom behind one address
/// signs up in a lesson's first minutes, hence a limit that is per hour and configurable.
pub fn sign_up_limit(address: &str, per_hour: u64) -> Limit {
    Limit::new(format!("sign-up:{address}"), per_hour, 3600)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emails_are_normalized_and_checked() {
        assert_eq!(normalize_email("  Ada@Example.ORG "), Ok("ada@example.org".into()));
        for bad in [
            "",
            "ada",
            "@example.org",
            "ada@",
            "ada@example",
            "a da@example.org",
            "ada@.org",
            "a@b@c.org",
        ] {
            assert_eq!(normalize_email(bad), Err(FormError::EmailInvalid), "{bad}");
        }
    }

    #[test]
    fn weak_passwords_are_refused_with_a_reason() {
        let email = "grace@example.org";
        assert!(check_password("correct horse battery", email).is_ok());
        assert!(check_password("short", email).unwrap_err().to_string().contains("at least 10"));
        assert!(check_password(&"x".repeat(300), email).unwrap_err().to_string().contains("256"));
        assert!(check_password("grace-rules-2026", email)
            .unwrap_err()
            .to_string()
            .contains("email"));
        assert!(check_password("aaaaaaaaaaaa", email).is_err());
        assert!(check_password("Password123", email).is_err());
        // Length is in characters: ten Hangul syllables are enough.
        assert!(check_password("분산데이터병렬학습하기", email).is_ok());
    }

    #[test]
    fn a_sign_in_counts_against_its_account_and_its_address() {
        let [account, address] = sign_in_limits("ada@example.org", "10.0.0.1");
        assert_eq!((account.key.as_str(), account.max), ("account:ada@example.org", PER_ACCOUNT));
        assert_eq!((address.key.as_str(), address.max), ("address:10.0.0.1", PER_ADDRESS));
        assert_eq!(account, account_limit("ada@example.org"));
    }
}
