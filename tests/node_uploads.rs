//! Uploads in Node (wasm-bindgen-test's default environment): Base64, URL and Blob stream paths.
#![allow(clippy::disallowed_macros)] // tests may format (clippy.toml)
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::string_slice,
    clippy::disallowed_methods
)]

#[path = "suite/common.rs"]
#[allow(dead_code)]
mod common;
#[path = "uploads/helpers.rs"]
#[allow(dead_code)]
mod helpers;
#[path = "uploads/shared.rs"]
mod shared;
