//! A file's type: checked, sniffed from its first bytes, and written into a data URL.

use crate::errors::Error;
use crate::js::{self, get, Arg};
use js_sys::{JsString, Promise, Uint8Array};
use tunesmith_protocol::upload;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

/// Bytes read from a nameless Blob to sniff its type, for a stored name with the right extension.
pub const SNIFF_BYTES: f64 = 512.0;

/// `type/subtype`, without parameters, separators or quotes that would break a data URL or the JSON
/// put together around it.
pub fn is_mime(s: &str) -> bool {
    let valid = |part: &str| {
        !part.is_empty()
            && part
                .bytes()
                .all(|b| b.is_ascii_graphic() && !b"/;,\"\\".contains(&b))
    };
    s.split_once('/')
        .is_some_and(|(kind, sub)| valid(kind) && valid(sub))
}

/// The bytes of a Blob (`arrayBuffer()`, under catch).
pub async fn read_blob(blob: &JsValue) -> Result<JsValue, Error> {
    let unreadable = |e| Error::invalid("file", "type", "the file could not be read").with_cause(e);
    let promise = js::call_method(blob, "arrayBuffer", &[])
        .and_then(|p| p.dyn_into::<Promise>())
        .map_err(unreadable)?;
    JsFuture::from(promise).await.map_err(unreadable)
}

/// The Blob's own type, else one sniffed from its first bytes (read from `bytes` when at hand).
pub async fn blob_mime(blob: &JsValue, bytes: Option<&Uint8Array>) -> Result<String, Error> {
    let own = Arg::new(get(blob, "type"), "file")
        .text()
        .ok()
        .flatten()
        .unwrap_or_default();
    if is_mime(&own) {
        return Ok(own);
    }
    let head = match bytes {
        Some(b) => b.subarray(0, SNIFF_BYTES.min(f64::from(b.length())) as u32),
        None => {
            let slice = js::call_method(
                blob,
                "slice",
                &[&JsValue::from_f64(0.0), &JsValue::from_f64(SNIFF_BYTES)],
            )
            .map_err(|e| {
                Error::invalid("file", "type", "the file could not be read").with_cause(e)
            })?;
            Uint8Array::new(&read_blob(&slice).await?)
        }
    };
    Ok(upload::sniff_mime(&head.to_vec()).to_owned())
}

pub fn data_url(mime: &str, base64: &JsString) -> JsString {
    JsString::from(format!("data:{mime};base64,")).concat(base64)
}
