//! The client's errors in Rust, and their conversion into the JavaScript classes of `js/errors.js`.

use js_sys::{Object, Reflect};
use tunesmith_protocol::codes::{self, CodeTable, ErrorKind};
use tunesmith_protocol::ValidationError;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/js/errors.js")]
extern "C" {
    #[wasm_bindgen(js_name = makeError)]
    fn make_error(class_name: &str, message: &str, props: &JsValue) -> JsValue;
}

/// Which JavaScript class an error becomes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    Base,
    Validation,
    Api,
    Network,
    Timeout,
    Abort,
    TaskFailed,
}

impl Class {
    const fn js_name(self) -> &'static str {
        match self {
            Class::Base => "TunesmithError",
            Class::Validation => "ValidationError",
            Class::Api => "ApiError",
            Class::Network => "NetworkError",
            Class::Timeout => "TimeoutError",
            Class::Abort => "AbortError",
            Class::TaskFailed => "TaskFailedError",
        }
    }
}

/// Every failure of a client call. Holds no secret: the API key never enters an error.
///
/// Boxed, so that `Result<T, Error>` stays one pointer wide on the error side; the fields are
/// reached through `Deref`.
#[derive(Debug)]
pub struct Error(Box<Details>);

#[derive(Debug)]
pub struct Details {
    pub class: Class,
    pub message: String,
    pub kind: Option<ErrorKind>,
    /// `kind` for classes other than `ApiError` ("configuration", "task_failed", ...).
    pub kind_text: Option<&'static str>,
    pub code: Option<i64>,
    pub status: Option<u16>,
    pub request_id: Option<String>,
    pub retryable: bool,
    pub attempts: u32,
    pub retry_after_ms: Option<u64>,
    pub field: Option<String>,
    pub rule: Option<&'static str>,
    pub cause: Option<JsValue>,
    /// Extra fields for `TaskFailedError` (taskId, taskStatus, errorCode, errorMessage, record).
    pub extra: Vec<(&'static str, JsValue)>,
}

impl Error {
    pub fn new(class: Class, message: impl Into<String>) -> Self {
        Error(Box::new(Details {
            class,
            message: message.into(),
            kind: None,
            kind_text: None,
            code: None,
            status: None,
            request_id: None,
            retryable: false,
            attempts: 0,
            retry_after_ms: None,
            field: None,
            rule: None,
            cause: None,
            extra: Vec::new(),
        }))
    }

    /// An option or argument of the client itself is wrong.
    pub fn configuration(message: impl Into<String>) -> Self {
        let mut e = Error::new(Class::Base, message);
        e.kind_text = Some("configuration");
        e
    }

    pub fn invalid(field: &str, rule: &'static str, message: impl Into<String>) -> Self {
        let mut e = Error::new(Class::Validation, message);
        e.field = Some(field.to_owned());
        e.rule = Some(rule);
        e
    }

    /// The service answered `code` on an endpoint of `family`.
    pub fn api(
        table: CodeTable,
        operation: &str,
        code: i64,
        service_msg: &str,
        status: u16,
    ) -> Self {
        let kind = codes::classify(table, code).unwrap_or(ErrorKind::Server);
        let meaning = codes::meaning(table, code);
        let detail = if service_msg.is_empty() || service_msg == meaning {
            String::new()
        } else {
            format!(": {service_msg}")
        };
        let mut e = Error::new(
            Class::Api,
            format!(
                "{operation} failed with code {code} ({meaning}){detail}. {}",
                capitalize(kind.advice())
            ),
        );
        e.kind = Some(kind);
        e.code = Some(code);
        e.status = Some(status);
        e
    }

    /// A success that lacks what the documentation promises: typed, with the request id, so that
    /// `{"code":200,"data":null}` never resolves as `{}`. Not retried on a create: the task may
    /// exist and be charged.
    pub fn unexpected(operation: &str, promised: &str, status: u16) -> Self {
        let mut e = Error::new(
            Class::Api,
            format!(
                "{operation} answered success without {promised}: an unexpected answer from the service (keep the requestId for support)"
            ),
        );
        e.kind = Some(ErrorKind::Server);
        e.code = Some(200);
        e.status = Some(status);
        e
    }

    pub fn aborted(operation: &str) -> Self {
        Error::new(Class::Abort, format!("{operation} was aborted"))
    }

    pub fn with_cause(mut self, cause: JsValue) -> Self {
        self.cause = Some(cause);
        self
    }

    /// Converts to the JavaScript error object that the Promise rejects with.
    pub fn into_js(self) -> JsValue {
        let this = *self.0;
        let props = Object::new();
        let kind = this.kind.map(ErrorKind::as_str).or(this.kind_text);
        set(&props, "kind", kind.map(JsValue::from));
        set(
            &props,
            "code",
            this.code.map(|c| JsValue::from_f64(c as f64)),
        );
        set(&props, "status", this.status.map(JsValue::from));
        set(
            &props,
            "requestId",
            this.request_id.as_deref().map(JsValue::from),
        );
        set(
            &props,
            "retryable",
            Some(JsValue::from_bool(this.retryable)),
        );
        set(&props, "attempts", Some(JsValue::from(this.attempts)));
        set(&props, "field", this.field.as_deref().map(JsValue::from));
        set(&props, "rule", this.rule.map(JsValue::from));
        set(&props, "cause", this.cause);
        for (k, v) in this.extra {
            set(&props, k, Some(v));
        }
        make_error(this.class.js_name(), &this.message, &props)
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

impl From<ValidationError> for Error {
    fn from(v: ValidationError) -> Self {
        let mut e = Error::new(Class::Validation, v.message);
        e.field = Some(v.field);
        e.rule = Some(v.rule.as_str());
        e
    }
}

impl From<Error> for JsValue {
    fn from(e: Error) -> Self {
        e.into_js()
    }
}

fn set(obj: &Object, key: &str, value: Option<JsValue>) {
    if let Some(v) = value {
        // Setting a property on a fresh plain object cannot fail.
        let _ = Reflect::set(obj, &JsValue::from_str(key), &v);
    }
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    c.next().map_or_else(String::new, |f| {
        f.to_ascii_uppercase().to_string() + c.as_str()
    })
}
