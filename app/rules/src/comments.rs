//! Who may see a comment and how long its author may change it: the rules the comment pages,
//! the forms that change comments and the notifications all follow. The store applies the
//! same rule in SQL, written once there (`seen_by_all!` in `lockstep_store::comments`).

use lockstep_store::Comment;

/// How long after posting its author may edit a comment.
pub const EDIT_WINDOW_MS: i64 = 15 * 60 * 1000;

/// Whether a reader (`account`, or none for a visitor) sees `c`: a comment held for review or
/// hidden by an instructor is its author's and the instructors' only. A deleted comment is
/// seen as its place in the thread, never its text.
pub fn sees(c: &Comment, account: Option<i64>, instructor: bool) -> bool {
    let seen_by_all = c.hidden_ms.is_none() && c.held_ms.is_none();
    seen_by_all || instructor || account == Some(c.account_id)
}

/// Whether its author may still edit `c` at `now_ms`.
pub fn editable(c: &Comment, now_ms: i64) -> bool {
    now_ms - c.created_ms <= EDIT_WINDOW_MS
}
