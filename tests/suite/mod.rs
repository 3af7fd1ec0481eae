//! The client suite, shared by the Node and the Chromium test binaries: one file per behaviour, each
//! run for both faces (the JavaScript `Client`, the Rust `rust_api::Client`) where both have it.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::string_slice,
    clippy::disallowed_methods
)]

mod callbacks;
mod cancellation;
pub mod common;
mod declared;
mod errors;
mod faces;
mod midi_and_recovery;
mod music_variants;
mod operations;
mod panics;
mod personas_and_voices;
mod retries;
mod settings;
mod songs;
mod validation;
mod wait_on_creates;
mod waiters;
mod waiting;
mod watch;
