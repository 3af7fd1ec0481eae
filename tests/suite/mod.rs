//! The client suite, shared by the Node and the Chromium test binaries.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::string_slice,
    clippy::disallowed_methods
)]

mod callbacks;
pub mod common;
mod declared;
mod errors;
mod newer;
mod operations;
mod retries;
mod validation;
mod waiters;
