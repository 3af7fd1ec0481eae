//! The Rust API suite in headless Chromium, cross-origin to the real emulator (so CORS is exercised).
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);
mod rust_api;
