//! The one driver under both faces of the client, the JavaScript `Client` (`lib.rs`) and the Rust
//! `rust_api::Client`: it sends an operation and reads its answer, and it polls a task until the
//! task ends. What to do next is decided in `tunesmith_protocol` (retries and backoff, the waiter's
//! reports and schedule, what every family's status means); the driver does the I/O, and the faces
//! only convert arguments in and values out.

mod attempts;
mod config;
mod envelope;
mod poll;
mod record;
mod transport;

pub use attempts::{Body, Driver};
pub use config::{
    service_url, ApiKey, CallOptions, Config, DEFAULT_BASE_URL, DEFAULT_SEGMENT,
    DEFAULT_TIMEOUT_MS, DEFAULT_UPLOAD_TIMEOUT_MS, DEFAULT_UPLOAD_URL,
};
pub use poll::Poll;
pub use record::observe;
#[cfg(feature = "rust-api")]
pub use record::text_of;
