//! A file's type: checked, sniffed from its first bytes, and written into a data URL.

use crate::driver::Error;
use js_sys::{JsString, Uint8Array};
use tunesmith_protocol::upload;
use wasm_bindgen_futures::JsFuture;
use web_sys::Blob;

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

/// The Blob's own type, else one sniffed from its first bytes (read from `bytes` when at hand).
pub async fn blob_mime(blob: &Blob, bytes: Option<&Uint8Array>) -> Result<String, Error> {
    let own = blob.type_();
    if is_mime(&own) {
        return Ok(own);
    }
    let head = match bytes {
        Some(b) => b.subarray(0, SNIFF_BYTES.min(f64::from(b.length())) as u32),
        None => {
            let slice = blob.slice_with_f64_and_f64(0.0, SNIFF_BYTES).map_err(|e| {
                Error::invalid("file", "type", "the file could not be read").with_cause(e)
            })?;
            let buffer = JsFuture::from(slice.array_buffer()).await.map_err(|e| {
                Error::invalid("file", "type", "the file could not be read").with_cause(e)
            })?;
            Uint8Array::new(&buffer)
        }
    };
    Ok(upload::sniff_mime(&head.to_vec()).to_owned())
}

pub fn data_url(mime: &str, base64: &JsString) -> JsString {
    JsString::from(format!("data:{mime};base64,")).concat(base64)
}
