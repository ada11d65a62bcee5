//! The site's URL scheme. Links to lessons are made in three places that know nothing of each
//! other: the course rewrites `03-ddp-allreduce.md#…` links, the web app routes and links its
//! pages, and the grader points each failed check at the section that teaches it. They all
//! build those URLs here, so a change of scheme cannot leave one of them pointing nowhere.
//!
//! # What is where
//!
//! The site's URL scheme (`/lessons/<slug>`, `/lessons/<slug>#<anchor>`), the language switcher's
//! link, and `Lang` from `lockstep-lang` (a language's pages are under its segment). The course's link rewriting, the web app's router and links,
//! and the grader's check links all build URLs here.

pub use lockstep_lang::{Lang, Languages};

/// The language switcher: `?to=ko&from=/lessons/ddp` remembers the choice in [`LANG_COOKIE`] and
/// sends the reader to the same page in that language (a link, so it works without JavaScript;
/// the section in the fragment is kept across the redirect).
pub const LANGUAGE: &str = "/language";

/// The switcher's link from `path` to its page in `to`.
pub fn language_switch(path: &str, to: Lang) -> String {
    let from = percent_encode(path, |b| b == b'/');
    format!("{LANGUAGE}?to={}&from={from}", to.code())
}

/// `text` with every byte percent-encoded but the unreserved ones of RFC 3986 (letters, digits,
/// `-._~`) and those `also_keep` keeps: a query value keeps none, a path its `/`.
pub fn percent_encode(text: &str, also_keep: impl Fn(u8) -> bool) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') || also_keep(b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// `text` with its `%XX` escapes read back as bytes (a fragment as the address bar shows it:
/// `%EC%A0%88` is `절`); an escape that is not one is kept as it is.
pub fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (
            bytes[i],
            bytes.get(i + 1).copied().and_then(hex),
            bytes.get(i + 2).copied().and_then(hex),
        ) {
            (b'%', Some(hi), Some(lo)) => {
                out.push((hi * 16 + lo) as u8);
                i += 3;
            }
            (b, ..) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `path` as a `Location` header sends it, if the browser will stay on this site: every byte
/// but visible ASCII percent-encoded, `\` too (browsers read it as `/`), so no control
/// character or backslash is left to turn `/\t/host` or `/\host` into another host; then it
/// must start with one `/` (`//host` is another host, `https:` another scheme). `None` for
/// anything else. Every redirect the server sends passes here last, after whatever rewrote it.
pub fn local_location(path: &str) -> Option<String> {
    let sent = percent_encode(path, |b| b.is_ascii_graphic() && b != b'\\');
    (sent.starts_with('/') && !sent.starts_with("//")).then_some(sent)
}

/// The cookie that remembers the language a learner chose with the switcher. Read only at `/`,
/// where it wins over `Accept-Language`; every other address says its language itself.
pub const LANG_COOKIE: &str = "lang";

/// The cookie in which the page's clock script keeps the browser's time zone (an IANA name):
/// the server counts a learner's streak days in it (`lockstep_clock`).
pub const TIME_ZONE_COOKIE: &str = "lockstep-tz";

/// The first path segment of every lesson page: `/lessons/<slug>`.
pub const LESSONS_SEGMENT: &str = "lessons";

/// `/lessons/<slug>`.
pub fn lesson(slug: &str) -> String {
    format!("/{LESSONS_SEGMENT}/{slug}")
}

/// The slug of a lesson page's path, `/lessons/<slug>`; `None` for any other path.
pub fn lesson_slug(path: &str) -> Option<&str> {
    let slug = path.strip_prefix('/')?.strip_prefix(LESSONS_SEGMENT)?.strip_prefix('/')?;
    (!slug.is_empty() && !slug.contains('/')).then_some(slug)
}

/// The first path segment of every course page: `/courses/<slug>`.
pub const COURSES_SEGMENT: &str = "courses";

/// `/courses/<slug>`: a course's page, with its lessons.
pub fn course(slug: &str) -> String {
    format!("/{COURSES_SEGMENT}/{slug}")
}

/// The slug of a course page's path, `/courses/<slug>`; `None` for any other path.
pub fn course_slug(path: &str) -> Option<&str> {
    let slug = path.strip_prefix('/')?.strip_prefix(COURSES_SEGMENT)?.strip_prefix('/')?;
    (!slug.is_empty() && !slug.contains('/')).then_some(slug)
}

/// `/lessons/<slug>#<anchor>`, or the page itself without an anchor.
pub fn lesson_section(slug: &str, anchor: Option<&str>) -> String {
    match anchor {
        Some(anchor) => format!("{}#{anchor}", lesson(slug)),
        None => lesson(slug),
    }
}

/// Where quiz number `quiz` (its position in the lesson) of a lesson posts its answers.
pub fn quiz_answers(slug: &str, quiz: u32) -> String {
    format!("{}/quizzes/{quiz}", lesson(slug))
}

/// [`quiz_answers`] as an axum route.
pub const QUIZ_ANSWERS_ROUTE: &str = "/lessons/{slug}/quizzes/{quiz}";

/// The catalogue: every course, with the learner's progress in each.
pub const HOME: &str = "/";

/// The XP rules, levels and the learner's achievements; `XP_QUIZZES` is its part on quizzes.
pub const XP: &str = "/xp";
/// Search across the courses: `?q=…` (a GET form, so it works without JavaScript).
pub const SEARCH: &str = "/search";
pub const SEARCH_SEGMENT: &str = "search";
pub const XP_QUIZZES: &str = "/xp#quizzes";
/// The first path segments of the pages with one parameter (as the app's router spells them).
pub const XP_SEGMENT: &str = "xp";
pub const ACCOUNT_SEGMENT: &str = "account";
pub const INSTRUCTOR_SEGMENT: &str = "instructor";
pub const EXERCISES_SEGMENT: &str = "exercises";
pub const SUBMISSIONS_SEGMENT: &str = "submissions";

/// The account page: sign in or up, or, signed in, change password and sign out.
pub const ACCOUNT: &str = "/account";
/// The account page's sign-in form.
pub const ACCOUNT_SIGN_IN: &str = "/account#sign-in";
/// Where the account forms post (plain forms: they work without JavaScript).
pub const SIGN_UP: &str = "/account/sign-up";
pub const SIGN_IN: &str = "/account/sign-in";
pub const SIGN_OUT: &str = "/account/sign-out";
pub const CHANGE_PASSWORD: &str = "/account/password";
/// Makes a new API token for the terminal client (`lockstep submit`), revoking the last one.
pub const API_TOKEN: &str = "/account/token";

/// The instructor's view of every learner and question, and its CSV exports.
pub const INSTRUCTOR: &str = "/instructor";
pub const INSTRUCTOR_LEARNERS_CSV: &str = "/instructor/learners.csv";
pub const INSTRUCTOR_QUESTIONS_CSV: &str = "/instructor/questions.csv";

/// A graded exercise's page: its starting script in an editor, and Submit.
pub fn exercise(id: &str) -> String {
    format!("/{EXERCISES_SEGMENT}/{id}")
}

/// Exercise ids: lower-case letters, digits and dashes, as they appear in URLs and XP events.
pub fn is_exercise_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 64
        && id.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// A submission's page: its live status, then its verdict.
pub fn submission(id: i64) -> String {
    format!("/{SUBMISSIONS_SEGMENT}/{id}")
}

/// Where the exercise page's form posts a script (and the terminal client its JSON).
pub const SUBMISSIONS_API: &str = "/api/submissions";
/// Where a page that crashed in the browser reports it, for the server's log.
pub const CLIENT_ERRORS_API: &str = "/api/client-errors";
/// The exercise editor keeps a signed-in learner's draft here as they type.
pub const DRAFTS_API: &str = "/api/drafts";
/// One submission as JSON, and its events as server-sent events.
pub const SUBMISSION_API: &str = "/api/submissions/{id}";
pub const SUBMISSION_EVENTS_API: &str = "/api/submissions/{id}/events";
pub const SUBMISSION_CANCEL_API: &str = "/api/submissions/{id}/cancel";
pub const SUBMISSION_RERUN_API: &str = "/api/submissions/{id}/rerun";

/// The worker protocol (`grading_protocol::live`): claim a job, then act on it under its lease.
pub const WORKER_CLAIM_API: &str = "/api/worker/claim";
/// What search engines may crawl: the published courses and lessons.
pub const SITEMAP: &str = "/sitemap.xml";
/// For operators: 200 while the app and its database answer.
pub const HEALTHZ: &str = "/healthz";
/// For operators: the queue, grades and workers in Prometheus' text format (a worker token).
pub const METRICS: &str = "/metrics";
pub const WORKER_RENEW_API: &str = "/api/worker/jobs/{job}/renew";
pub const WORKER_EVENTS_API: &str = "/api/worker/jobs/{job}/events";
pub const WORKER_VERDICT_API: &str = "/api/worker/jobs/{job}/verdict";
pub const WORKER_FAILURE_API: &str = "/api/worker/jobs/{job}/failure";
/// The pilot supervisor's report of its batch jobs, answered with the grading wanted now.
pub const WORKER_PILOTS_API: &str = "/api/worker/pilots";

/// A route pattern of the API with its one parameter filled in.
fn fill(route: &str, value: i64) -> String {
    let (start, rest) = route.split_once('{').expect("a route with a parameter");
    let (_, end) = rest.split_once('}').expect("a closed parameter");
    format!("{start}{value}{end}")
}

/// [`SUBMISSION_API`] of one submission, and its events, cancel and rerun.
pub fn submission_api(id: i64) -> String {
    fill(SUBMISSION_API, id)
}
pub fn submission_events(id: i64) -> String {
    fill(SUBMISSION_EVENTS_API, id)
}
pub fn submission_cancel(id: i64) -> String {
    fill(SUBMISSION_CANCEL_API, id)
}
pub fn submission_rerun(id: i64) -> String {
    fill(SUBMISSION_RERUN_API, id)
}

/// What a worker does with job `job` under its lease.
pub fn worker_renew(job: i64) -> String {
    fill(WORKER_RENEW_API, job)
}
pub fn worker_events(job: i64) -> String {
    fill(WORKER_EVENTS_API, job)
}
pub fn worker_verdict(job: i64) -> String {
    fill(WORKER_VERDICT_API, job)
}
pub fn worker_failure(job: i64) -> String {
    fill(WORKER_FAILURE_API, job)
}

/// The slug and anchor of a lesson URL made by [`lesson_section`]; `None` for any other URL.
pub fn parse_lesson_section(url: &str) -> Option<(&str, Option<&str>)> {
    let rest = url.strip_prefix('/')?.strip_prefix(LESSONS_SEGMENT)?.strip_prefix('/')?;
    let (slug, anchor) = match rest.split_once('#') {
        Some((slug, anchor)) => (slug, Some(anchor)),
        None => (rest, None),
    };
    (!slug.is_empty() && !slug.contains('/')).then_some((slug, anchor))
}

/// Whether `c` may stand in a heading id or a slug: a letter or digit of any script (`모델`,
/// `café`), or a combining mark that belongs to one (an accent written as its own code point),
/// as GitHub keeps them in its heading anchors.
pub fn is_anchor_char(c: char) -> bool {
    c.is_alphanumeric()
        || matches!(c, '\u{0300}'..='\u{036F}' | '\u{1AB0}'..='\u{1AFF}' | '\u{1DC0}'..='\u{1DFF}'
            | '\u{20D0}'..='\u{20FF}' | '\u{FE20}'..='\u{FE2F}')
}

/// The link to a lesson section named by ids that arrived from outside the server (a stored
/// verdict, a worker's report); `None` unless both are plain slugs (no `/`, `#`, `:` or
/// space), so a `javascript:` or another site's URL can never come of it.
pub fn section_link(slug: &str, anchor: &str) -> Option<String> {
    let plain = |s: &str| !s.is_empty() && s.chars().all(|c| is_anchor_char(c) || "-_".contains(c));
    (plain(slug) && plain(anchor)).then(|| lesson_section(slug, Some(anchor)))
}

/// Where a conversation is held: under a lesson or under an exercise. Its key (`lesson:SLUG`,
/// `exercise:ID`) is what the database keeps and what forms post.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    Lesson(String),
    Exercise(String),
}

impl Place {
    /// The place of `key`, when `key` is one [`Place::key`] makes of a plain slug or id.
    pub fn parse(key: &str) -> Option<Place> {
        let plain = |s: &str| {
            !s.is_empty() && s.len() <= 200 && s.chars().all(|c| is_anchor_char(c) || c == '-')
        };
        match key.split_once(':')? {
            ("lesson", slug) if plain(slug) => Some(Place::Lesson(slug.to_string())),
            ("exercise", id) if is_exercise_id(id) => Some(Place::Exercise(id.to_string())),
            _ => None,
        }
    }

    pub fn key(&self) -> String {
        match self {
            Place::Lesson(slug) => format!("lesson:{slug}"),
            Place::Exercise(id) => format!("exercise:{id}"),
        }
    }

    /// The page it is shown on (in English; [`Lang::path`] gives the others).
    pub fn page(&self) -> String {
        match self {
            Place::Lesson(slug) => lesson(slug),
            Place::Exercise(id) => exercise(id),
        }
    }
}

/// Comments' forms (plain forms, each answered by a redirect back to the comment) and their
/// live side: the comment part's HTML for the requester, and the stream saying it changed.
pub const COMMENTS: &str = "/comments";
pub const COMMENT_ACTION: &str = "/comments/{id}/{action}";
pub const COMMENTS_API: &str = "/api/comments";
pub const COMMENTS_EVENTS_API: &str = "/api/comments/events";
/// `edit`, `delete`, `follow`, `unfollow`, and the instructors' `hide`, `restore`, `lock`,
/// `unlock`, `remove`.
pub fn comment_action(id: i64, action: &str) -> String {
    format!("{COMMENTS}/{id}/{action}")
}
/// The anchor of comment `id` on its page.
pub fn comment_anchor(id: i64) -> String {
    format!("comment-{id}")
}

/// "Report a problem" posts here.
pub const REPORTS: &str = "/reports";
/// The learner's notifications, and where "mark read" posts.
pub const NOTIFICATIONS: &str = "/notifications";
pub const NOTIFICATIONS_SEGMENT: &str = "notifications";
pub const NOTIFICATIONS_READ: &str = "/notifications/read";
/// The bell's number for the requester, as JSON, and its live stream.
pub const NOTIFICATIONS_API: &str = "/api/notifications";
/// The name the account is shown by beside its comments.
pub const DISPLAY_NAME: &str = "/account/name";
/// Instructors: a report's status and answer, the reports as CSV, and the comments setting.
pub const INSTRUCTOR_REPORT: &str = "/instructor/reports/{id}";
pub const INSTRUCTOR_REPORTS_CSV: &str = "/instructor/reports.csv";
pub const INSTRUCTOR_SETTINGS: &str = "/instructor/settings";
pub fn instructor_report(id: i64) -> String {
    format!("/instructor/reports/{id}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_switch_link_encodes_its_path() {
        assert_eq!(language_switch("/lessons/a", Lang::Ko), "/language?to=ko&from=/lessons/a");
        assert_eq!(
            language_switch("/ko/lessons/모", Lang::En),
            "/language?to=en&from=/ko/lessons/%EB%AA%A8"
        );
        assert_eq!(language_switch("/x?a=1&b", Lang::En), "/language?to=en&from=/x%3Fa%3D1%26b");
        assert_eq!(percent_encode("all reduce/모 ~x", |_| false), "all%20reduce%2F%EB%AA%A8%20~x");
    }

    #[test]
    fn languages_by_path() {
        for (path, lang) in [
            ("/", Lang::En),
            ("/xp", Lang::En),
            ("/kok", Lang::En),
            ("/korean/x", Lang::En),
            ("/lessons/ko", Lang::En),
            ("/ko", Lang::Ko),
            ("/ko/", Lang::Ko),
            ("/ko?x=1", Lang::Ko),
            ("/ko/lessons/ddp", Lang::Ko),
        ] {
            assert_eq!(Lang::of_path(path), lang, "{path}");
        }
        assert_eq!(Lang::Ko.path("/"), "/ko");
        assert_eq!(Lang::Ko.path("/lessons/ddp#x"), "/ko/lessons/ddp#x");
        assert_eq!(Lang::En.path("/xp"), "/xp");
        assert_eq!(Lang::strip("/ko/lessons/ddp"), "/lessons/ddp");
        assert_eq!(Lang::strip("/ko/"), "/");
        assert_eq!(Lang::strip("/ko"), "/");
        assert_eq!(Lang::strip("/kok"), "/kok");
        assert_eq!(Lang::switch("/xp", Lang::Ko), "/ko/xp");
        assert_eq!(Lang::switch("/ko/xp", Lang::En), "/xp");
        assert_eq!(Lang::switch("/ko/xp", Lang::Ko), "/ko/xp");
        for lang in Lang::ALL {
            assert_eq!(Lang::from_code(lang.code()), Some(lang));
            for path in ["/", "/xp", "/lessons/a#b"] {
                assert_eq!(Lang::of_path(&lang.path(path)), lang);
                assert_eq!(Lang::strip(&lang.path(path)), path);
            }
        }
    }

    #[test]
    fn lesson_urls_round_trip() {
        assert_eq!(lesson("torchrun"), "/lessons/torchrun");
        let url = lesson_section("torchrun", Some("initializing-the-process-group"));
        assert_eq!(url, "/lessons/torchrun#initializing-the-process-group");
        assert_eq!(
            parse_lesson_section(&url),
            Some(("torchrun", Some("initializing-the-process-group")))
        );
        assert_eq!(parse_lesson_section("/lessons/torchrun"), Some(("torchrun", None)));
        assert_eq!(parse_lesson_section("/lessons/"), None);
        assert_eq!(parse_lesson_section("/lessons/a/b"), None);
        assert_eq!(parse_lesson_section("https://pytorch.org/lessons/x"), None);
        // Headings in any script keep their letters, so their links do too.
        assert_eq!(
            section_link("torchrun", "모델-복제").as_deref(),
            Some("/lessons/torchrun#모델-복제")
        );
        assert_eq!(
            section_link("torchrun", "cafe\u{301}").as_deref(),
            Some("/lessons/torchrun#cafe\u{301}")
        );
        assert_eq!(section_link("torchrun", "a\"b"), None);
    }

    #[test]
    fn only_plain_ids_make_section_links() {
        let url = lesson_section("torchrun", Some("initializing-the-process-group"));
        assert_eq!(section_link("torchrun", "initializing-the-process-group"), Some(url));
        // Heading ids of Korean lessons are Hangul.
        assert_eq!(
            section_link("ddp", "그래디언트-버킷").as_deref(),
            Some("/lessons/ddp#그래디언트-버킷")
        );
        for (slug, anchor) in [
            ("javascript:alert(1)", "x"),
            ("x", "\"onmouseover=alert(1)"),
            ("x", "a b"),
            ("..", "x"),
            ("x/../../account", "x"),
            ("x?next=//evil", "x"),
            ("x", "a#b"),
            ("", "x"),
            ("x", ""),
        ] {
            assert_eq!(section_link(slug, anchor), None, "{slug}#{anchor}");
        }
    }

    #[test]
    fn escapes_read_back() {
        let anchor = "set-epoch-절대-빼먹지-마세요";
        assert_eq!(percent_decode(&percent_encode(anchor, |_| false)), anchor);
        assert_eq!(percent_decode("a%2"), "a%2");
        assert_eq!(percent_decode("100%zz"), "100%zz");
        assert_eq!(percent_decode("plain-id"), "plain-id");
    }

    #[test]
    fn only_paths_of_this_site_are_sent_as_redirects() {
        for (path, sent) in [
            ("/lessons/a#b", "/lessons/a#b"),
            ("/ko/lessons/모#절", "/ko/lessons/%EB%AA%A8#%EC%A0%88"),
            ("/%2F%2Fevil.example", "/%2F%2Fevil.example"),
            ("/\\evil.example", "/%5Cevil.example"),
            ("/\t/evil.example", "/%09/evil.example"),
            ("/\n/evil.example", "/%0A/evil.example"),
            ("/ /evil.example", "/%20/evil.example"),
        ] {
            assert_eq!(local_location(path).as_deref(), Some(sent), "{path:?}");
            assert_eq!(local_location(sent).as_deref(), Some(sent), "sent as it is: {sent}");
        }
        for path in [
            "//evil.example/login",
            "///evil.example",
            "https://evil.example",
            "https:evil.example",
            "javascript:alert(1)",
            "\\\\evil.example",
            "\t//evil.example",
            "evil.example",
            "",
        ] {
            assert_eq!(local_location(path), None, "{path:?}");
        }
    }

    #[test]
    fn api_urls_fill_their_routes() {
        assert_eq!(submission_api(7), "/api/submissions/7");
        assert_eq!(submission_events(7), "/api/submissions/7/events");
        assert_eq!(submission_cancel(7), "/api/submissions/7/cancel");
        assert_eq!(submission_rerun(7), "/api/submissions/7/rerun");
        assert_eq!(worker_renew(3), "/api/worker/jobs/3/renew");
        assert_eq!(worker_events(3), "/api/worker/jobs/3/events");
        assert_eq!(worker_verdict(3), "/api/worker/jobs/3/verdict");
        assert_eq!(worker_failure(3), "/api/worker/jobs/3/failure");
        assert_eq!(exercise("ddp-conversion"), "/exercises/ddp-conversion");
        assert_eq!(submission(7), "/submissions/7");
        assert_eq!(format!("/{XP_SEGMENT}"), XP);
        assert!(XP_QUIZZES.starts_with(XP) && ACCOUNT_SIGN_IN.starts_with(ACCOUNT));
        assert_eq!(format!("/{ACCOUNT_SEGMENT}"), ACCOUNT);
        assert_eq!(format!("/{INSTRUCTOR_SEGMENT}"), INSTRUCTOR);
    }

    #[test]
    fn the_quiz_route_matches_its_urls() {
        let url = quiz_answers("torchrun", 2);
        assert_eq!(url, "/lessons/torchrun/quizzes/2");
        let pattern = QUIZ_ANSWERS_ROUTE.replace("{slug}", "torchrun").replace("{quiz}", "2");
        assert_eq!(pattern, url);
    }

    #[test]
    fn places_come_only_from_their_keys() {
        for place in [
            Place::Lesson("torchrun".into()),
            Place::Exercise("ddp-basics".into()),
            Place::Lesson("모델-병렬".into()),
        ] {
            assert_eq!(Place::parse(&place.key()), Some(place));
        }
        assert_eq!(Place::Exercise("e1".into()).page(), "/exercises/e1");
        for bad in [
            "lesson:",
            "lesson:a/b",
            "exercise:A",
            "lesson:x#y",
            "quiz:x",
            "torchrun",
            "lesson:a b",
            "lesson:javascript:x",
        ] {
            assert_eq!(Place::parse(bad), None, "{bad}");
        }
        assert_eq!(
            comment_action(7, "edit"),
            COMMENT_ACTION.replace("{id}", "7").replace("{action}", "edit")
        );
    }
}
