//! Time values as the service writes them ("YYYY-MM-DD hh:mm:ss", ISO 8601, epoch ms), normalized to ISO 8601.

use crate::num::padded;

/// Formats epoch milliseconds as `YYYY-MM-DDThh:mm:ss.sssZ` (UTC).
pub fn iso_from_epoch_ms(ms: i64) -> String {
    let secs = ms.div_euclid(1000);
    let millis = ms.rem_euclid(1000);
    let days = secs.div_euclid(86_400);
    let sod = secs.rem_euclid(86_400);
    let (y, m, d) = civil_from_days(days);
    let two = |n: i64| padded(n.unsigned_abs(), 2);
    crate::text!(
        // `{:04}`'s width counts the sign: year -1 is `-001`, as `format!` wrote it.
        if y < 0 { "-" } else { "" },
        padded(y.unsigned_abs(), if y < 0 { 3 } else { 4 }),
        "-",
        two(m),
        "-",
        two(d),
        "T",
        two(sod / 3600),
        ":",
        two(sod % 3600 / 60),
        ":",
        two(sod % 60),
        ".",
        padded(millis.unsigned_abs(), 3),
        "Z"
    )
}

/// Parses the ISO form this module writes (and the service's "YYYY-MM-DD hh:mm:ss", read as UTC) to epoch ms.
pub fn epoch_ms_from_iso(s: &str) -> Option<i64> {
    let b = s.as_bytes();
    if b.len() < 19 {
        return None;
    }
    let num = |r: std::ops::Range<usize>| crate::num::parse_int(s.get(r)?);
    let (y, mo, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (h, mi, se) = (num(11..13)?, num(14..16)?, num(17..19)?);
    let millis = if b.get(19) == Some(&b'.') {
        num(20..23).unwrap_or(0)
    } else {
        0
    };
    Some((days_from_civil(y, mo, d) * 86_400 + h * 3600 + mi * 60 + se) * 1000 + millis)
}

/// Normalizes a string time: "YYYY-MM-DD hh:mm:ss" gets its `T`; ISO 8601 and anything else pass unchanged.
pub fn normalize_text(s: &str) -> String {
    let b = s.as_bytes();
    // `get` rather than indexing: no panic path, whose formatting code would weigh on the wasm.
    if let (true, Some(date), Some(rest)) = (
        b.len() >= 19
            && b.get(10) == Some(&b' ')
            && b.get(4) == Some(&b'-')
            && b.get(13) == Some(&b':'),
        s.get(..10),
        s.get(11..),
    ) {
        let mut out = String::with_capacity(s.len());
        out.push_str(date);
        out.push('T');
        out.push_str(rest);
        out
    } else if !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit()) && s.len() >= 12 {
        crate::num::parse_int(s).map_or_else(|| s.to_owned(), iso_from_epoch_ms)
    } else {
        s.to_owned()
    }
}

// Howard Hinnant's civil calendar algorithms: exact for the proleptic Gregorian calendar, no tables.
fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = if m > 2 { m - 3 } else { m + 9 };
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epoch_round_trips() {
        assert_eq!(iso_from_epoch_ms(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(
            iso_from_epoch_ms(1_735_689_600_123),
            "2025-01-01T00:00:00.123Z"
        );
        for ms in [0, 951_782_400_000, 1_735_689_600_123, 4_102_444_799_999] {
            assert_eq!(epoch_ms_from_iso(&iso_from_epoch_ms(ms)), Some(ms));
        }
    }

    /// As `format!("{y:04}-{m:02}-...")` wrote it before the module dropped `format!`.
    #[test]
    fn writes_what_format_wrote_across_the_range() {
        let by_format = |ms: i64| {
            let (secs, millis) = (ms.div_euclid(1000), ms.rem_euclid(1000));
            let (days, sod) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
            let (y, m, d) = civil_from_days(days);
            format!(
                "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{millis:03}Z",
                sod / 3600,
                sod % 3600 / 60,
                sod % 60
            )
        };
        let max = 8_640_000_000_000_000;
        for ms in [
            -max,
            -62_198_755_200_001,
            -62_167_219_200_000,
            -1,
            0,
            999,
            1_735_689_600_123,
            253_402_300_799_999,
            max,
        ] {
            assert_eq!(iso_from_epoch_ms(ms), by_format(ms), "{ms}");
        }
    }

    #[test]
    fn service_formats_normalize() {
        assert_eq!(normalize_text("2025-03-04 05:06:07"), "2025-03-04T05:06:07");
        assert_eq!(
            normalize_text("2025-03-04T05:06:07Z"),
            "2025-03-04T05:06:07Z"
        );
        assert_eq!(normalize_text("1735689600123"), "2025-01-01T00:00:00.123Z");
        assert_eq!(
            epoch_ms_from_iso("2025-01-01 00:00:00"),
            Some(1_735_689_600_000)
        );
    }
}
