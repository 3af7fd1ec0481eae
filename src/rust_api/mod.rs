//! The typed Rust API, for Rust web apps (Leptos, Yew, Dioxus, plain wasm-bindgen): async
//! methods over the protocol's own request and record structs.
//!
//! It shares the JavaScript client's core, `tunesmith_protocol`: the same validation rules (read
//! through the same JSON `Fields` reader as the emulator's), the same envelope codes per family,
//! the same credit-safe retry rules and `Retry-After`, the same waiter state machine. Requests are
//! serialized with serde and sent with gloo-net; answers are decoded with serde-wasm-bindgen.
//!
//! Cancelling is dropping: a dropped future aborts its request in flight (an `AbortGuard` owns
//! each attempt's `AbortController`) and clears its timers, so a component that unmounts, or a
//! `select!` that picks another branch, leaves nothing running.
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
//!             on_stage(r.observed().1)
//!         })
//!         .await?;
//!     Ok(task.response.suno_data.into_iter().map(|t| t.audio_url).collect())
//! }
//! ```

mod client;
mod covers;
mod creations;
mod envelope;
mod error;
mod lyrics;
mod music;
mod retries;
mod transport;
mod uploads;
mod video;
mod vocals;
mod waiters;
mod wav;

pub use client::{Client, ClientConfig};
pub use error::Error;
pub use tunesmith_protocol::codes::ErrorKind;
pub use tunesmith_protocol::rules::RuleKind;
pub use tunesmith_protocol::state::{Stage, TaskState};
pub use tunesmith_protocol::wire::*;
pub use tunesmith_protocol::TaskFamily;
pub use waiters::{TaskRecord, WaitOptions};
