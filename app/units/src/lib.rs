//! Numbers as a learner reads them, in one place so that every page, simulation and grading
//! message says "1 sample", "3.1 MiB" and "12.5 GB/s" alike. Tensors, buckets and checkpoints
//! are in binary units ([`bytes`]: MiB, GiB), as PyTorch counts them (`bucket_cap_mb=25` is
//! 25 MiB, `torch.cuda.memory_summary` reports MiB); rates are decimal (GB/s), as interconnects
//! are rated; [`si_bytes`] is for figures a source gives in decimal units (the ZeRO paper's
//! 120 GB).
//!
//! # What is where
//!
//! Numbers as a learner reads them, for every page, simulation and grading message: counts with
//! separators, plurals that agree ("1 sample"), sizes in binary units (MiB, as PyTorch counts
//! buckets and memory) or decimal ones where a source states them (`si_bytes`), rates in GB/s,
//! durations.

/// Formats a float the way the tables show it: integers without a fraction, others with up to
/// four significant decimals; thousands grouped, as [`count`] groups them.
pub fn number(x: f32) -> String {
    let plain = if x == x.trunc() && x.abs() < 1e7 {
        format!("{x:.0}")
    } else {
        let s = format!("{x:.4}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    };
    // Grouped as [`count`] groups, so that a page says 43,359 beside 16,384.
    let (sign, unsigned) = plain.split_at(usize::from(plain.starts_with('-')));
    let (whole, fraction) = unsigned.split_at(unsigned.find('.').unwrap_or(unsigned.len()));
    match whole.parse::<u64>() {
        Ok(n) => format!("{sign}{}{fraction}", count(n)),
        Err(_) => plain,
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
pub fn count(n: impl Into<u64>) -> String {
    let digits = n.into().to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `n` and the noun that agrees with it: "1 sample", "0 samples", "2,048 samples". `many` is
/// the plural, given in full (English plurals are not all an added s).
pub fn plural(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{} {}", count(n), if n == 1 { one } else { many })
}

/// A size in binary units: 512 B, 3.1 KiB, 140.5 MiB, 2.05 GiB.
pub fn bytes(b: f64) -> String {
    const KIB: f64 = 1024.0;
    if b >= KIB * KIB * KIB {
        format!("{:.2} GiB", b / (KIB * KIB * KIB))
    } else if b >= KIB * KIB {
        format!("{:.1} MiB", b / (KIB * KIB))
    } else if b >= KIB {
        format!("{:.1} KiB", b / KIB)
    } else {
        format!("{b:.0} B")
    }
}

/// A size in decimal units, for figures that a source states in them: 100.0 MB, 120.00 GB.
pub fn si_bytes(b: f64) -> String {
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
        assert_eq!(number(43_359.0), "43,359");
        assert_eq!(number(-1_234.5), "-1,234.5");
        assert_eq!(number(999.0), "999");
        assert_eq!(duration(0.5e-3), "500.0 µs");
        assert_eq!(duration(2.0e-3), "2.00 ms");
        assert_eq!(bandwidth(12.5e9), "12.5 GB/s");
        assert_eq!(
            (count(0u64), count(999u64), count(1000u64), count(36_818_954u64)),
            ("0".into(), "999".into(), "1,000".into(), "36,818,954".into())
        );
    }

    #[test]
    fn plurals_agree_with_their_count() {
        assert_eq!(plural(1u64, "sample", "samples"), "1 sample");
        assert_eq!(plural(0u64, "sample", "samples"), "0 samples");
        assert_eq!(plural(2048u64, "sample", "samples"), "2,048 samples");
    }

    #[test]
    fn sizes_in_binary_units() {
        assert_eq!(bytes(512.0), "512 B");
        assert_eq!(bytes(3_215_360.0), "3.1 MiB");
        assert_eq!(bytes(147_275_816.0), "140.5 MiB");
        assert_eq!(bytes(2.2e9), "2.05 GiB");
        assert_eq!((si_bytes(1e8), si_bytes(1.2e11)), ("100.0 MB".into(), "120.00 GB".into()));
    }
}
