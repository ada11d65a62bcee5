//! The words of the conversation around lessons: comments, replies, reply notifications and
//! "report a problem". Apart from the catalogue because the server renders the comments (the
//! browser bundle only swaps the server's HTML in), so these words stay out of the bundle.

use lockstep_routes::Lang;
use lockstep_units::{count, plural};

/// The words of `lang`.
pub fn talk(lang: Lang) -> &'static TalkWords {
    match lang {
        Lang::En => &EN,
        Lang::Ko => &KO,
        // No words of its own: English's, where the interface is written.
        Lang::Ja => &EN,
    }
}

pub struct TalkWords {
    /// The part's heading with the number of comments shown: "Comments 3", "댓글 3".
    pub heading: fn(usize) -> String,
    pub empty: &'static str,
    /// Before the sign-in link, and the link.
    pub sign_in_to_write: &'static str,
    pub sign_in: &'static str,
    pub placeholder: &'static str,
    /// Markdown's reach, under the text box.
    pub format_help: &'static str,
    pub post: &'static str,
    pub reply: &'static str,
    pub post_reply: &'static str,
    pub edit: &'static str,
    pub save: &'static str,
    pub delete: &'static str,
    pub edited: &'static str,
    pub deleted: &'static str,
    pub hidden_note: &'static str,
    pub held_note: &'static str,
    pub locked: &'static str,
    pub follow: &'static str,
    pub unfollow: &'static str,
    pub follow_signed_out: &'static str,
    /// The section select's label and its first choice.
    pub section: &'static str,
    pub whole_page: &'static str,
    /// "About: Why set_epoch" before a comment's section link.
    pub about: &'static str,
    /// An author who chose no name: "Learner #12".
    pub learner: fn(i64) -> String,
    pub instructor: &'static str,
    /// An instructor in a notification: "Instructor Kim", or "An instructor" without a name.
    pub instructor_named: fn(&str) -> String,
    pub an_instructor: &'static str,
    /// How long ago, from seconds: "3 minutes ago", "3분 전".
    pub ago: fn(i64) -> String,
    pub moderation: &'static str,
    pub hide: &'static str,
    pub restore: &'static str,
    pub approve: &'static str,
    pub lock: &'static str,
    pub unlock: &'static str,
    pub remove: &'static str,
    pub by: fn(&str) -> String,
    // What a post or an action did, or why it did not.
    pub posted: &'static str,
    pub posted_held: &'static str,
    pub saved: &'static str,
    pub removed: &'static str,
    pub done: &'static str,
    pub too_fast: fn(i64) -> String,
    pub repeated: &'static str,
    pub no_thread: &'static str,
    pub not_yours: &'static str,
    pub too_late: fn(i64) -> String,
    pub empty_body: &'static str,
    pub too_long: fn(usize, usize) -> String,
    pub only_instructors: &'static str,
    pub sign_in_first: &'static str,
    pub no_place: &'static str,
    // Notifications, worded by the server.
    /// "{name} replied in a thread under “{title}”."
    pub replied: fn(name: &str, title: &str) -> String,
    /// "An instructor answered your report on “{title}”: {status}."
    pub answered: fn(title: &str, status: &str) -> String,
}

pub static EN: TalkWords = TalkWords {
    heading: |n| format!("Comments {}", count(n as u64)),
    empty: "No comments yet. Be the first to leave one.",
    sign_in_to_write: "Anyone can read the comments; to write one, ",
    sign_in: "sign in",
    placeholder: "Ask a question, or share what you found.",
    format_help: "Markdown works: `code`, fenced code blocks and links. No HTML or images.",
    post: "Post comment",
    reply: "Reply",
    post_reply: "Post reply",
    edit: "Edit",
    save: "Save",
    delete: "Delete",
    edited: "edited",
    deleted: "This comment was deleted.",
    hidden_note: "Hidden by an instructor: only you and the instructors see it.",
    held_note: "Waiting for an instructor's review: only you and the instructors see it.",
    locked: "This thread is locked: it takes no more replies.",
    follow: "Notify me of replies",
    unfollow: "Stop reply notifications",
    follow_signed_out: "Reply notifications (sign in first)",
    section: "About the section",
    whole_page: "The whole page",
    about: "About:",
    learner: |id| format!("Learner #{id}"),
    instructor: "Instructor",
    instructor_named: |name| format!("Instructor {name}"),
    an_instructor: "An instructor",
    ago: |s| match s {
        s if s < 60 => "just now".into(),
        s if s < 3_600 => format!("{} ago", plural((s / 60) as u64, "minute", "minutes")),
        s if s < 86_400 => format!("{} ago", plural((s / 3_600) as u64, "hour", "hours")),
        s => format!("{} ago", plural((s / 86_400) as u64, "day", "days")),
    },
    moderation: "Moderation",
    hide: "Hide",
    restore: "Restore",
    approve: "Approve",
    lock: "Lock thread",
    unlock: "Unlock thread",
    remove: "Delete for everyone",
    by: |email| format!("Written by {email}"),
    posted: "Your comment is posted.",
    posted_held: "Your comment is posted. An instructor reviews a new account's first comment before others see it.",
    saved: "Your comment is saved.",
    removed: "Your comment is deleted.",
    done: "Done.",
    too_fast: |minutes| {
        format!("You are commenting too fast: try again in {}.", plural(minutes as u64, "minute", "minutes"))
    },
    repeated: "You posted these same words here a moment ago.",
    no_thread: "That thread takes no replies: it was deleted, hidden or locked.",
    not_yours: "Only its author can change a comment.",
    too_late: |minutes| format!("A comment can be edited for {minutes} minutes after it is posted."),
    empty_body: "A comment needs some words.",
    too_long: |chars, max| {
        format!("The comment is {} characters long; the most is {}.", count(chars as u64), count(max as u64))
    },
    only_instructors: "Only instructors may do that.",
    sign_in_first: "Sign in first: comments are written by signed-in learners.",
    no_place: "There is no such page to comment on.",
    replied: |name, title| format!("{name} replied in a thread under “{title}”."),
    answered: |title, status| format!("An instructor answered your report on “{title}”: {status}."),
};

pub static KO: TalkWords = TalkWords {
    heading: |n| format!("댓글 {}", count(n as u64)),
    empty: "아직 댓글이 없어요. 첫 댓글을 남겨보세요.",
    sign_in_to_write: "댓글은 누구나 읽을 수 있어요. 댓글을 쓰려면 ",
    sign_in: "로그인하세요",
    placeholder: "궁금한 점이나 알게 된 것을 남겨 주세요.",
    format_help: "Markdown을 쓸 수 있어요: `code`, 코드 블록, 링크. HTML과 이미지는 쓸 수 없어요.",
    post: "댓글 남기기",
    reply: "답글",
    post_reply: "답글 남기기",
    edit: "수정",
    save: "저장",
    delete: "삭제",
    edited: "수정됨",
    deleted: "삭제된 댓글이에요.",
    hidden_note: "강사가 숨긴 댓글이에요. 본인과 강사만 볼 수 있어요.",
    held_note: "강사 검토를 기다리는 댓글이에요. 본인과 강사만 볼 수 있어요.",
    locked: "잠긴 스레드라 더 이상 답글을 달 수 없어요.",
    follow: "답글 알림 받기",
    unfollow: "답글 알림 끄기",
    follow_signed_out: "답글 알림 (로그인 필요)",
    section: "관련 섹션",
    whole_page: "페이지 전체",
    about: "섹션:",
    learner: |id| format!("학습자 #{id}"),
    instructor: "강사",
    instructor_named: |name| format!("강사 {name}"),
    an_instructor: "강사",
    ago: |s| match s {
        s if s < 60 => "방금".into(),
        s if s < 3_600 => format!("{}분 전", s / 60),
        s if s < 86_400 => format!("{}시간 전", s / 3_600),
        s => format!("{}일 전", s / 86_400),
    },
    moderation: "관리",
    hide: "숨기기",
    restore: "복원",
    approve: "승인",
    lock: "스레드 잠그기",
    unlock: "잠금 해제",
    remove: "모두에게서 삭제",
    by: |email| format!("작성자: {email}"),
    posted: "댓글을 남겼어요.",
    posted_held: "댓글을 남겼어요. 새 계정의 첫 댓글은 강사가 검토한 뒤에 다른 사람에게 보여요.",
    saved: "댓글을 고쳤어요.",
    removed: "댓글을 삭제했어요.",
    done: "처리했어요.",
    too_fast: |minutes| format!("댓글을 너무 빨리 쓰고 있어요. {minutes}분 뒤에 다시 해 보세요."),
    repeated: "같은 내용을 방금 여기에 남겼어요.",
    no_thread: "이 스레드에는 답글을 달 수 없어요. 삭제됐거나 숨겨졌거나 잠겼어요.",
    not_yours: "댓글은 쓴 사람만 고칠 수 있어요.",
    too_late: |minutes| format!("댓글은 쓴 뒤 {minutes}분 안에만 수정할 수 있어요."),
    empty_body: "댓글 내용을 써 주세요.",
    too_long: |chars, max| {
        format!(
            "댓글이 {}자예요. 최대 {}자까지 쓸 수 있어요.",
            count(chars as u64),
            count(max as u64)
        )
    },
    only_instructors: "강사만 할 수 있어요.",
    sign_in_first: "먼저 로그인하세요. 댓글은 로그인한 학습자가 써요.",
    no_place: "댓글을 달 페이지가 없어요.",
    replied: |name, title| format!("{name} 님이 “{title}”의 스레드에 답글을 달았어요."),
    answered: |title, status| format!("강사가 “{title}”에 대한 신고에 답했어요: {status}."),
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_read_naturally() {
        let (en, ko) = (talk(Lang::En), talk(Lang::Ko));
        assert_eq!((en.ago)(5), "just now");
        assert_eq!((en.ago)(60), "1 minute ago");
        assert_eq!((en.ago)(180), "3 minutes ago");
        assert_eq!((ko.ago)(180), "3분 전");
        assert_eq!((en.ago)(7_200), "2 hours ago");
        assert_eq!((ko.ago)(86_400 * 3), "3일 전");
        assert_eq!((ko.heading)(0), "댓글 0");
        assert_eq!((en.heading)(1_200), "Comments 1,200");
    }
}
