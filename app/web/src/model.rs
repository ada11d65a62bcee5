//! What the pages show, as it crosses from server to browser (serialized into the page for
//! hydration, or returned by a server function).

use lockstep_embed::Simulation;
pub use lockstep_lang::Text;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CourseOverview {
    pub slug: String,
    pub title: String,
    pub summary: String,
    #[serde(default)]
    pub authors: Vec<String>,
    pub lessons: Vec<LessonCard>,
    pub completed: usize,
    pub progress: ProgressView,
    /// The course is not published: only an instructor gets its page.
    #[serde(default)]
    pub unpublished: bool,
}

/// The catalogue: every course the reader may see, with their progress in each.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CatalogueView {
    pub courses: Vec<CourseCard>,
    pub progress: ProgressView,
    /// The course's own page under its card, when there is one course: a site of one course
    /// lists its lessons where it is entered.
    pub only: Option<CourseOverview>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CourseCard {
    pub slug: String,
    pub title: String,
    pub summary: String,
    pub authors: Vec<String>,
    pub lessons: usize,
    pub minutes: u32,
    pub completed: usize,
    /// The first lesson not completed yet, in course order; none once all are.
    pub next: Option<NeighbourLink>,
    pub unpublished: bool,
}

/// What recording an action earned, and the learner's progress after it: for the toast and
/// the progress panel, without reloading the page.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Progressed {
    pub progress: ProgressView,
    pub xp: u32,
    /// The level reached, when this action reached one, with its names.
    pub level: Option<(u32, Text)>,
    /// The names of achievements earned by it.
    pub achievements: Vec<Text>,
}

impl Progressed {
    /// "+10 XP · Level 1 · Gradient Apprentice · Achievement: Hands on", or nothing when the
    /// action earned nothing new.
    pub fn message(&self, lang: lockstep_i18n::Lang) -> Option<String> {
        let w = &lockstep_i18n::t(lang).progress;
        let mut parts = Vec::new();
        if self.xp > 0 {
            parts.push(format!("+{} XP", self.xp));
        }
        parts.extend(
            self.level.as_ref().map(|(n, name)| format!("{} · {}", (w.level)(*n), name.get(lang))),
        );
        parts.extend(self.achievements.iter().map(|a| (w.achievement)(a.get(lang))));
        (!parts.is_empty()).then(|| parts.join(" · "))
    }
}

/// The learner's XP, level and achievements, as every page shows them. Computed on the server
/// from recorded events (`lockstep-xp`); the browser only displays it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ProgressView {
    pub xp: u32,
    pub level: u32,
    pub level_name: Text,
    /// The XP at which the current level starts, and the next one; `None` at the top level.
    pub level_from: u32,
    pub next_level_at: Option<u32>,
    pub lessons_done: u32,
    pub lessons_total: u32,
    pub achievements: u32,
    pub achievements_total: u32,
    /// The signed-in account's email; `None` while progress is kept for this browser only.
    pub account: Option<String>,
    /// A one-time message for this page load: what a form post earned, what sign-in merged.
    pub notice: Option<String>,
}

impl ProgressView {
    /// The level's name in the page's language.
    pub fn level_name(&self, lang: lockstep_i18n::Lang) -> String {
        self.level_name.get(lang).to_string()
    }

    /// How far through the current level, 0 to 100: the bar's width and the figure its text
    /// gives, from the same two numbers so that they cannot disagree.
    pub fn level_percent(&self) -> u32 {
        match self.level_span() {
            None => 100,
            Some((into, span)) => (100 * into / span.max(1)).min(100),
        }
    }

    /// (XP earned within this level, XP this level spans); `None` at the top level.
    fn level_span(&self) -> Option<(u32, u32)> {
        let next = self.next_level_at?;
        Some((
            self.xp.saturating_sub(self.level_from).min(next - self.level_from),
            next.saturating_sub(self.level_from),
        ))
    }

    /// The line under the bar: "30/180 XP to level 2 · 150 XP to go · 16%".
    pub fn bar_text(&self, lang: lockstep_i18n::Lang) -> String {
        let words = &lockstep_i18n::t(lang).progress;
        match self.level_span() {
            None => words.top_level.to_string(),
            Some((into, span)) => {
                (words.to_next_level)(into, span, self.level + 1, span - into, self.level_percent())
            }
        }
    }

    /// "3/10 lessons · 30%": how much of the course is done.
    pub fn lessons_text(&self, lang: lockstep_i18n::Lang) -> String {
        let percent = (100 * self.lessons_done).checked_div(self.lessons_total).unwrap_or(0);
        (lockstep_i18n::t(lang).progress.lessons)(self.lessons_done, self.lessons_total, percent)
    }
}

/// A simulation as a page carries it: the name of its kind, and its parameters as JSON that
/// only the simulations' part of the bundle reads. The main module then has no code to read
/// a simulation's parameters, which it would only hand on.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Embedded {
    pub(crate) name: String,
    pub(crate) params: String,
}

impl From<Simulation> for Embedded {
    fn from(sim: Simulation) -> Embedded {
        let params = serde_json::to_string(&sim).expect("a simulation is plain data");
        Embedded { name: sim.name().to_string(), params }
    }
}

impl Embedded {
    /// A simulation as the server wrote it into the page (`data-sim`, `data-params`).
    #[cfg(feature = "hydrate")]
    pub(crate) fn new(name: String, params: String) -> Embedded {
        Embedded { name, params }
    }

    /// The simulation back, as it was given.
    pub(crate) fn simulation(&self) -> Result<Simulation, serde_json::Error> {
        serde_json::from_slice(self.params.as_bytes())
    }
}

#[cfg(test)]
mod progress_view_tests {
    use super::ProgressView;

    fn view(xp: u32, from: u32, next: Option<u32>, done: u32, total: u32) -> ProgressView {
        ProgressView {
            xp,
            level_from: from,
            next_level_at: next,
            lessons_done: done,
            lessons_total: total,
            ..ProgressView::default()
        }
    }

    #[test]
    fn the_bar_and_the_lessons_line() {
        let nothing = view(0, 0, Some(120), 0, 3);
        assert_eq!(nothing.level_percent(), 0);
        assert_eq!(
            nothing.bar_text(lockstep_i18n::Lang::En),
            "0/120 XP to level 1 · 120 XP to go · 0%"
        );
        assert_eq!(nothing.lessons_text(lockstep_i18n::Lang::En), "0/3 lessons · 0%");
        let one = view(50, 0, Some(120), 1, 3);
        assert_eq!(one.level_percent(), 41);
        assert_eq!(
            one.bar_text(lockstep_i18n::Lang::En),
            "50/120 XP to level 1 · 70 XP to go · 41%"
        );
        assert_eq!(one.lessons_text(lockstep_i18n::Lang::En), "1/3 lessons · 33%");
        let top = view(1220, 1100, None, 10, 10);
        assert_eq!(
            (top.level_percent(), top.bar_text(lockstep_i18n::Lang::En)),
            (100, "Top level reached".to_string())
        );
        assert_eq!(
            view(0, 0, Some(120), 0, 0).lessons_text(lockstep_i18n::Lang::En),
            "0/0 lessons · 0%"
        );
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LessonCard {
    pub slug: String,
    /// 1-based position in the course.
    pub position: usize,
    pub title: String,
    pub minutes: u32,
    pub tags: Vec<String>,
    pub summary: String,
    pub xp: u32,
    pub completed: bool,
    /// False when the lesson file has problems and cannot be shown.
    pub available: bool,
    /// Not published: listed for an instructor only.
    #[serde(default)]
    pub unpublished: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
// One value per request, moved once into the page: boxing the large variant would buy nothing.
#[allow(clippy::large_enum_variant)]
pub enum LessonLookup {
    Found(LessonView),
    /// The file exists but has problems; `problems` are `file:line: message` lines.
    Broken {
        title: String,
        problems: Vec<String>,
    },
    Missing,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LessonView {
    pub slug: String,
    /// Its course, by slug and title in the page's language.
    #[serde(default)]
    pub course: Option<NeighbourLink>,
    pub position: usize,
    pub total: usize,
    pub title: String,
    pub minutes: u32,
    pub tags: Vec<String>,
    pub xp: u32,
    pub summary: String,
    /// The lesson text, rendered on the server from trusted lesson files (raw HTML in markdown is
    /// rejected there), with the simulations it embeds.
    pub body: Vec<BodyBlock>,
    pub toc: Vec<TocItem>,
    pub prev: Option<NeighbourLink>,
    pub next: Option<NeighbourLink>,
    /// The language the lesson is served in when it is not the page's: it has no ready
    /// translation into the page's language yet, and is shown as its course is written.
    #[serde(default)]
    pub untranslated: Option<lockstep_i18n::Lang>,
    /// The contents' ids of this lesson in each language, in the same order, so the language
    /// switcher can go to the section being read.
    #[serde(default)]
    pub sections: Vec<(lockstep_i18n::Lang, Vec<String>)>,
    /// The page's per-request parts, by name, in the order they follow the lesson: rendered
    /// by the server on every request into the lesson page it keeps (`ssr::request_parts`).
    /// None today: the page's bytes stay what they were without them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub request_parts: Vec<String>,
    /// Not published (only an instructor gets such a page): what its banner says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unpublished: Option<Unpublished>,
}

/// Why learners do not see a lesson an instructor is reading, and how it is shown to them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unpublished {
    /// When it will be published; `None` for a draft.
    pub scheduled: Option<Moment>,
    /// Shown as learners will get it once published: the preview's bar instead of the banner.
    pub preview: bool,
    /// The version of its file the page shows: the page reloads when the file has another.
    pub version: String,
}

/// What a lesson page shows of the learner reading it. Apart from [`LessonView`], which is the
/// same for everyone, so that the server can render a lesson once and only this per request.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct LessonLearner {
    pub progress: ProgressView,
    pub completed: bool,
    /// The learner has something recorded in this lesson, which they may reset.
    pub has_progress: bool,
    /// Per quiz of the lesson, in order: the learner's side of it.
    pub quizzes: Vec<QuizLearner>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum BodyBlock {
    Html(String),
    Simulation(Embedded),
    Quiz(QuizBlock),
}

/// A quiz as the page shows it: its questions and options, never which options are right. The
/// review of the learner's last attempt (which does say) is in [`LessonLearner`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QuizBlock {
    /// Its position among the lesson's quizzes.
    pub index: u32,
    /// Where the form posts its answers.
    pub action: String,
    pub questions: Vec<QuizQuestion>,
    /// How many right answers pass.
    pub pass_mark: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QuizQuestion {
    /// Rendered from the trusted lesson file.
    pub prompt_html: String,
    pub multiple: bool,
    pub options_html: Vec<String>,
}

/// A quiz as one learner meets it: the attempt they are on, in its own order of options, and
/// the review of the attempt before.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct QuizLearner {
    /// The attempt the form answers, from 0; posted back so the server reads the answers
    /// through the order it showed.
    pub attempt: u32,
    /// Whether the order is the learner's own, or the one every visitor without a learner id
    /// gets. Posted back too: a visitor's first action (a simulation stepped) gives them an id
    /// while the page still shows the visitors' order.
    pub own_order: bool,
    /// Per question, the option (as [`QuizQuestion::options_html`] lists them) at each
    /// position shown.
    pub order: Vec<Vec<usize>>,
    pub review: Option<QuizReview>,
}

/// The learner's last attempt, marked. Until the quiz is passed it says which questions were
/// wrong and why each chosen option is right or wrong, never which options are right: a
/// failed attempt's review must not be a key for the next.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QuizReview {
    pub right: u32,
    pub passed: bool,
    /// Per question: whether it was right, and its options in the order that attempt showed.
    pub questions: Vec<(bool, Vec<ReviewedOption>)>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReviewedOption {
    /// The option, as [`QuizQuestion::options_html`] lists them.
    pub option: usize,
    pub chosen: bool,
    /// Whether it is correct: shown once the quiz is passed.
    pub correct: Option<bool>,
    /// Why it is right or wrong: for a chosen option, and for every option once passed.
    pub explain_html: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TocItem {
    pub level: u8,
    pub id: String,
    pub title: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NeighbourLink {
    pub slug: String,
    pub title: String,
}

/// The XP rules page: how XP is earned, the levels, and every achievement with whether this
/// learner has it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct XpRules {
    /// (what, XP)
    pub rules: Vec<(String, String)>,
    /// (level, from XP, name), in the page's language
    pub levels: Vec<(u32, u32, String)>,
    pub achievements: Vec<AchievementView>,
    pub progress: ProgressView,
    /// The learner's progress in each course.
    #[serde(default)]
    pub courses: Vec<CourseXp>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CourseXp {
    pub slug: String,
    pub title: String,
    pub lessons_done: usize,
    pub lessons: usize,
    pub xp: u32,
    /// The most the course gives.
    pub xp_max: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AchievementView {
    /// In the page's language, like its rule.
    pub name: String,
    pub rule: String,
    pub earned: bool,
}

/// The account page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AccountPage {
    /// `None` when signed out.
    pub account: Option<AccountInfo>,
    /// What went wrong with the last form posted, in words.
    pub error: Option<String>,
    /// A terminal token made by the last post, shown this once.
    pub new_token: Option<String>,
    /// The email the last refused sign-in or sign-up was typed with: (form, email), so the
    /// learner corrects the password instead of typing both again.
    pub form_email: Option<(String, String)>,
    pub progress: ProgressView,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AccountInfo {
    pub email: String,
    pub instructor: bool,
    pub display_name: Option<String>,
}

/// The longest display name: `lockstep_comments::MAX_NAME_CHARS`, which the server checks (a
/// test keeps the two equal); here for the form's `maxlength`.
pub const MAX_NAME_CHARS: usize = 40;

/// The longest report a learner may send, in characters (the server checks it).
pub const MAX_REPORT_CHARS: usize = 2_000;

/// A report the server refused (over a limit, too long), for its form to give back.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RefusedReport {
    pub body: String,
    pub section: Option<String>,
    /// A quiz question, `QUIZ.QUESTION`.
    pub question: Option<String>,
}

/// The instructor's view: every learner's progress, and how each quiz question fares.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InstructorView {
    pub learners: Vec<LearnerSummary>,
    pub questions: Vec<QuestionStat>,
    /// The latest submissions of every learner, newest first: (who, exercise, submission).
    pub submissions: Vec<(String, String, SubmissionRow)>,
    /// What learners reported, newest first.
    pub reports: Vec<ReportRow>,
    /// The comments setting: a new account's comments wait for an instructor.
    pub hold_first_comments: bool,
    pub progress: ProgressView,
    /// Every course, as (slug, title), to filter by.
    #[serde(default)]
    pub courses: Vec<(String, String)>,
    /// The course the view is filtered by; the whole site's when `None`.
    #[serde(default)]
    pub course: Option<String>,
}

/// A report's statuses, as the store names them (`lockstep_store::ReportStatus`; a test keeps
/// the two equal).
pub const REPORT_STATUSES: [&str; 3] = ["open", "fixed", "wontfix"];

/// An instant as a page shows it (`clock::Time`): drawn by the server in `zone`, redrawn by
/// the browser in the reader's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Moment {
    /// `2026-11-25T14:03:00Z`.
    pub utc: String,
    /// `2026-11-25 23:03 UTC+9`.
    pub local: String,
    /// The IANA name of the zone `local` is in.
    pub zone: String,
}

/// A report as the instructor view lists it, worded in the page's language.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReportRow {
    pub id: i64,
    pub when: Moment,
    /// The page, then the section, quiz question or submission: "DistributedSampler › set_epoch".
    pub place: String,
    /// A link to where it was reported from, on this site.
    pub href: String,
    /// The reporter's email; `None` for a visitor.
    pub from: Option<String>,
    pub body: String,
    /// `open`, `fixed` or `wontfix`.
    pub status: String,
    pub reply: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LearnerSummary {
    /// The account's email, or "anonymous" and the start of the browser's id.
    pub who: String,
    pub signed_up: bool,
    pub xp: u32,
    pub level: u32,
    pub level_name: String,
    pub lessons_done: u32,
    pub lessons_total: u32,
    pub quizzes_passed: u32,
    pub achievements: u32,
}

/// One quiz question over every learner's first answer to its quiz.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QuestionStat {
    pub lesson: String,
    pub lesson_title: String,
    pub quiz: u32,
    /// 1-based, as the page numbers them.
    pub question: u32,
    /// The prompt as plain text.
    pub prompt: String,
    pub answered: u32,
    pub right: u32,
}

impl QuestionStat {
    /// The share that answered right, in percent; `None` before anyone answered.
    pub fn percent_right(&self) -> Option<u32> {
        (self.answered > 0).then(|| (100 * self.right + self.answered / 2) / self.answered)
    }
}

/// A graded exercise's page: the starting script, the learner's submissions, and whether they
/// can submit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExercisePage {
    /// `None` when there is no such exercise.
    pub exercise: Option<ExerciseView>,
    pub signed_in: bool,
    /// Why the last submission was refused (nothing was queued); the editor holds the script
    /// it refused.
    pub error: Option<String>,
    /// What the editor opens on.
    pub editor: EditorStart,
    pub submissions: Vec<SubmissionRow>,
    pub progress: ProgressView,
}

/// The script the exercise editor opens on, and where it comes from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EditorStart {
    pub script: String,
    pub source: ScriptSource,
    /// When the server saved the draft shown (unix ms), 0 when none: the editor restores the
    /// copy its browser kept only when that copy was edited from this version or a later one.
    pub saved_ms: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum ScriptSource {
    /// The lesson's starting script: nothing of the learner's yet.
    Starter,
    /// The starting script, because the learner asked to start over.
    StartOver,
    /// The learner's latest draft, kept on the server.
    Draft,
    /// What the last submission was refused with.
    Refused,
    /// A submission's script, to edit and resubmit.
    Submission(i64),
}

impl EditorStart {
    /// Whether the editor must show this script as it is rather than a newer copy its browser
    /// kept: the learner asked for it by name.
    pub fn pinned(&self) -> bool {
        !matches!(self.source, ScriptSource::Draft | ScriptSource::Starter)
    }

    /// The line above the editor that says what it holds.
    pub fn describe(&self, lang: lockstep_i18n::Lang) -> Option<String> {
        let w = &lockstep_i18n::t(lang).exercise;
        match self.source {
            ScriptSource::Starter => None,
            ScriptSource::Draft => Some(w.from_draft.into()),
            ScriptSource::StartOver => Some(w.from_start.into()),
            ScriptSource::Refused => Some(w.from_refused.into()),
            ScriptSource::Submission(id) => Some((w.from_submission)(id)),
        }
    }
}

/// What a search found, or why it was not run (in the reader's language).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum SearchResults {
    Hits(Vec<SearchHit>),
    /// Nothing found; what to try instead: close words of the course's terms, and the other
    /// editions that have sections for it (how many, and the search there).
    Nothing {
        try_words: Vec<String>,
        elsewhere: Vec<(lockstep_i18n::Lang, usize)>,
    },
    Refused(String),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SearchHit {
    /// The course the lesson is in, by its title in the page's language.
    #[serde(default)]
    pub course: String,
    pub lesson_title: String,
    pub heading: String,
    pub href: String,
    /// The snippet, each piece marked when it matched.
    pub snippet: Vec<(String, bool)>,
}

/// A check's name and what it asks, in `lang`.
pub fn check_words(
    check: grading_protocol::CheckId,
    lang: lockstep_i18n::Lang,
) -> (&'static str, &'static str) {
    (check.title_in(lang), check.asks_in(lang))
}

/// A lesson section as a verdict names it, and its link in the page's language.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SectionLink {
    pub lesson: String,
    pub heading: String,
    pub href: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExerciseView {
    pub id: String,
    /// The heading the exercise sits under in its lesson ("Exercise: convert a single-GPU
    /// script"), or the lesson's title.
    pub title: String,
    pub lesson_slug: String,
    pub lesson_title: String,
    /// The link to the lesson section that sets the exercise.
    pub section_href: String,
    /// The task in the author's words, rendered from the lesson (course-renderer HTML).
    pub task_html: String,
    /// What the grader will check, in the order its verdict lists them.
    pub checks: Vec<CheckPreview>,
    pub file_name: String,
    /// The XP a pass earns.
    pub xp: u32,
}

/// One check an exercise's grader runs, as its page announces it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CheckPreview {
    pub title: String,
    pub asks: String,
    /// The lesson section that teaches it.
    pub href: String,
}

/// One of the learner's submissions, in a list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SubmissionRow {
    pub id: i64,
    pub status: String,
    /// `pass`, `fail`, `error` or `timeout`, once graded.
    pub verdict: Option<String>,
    pub created_at: i64,
    /// When it was submitted.
    pub when: Moment,
}

/// A submission's page: its events so far and, once graded, the verdict. `None` when there is
/// no such submission, or it is someone else's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SubmissionPage {
    pub submission: Option<SubmissionView>,
    pub progress: ProgressView,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SubmissionView {
    pub id: i64,
    pub exercise: String,
    /// The lesson section of each check the exercise can report, in the page's language: its
    /// check names the course's own (slug, heading id).
    #[serde(default)]
    pub sections: Vec<SectionLink>,
    pub lesson_slug: Option<String>,
    pub lesson_title: Option<String>,
    pub file_name: String,
    pub status: String,
    /// Nothing more will happen (until an instructor runs it again).
    pub done: bool,
    pub events: Vec<LiveEvent>,
    pub verdict: Option<grading_protocol::Verdict>,
    /// Whether the viewer may cancel it (theirs, and still queued) or run it again (an
    /// instructor, and finished).
    pub can_cancel: bool,
    pub can_rerun: bool,
    /// The viewer is its learner (an instructor may read it too).
    pub own: bool,
    /// The script as graded, highlighted on the server; lines numbered from 1, as the
    /// verdict's `file:line` counts them.
    pub script: Vec<lockstep_highlight::Line>,
    /// What this submission's pass earned (XP, a level, achievements), once graded; `None`
    /// when it earned nothing (a failure, or a pass after an earlier one).
    pub earned: Option<Progressed>,
}

/// A submission's event with the id the live stream resumes after.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LiveEvent {
    pub id: i64,
    pub event: grading_protocol::live::Event,
}

/// The notifications page: the signed-in learner's notifications, newest first, worded by the
/// server in the page's language.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NotificationsPage {
    pub signed_in: bool,
    pub items: Vec<NotificationItem>,
    pub progress: ProgressView,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NotificationItem {
    pub id: i64,
    pub unread: bool,
    pub text: String,
    /// "3 minutes ago".
    pub ago: String,
    /// The instructor's answer to a report, when there is one.
    pub answer: Option<String>,
}
