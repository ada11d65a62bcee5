//! Drafts and publishing: whether learners may see a lesson or a course, and from when.
//!
//! A lesson (in its front matter) or a course (in its `course.toml`) says `status = "draft"`
//! while it is being written, and is published otherwise; `publish_at` publishes it at an
//! instant, with its offset (`2026-12-01T09:00:00+09:00`). Learners and anonymous visitors see
//! only what is published; instructors see everything, drafts marked.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::Deserialize;
use toml::value::Datetime;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    #[default]
    Published,
    Draft,
}

/// Who may see a lesson or course, as its file says.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Visibility {
    #[default]
    Published,
    Draft,
    /// Published from this instant on; a draft to learners before it.
    Scheduled(SystemTime),
}

impl Visibility {
    pub fn of(status: Status, publish_at: Option<&Datetime>) -> Visibility {
        match (status, publish_at.map(instant)) {
            (Status::Draft, _) => Visibility::Draft,
            (Status::Published, None) => Visibility::Published,
            (Status::Published, Some(Ok(at))) => Visibility::Scheduled(at),
            // An instant that cannot be read publishes nothing: the file's problem says why.
            (Status::Published, Some(Err(_))) => Visibility::Draft,
        }
    }

    /// A lesson's, in a course that is `course`: published when both are.
    pub fn within(self, course: Visibility) -> Visibility {
        use Visibility::*;
        match (self, course) {
            (Draft, _) | (_, Draft) => Draft,
            (Published, other) | (other, Published) => other,
            (Scheduled(a), Scheduled(b)) => Scheduled(a.max(b)),
        }
    }

    /// Whether learners see it at `now`.
    pub fn published_at(self, now: SystemTime) -> bool {
        match self {
            Visibility::Published => true,
            Visibility::Draft => false,
            Visibility::Scheduled(at) => at <= now,
        }
    }

    /// The instant after `now` at which this changes for learners, if any.
    pub fn changes_after(self, now: SystemTime) -> Option<SystemTime> {
        match self {
            Visibility::Scheduled(at) if at > now => Some(at),
            _ => None,
        }
    }

    /// What it is, as front matter that could not be read as a whole still says: a file whose
    /// front matter has a mistake elsewhere, and `status = "draft"` or a `publish_at`, must not
    /// reach learners as a broken lesson. Unreadable TOML is searched line by line.
    pub(crate) fn declared_in(toml_text: &str) -> Visibility {
        #[derive(Deserialize)]
        struct Declared {
            #[serde(default)]
            status: Option<toml::Value>,
            #[serde(default)]
            publish_at: Option<toml::Value>,
        }
        match toml::from_str::<Declared>(toml_text) {
            Ok(Declared { status, publish_at }) => {
                let draft = status.is_some_and(|s| s.as_str() != Some("published"));
                match publish_at {
                    _ if draft => Visibility::Draft,
                    None => Visibility::Published,
                    Some(toml::Value::Datetime(at)) => Visibility::of(Status::Published, Some(&at)),
                    Some(_) => Visibility::Draft,
                }
            }
            Err(_) => {
                let draft = toml_text
                    .lines()
                    .any(|l| l.trim_start().starts_with("status") && l.contains("draft"));
                if draft || crate::front_matter::key_line(toml_text, "publish_at").is_some() {
                    Visibility::Draft
                } else {
                    Visibility::Published
                }
            }
        }
    }
}

/// The instant a TOML datetime names: it must have a date, a time and an offset, since a
/// publishing time without its offset would be a different instant on every server.
pub fn instant(at: &Datetime) -> Result<SystemTime, String> {
    let (Some(date), Some(time), Some(offset)) = (at.date, at.time, at.offset) else {
        return Err(format!(
            "`{at}` is not an instant: give a date, a time and the offset, as in \
             `publish_at = 2026-12-01T09:00:00+09:00`"
        ));
    };
    let offset_minutes = match offset {
        toml::value::Offset::Z => 0,
        toml::value::Offset::Custom { minutes } => i64::from(minutes),
    };
    let days = days_from_civil(i64::from(date.year), i64::from(date.month), i64::from(date.day));
    let seconds = days * 86_400
        + i64::from(time.hour) * 3_600
        + i64::from(time.minute) * 60
        + i64::from(time.second)
        - offset_minutes * 60;
    let seconds = u64::try_from(seconds).map_err(|_| format!("`{at}` is before 1970"))?;
    Ok(UNIX_EPOCH + Duration::new(seconds, time.nanosecond))
}

/// An instant in Unix seconds, as events are timed.
pub fn unix(t: SystemTime) -> i64 {
    match t.duration_since(UNIX_EPOCH) {
        Ok(d) => d.as_secs() as i64,
        Err(e) => -(e.duration().as_secs() as i64),
    }
}

/// An instant as UTC date and time to the second: `2026-12-01T00:00:00Z`.
pub fn rfc3339(t: SystemTime) -> String {
    lockstep_clock::iso_utc(unix(t))
}

/// An instant as `lessons check` says it: `2026-12-01 09:00 UTC`.
pub fn shown(t: SystemTime) -> String {
    let text = rfc3339(t);
    format!("{} {} UTC", &text[..10], &text[11..16])
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> Datetime {
        text.parse().unwrap()
    }

    fn secs(t: SystemTime) -> u64 {
        t.duration_since(UNIX_EPOCH).unwrap().as_secs()
    }

    #[test]
    fn instants_with_their_offsets() {
        // `date -d 2026-12-01T09:00:00+09:00 +%s`
        assert_eq!(secs(instant(&at("2026-12-01T09:00:00+09:00")).unwrap()), 1_796_083_200);
        assert_eq!(secs(instant(&at("2026-12-01T00:00:00Z")).unwrap()), 1_796_083_200);
        assert_eq!(secs(instant(&at("2024-02-29T23:59:59-00:30")).unwrap()), 1_709_252_999);
        assert_eq!(secs(instant(&at("1970-01-01T00:00:00Z")).unwrap()), 0);
        for local in ["2026-12-01T09:00:00", "2026-12-01", "09:00:00"] {
            assert!(instant(&at(local)).unwrap_err().contains("offset"), "{local}");
        }
        assert!(instant(&at("1969-12-31T23:59:59Z")).unwrap_err().contains("before 1970"));
        for text in ["2026-12-01T00:00:00Z", "2024-02-29T23:59:59Z", "2100-03-01T12:30:05Z"] {
            assert_eq!(rfc3339(instant(&at(text)).unwrap()), text, "back and forth");
        }
        assert_eq!(
            shown(instant(&at("2026-12-01T09:00:00+09:00")).unwrap()),
            "2026-12-01 00:00 UTC"
        );
    }

    #[test]
    fn who_sees_what_and_when() {
        let t = instant(&at("2026-12-01T00:00:00Z")).unwrap();
        let before = t - Duration::from_secs(1);
        let v = Visibility::of(Status::Published, Some(&at("2026-12-01T00:00:00Z")));
        assert_eq!(v, Visibility::Scheduled(t));
        assert!(!v.published_at(before) && v.published_at(t));
        assert_eq!((v.changes_after(before), v.changes_after(t)), (Some(t), None));
        assert!(!Visibility::of(Status::Draft, None).published_at(t));
        assert!(Visibility::of(Status::Published, None).published_at(t));
        let unreadable = Visibility::of(Status::Published, Some(&at("2026-12-01")));
        assert_eq!(unreadable, Visibility::Draft);
    }

    #[test]
    fn a_lesson_is_published_when_it_and_its_course_are() {
        let (a, b) = (UNIX_EPOCH + Duration::from_secs(10), UNIX_EPOCH + Duration::from_secs(20));
        use Visibility::*;
        assert_eq!(Published.within(Published), Published);
        assert_eq!(Published.within(Scheduled(a)), Scheduled(a));
        assert_eq!(Scheduled(b).within(Scheduled(a)), Scheduled(b));
        assert_eq!(Scheduled(a).within(Scheduled(b)), Scheduled(b));
        assert_eq!(Scheduled(a).within(Draft), Draft);
        assert_eq!(Draft.within(Published), Draft);
    }

    #[test]
    fn a_draft_stays_one_when_the_rest_of_its_front_matter_is_wrong() {
        let declared = Visibility::declared_in;
        assert_eq!(declared("title = 3\nstatus = \"draft\"\n"), Visibility::Draft);
        assert_eq!(declared("title = \nstatus = \"draft\"\n"), Visibility::Draft, "bad TOML");
        assert_eq!(declared("status = \"drfat\"\n"), Visibility::Draft, "a typo hides it");
        assert_eq!(declared("title = 3\n"), Visibility::Published);
        assert_eq!(declared("title = \n"), Visibility::Published);
        assert_eq!(declared("publish_at = \"soon\"\n"), Visibility::Draft);
        assert!(matches!(
            declared("x = [\npublish_at = 2026-12-01T00:00:00Z\n"),
            Visibility::Draft
        ));
        assert!(matches!(
            declared("title = 3\npublish_at = 2026-12-01T00:00:00Z\n"),
            Visibility::Scheduled(_)
        ));
    }
}
