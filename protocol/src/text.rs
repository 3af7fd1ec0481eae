//! Messages put together without `format!` (see [`crate::text!`]): the shipped wasm then links none
//! of core's formatting machinery.

/// A `String` of its parts (each a `&str`, a `String` or a `&String`) end to end: what `format!`
/// makes of a message with only `{}` in it, without core's formatting machinery (`Arguments` and
/// its builder at every call site, `Formatter`, padding). Every message the shipped wasm can build
/// goes through it: with no `format!` left in the module, 771 B gzipped less (58,161 → 57,390 B
/// with the glue, 2026-11-27, `cargo xtask bench --only size`); parts pushed one by one compress
/// better than a slice handed to one function (565 B more). Numbers go in through [`crate::num::int`],
/// [`crate::num::padded`] and [`crate::num::fmt`].
#[macro_export]
macro_rules! text {
    ($($part:expr),* $(,)?) => {{
        let mut text = ::std::string::String::new();
        $( text.push_str(::core::convert::AsRef::<str>::as_ref(&$part)); )*
        text
    }};
}

/// `s` around the first `byte` (ASCII), as `str::split_once` with a `char`: a byte loop, where a
/// `char` pattern brings core's `CharSearcher` and `memchr` into the shipped wasm: the byte helpers
/// here in their place took 376 B gzipped off it (2026-11-27), and clippy.toml now refuses the
/// pattern methods in the crates compiled into it. An ASCII byte is never inside a multi-byte
/// character, so both sides are whole text.
pub fn split_once(s: &str, byte: u8) -> Option<(&str, &str)> {
    let at = s.bytes().position(|b| b == byte)?;
    Some((s.get(..at)?, s.get(at + 1..)?))
}

/// Whether `s` holds any of `bytes` (ASCII), as `str::contains` with a `char` or a `char` array.
pub fn has_any(s: &str, bytes: &[u8]) -> bool {
    s.bytes().any(|b| is_one_of(b, bytes))
}

/// Whether `b` is one of `bytes`: a loop, where `<[u8]>::contains` calls `memchr` (400 B raw).
#[allow(clippy::manual_contains)] // the loop is the point: `contains` of `u8` is `memchr`
pub fn is_one_of(b: u8, bytes: &[u8]) -> bool {
    bytes.iter().any(|&x| x == b)
}

/// `s` up to the first of `bytes` (ASCII), or all of it: `str::split(..).next()`.
pub fn before_any<'a>(s: &'a str, bytes: &[u8]) -> &'a str {
    let end = s
        .bytes()
        .position(|b| is_one_of(b, bytes))
        .unwrap_or(s.len());
    s.get(..end).unwrap_or(s)
}

/// The parts of `s` between each `byte` (ASCII), as `str::split` with a `char`.
pub fn parts(s: &str, byte: u8) -> impl Iterator<Item = &str> {
    let mut rest = Some(s);
    std::iter::from_fn(move || {
        let r = rest?;
        match split_once(r, byte) {
            Some((part, after)) => {
                rest = Some(after);
                Some(part)
            }
            None => {
                rest = None;
                Some(r)
            }
        }
    })
}

/// `s` without the `byte`s (ASCII) at its end, as `str::trim_end_matches` with a `char`.
pub fn trim_end(s: &str, byte: u8) -> &str {
    let end = s.bytes().rposition(|b| b != byte).map_or(0, |i| i + 1);
    s.get(..end).unwrap_or(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_helpers_agree_with_the_char_patterns_of_str() {
        let samples = [
            "",
            ",",
            "a,b",
            ",a,",
            "a,,b,",
            "é,ü,",
            "no separator",
            "//x//",
            "1.500",
            "0.000",
            "ab?c#d/e",
        ];
        for s in samples {
            assert_eq!(split_once(s, b','), s.split_once(','), "{s:?}");
            assert_eq!(has_any(s, b"/?#"), s.contains(['/', '?', '#']), "{s:?}");
            assert_eq!(
                before_any(s, b"/?#"),
                s.split(['/', '?', '#']).next().unwrap(),
                "{s:?}"
            );
            assert_eq!(
                parts(s, b',').collect::<Vec<_>>(),
                s.split(',').collect::<Vec<_>>(),
                "{s:?}"
            );
            assert_eq!(trim_end(s, b'/'), s.trim_end_matches('/'), "{s:?}");
            assert_eq!(trim_end(s, b'0'), s.trim_end_matches('0'), "{s:?}");
        }
    }
}
