//! Instants as a reader sees them. A reader has a time zone (an IANA name their browser
//! reports, else the site's default); the pages show an instant in it as
//! `2026-11-25 23:03 UTC+9`, and a streak counts the days of that zone.
//!
//! A day is counted where the action happened: the store keeps each XP event's UTC offset at
//! the time it was recorded ([`Zone::offset_s`]), and [`day`] reads the local day from it. A
//! learner who later moves (or says they did) therefore never renumbers their past days, and
//! an achievement once earned stays earned.
//!
//! The browser draws the same text for the reader's own zone (`lockstep_web`'s clock script):
//! both sides format `YYYY-MM-DD HH:MM UTC±H[:MM]`.

use jiff::tz::TimeZone;
use jiff::Timestamp;

/// The zone a page shows times in when the reader's is not known yet: the class this platform
/// was first built for is in Seoul.
pub const SITE_DEFAULT: &str = "Asia/Seoul";

/// A time zone the built-in database knows, by its IANA name (`Asia/Seoul`, `UTC`).
#[derive(Clone, Debug)]
pub struct Zone {
    name: String,
    tz: TimeZone,
}

impl Zone {
    /// The zone of an IANA name, as browsers report it. `None` for anything else: a POSIX TZ
    /// string, a fixed offset, a path, a name longer than any real one.
    pub fn named(name: &str) -> Option<Zone> {
        let plain = name.len() <= 64
            && !name.is_empty()
            && name.bytes().all(|b| b.is_ascii_alphanumeric() || b"/_-+".contains(&b))
            && !name.starts_with('/')
            && !name.split('/').any(|part| part.is_empty() || part.starts_with('.'));
        if !plain {
            return None;
        }
        let tz = jiff::tz::db().get(name).ok()?;
        // The database's own spelling, whatever case the request used.
        let name = tz.iana_name().unwrap_or(name).to_string();
        Some(Zone { name, tz })
    }

    /// [`SITE_DEFAULT`], looked up once: every page's times and every event without a
    /// learner's zone use it.
    pub fn site_default() -> Zone {
        static SITE: std::sync::LazyLock<Zone> = std::sync::LazyLock::new(|| {
            Zone::named(SITE_DEFAULT).expect("the built-in database has Asia/Seoul")
        });
        SITE.clone()
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// The zone's offset from UTC at `unix_s`, in seconds (32,400 for Seoul).
    pub fn offset_s(&self, unix_s: i64) -> i32 {
        self.tz.to_offset(timestamp(unix_s)).seconds()
    }

    /// `unix_ms` in this zone.
    pub fn moment(&self, unix_ms: i64) -> Moment {
        let unix_s = unix_ms.div_euclid(1000);
        let offset = self.offset_s(unix_s);
        Moment { utc: iso_utc(unix_s), local: local_text(unix_s, offset) }
    }
}

/// An instant for a page: the machine's form for `<time datetime>` and the reader's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Moment {
    /// `2026-11-25T14:03:00Z`.
    pub utc: String,
    /// `2026-11-25 23:03 UTC+9`.
    pub local: String,
}

/// Now, in Unix milliseconds: the one reading of the wall clock the application's rules and
/// pages take (the store is given the time it records, never reads it).
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// [`now_ms`] in whole seconds.
pub fn now_s() -> i64 {
    now_ms().div_euclid(1000)
}

/// The local day (days since 1970-01-01 in the zone) of `unix_s` at `offset_s` from UTC.
pub fn day(unix_s: i64, offset_s: i32) -> i64 {
    (unix_s + i64::from(offset_s)).div_euclid(86_400)
}

/// The range jiff's timestamps cover, a little inside it (years -9999 to 9999).
const MIN_S: i64 = -377_705_116_800;
const MAX_S: i64 = 253_402_207_200;

/// `unix_s` as jiff's instant, held inside the years it covers.
fn timestamp(unix_s: i64) -> Timestamp {
    Timestamp::from_second(unix_s.clamp(MIN_S, MAX_S)).expect("clamped to range")
}

/// `unix_s` as UTC date and time to the second: `2026-12-01T00:00:00Z`.
pub fn iso_utc(unix_s: i64) -> String {
    let (date, (h, m, s)) = civil(unix_s);
    format!("{date}T{h:02}:{m:02}:{s:02}Z")
}

fn local_text(unix_s: i64, offset_s: i32) -> String {
    let (date, (h, m, _)) = civil(unix_s + i64::from(offset_s));
    format!("{date} {h:02}:{m:02} {}", offset_text(offset_s))
}

/// `UTC+9`, `UTC+5:30`, `UTC-3`, `UTC`: what the browser's script writes too.
fn offset_text(offset_s: i32) -> String {
    let sign = if offset_s < 0 { '-' } else { '+' };
    let minutes = offset_s.unsigned_abs() / 60;
    match (minutes / 60, minutes % 60) {
        (0, 0) => "UTC".to_string(),
        (h, 0) => format!("UTC{sign}{h}"),
        (h, m) => format!("UTC{sign}{h}:{m:02}"),
    }
}

/// The proleptic Gregorian date (`YYYY-MM-DD`) and time of day of `unix_s` read as UTC.
fn civil(unix_s: i64) -> (String, (i64, i64, i64)) {
    let dt = TimeZone::UTC.to_datetime(timestamp(unix_s));
    let date = format!("{:04}-{:02}-{:02}", dt.year(), dt.month(), dt.day());
    (date, (i64::from(dt.hour()), i64::from(dt.minute()), i64::from(dt.second())))
}

#[cfg(test)]
mod tests {
    use super::*;

    // The expected texts were read from Python's zoneinfo:
    // datetime.fromtimestamp(t, ZoneInfo(name)).strftime("%Y-%m-%d %H:%M") and .utcoffset().

    #[test]
    fn seoul_and_utc() {
        let seoul = Zone::site_default();
        let m = seoul.moment(1_764_079_439_000);
        assert_eq!(m.utc, "2025-11-25T14:03:59Z");
        assert_eq!(m.local, "2025-11-25 23:03 UTC+9");
        let utc = Zone::named("UTC").unwrap();
        assert_eq!(utc.moment(0).local, "1970-01-01 00:00 UTC");
        assert_eq!(utc.moment(-86_400_000).local, "1969-12-31 00:00 UTC");
        assert_eq!(utc.moment(951_782_400_000).local, "2000-02-29 00:00 UTC");
    }

    #[test]
    fn offsets_with_minutes_west_and_daylight_saving() {
        let kolkata = Zone::named("Asia/Kolkata").unwrap();
        assert_eq!(kolkata.moment(1_764_079_439_000).local, "2025-11-25 19:33 UTC+5:30");
        let st_johns = Zone::named("America/St_Johns").unwrap();
        // 2026-07-01 12:00 UTC: Newfoundland daylight time, UTC-2:30.
        assert_eq!(st_johns.moment(1_782_907_200_000).local, "2026-07-01 09:30 UTC-2:30");
        let new_york = Zone::named("America/New_York").unwrap();
        // Standard time in January (UTC-5), daylight time in July (UTC-4).
        assert_eq!(new_york.moment(1_767_268_800_000).local, "2026-01-01 07:00 UTC-5");
        assert_eq!(new_york.offset_s(1_782_907_200), -4 * 3600);
    }

    #[test]
    fn only_iana_names_are_zones() {
        for bad in [
            "",
            "UTC+3",
            "EST5EDT,M3.2.0,M11.1.0",
            "/etc/localtime",
            "../../etc/passwd",
            "Asia/../Asia/Seoul",
            "Mars/Olympus_Mons",
            "Asia/Seoul\n",
            &"A".repeat(65),
        ] {
            assert!(Zone::named(bad).is_none(), "{bad:?}");
        }
        assert_eq!(
            Zone::named("asia/seoul").map(|z| z.name().to_string()),
            Some("Asia/Seoul".into())
        );
    }

    #[test]
    fn a_day_is_the_zone_s() {
        // 2025-11-29 23:30 and 2025-11-30 00:30 in Seoul are two days there, one in UTC.
        let seoul = Zone::site_default();
        let (late, early) = (1_764_426_600, 1_764_430_200);
        let (a, b) = (day(late, seoul.offset_s(late)), day(early, seoul.offset_s(early)));
        assert_eq!(b, a + 1);
        assert_eq!(day(late, 0), day(early, 0));
        assert_eq!(day(-1, 0), -1);
    }
}
