//! The Rust API suite, shared by the Node and the Chromium test binaries.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::string_slice,
    clippy::disallowed_methods
)]

// The emulator's addresses and admin routes, as the JavaScript client's suite reaches them.
#[path = "../suite/common.rs"]
#[allow(dead_code)]
mod common;

mod abort;
mod errors;
mod helpers;
mod newer;
mod operations;
mod retries;
mod waiters;
