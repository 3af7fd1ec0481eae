//! The one driver under both faces of the client, the JavaScript `Client` (`lib.rs`) and the Rust
//! `rust_api::Client`: it sends an operation and reads its answer, and it polls a task until the
//! task ends. What to do next is decided in `tunesmith_protocol` (retries and backoff, the waiter's
//! reports and schedule, what every family's status means); the driver does the I/O, and the faces
//! only convert arguments in and values out. How an attempt goes over the wire is the face's
//! [`transport::Transport`]: the npm package's JavaScript `attempt`, the Rust face's gloo-net.

mod attempts;
mod config;
mod envelope;
#[cfg(feature = "rust-api")]
mod gloo;
mod poll;
mod record;
mod transport;

pub use attempts::{Body, Driver};
pub use config::{
    service_url, ApiKey, CallOptions, Config, DEFAULT_BASE_URL, DEFAULT_SEGMENT,
    DEFAULT_TIMEOUT_MS, DEFAULT_UPLOAD_TIMEOUT_MS, DEFAULT_UPLOAD_URL,
};
#[cfg(feature = "rust-api")]
pub use gloo::Gloo;
pub use poll::Poll;
pub use record::observe;
#[cfg(feature = "rust-api")]
pub use record::text_of;
