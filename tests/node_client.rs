//! The client suite in Node (wasm-bindgen-test's default environment), against the real emulator.
mod suite;
