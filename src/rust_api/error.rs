//! Every failure of the Rust API in one enum, and the one function that reads an answer into it.

use std::fmt;
use tunesmith_protocol::codes::{self, CodeTable, ErrorKind};
use tunesmith_protocol::rules::RuleKind;
use tunesmith_protocol::ValidationError;

/// Why a call of [`Client`](super::Client) failed. Holds no secret: the API key never enters an
/// error, its message or its `Debug` form.
///
/// Cancellation is not an error here: drop the future and the request in flight is aborted.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Error {
    /// The request broke a rule of the service; nothing was sent.
    Validation {
        field: String,
        rule: RuleKind,
        message: String,
    },
    /// The service answered with an error code; `kind` is what the code means for the
    /// endpoint's family (music 429 is insufficient credits, cover 429 a rate limit).
    Api {
        kind: ErrorKind,
        /// The envelope's `code` (or the HTTP status when the answer had no envelope).
        code: Option<i64>,
        status: u16,
        request_id: Option<String>,
        /// Milliseconds the service asked to wait (`Retry-After`), when it said.
        retry_after_ms: Option<u64>,
        retryable: bool,
        attempts: u32,
        message: String,
    },
    /// No answer: connection refused, DNS, CORS, offline.
    Network {
        retryable: bool,
        attempts: u32,
        message: String,
    },
    /// An attempt, or a waiter's deadline, ran out of time.
    Timeout {
        retryable: bool,
        attempts: u32,
        message: String,
    },
    /// A waited-for task ended in a failure state.
    TaskFailed {
        task_id: String,
        /// The family's own status (`GENERATE_AUDIO_FAILED`, `3`, ...).
        task_status: String,
        error_code: Option<i64>,
        error_message: Option<String>,
        message: String,
    },
    /// The answer did not have the declared shape of its record.
    Decode {
        operation: &'static str,
        message: String,
    },
    /// A setting of the client itself is wrong.
    Configuration { message: String },
}

impl Error {
    /// The same `kind` strings as the JavaScript errors: `invalid`, `rate_limited`, `validation`,
    /// `network`, `timeout`, `task_failed`, `decode`, `configuration`...
    pub fn kind(&self) -> &'static str {
        match self {
            Error::Validation { .. } => "validation",
            Error::Api { kind, .. } => kind.as_str(),
            Error::Network { .. } => "network",
            Error::Timeout { .. } => "timeout",
            Error::TaskFailed { .. } => "task_failed",
            Error::Decode { .. } => "decode",
            Error::Configuration { .. } => "configuration",
        }
    }

    /// The service's kind of refusal, for API errors.
    pub fn api_kind(&self) -> Option<ErrorKind> {
        match self {
            Error::Api { kind, .. } => Some(*kind),
            _ => None,
        }
    }

    /// The envelope code of an API error (the task's `errorCode` for a failed task).
    pub fn code(&self) -> Option<i64> {
        match self {
            Error::Api { code, .. } => *code,
            Error::TaskFailed { error_code, .. } => *error_code,
            _ => None,
        }
    }

    /// The HTTP status of an API error.
    pub fn status(&self) -> Option<u16> {
        match self {
            Error::Api { status, .. } => Some(*status),
            _ => None,
        }
    }

    /// The service's `X-Request-Id`, to quote to its support.
    pub fn request_id(&self) -> Option<&str> {
        match self {
            Error::Api { request_id, .. } => request_id.as_deref(),
            _ => None,
        }
    }

    /// Whether repeating the call is safe (and may succeed): never for a create that may have
    /// started a charged task.
    pub fn retryable(&self) -> bool {
        match self {
            Error::Api { retryable, .. }
            | Error::Network { retryable, .. }
            | Error::Timeout { retryable, .. } => *retryable,
            _ => false,
        }
    }

    /// The service's `Retry-After`, in milliseconds, when it sent one.
    pub fn retry_after_ms(&self) -> Option<u64> {
        match self {
            Error::Api { retry_after_ms, .. } => *retry_after_ms,
            _ => None,
        }
    }

    /// Attempts made (queries, for a waiter) before the error.
    pub fn attempts(&self) -> u32 {
        match self {
            Error::Api { attempts, .. }
            | Error::Network { attempts, .. }
            | Error::Timeout { attempts, .. } => *attempts,
            _ => 0,
        }
    }

    pub fn message(&self) -> &str {
        match self {
            Error::Validation { message, .. }
            | Error::Api { message, .. }
            | Error::Network { message, .. }
            | Error::Timeout { message, .. }
            | Error::TaskFailed { message, .. }
            | Error::Decode { message, .. }
            | Error::Configuration { message } => message,
        }
    }

    /// The service answered `code` (HTTP `status`) on an endpoint of `family`. `code` is `None`
    /// for a 2xx answer without an envelope code.
    pub(super) fn api(
        table: CodeTable,
        operation: &str,
        code: Option<i64>,
        service_msg: &str,
        status: u16,
    ) -> Error {
        let number = code.unwrap_or(500);
        let kind = codes::classify(table, number).unwrap_or(ErrorKind::Server);
        let meaning = match code {
            Some(c) => codes::meaning(table, c),
            None => "the answer had no envelope code",
        };
        let detail = if service_msg.is_empty() || service_msg == meaning {
            String::new()
        } else {
            format!(": {service_msg}")
        };
        Error::Api {
            kind,
            code,
            status,
            request_id: None,
            retry_after_ms: None,
            retryable: false,
            attempts: 0,
            message: format!(
                "{operation} failed with code {number} ({meaning}){detail}; {}",
                kind.advice()
            ),
        }
    }

    pub(super) fn decode(operation: &'static str, detail: impl fmt::Display) -> Error {
        Error::Decode {
            operation,
            message: format!("{operation}: the answer does not have the declared shape ({detail})"),
        }
    }

    /// Records the attempt count and the retry decision on the variants that carry them.
    pub(super) fn after_attempts(mut self, n: u32, may_retry: bool) -> Error {
        if let Error::Api {
            attempts,
            retryable,
            ..
        }
        | Error::Network {
            attempts,
            retryable,
            ..
        }
        | Error::Timeout {
            attempts,
            retryable,
            ..
        } = &mut self
        {
            *attempts = n;
            *retryable = may_retry;
        }
        self
    }

    /// What the protocol's retry rules see in this error; `None` for errors no retry can fix.
    pub(super) fn retry_failure(&self) -> Option<tunesmith_protocol::retry::Failure> {
        use tunesmith_protocol::retry::Failure;
        match self {
            Error::Api { kind, .. } => Some(Failure::Api(*kind)),
            Error::Network { .. } => Some(Failure::Network),
            Error::Timeout { .. } => Some(Failure::Timeout),
            _ => None,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for Error {}

impl From<ValidationError> for Error {
    fn from(v: ValidationError) -> Self {
        Error::Validation {
            field: v.field,
            rule: v.rule,
            message: v.message,
        }
    }
}
