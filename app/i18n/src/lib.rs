//! The interface's words, one catalogue per language. Both catalogues are values of the same
//! Rust type, so a word missing in one language does not compile: the check the issue of a
//! second language needs is the type checker's, and it runs in every build, the browser
//! bundle's included. A word that takes numbers is a function, which is where each language's
//! plural and number forms live (Korean has no plural: `레슨 3개`).
//!
//! Lesson text is not here: lessons are translated as whole files (`lessons/ddp/ko/`, see
//! `lessons/README.md`). This is only the interface around them.
//!
//! # What is where
//!
//! The interface's words: one `Catalogue` value per language (`en.rs`, `ko.rs`, and the
//! simulations' in `sims.rs`), all of one Rust type, so a word missing in one language does not
//! compile. A language may also give only some words and take the rest from English, where the
//! interface is written (`ja.rs`, `..en::EN`): the one fallback rule, by which a language is
//! added with its words and nothing else. Words with numbers are functions, which is where
//! plurals and Korean counters live.
//! Lesson text is not here: lessons are translated as files.

mod en;
mod ja;
mod ko;
pub mod sims;
pub mod talk;

pub use lockstep_routes::{Lang, Languages};
pub use talk::talk;

/// The catalogue of `lang`.
pub fn t(lang: Lang) -> &'static Catalogue {
    match lang {
        Lang::En => &en::EN,
        Lang::Ko => &ko::KO,
        Lang::Ja => &ja::JA,
    }
}

/// Every word of the interface in one language.
pub struct Catalogue {
    pub site: Site,
    pub markdown: Markdown,
    pub progress: Progress,
    pub course: CourseWords,
    pub lesson: LessonWords,
    pub quiz: Quiz,
    pub xp: XpWords,
    pub account: AccountWords,
    pub exercise: ExerciseWords,
    pub instructor: InstructorWords,
    pub submission: SubmissionWords,
    pub search: SearchWords,
    pub errors: Errors,
    pub notifications: NotificationWords,
    pub report: ReportWords,
    pub sims: &'static sims::SimWords,
    pub terminal: TerminalWords,
}

/// What `lockstep submit` prints as a grading goes, one line per step.
pub struct TerminalWords {
    /// (id, the submission's page)
    pub submitted: fn(i64, &str) -> String,
    pub queued: fn(ahead: u64) -> String,
    pub started_on_node: fn(node: &str, worker: &str, attempt: u32) -> String,
    pub started: fn(worker: &str, attempt: u32) -> String,
    /// (run, processes, its role)
    pub run_started: fn(u32, u32, &str) -> String,
    pub run_finished: fn(u32, f64) -> String,
    pub requeued: fn(reason: &str) -> String,
    pub gave_up: fn(reason: &str) -> String,
    pub cancelled: &'static str,
}

/// The frame of every page.
pub struct Site {
    /// The language's own name, as the switcher offers it: "English", "한국어".
    pub language_name: &'static str,
    pub skip_to_content: &'static str,
    pub nav_label: &'static str,
    pub nav_course: &'static str,
    pub nav_xp: &'static str,
    pub nav_account: &'static str,
    /// The switcher's label: "Language".
    pub language: &'static str,
    pub footer: &'static str,
    pub search: &'static str,
    pub search_placeholder: &'static str,
    /// The notice on a page whose scripts failed: its bundle could not be loaded, or it
    /// panicked. Then the reload link.
    pub broken_page: &'static str,
    pub reload: &'static str,
}

/// Words the course's markdown renders into lesson pages.
pub struct Markdown {
    pub link_to_section: &'static str,
    pub note: &'static str,
    pub tip: &'static str,
    pub important: &'static str,
    pub warning: &'static str,
    pub caution: &'static str,
    pub copy_code: &'static str,
    pub copy: &'static str,
    pub copied: &'static str,
    pub copy_failed: &'static str,
    pub exercise_link: &'static str,
}

/// The progress panel on every page, and the toast of what an action earned.
pub struct Progress {
    pub panel_label: &'static str,
    pub level: fn(u32) -> String,
    pub xp: fn(u32) -> String,
    pub lessons: fn(done: u32, total: u32, percent: u32) -> String,
    pub achievements: fn(done: u32, total: u32) -> String,
    pub bar_label: &'static str,
    /// (XP into this level, XP it spans, the next level, XP to go, percent).
    pub to_next_level: fn(into: u32, span: u32, next: u32, to_go: u32, percent: u32) -> String,
    pub top_level: &'static str,
    pub local_only_before: &'static str,
    pub sign_in: &'static str,
    pub local_only_after: &'static str,
    pub signed_in_before: &'static str,
    pub signed_in_after: &'static str,
    pub how_xp_works: &'static str,
    pub achievement: fn(&str) -> String,
}

/// The course index.
pub struct CourseWords {
    pub loading: &'static str,
    pub load_failed: &'static str,
    pub hero: fn(lessons: usize, minutes: u32) -> String,
    /// After the hero's count, for an instructor: how many of those lessons are drafts, which
    /// learners' counts leave out.
    pub drafts_among: fn(drafts: usize) -> String,
    pub progress_label: &'static str,
    pub lessons_completed: &'static str,
    pub lesson_meta: fn(position: usize, total: usize, minutes: u32, xp: u32) -> String,
    pub completed: &'static str,
    pub unavailable: &'static str,
    pub tags: &'static str,
    /// The catalogue's heading and what it says under it.
    pub catalogue_title: &'static str,
    pub catalogue_lede: &'static str,
    pub catalogue_label: &'static str,
    /// A course card's line: its lessons and minutes.
    pub card_meta: fn(lessons: usize, minutes: u32) -> String,
    pub by: fn(authors: &str) -> String,
    /// The card's way in: the first lesson not completed yet.
    pub start: fn(title: &str) -> String,
    pub resume: fn(title: &str) -> String,
    pub finished: &'static str,
    pub no_lessons_yet: &'static str,
    /// The mark of a course or lesson only instructors see.
    pub draft: &'static str,
    /// The course page's way back to the catalogue.
    pub all_courses: &'static str,
}

/// A lesson page's frame.
pub struct LessonWords {
    pub loading: &'static str,
    pub load_failed: &'static str,
    pub position: fn(position: usize, total: usize) -> String,
    pub minutes: fn(u32) -> String,
    pub on_this_page: &'static str,
    pub hide: &'static str,
    pub show: &'static str,
    pub prev_next: &'static str,
    pub progress_label: &'static str,
    pub completed: fn(xp: u32) -> String,
    pub mark_complete: fn(xp: u32) -> String,
    pub reset_summary: &'static str,
    pub reset_explain: &'static str,
    pub reset_confirm: &'static str,
    pub broken: &'static str,
    pub broken_for_instructor_before: &'static str,
    pub broken_for_instructor_after: &'static str,
    pub back_to_course: &'static str,
    /// Shown on a lesson read in a language it has not been translated into yet, which is
    /// shown in the language it is written in (the argument).
    pub not_translated: fn(Lang) -> String,
    /// The banner of a draft, which only instructors see.
    pub draft: &'static str,
    /// The banner of a lesson published later, before and after the instant from which
    /// learners see it (drawn in the reader's zone).
    pub scheduled: [&'static str; 2],
    /// The link from that banner to the page as learners will get it.
    pub preview_as_learner: &'static str,
    /// The bar of that preview, and its link back.
    pub previewing: &'static str,
    pub back_to_draft: &'static str,
}

pub struct Quiz {
    pub title: fn(questions: usize) -> String,
    pub rules: fn(again: bool, pass_mark: usize, total: usize) -> String,
    pub choose_all: &'static str,
    pub check: &'static str,
    pub score: fn(passed: bool, right: usize, total: usize) -> String,
    pub hidden_until_passed: &'static str,
    pub why: &'static str,
    pub right: &'static str,
    pub not_right: &'static str,
    pub yours_correct: &'static str,
    pub yours_not_correct: &'static str,
    pub correct_not_chosen: &'static str,
    pub yours: &'static str,
    /// The quiz was answered in another tab since this page loaded.
    pub stale: &'static str,
}

/// The XP page. The rules' and achievements' words are in `lockstep-xp`, beside the rules.
pub struct XpWords {
    pub title: &'static str,
    pub loading: &'static str,
    pub load_failed: &'static str,
    pub intro: &'static str,
    pub earning: &'static str,
    pub what: &'static str,
    /// What completing a lesson earns: its own XP.
    pub earns_the_lessons: &'static str,
    /// What an action earns each time: this much XP.
    pub earns_each: fn(u32) -> String,
    pub quizzes: &'static str,
    pub quiz_policy_before: &'static str,
    pub flawless: &'static str,
    pub quiz_policy_after: &'static str,
    pub levels: &'static str,
    pub level: &'static str,
    pub from: &'static str,
    pub name: &'static str,
    pub achievements: &'static str,
    pub earned: &'static str,
    /// The learner's progress course by course.
    pub by_course: &'static str,
    pub course: &'static str,
    pub lessons: &'static str,
    /// What adding lessons does to XP, levels and achievements.
    pub new_lessons: &'static str,
    pub new_lessons_text: &'static str,
}

pub struct AccountWords {
    pub title: &'static str,
    pub load_failed: &'static str,
    pub signed_in_as_before: &'static str,
    pub signed_in_as_after: &'static str,
    pub instructor_view: &'static str,
    pub change_password: &'static str,
    pub current_password: &'static str,
    pub new_password: &'static str,
    pub terminal: &'static str,
    pub new_token: &'static str,
    pub token_before: &'static str,
    pub token_after: &'static str,
    pub make_token: &'static str,
    pub sign_out: &'static str,
    pub why_sign_in: &'static str,
    pub sign_in: &'static str,
    pub email: &'static str,
    pub password: &'static str,
    pub create: &'static str,
    pub password_rule: &'static str,
    pub create_button: &'static str,
    pub no_email: &'static str,
    // What the account forms answer, and what signing in says.
    pub email_invalid: &'static str,
    pub email_taken: &'static str,
    pub password_weak: fn(why: &str) -> String,
    pub weak_too_short: &'static str,
    pub weak_too_long: &'static str,
    pub weak_has_email: &'static str,
    pub weak_common: &'static str,
    pub wrong_credentials: &'static str,
    pub current_password_wrong: &'static str,
    pub too_many_attempts: fn(minutes: i64) -> String,
    pub too_many_sign_ups: fn(minutes: i64) -> String,
    pub signed_in_as: fn(email: &str) -> String,
    pub password_changed: &'static str,
    /// The name shown beside the learner's comments.
    pub display_name: &'static str,
    pub display_name_help: &'static str,
    pub save_name: &'static str,
    pub name_saved: &'static str,
    pub name_too_long: fn(max: usize) -> String,
    /// What sign-in merged from the browser: each kind of action with its count, by kind
    /// (`lesson`, `simulation`, `quiz`, `perfect score`, `exercise`, `first-try pass`).
    pub merged_item: fn(kind: &str, n: usize) -> String,
    pub merged: fn(items: &str, xp: u32) -> String,
    pub already_had: fn(n: u64) -> String,
}

/// The bell in the header and the notifications page.
pub struct NotificationWords {
    pub title: &'static str,
    /// The bell's label, with the unread count.
    pub bell: fn(unread: i64) -> String,
    pub none: &'static str,
    pub sign_in_before: &'static str,
    pub new: &'static str,
    pub open: &'static str,
    pub mark_read: &'static str,
    pub mark_all_read: &'static str,
    pub answer: &'static str,
}

pub struct ExerciseWords {
    pub loading: &'static str,
    pub load_failed: &'static str,
    pub submit: &'static str,
    pub sign_in: &'static str,
    pub sign_in_to_submit: &'static str,
    pub grader_before: &'static str,
    pub grader_after: fn(xp: u32) -> String,
    pub back_to_section: &'static str,
    pub checks: &'static str,
    pub where_taught: &'static str,
    pub upload: &'static str,
    pub start_over: &'static str,
    pub from_draft: &'static str,
    pub from_start: &'static str,
    pub from_refused: &'static str,
    pub from_submission: fn(i64) -> String,
    /// What the editor says of the learner's draft (`app/web/editor/editor.js` reads them from
    /// the page): restored from this browser, saved to the account, kept in this browser only
    /// because the save failed, kept in this browser (a visitor's).
    pub draft_restored: &'static str,
    pub draft_saved: &'static str,
    pub draft_save_failed: &'static str,
    pub draft_kept: &'static str,
    /// The editor's name for screen readers, after the file's name.
    pub python_code: &'static str,
    pub your_submissions: &'static str,
    pub submission: &'static str,
    /// The column of when each was submitted.
    pub submitted: &'static str,
    pub status: &'static str,
}

pub struct InstructorWords {
    pub title: &'static str,
    /// The name of the course filter.
    pub filter: &'static str,
    pub only_title: &'static str,
    pub only_before: &'static str,
    pub only_middle: &'static str,
    pub load_failed: &'static str,
    pub learners: fn(usize) -> String,
    /// The page's contents: its label, and the names of the reports' and learners' sections.
    pub contents: &'static str,
    pub reports_heading: &'static str,
    pub learners_heading: &'static str,
    pub csv: &'static str,
    pub learner: &'static str,
    pub level: &'static str,
    pub lessons: &'static str,
    pub quizzes_passed: &'static str,
    pub achievements: &'static str,
    pub submissions: &'static str,
    pub submissions_intro: &'static str,
    pub submission: &'static str,
    pub exercise: &'static str,
    pub status: &'static str,
    pub questions: &'static str,
    pub questions_intro: &'static str,
    pub lesson: &'static str,
    pub question: &'static str,
    pub answered: &'static str,
    pub right: &'static str,
    pub reports: fn(usize) -> String,
    pub reports_intro: &'static str,
    pub no_reports: &'static str,
    pub when: &'static str,
    pub place: &'static str,
    pub what: &'static str,
    pub from: &'static str,
    pub anonymous: &'static str,
    pub answer: &'static str,
    pub save: &'static str,
    /// A report's status by its stored name: open, fixed, wontfix.
    pub report_status: fn(&str) -> &'static str,
    pub comments_settings: &'static str,
    pub hold_first_comments: &'static str,
    pub save_settings: &'static str,
}

/// "Report a problem", on lessons, quiz questions, exercises and verdicts.
pub struct ReportWords {
    pub link: &'static str,
    pub lead: &'static str,
    pub what: &'static str,
    pub section: &'static str,
    pub whole_page: &'static str,
    /// A quiz question, numbered from 1 in the quiz: "Quiz 1, question 3".
    pub question: fn(quiz: u32, question: u32) -> String,
    pub send: &'static str,
    pub thanks: &'static str,
    pub thanks_signed_in: &'static str,
    pub too_many: fn(minutes: i64) -> String,
    pub empty: &'static str,
    pub too_long: fn(max: usize) -> String,
    pub verdict: &'static str,
}

/// The search box and page.
pub struct SearchWords {
    pub title: &'static str,
    pub label: &'static str,
    pub button: &'static str,
    pub loading: &'static str,
    pub failed: &'static str,
    pub found: fn(usize) -> String,
    pub nothing: fn(&str) -> String,
    /// Before the words a search that found nothing suggests: "Try:".
    pub try_words: &'static str,
    /// A search that found nothing here found `n` sections in the edition of `lang`.
    pub elsewhere: fn(lang: Lang, n: usize) -> String,
    pub too_long: fn(max_chars: usize) -> String,
    pub too_many_words: fn(max_words: usize) -> String,
    pub no_words: &'static str,
    pub hint: &'static str,
}

/// A submission's page and its live grading.
pub struct SubmissionWords {
    pub loading: &'static str,
    pub load_failed: &'static str,
    pub title: fn(id: i64) -> String,
    pub heading: fn(id: i64, file: &str) -> String,
    pub exercise_crumb: &'static str,
    pub resubmit: &'static str,
    pub cancel: &'static str,
    pub rerun: &'static str,
    pub graded_script: &'static str,
    pub beside_model: &'static str,
    pub read_section: &'static str,
    pub waiting: &'static str,
    pub waiting_next: &'static str,
    pub waiting_ahead: fn(ahead: u64) -> String,
    pub on_node: fn(node: &str) -> String,
    pub being_graded: &'static str,
    /// "Being graded (attempt 2)." from the place and the attempt (1 for the first).
    pub attempt: fn(place: &str, attempt: u32) -> String,
    pub run: fn(index: u32, what: &str) -> String,
    pub run_took: fn(index: u32, what: &str, seconds: f64) -> String,
    pub run_running: fn(index: u32, what: &str) -> String,
    pub requeued: fn(reason: &str) -> String,
    pub graded: fn(status: &str, summary: &str) -> String,
    pub failed: fn(reason: &str) -> String,
    pub cancelled: &'static str,
    pub run_ddp: fn(nproc: u32) -> String,
    pub run_single: &'static str,
    pub run_uninterrupted: fn(nproc: u32) -> String,
    pub run_interrupted: fn(nproc: u32) -> String,
    /// The status of a verdict or a check as a word: pass, fail, error, timeout, skip; and of a
    /// submission still without one: queued, running, graded, failed (the platform's), cancelled.
    pub status_word: fn(&str) -> &'static str,
    pub case_scale: fn(dataset_len: u64, shown: usize) -> String,
    pub case_set_epoch: fn(replicas: usize, scale: &str) -> String,
    pub case_sharding: fn(replicas: usize, scale: &str) -> String,
}

pub struct Errors {
    pub not_found_title: &'static str,
    pub not_found: &'static str,
    /// The title of an error page with this HTTP status; none: the status's English name.
    pub status_title: fn(u16) -> Option<&'static str>,
    pub back_to_course: &'static str,
    /// A failure of the server, which it logged.
    pub logged: &'static str,
    pub instructors_only: &'static str,
    /// Before why a quiz form was refused.
    pub quiz_misfit: &'static str,
    pub no_quiz: &'static str,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every word is written in each language: none left empty, and none of the Korean
    /// catalogue's sentences still English (a copied word is Latin letters only).
    #[test]
    fn korean_words_are_korean() {
        let ko = t(Lang::Ko);
        let words = [
            ko.site.nav_course,
            ko.site.footer,
            ko.lesson.reset_explain,
            &(ko.lesson.not_translated)(Lang::En),
            ko.quiz.hidden_until_passed,
            ko.errors.not_found,
            ko.errors.back_to_course,
            ko.errors.logged,
            ko.errors.instructors_only,
            ko.errors.quiz_misfit,
            ko.errors.no_quiz,
            ko.markdown.exercise_link,
            ko.terminal.cancelled,
        ];
        for w in words {
            assert!(w.chars().any(|c| ('가'..='힣').contains(&c)), "{w}");
        }
        let english = (t(Lang::En).lesson.not_translated)(Lang::Ko);
        assert!(english.contains("Korean") && !english.contains('한'), "{english}");
        assert_eq!((ko.lesson.position)(2, 10), "레슨 02 / 10");
        assert_eq!((t(Lang::En).lesson.position)(2, 10), "Lesson 02 of 10");
        assert_eq!((t(Lang::En).quiz.title)(1), "Quiz: 1 question");
        assert_eq!((t(Lang::En).quiz.title)(3), "Quiz: 3 questions");
        assert_eq!((ko.quiz.title)(3), "퀴즈: 3문제");
    }
}
