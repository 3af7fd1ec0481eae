//! Reads `{code, msg, data}` (and the upload host's `success`) per endpoint family, whatever the
//! HTTP status, and decodes `data` into the operation's record with serde-wasm-bindgen.

use super::error::Error;
use super::transport::Reply;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use tunesmith_protocol::endpoints::Answer;
use tunesmith_protocol::{retry, Op};
use wasm_bindgen::JsValue;

/// The envelope with `data` kept as a JavaScript value, decoded once its type is known.
#[derive(Deserialize)]
struct Raw {
    #[serde(default)]
    code: Option<f64>,
    #[serde(default)]
    msg: Option<String>,
    #[serde(default)]
    success: Option<bool>,
    #[serde(default, with = "serde_wasm_bindgen::preserve")]
    data: JsValue,
}

/// The envelope's `data` on success; the family's error otherwise.
pub(super) fn read(op: Op, reply: Reply) -> Result<JsValue, Error> {
    let endpoint = op.endpoint();
    // Recovery's own envelope: the whole answer is the record.
    if op.answer() == Answer::Envelope {
        let read = |key: &str| js_sys::Reflect::get(&reply.body, &JsValue::from_str(key)).ok();
        let code = read("code").and_then(|c| c.as_f64()).map(|c| c as i64);
        let task_id = read("task_id").and_then(|t| t.as_string());
        if op.answer().is_state_envelope(code, task_id.as_deref()) {
            return Ok(reply.body);
        }
    }
    let raw = serde_wasm_bindgen::from_value::<Raw>(reply.body).ok();
    let code = raw.as_ref().and_then(|r| r.code).map(|c| c as i64);
    let success = raw.as_ref().and_then(|r| r.success);
    let msg = raw.as_ref().and_then(|r| r.msg.clone()).unwrap_or_default();
    let mut error = match (code, raw) {
        (Some(200), Some(raw)) if success != Some(false) => return Ok(raw.data),
        (Some(code), _) => Error::api(
            endpoint.codes,
            endpoint.name,
            Some(code),
            &msg,
            reply.status,
        ),
        (None, _) if (200..300).contains(&reply.status) => {
            Error::api(endpoint.codes, endpoint.name, None, &msg, reply.status)
        }
        // No envelope: an HTTP error from a proxy or the upload host; its status stands in for the code.
        (None, _) => Error::api(
            endpoint.codes,
            endpoint.name,
            Some(i64::from(reply.status)),
            &msg,
            reply.status,
        ),
    };
    if let Error::Api {
        request_id,
        retry_after_ms,
        ..
    } = &mut error
    {
        *request_id = reply.request_id;
        *retry_after_ms = retry::parse_retry_after(
            reply.retry_after.as_deref(),
            reply.retry_after_ms.as_deref(),
        );
    }
    Err(error)
}

/// `data` as the operation's record type.
pub(super) fn decode<T: DeserializeOwned>(op: Op, data: JsValue) -> Result<T, Error> {
    serde_wasm_bindgen::from_value(data).map_err(|e| Error::decode(op.endpoint().name, e))
}
