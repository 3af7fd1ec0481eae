//! The Rust API suite in Node (wasm-bindgen-test's default environment), against the real emulator.
mod rust_api;
