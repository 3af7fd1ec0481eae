//! Every failure of the client, for both faces: one type, one list of kinds (the protocol's
//! `ClientErrorKind`, also the `.d.ts`'s `ErrorKind`) and one wording. The JavaScript face turns
//! it into an `Error` subclass (`error_classes.rs`); the Rust face hands it out as it is. It
//! depends on nothing else of the crate, so that every module may name it.

use std::fmt;
use tunesmith_protocol::codes::{self, ClientErrorKind, CodeTable, ErrorKind};
use tunesmith_protocol::retry::Failure as RetryFailure;
use tunesmith_protocol::{num, RuleKind, TaskFamily, ValidationError};
use wasm_bindgen::JsValue;

/// Why a call of either face failed. Holds no secret: the API key never enters an error, its
/// message or its `Debug` form.
///
/// Boxed, so that `Result<T, Error>` stays one pointer wide on the error side (wasm size).
#[derive(Clone, Debug)]
pub struct Error(Box<Details>);

/// The fields of an [`Error`]; read them through its methods.
#[derive(Clone, Debug)]
pub struct Details {
    pub(crate) kind: ClientErrorKind,
    pub(crate) message: String,
    /// The envelope's `code` (or the HTTP status when the answer had no envelope).
    pub(crate) code: Option<i64>,
    pub(crate) status: Option<u16>,
    pub(crate) request_id: Option<String>,
    pub(crate) retryable: bool,
    pub(crate) attempts: u32,
    pub(crate) retry_after_ms: Option<u64>,
    pub(crate) field: Option<String>,
    pub(crate) rule: Option<&'static str>,
    pub(crate) cause: Option<Cause>,
    pub(crate) task: Option<FailedTask>,
}

/// What led to an error: a value the runtime threw, or an earlier error of the client.
#[derive(Clone, Debug)]
pub(crate) enum Cause {
    Thrown(JsValue),
    Earlier(Error),
}

/// The task behind a `task_failed` error, as its last record showed it.
#[derive(Clone, Debug)]
pub(crate) struct FailedTask {
    pub family: TaskFamily,
    pub task_id: String,
    /// The record as it came: its family's status and error fields say why (the JavaScript face
    /// shapes it on the way out).
    pub record: JsValue,
}

impl Error {
    pub(crate) fn new(kind: ClientErrorKind, message: impl Into<String>) -> Self {
        Error(Box::new(Details {
            kind,
            message: message.into(),
            code: None,
            status: None,
            request_id: None,
            retryable: false,
            attempts: 0,
            retry_after_ms: None,
            field: None,
            rule: None,
            cause: None,
            task: None,
        }))
    }

    /// An option or argument of the client itself is wrong.
    pub(crate) fn configuration(message: impl Into<String>) -> Self {
        Error::new(ClientErrorKind::Configuration, message)
    }

    pub(crate) fn invalid(field: &str, rule: &'static str, message: impl Into<String>) -> Self {
        let mut e = Error::new(ClientErrorKind::Validation, message);
        e.field = Some(field.to_owned());
        e.rule = Some(rule);
        e
    }

    /// The service answered `code` (HTTP `status`) on an endpoint numbering its codes with
    /// `table`; `None` for a 2xx answer without an envelope code.
    pub(crate) fn api(
        table: CodeTable,
        operation: &str,
        code: Option<i64>,
        service_msg: &str,
        status: u16,
    ) -> Self {
        let (number, service_msg) = match code {
            Some(c) => (c, service_msg),
            None => (500, "the answer had no envelope code"),
        };
        let kind = codes::classify(table, number).unwrap_or(ErrorKind::Server);
        let meaning = codes::meaning(table, number);
        // A message that starts with the meaning's label ("Unauthorized: missing ... token") says
        // it better alone than after it ("Unauthorized: ...: Unauthorized: ...").
        let label = tunesmith_protocol::text::before_any(meaning, b":");
        let repeats = service_msg
            .get(..label.len())
            .is_some_and(|head| head.eq_ignore_ascii_case(label));
        let (meaning, detail) = if service_msg.is_empty() || service_msg == meaning {
            (meaning, String::new())
        } else if repeats {
            (service_msg, String::new())
        } else {
            (meaning, tunesmith_protocol::text!(": ", service_msg))
        };
        let mut e = Error::new(
            ClientErrorKind::Service(kind),
            tunesmith_protocol::text!(
                operation,
                " failed with code ",
                num::int(number),
                " (",
                meaning,
                ")",
                detail,
                ". ",
                kind.advice()
            ),
        );
        e.code = code;
        e.status = Some(status);
        e
    }

    /// The companion server refused (HTTP `status`), naming its cause in `error`
    /// (`codes::companion`): `msg` is its own sentence.
    pub(crate) fn companion(operation: &str, error: &str, msg: &str, status: u16) -> Self {
        let (kind, advice) = codes::companion(error, status);
        let mut e = Error::new(
            ClientErrorKind::Service(kind),
            tunesmith_protocol::text!(
                operation,
                " was refused by the companion (",
                error,
                "): ",
                msg,
                ". ",
                advice
            ),
        );
        e.code = Some(i64::from(status));
        e.status = Some(status);
        e
    }

    /// A success that lacks what the documentation promises: typed, so that
    /// `{"code":200,"data":null}` never resolves as `{}`. Not retried on a create: the task may
    /// exist and be charged.
    pub(crate) fn unexpected(operation: &str, promised: &str, status: Option<u16>) -> Self {
        let mut e = Error::new(
            ClientErrorKind::Service(ErrorKind::Server),
            tunesmith_protocol::text!(
                operation,
                " answered success without ",
                promised,
                ": an unexpected answer from the service (keep the requestId for support)"
            ),
        );
        e.code = Some(codes::OK);
        e.status = status;
        e
    }

    pub(crate) fn aborted(operation: &str) -> Self {
        Error::new(
            ClientErrorKind::Aborted,
            tunesmith_protocol::text!(operation, " was aborted"),
        )
    }

    /// No answer to one attempt within its timeout.
    pub(crate) fn no_answer(operation: &str, timeout_ms: f64) -> Self {
        Error::new(
            ClientErrorKind::Timeout,
            tunesmith_protocol::text!(
                operation,
                " got no answer within ",
                num::fmt(timeout_ms),
                " ms (per attempt)"
            ),
        )
    }

    /// The request did not reach the service; `detail` is what the runtime said.
    pub(crate) fn unreachable(operation: &str, detail: &str) -> Self {
        Error::new(
            ClientErrorKind::Network,
            tunesmith_protocol::text!(
                operation,
                " could not reach the service (",
                detail,
                "); check the URL, the network, and CORS"
            ),
        )
    }

    /// A waited-for task did not end by the waiter's deadline.
    pub(crate) fn wait_timed_out(
        family: TaskFamily,
        task_id: &str,
        timeout_ms: u64,
        queries: u32,
        last_state: &str,
    ) -> Self {
        let mut e = Error::new(
            ClientErrorKind::Timeout,
            tunesmith_protocol::text!(
                "the ",
                family.as_str(),
                " task ",
                task_id,
                " did not finish within ",
                num::int(timeout_ms as i64),
                " ms (",
                num::int(i64::from(queries)),
                " queries; last state: ",
                last_state,
                ")"
            ),
        );
        e.attempts = queries;
        e
    }

    /// A waited-for task ended in its family's failure state (`status`, and the service's
    /// `reason` when it gave one), as its last record shows.
    pub(crate) fn task_failed(task: FailedTask, status: &str, reason: Option<String>) -> Self {
        let reason = reason
            .map(|m| tunesmith_protocol::text!(": ", m))
            .unwrap_or_default();
        let mut e = Error::new(
            ClientErrorKind::TaskFailed,
            tunesmith_protocol::text!(
                "task ",
                task.task_id,
                " failed with status ",
                status,
                reason
            ),
        );
        e.task = Some(task);
        e
    }

    /// The fields, taken out (the JavaScript face moves them into properties).
    pub(crate) fn into_details(self) -> Details {
        *self.0
    }

    pub(crate) fn with_cause(mut self, cause: JsValue) -> Self {
        self.cause = Some(Cause::Thrown(cause));
        self
    }

    pub(crate) fn after(mut self, earlier: Error) -> Self {
        self.cause = Some(Cause::Earlier(earlier));
        self
    }

    /// What the protocol's retry rules see in this error; `None` for errors no retry can fix.
    pub(crate) fn retry_failure(&self) -> Option<RetryFailure> {
        match self.kind {
            ClientErrorKind::Service(kind) => Some(RetryFailure::Api(kind)),
            ClientErrorKind::Network => Some(RetryFailure::Network),
            ClientErrorKind::Timeout => Some(RetryFailure::Timeout),
            ClientErrorKind::Validation
            | ClientErrorKind::Aborted
            | ClientErrorKind::TaskFailed
            | ClientErrorKind::Configuration
            | ClientErrorKind::Internal => None,
        }
    }
}

/// What the Rust face reads of an error (the JavaScript face reads the same as properties).
impl Error {
    /// What went wrong: the same kinds, by the same names, as `error.kind` in JavaScript.
    pub fn kind(&self) -> ClientErrorKind {
        self.0.kind
    }

    /// The service's kind of refusal, for errors the service answered.
    pub fn api_kind(&self) -> Option<ErrorKind> {
        match self.0.kind {
            ClientErrorKind::Service(kind) => Some(kind),
            _ => None,
        }
    }

    pub fn message(&self) -> &str {
        &self.0.message
    }

    /// The envelope code of a refusal (a failed task's is `task_error_code`).
    pub fn code(&self) -> Option<i64> {
        self.0.code
    }

    /// The HTTP status of an answer.
    pub fn status(&self) -> Option<u16> {
        self.0.status
    }

    /// The service's `X-Request-Id`, to quote to its support.
    pub fn request_id(&self) -> Option<&str> {
        self.0.request_id.as_deref()
    }

    /// Whether repeating the call is safe (and may succeed): never for a create that may have
    /// started a charged task.
    pub fn retryable(&self) -> bool {
        self.0.retryable
    }

    /// Attempts made (queries, for a waiter) before the error.
    pub fn attempts(&self) -> u32 {
        self.0.attempts
    }

    /// The service's `Retry-After`, in milliseconds, when it sent one.
    pub fn retry_after_ms(&self) -> Option<u64> {
        self.0.retry_after_ms
    }

    /// The field a validation error names.
    pub fn field(&self) -> Option<&str> {
        self.0.field.as_deref()
    }

    /// The rule a validation error names.
    pub fn rule(&self) -> Option<RuleKind> {
        let rule = self.0.rule?;
        RuleKind::ALL.into_iter().find(|r| r.as_str() == rule)
    }

    /// The id of a failed task.
    pub fn task_id(&self) -> Option<&str> {
        Some(self.0.task.as_ref()?.task_id.as_str())
    }
}

impl std::ops::Deref for Error {
    type Target = Details;
    fn deref(&self) -> &Details {
        &self.0
    }
}

impl std::ops::DerefMut for Error {
    fn deref_mut(&mut self) -> &mut Details {
        &mut self.0
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.message)
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.0.cause {
            Some(Cause::Earlier(e)) => Some(e),
            _ => None,
        }
    }
}

impl From<ValidationError> for Error {
    fn from(v: ValidationError) -> Self {
        let mut e = Error::new(ClientErrorKind::Validation, v.message);
        e.field = Some(v.field);
        e.rule = Some(v.rule.as_str());
        e
    }
}
