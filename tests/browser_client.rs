//! The client suite in headless Chromium, cross-origin to the real emulator (so CORS is exercised).
#![allow(clippy::disallowed_macros)] // tests may format (clippy.toml)
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);
mod suite;
