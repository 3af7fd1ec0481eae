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
