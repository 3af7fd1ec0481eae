//! What every upload sends: its fields checked with the protocol's rules, its body through the
//! driver (XMLHttpRequest when progress is wanted), its answer shaped for JavaScript.

use super::options::UploadOptions;
use super::progress::Progress;
use super::xhr;
use crate::driver::{Attempt, Body, Driver};
use crate::errors::Error;
use crate::js::{self, JsFields};
use crate::normalize;
use js_sys::JsString;
use std::rc::Rc;
use tunesmith_protocol::rules::{self, Fields};
use tunesmith_protocol::upload;
use tunesmith_protocol::Op;
use wasm_bindgen::prelude::*;

/// Checks the request fields beside the payload with the protocol's rules. The payload itself
/// (`file`, `base64Data`) is checked apart, so that megabytes of it are never copied into wasm.
#[inline(never)]
pub fn check(op: Op, request: &JsValue) -> Result<(), Error> {
    for rule in op
        .endpoint()
        .fields
        .iter()
        .filter(|r| r.name != "base64Data")
    {
        let fields = JsFields::new(request);
        let verdict = rules::check_one(rule, &fields.field(rule.name));
        fields.verdict()?;
        verdict?;
    }
    Ok(())
}

pub fn too_large(field: &str, bytes: f64) -> Error {
    let mut e = Error::from(upload::base64_too_large(field, bytes as u64));
    e.message.push_str(" (`client.uploadFile(file)`)");
    e
}

pub fn empty(field: &str) -> Error {
    Error::invalid(
        field,
        "not_empty",
        format!("`{field}` is empty (0 bytes): there is nothing to upload"),
    )
}

/// Sends `{ base64Data, uploadPath, fileName }`. The JSON is put together by string concatenation
/// in JavaScript: `JSON.stringify` would scan megabytes of Base64 for characters to escape (about
/// 45 ms for 10 MB in Chromium, more than encoding it), and it is sent as a raw body, never
/// copied into wasm memory. Base64 and a checked data URL prefix need no escaping.
pub async fn send_base64(
    inner: &Driver,
    base64_data: JsString,
    size: f64,
    mut opts: UploadOptions,
) -> Result<JsValue, Error> {
    // Strings only (`check` ran): this cannot fail, and a failure is still an error, not a throw.
    let fields = match js::json_text(&opts.fields) {
        Ok(Some(fields)) => fields,
        _ => {
            return Err(Error::invalid(
                "fileName",
                "type",
                "`uploadPath` and `fileName` must be strings",
            ))
        }
    };
    let rest = if fields.length() > 2 {
        JsString::from(",").concat(&fields.slice(1, fields.length()))
    } else {
        JsString::from("}")
    };
    let json = JsString::from("{\"base64Data\":\"")
        .concat(&base64_data)
        .concat(&JsString::from("\""))
        .concat(&rest);
    opts.call
        .headers
        .push(("Content-Type".to_owned(), "application/json".to_owned()));
    send(inner, Op::UploadBase64, json.into(), size, opts).await
}

/// Sends an upload body: through XMLHttpRequest when progress is wanted and the runtime has it,
/// else through fetch (Node: `onProgress` is then called once, at the end, with `loaded == total`).
pub async fn send(
    inner: &Driver,
    op: Op,
    body: JsValue,
    file_size: f64,
    opts: UploadOptions,
) -> Result<JsValue, Error> {
    let data = match opts.on_progress {
        Some(callback) if xhr::available() => {
            let progress = Rc::new(Progress::new(callback, file_size));
            let shared = &progress;
            let send = move |req, timeout_ms, signal| -> Attempt<'_> {
                Box::pin(xhr::send(req, timeout_ms, signal, shared))
            };
            let data = inner
                .execute_via(op, Body::Raw(body), &[], &opts.call, &send)
                .await?;
            progress.done();
            data
        }
        Some(callback) => {
            let data = inner.execute(op, Body::Raw(body), &[], &opts.call).await?;
            Progress::new(callback, file_size).done();
            data
        }
        None => inner.execute(op, Body::Raw(body), &[], &opts.call).await?,
    };
    Ok(normalize::output(op, data))
}
