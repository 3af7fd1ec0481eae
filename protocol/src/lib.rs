//! Wire types, validation rules and code tables of the service, shared by client and emulator: no I/O.
//!
//! Everything here is a pure function of its inputs, so the client (wasm) and the emulator (axum)
//! agree by construction on what a valid request is and on what an envelope `code` means.
// Tests may unwrap: a failing test should stop loudly. Shipped code may not (Cargo.toml lints).
#![cfg_attr(
    test,
    allow(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::indexing_slicing,
        clippy::string_slice,
        clippy::disallowed_methods,
        clippy::disallowed_macros
    )
)]

pub mod callback;
pub mod codes;
mod docs;
pub mod endpoints;
pub mod family;
#[cfg(feature = "json")]
pub mod json_schema;
pub mod media;
pub mod num;
pub mod op;
pub mod pricing;
pub mod retry;
pub mod rules;
pub mod schedule;
pub mod schema;
pub mod state;
pub mod status;
pub mod text;
pub mod time;
pub mod track;
pub mod upload;
pub mod waiter;
pub mod wire;

pub use codes::{ClientErrorKind, CodeTable, ErrorKind};
pub(crate) use docs::docs;
pub use endpoints::{Endpoint, Host, Method};
pub use family::TaskFamily;
pub use op::Op;
pub use rules::{Fields, RuleKind, ValidationError, Value};
pub use state::{Observed, Stage, Status, TaskState};
