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
    let scaled = (n.abs() * 1e6).round();
    if scaled >= 9.0e18 {
        // Beyond i64 at this scale: whole part only is meaningful anyway.
        return format!(
            "{}{}",
            if negative { "-" } else { "" },
            n.abs().round() as u64
        );
    }
    let scaled = scaled as u64;
    let (whole, frac) = (scaled / 1_000_000, scaled % 1_000_000);
    let mut out = String::new();
    if negative && scaled != 0 {
        out.push('-');
    }
    out.push_str(&whole.to_string());
    if frac != 0 {
        let digits = format!("{frac:06}");
        out.push('.');
        out.push_str(digits.trim_end_matches('0'));
    }
    out
}

/// Parses `digits[.digits]` (no sign, no exponent), as `Retry-After` values are written.
pub fn parse_decimal(s: &str) -> Option<f64> {
    let s = s.trim();
    let (whole, frac) = s.split_once('.').unwrap_or((s, ""));
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
        whole.parse::<u64>().ok()? as f64
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
