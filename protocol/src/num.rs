//! Number formatting and parsing for messages and headers, written by hand to keep the wasm small:
//! core's float `Display` and `FromStr` pull in about 20 KB (flt2dec, dec2flt and their tables).

/// Formats a number for a message: whole numbers exactly, others with up to 6 decimals, trimmed.
pub fn fmt(n: f64) -> String {
    if !n.is_finite() {
        return if n.is_nan() {
            "NaN".into()
        } else if n > 0.0 {
            "Infinity".into()
        } else {
            "-Infinity".into()
        };
    }
    let negative = n < 0.0;
    if n.abs() >= 1e15 {
        // Past what whole-number text reads well (and past u64 near 1.8e19): JavaScript's
        // exponent form, `1.844674e+19`, never a saturated integer.
        let (mut mantissa, mut exponent) = (n.abs(), 0);
        while mantissa >= 10.0 {
            mantissa /= 10.0;
            exponent += 1;
        }
        let sign = if negative { "-" } else { "" };
        return crate::text!(sign, fmt(mantissa), "e+", int(exponent));
    }
    if n.abs() >= 1e12 {
        // Six decimals would overflow u64 here; the whole part is what such a number says.
        let sign = if negative { "-" } else { "" };
        return crate::text!(sign, padded(n.abs().round() as u64, 1));
    }
    let scaled = (n.abs() * 1e6).round();
    let scaled = scaled as u64;
    let (whole, frac) = (scaled / 1_000_000, scaled % 1_000_000);
    let mut out = String::new();
    if negative && scaled != 0 {
        out.push('-');
    }
    out.push_str(&padded(whole, 1));
    if frac != 0 {
        let digits = padded(frac, 6);
        out.push('.');
        out.push_str(crate::text::trim_end(&digits, b'0'));
    }
    out
}

/// A whole number in decimal, as `to_string` writes it, without core's formatting machinery.
pub fn int(n: i64) -> String {
    let mut out = if n < 0 { "-".to_owned() } else { String::new() };
    out.push_str(&padded(n.unsigned_abs(), 1));
    out
}

/// `n` in decimal with at least `width` digits, zeros in front (`padded(7, 3)` is `007`).
pub fn padded(mut n: u64, width: usize) -> String {
    let mut digits = Vec::new();
    while n > 0 || digits.len() < width.max(1) {
        digits.push(b'0' + (n % 10) as u8);
        n /= 10;
    }
    digits.iter().rev().map(|&d| char::from(d)).collect()
}

/// Parses an optionally signed whole number of at most 18 digits; core's integer `FromStr` is
/// generic over radix and overflow reporting, and several times larger in the wasm.
pub fn parse_int(s: &str) -> Option<i64> {
    let (negative, digits) = match s.as_bytes().first() {
        Some(b'-') => (true, s.get(1..)?),
        Some(b'+') => (false, s.get(1..)?),
        _ => (false, s),
    };
    if digits.is_empty() || digits.len() > 18 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let value = digits
        .bytes()
        .fold(0i64, |n, b| n * 10 + i64::from(b - b'0'));
    Some(if negative { -value } else { value })
}

/// Parses `digits[.digits]` (no sign, no exponent), as `Retry-After` values are written.
pub fn parse_decimal(s: &str) -> Option<f64> {
    let s = s.trim();
    let (whole, frac) = crate::text::split_once(s, b'.').unwrap_or((s, ""));
    if whole.is_empty() && frac.is_empty() {
        return None;
    }
    let digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
    if !digits(whole) || !digits(frac) || whole.len() > 15 {
        return None;
    }
    let mut value = if whole.is_empty() {
        0.0
    } else {
        parse_int(whole)? as f64
    };
    let mut scale = 0.1;
    for b in frac.bytes().take(9) {
        value += f64::from(b - b'0') * scale;
        scale /= 10.0;
    }
    Some(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_as_to_string_and_format_write_them() {
        for n in [
            i64::MIN,
            -1_000_000,
            -7,
            -1,
            0,
            1,
            9,
            10,
            4_294_967_296,
            i64::MAX,
        ] {
            assert_eq!(int(n), n.to_string());
        }
        for (n, width) in [(0, 1), (7, 3), (123, 2), (59, 2), (2026, 4), (u64::MAX, 6)] {
            assert_eq!(padded(n, width), format!("{n:0width$}"));
        }
    }

    #[test]
    fn formats_like_javascript_for_message_values() {
        assert_eq!(fmt(0.0), "0");
        assert_eq!(fmt(5.0), "5");
        assert_eq!(fmt(0.01), "0.01");
        assert_eq!(fmt(1.5), "1.5");
        assert_eq!(fmt(-0.1), "-0.1");
        assert_eq!(fmt(0.123), "0.123");
        assert_eq!(fmt(60000.0), "60000");
        assert_eq!(fmt(f64::NAN), "NaN");
    }

    #[test]
    fn parses_whole_numbers() {
        assert_eq!(parse_int("0"), Some(0));
        assert_eq!(parse_int("1735689600123"), Some(1_735_689_600_123));
        assert_eq!(parse_int("-42"), Some(-42));
        assert_eq!(parse_int("+7"), Some(7));
        for bad in ["", "-", "1.5", "12a", " 1", "1234567890123456789"] {
            assert_eq!(parse_int(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn parses_retry_after_values() {
        assert_eq!(parse_decimal("2"), Some(2.0));
        assert_eq!(parse_decimal("0.25"), Some(0.25));
        assert_eq!(parse_decimal(" 1.5 "), Some(1.5));
        assert_eq!(parse_decimal(".5"), Some(0.5));
        assert_eq!(parse_decimal("-1"), None);
        assert_eq!(parse_decimal("1e3"), None);
        assert_eq!(parse_decimal(""), None);
        assert_eq!(parse_decimal("Wed, 21 Oct"), None);
    }
}

#[cfg(test)]
mod large_number_tests {
    use super::fmt;

    #[test]
    fn very_large_numbers_of_either_sign_keep_their_sign_and_size() {
        assert_eq!(fmt(1e300), "1e+300");
        assert_eq!(fmt(-1e300), "-1e+300");
        assert_eq!(fmt(1.8446744073709552e19), "1.844674e+19");
        assert_eq!(fmt(-2.5e21), "-2.5e+21");
        assert_eq!(fmt(f64::MAX), "1.797693e+308");
        assert_eq!(fmt(999_999_999_999_999.0), "999999999999999");
        assert_eq!(fmt(-12.5), "-12.5");
    }
}
