//! The client suite, shared by the Node and the Chromium test binaries.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod callbacks;
pub mod common;
mod declared;
mod errors;
mod newer;
mod operations;
mod retries;
mod validation;
mod waiters;
