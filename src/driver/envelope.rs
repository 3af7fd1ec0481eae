//! Reads an answer's envelope, `{code, msg, data}` (and the upload host's `success`), whatever the
//! HTTP status: its `data` when it holds what the operation promises, else the error its code means
//! in the endpoint's table of codes.

use super::transport::Reply;
use crate::errors::Error;
use crate::js::{get, get_f64, get_string, is_plain_object};
use tunesmith_protocol::endpoints::Answer;
use tunesmith_protocol::{retry, Op};
use wasm_bindgen::JsValue;

/// Whether `data` holds what a success promises (`Answer`).
fn answers_as_promised(answer: Answer, data: &JsValue) -> bool {
    let finite = |v: Option<f64>| v.is_some_and(f64::is_finite);
    match answer {
        Answer::TaskId => {
            data.as_string().is_some_and(|s| !s.is_empty())
                || get_string(data, "taskId").is_some_and(|s| !s.is_empty())
        }
        Answer::Number => finite(data.as_f64()) || finite(get_f64(data, "credits")),
        Answer::Object => is_plain_object(data),
        Answer::Record(key) => {
            is_plain_object(data) && get_string(data, key.name()).is_some_and(|s| !s.is_empty())
        }
        Answer::Envelope => is_plain_object(data),
    }
}

/// The envelope's `data` on success (recovery's whole envelope), the error it means otherwise.
pub fn read(op: Op, reply: Reply) -> Result<JsValue, Error> {
    let endpoint = op.endpoint();
    let table = endpoint.codes;
    let code = get_f64(&reply.body, "code").map(|c| c as i64);
    // Recovery's own envelope is the record (the client builds it from the whole answer). Its
    // `task_id`, like `msg` below, is read only where it is needed: each read is a crossing.
    if op
        .answer()
        .is_state_envelope(code, || get_string(&reply.body, "task_id"))
    {
        return Ok(reply.body);
    }
    let success = || get(&reply.body, "success").as_bool();
    let msg = || get_string(&reply.body, "msg").unwrap_or_default();
    // The companion's own refusals name their cause in `error` (the service's envelopes never do).
    let companion = match reply.status {
        400.. => get_string(&reply.body, "error").filter(|e| !e.is_empty()),
        _ => None,
    };
    let mut error = match code {
        Some(200) if success() != Some(false) => {
            let data = get(&reply.body, "data");
            if answers_as_promised(op.answer(), &data) {
                return Ok(data);
            }
            Error::unexpected(endpoint.name, op.answer().promise(), Some(reply.status))
        }
        _ if companion.is_some() => Error::companion(
            endpoint.name,
            companion.as_deref().unwrap_or_default(),
            &msg(),
            reply.status,
        ),
        Some(code) => Error::api(table, endpoint.name, Some(code), &msg(), reply.status),
        None if (200..300).contains(&reply.status) => {
            Error::api(table, endpoint.name, None, &msg(), reply.status)
        }
        // No envelope: an HTTP error from a proxy or the upload host; its status stands in for the code.
        None => Error::api(
            table,
            endpoint.name,
            Some(i64::from(reply.status)),
            &msg(),
            reply.status,
        ),
    };
    error.request_id = reply.header("x-request-id");
    error.retry_after_ms = retry::parse_retry_after(
        reply.header("retry-after").as_deref(),
        reply.header("retry-after-ms").as_deref(),
    );
    Err(error)
}
