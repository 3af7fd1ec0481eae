//! What the driver is configured with: the client's settings and one call's options, however a
//! face read them (from a JavaScript options object, or from a Rust struct).

use crate::errors::Error;
use crate::js::Arg;
use js_sys::Function;
use std::fmt;

use web_sys::AbortSignal;

pub const DEFAULT_BASE_URL: &str = "https://api.sunoapi.org";
pub const DEFAULT_UPLOAD_URL: &str = "https://sunoapiorg.redpandaai.co";
pub const DEFAULT_SEGMENT: &str = "suno";
pub const DEFAULT_TIMEOUT_MS: f64 = 60_000.0;
/// Uploads move whole files: their attempts get longer.
pub const DEFAULT_UPLOAD_TIMEOUT_MS: f64 = 600_000.0;

/// Where the bearer token comes from. Its Debug output never shows the key.
#[derive(Clone)]
pub enum ApiKey {
    Literal(String),
    /// A function returning a key or a Promise of one, called before each attempt.
    Provider(Function),
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ApiKey::Literal(_) => f.write_str("ApiKey::Literal([redacted])"),
            ApiKey::Provider(_) => f.write_str("ApiKey::Provider(fn)"),
        }
    }
}

/// The client's settings, checked.
#[derive(Debug)]
pub struct Config {
    pub api_key: Option<ApiKey>,
    pub base_url: String,
    pub upload_url: String,
    pub service_segment: String,
    pub timeout_ms: f64,
    pub upload_timeout_ms: f64,
    pub max_retries: u32,
    pub headers: Vec<(String, String)>,
    /// The `fetch` to send with; the runtime's own when `None`.
    pub fetch: Option<Function>,
}

/// A host's URL as the driver joins paths to it: an absolute http(s) URL, without a trailing slash.
pub fn service_url(field: &str, url: &str) -> Result<String, Error> {
    tunesmith_protocol::rules::check_url(field, url)?;
    Ok(tunesmith_protocol::text::trim_end(url.trim(), b'/').to_owned())
}

/// Options of one call: `{ signal, timeoutMs, maxRetries, headers, extraFields }`.
#[derive(Default)]
pub struct CallOptions {
    pub signal: Option<AbortSignal>,
    pub timeout_ms: Option<f64>,
    pub max_retries: Option<u32>,
    pub headers: Vec<(String, String)>,
    /// Fields the package does not know yet, sent as they are (unchecked).
    pub extra_fields: Option<Arg>,
    /// An upload's progress reporter (`progressOf`): its attempts go through XMLHttpRequest
    /// where the runtime has it. Set by the uploads, never read from the caller's options.
    pub report: Option<js_sys::Function>,
}
