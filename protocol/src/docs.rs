//! Documentation text that only code generation and the emulator's OpenAPI document show.

/// Documentation text, kept only with the `docs` feature (code generation, the emulator's OpenAPI
/// document): the wasm client leaves it out, which saves kilobytes of strings it never shows.
pub(crate) const fn docs(text: &'static str) -> &'static str {
    if cfg!(feature = "docs") {
        text
    } else {
        ""
    }
}
