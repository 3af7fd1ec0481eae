//! What every upload sends: its fields checked with the protocol's rules, its body through the
//! driver (XMLHttpRequest when progress is wanted), its answer shaped for JavaScript.

use super::options::UploadOptions;
use crate::driver::{Body, Driver};
use crate::errors::Error;
use crate::js::JsFields;
use crate::normalize;
use js_sys::{JsString, Uint8Array};
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
        tunesmith_protocol::text!(
            "`",
            field,
            "` is empty (0 bytes): there is nothing to upload"
        ),
    )
}

/// Standard Base64 of `bytes`, encoded in JavaScript (`js/imports.js`), never in wasm memory.
pub fn encode(bytes: &Uint8Array) -> Result<JsString, Error> {
    super::to_base64(bytes)
        .ok_or_else(|| Error::configuration("the bytes could not be encoded as Base64"))
}

/// Sends `{ base64Data, uploadPath, fileName }`, `base64Data` being a data URL of type `mime` (bare
/// Base64 when `mime` is empty). The JSON is put together as text in JavaScript, never in wasm.
pub async fn send_base64(
    inner: &Driver,
    mime: &str,
    data: &JsString,
    size: f64,
    mut opts: UploadOptions,
) -> Result<JsValue, Error> {
    let json = super::base64_body(mime, data, &opts.fields);
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
    let Some(callback) = opts.on_progress else {
        let data = inner.execute(op, Body::Raw(body), &[], &opts.call).await?;
        return Ok(normalize::output(op, data));
    };
    let report = super::progress_of(&callback, file_size);
    let mut call = opts.call;
    call.report = Some(report.clone());
    let data = inner.execute(op, Body::Raw(body), &[], &call).await?;
    // The last event, `loaded == total`, unless it was already shown.
    let one = JsValue::from_f64(1.0);
    let _ = report.call2(&JsValue::UNDEFINED, &one, &one);
    Ok(normalize::output(op, data))
}
