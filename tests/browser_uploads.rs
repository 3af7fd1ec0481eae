//! Uploads in headless Chromium, cross-origin to the real emulator: Files, progress, abort, Base64.
#![allow(clippy::disallowed_macros)] // tests may format (clippy.toml)
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::string_slice,
    clippy::disallowed_methods
)]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

#[path = "uploads/browser.rs"]
mod browser;
#[path = "suite/common.rs"]
#[allow(dead_code)]
mod common;
#[path = "uploads/helpers.rs"]
mod helpers;
#[path = "uploads/shared.rs"]
mod shared;
