//! The client's errors as JavaScript sees them: the `Error` subclasses of `js/errors.js`, one per
//! group of kinds, with the error's fields as properties.

use crate::errors::{Cause, Error};
use crate::js::get;
use crate::normalize;
use js_sys::Object;
use tunesmith_protocol::ClientErrorKind;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/js/errors.js")]
extern "C" {
    #[wasm_bindgen(js_name = makeError)]
    fn make_error(class_name: &str, message: &str, props: &JsValue) -> JsValue;
}

/// The JavaScript class of an error of `kind`.
const fn class_name(kind: ClientErrorKind) -> &'static str {
    match kind {
        ClientErrorKind::Service(_) => "ApiError",
        ClientErrorKind::Validation => "ValidationError",
        ClientErrorKind::Network => "NetworkError",
        ClientErrorKind::Timeout => "TimeoutError",
        ClientErrorKind::Aborted => "AbortError",
        ClientErrorKind::TaskFailed => "TaskFailedError",
        ClientErrorKind::Configuration | ClientErrorKind::Internal => "TunesmithError",
    }
}

impl Error {
    /// Converts to the JavaScript error object that the Promise rejects with.
    pub fn into_js(self) -> JsValue {
        let d = self.into_details();
        let props = Object::new();
        set(&props, "kind", Some(JsValue::from(d.kind.as_str())));
        set(&props, "code", d.code.map(|c| JsValue::from_f64(c as f64)));
        set(&props, "status", d.status.map(JsValue::from));
        set(
            &props,
            "requestId",
            d.request_id.as_deref().map(JsValue::from),
        );
        set(&props, "retryable", Some(JsValue::from_bool(d.retryable)));
        set(&props, "attempts", Some(JsValue::from(d.attempts)));
        set(
            &props,
            "retryAfterMs",
            d.retry_after_ms.map(|ms| JsValue::from_f64(ms as f64)),
        );
        set(&props, "field", d.field.as_deref().map(JsValue::from));
        set(&props, "rule", d.rule.map(JsValue::from));
        let cause = match d.cause {
            Some(Cause::Thrown(v)) => Some(v),
            Some(Cause::Earlier(e)) => Some(e.into_js()),
            None => None,
        };
        set(&props, "cause", cause);
        if let Some(task) = d.task {
            let (code, message) = task.family.error_fields();
            set(&props, "taskId", Some(JsValue::from_str(&task.task_id)));
            let status = get(&task.record, task.family.status_field());
            set(&props, "taskStatus", Some(status));
            set(
                &props,
                "errorCode",
                Some(null_if_undefined(get(&task.record, code))),
            );
            set(
                &props,
                "errorMessage",
                Some(null_if_undefined(get(&task.record, message))),
            );
            let record = normalize::output(task.family.query(), task.record);
            set(&props, "record", Some(record));
        }
        make_error(class_name(d.kind), &d.message, &props)
    }
}

impl From<Error> for JsValue {
    fn from(e: Error) -> Self {
        e.into_js()
    }
}

fn null_if_undefined(v: JsValue) -> JsValue {
    if v.is_undefined() {
        JsValue::NULL
    } else {
        v
    }
}

fn set(obj: &Object, key: &str, value: Option<JsValue>) {
    if let Some(v) = value {
        crate::js::set(obj, key, &v);
    }
}
