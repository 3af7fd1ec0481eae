//! The typed Rust API, for Rust web apps (Leptos, Yew, Dioxus, plain wasm-bindgen): async
//! methods over the protocol's own request and record structs.
//!
//! It is a second face on the JavaScript client's driver (`crate::driver`): the same attempts,
//! envelope reader, errors and polling loop, over the same decisions of `tunesmith_protocol`
//! (validation rules, read through the same JSON `Fields` reader as the emulator's; envelope codes
//! per table; credit-safe retries; the waiter). This module only converts: requests are serialized
//! with serde, answers decoded with serde-wasm-bindgen.
//!
//! It runs as the rest of a Rust web app does: it sends with gloo-net (on the global `fetch`, in
//! windows, workers and Node alike), and its methods are plain futures, awaited inside the app's
//! own (`wasm_bindgen_futures::spawn_local`, a framework's resource or action) or handed to
//! JavaScript as a Promise (`wasm_bindgen_futures::future_to_promise`). None of them goes through
//! the npm package's executor (`tasks.rs`).
//!
//! Cancelling is dropping: a dropped future aborts its request in flight (each attempt's own
//! `AbortController`) and clears its backoff timer, so a component that unmounts, or a `select!`
//! that picks another branch, leaves nothing running.
//!
//! Behind the cargo feature `rust-api` (`tunesmith = { ..., features = ["rust-api"] }`), off for the
//! npm build: none of it is exported to JavaScript, yet linking it in measured 123 B gzipped more
//! in the shipped wasm, so the package leaves it out altogether.
//!
//! ```no_run
//! use tunesmith::rust_api::{
//!     Client, ClientConfig, Error, GenerateRequest, MusicRecord, Stage, TaskRecord, WaitOptions,
//! };
//!
//! /// Generates a song and resolves with its tracks' audio URLs; `on_stage` sees each stage once.
//! async fn make_a_song(mut on_stage: impl FnMut(Stage)) -> Result<Vec<String>, Error> {
//!     let client = Client::new(ClientConfig {
//!         // Your backend adds the API key: a key shipped to browsers is a key given away.
//!         base_url: "https://music.example.com".into(),
//!         ..ClientConfig::default()
//!     })?;
//!     let created = client
//!         .generate(&GenerateRequest {
//!             custom_mode: false,
//!             instrumental: true,
//!             model: "V6".into(),
//!             call_back_url: "https://example.com/callbacks".into(),
//!             prompt: Some("a calm piano piece".into()),
//!             ..GenerateRequest::default()
//!         })
//!         .await?;
//!     let task = client
//!         .wait_for(&created.task_id, WaitOptions::default(), |r: &MusicRecord| {
//!             on_stage(r.observed().stage)
//!         })
//!         .await?;
//!     Ok(task.response.suno_data.into_iter().map(|t| t.audio_url).collect())
//! }
//!
//! /// From an event handler: run on wasm-bindgen-futures, like the app's other futures.
//! fn on_click() {
//!     wasm_bindgen_futures::spawn_local(async {
//!         let _ = make_a_song(|_| {}).await;
//!     });
//! }
//! ```

mod client;
// One method per operation: written by `cargo xtask codegen` from the endpoint table.
mod generated;
mod waiters;

pub use crate::errors::Error;
pub use client::{Client, ClientConfig};
pub use tunesmith_protocol::codes::{ClientErrorKind, ErrorKind};
pub use tunesmith_protocol::rules::RuleKind;
pub use tunesmith_protocol::state::{Observed, Stage, TaskState};
pub use tunesmith_protocol::wire::*;
pub use tunesmith_protocol::TaskFamily;
pub use waiters::{TaskRecord, WaitOptions};
