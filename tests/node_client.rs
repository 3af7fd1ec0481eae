//! The client suite in Node (wasm-bindgen-test's default environment), against the real emulator.
#![allow(clippy::disallowed_macros)] // tests may format (clippy.toml)
mod suite;
