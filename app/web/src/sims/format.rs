//! Numbers, durations and sizes the way the simulations' tables and captions show them.

/// Formats a float the way the tables show it: integers without a fraction, others with up to
/// four significant decimals.
pub fn number(x: f32) -> String {
    if x == x.trunc() && x.abs() < 1e7 {
        format!("{x:.0}")
    } else {
        let s = format!("{x:.4}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// Seconds in the unit a reader takes in at a glance.
pub fn duration(s: f64) -> String {
    if s >= 1.0 {
        format!("{s:.2} s")
    } else if s >= 1e-3 {
        format!("{:.2} ms", s * 1e3)
    } else {
        format!("{:.1} µs", s * 1e6)
    }
}

/// Bytes per second as GB/s.
pub fn bandwidth(bytes_per_s: f64) -> String {
    format!("{:.1} GB/s", bytes_per_s / 1e9)
}

/// A count with thousands separators: 36,818,954.
pub fn count(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

pub fn bytes(b: f64) -> String {
    if b >= 1e9 {
        format!("{:.2} GB", b / 1e9)
    } else if b >= 1e6 {
        format!("{:.1} MB", b / 1e6)
    } else if b >= 1e3 {
        format!("{:.1} kB", b / 1e3)
    } else {
        format!("{b:.0} B")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        assert_eq!(number(12.0), "12");
        assert_eq!(number(4.000_000_5), "4");
        assert_eq!(number(2.5), "2.5");
        assert_eq!(number(-0.333_333), "-0.3333");
        assert_eq!(duration(0.5e-3), "500.0 µs");
        assert_eq!(duration(2.0e-3), "2.00 ms");
        assert_eq!(bytes(3_215_360.0), "3.2 MB");
        assert_eq!(
            (count(0), count(999), count(1000), count(36_818_954)),
            ("0".into(), "999".into(), "1,000".into(), "36,818,954".into())
        );
    }
}
