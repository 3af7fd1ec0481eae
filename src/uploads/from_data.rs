//! `uploadBase64`: Base64 text, a `data:` URL, or bytes (`Uint8Array`, `ArrayBuffer`), checked and
//! measured without copying megabytes of it into wasm memory.

use super::base64;
use super::mime::{data_url, is_mime, SNIFF_BYTES};
use super::options::UploadOptions;
use super::send::{check, empty, send_base64, too_large};
use crate::driver::Driver;
use crate::errors::Error;
use crate::js::{self, get, Arg};
use crate::{settle, Client};
use js_sys::{ArrayBuffer, JsString, Promise, Uint8Array};
use tunesmith_protocol::upload::{self, MAX_BASE64_FILE_BYTES};
use tunesmith_protocol::Op;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
impl Client {
    /// Uploads Base64 text, a `data:` URL, a `Uint8Array` or an `ArrayBuffer` (at most 10 MB of file).
    #[wasm_bindgen(js_name = uploadBase64, skip_typescript)]
    pub fn upload_base64(&self, data: JsValue, options: Option<JsValue>) -> Promise {
        let inner = self.inner.clone();
        settle::promise(async move {
            upload_base64(
                &inner,
                Arg::new(data, "data"),
                Arg::optional(options, "options"),
            )
            .await
            .map_err(Error::into_js)
        })
    }
}

async fn upload_base64(inner: &Driver, data: Arg, options: Arg) -> Result<JsValue, Error> {
    let opts = UploadOptions::from_js(&options)?;
    check(Op::UploadBase64, &opts.fields)?;
    // Neither is copied into wasm memory: Base64 text is checked and measured where it is, and
    // bytes are encoded chunk by chunk.
    let (text, size) = if let Some(text) = data.value().dyn_ref::<JsString>() {
        from_text(text, opts.mime_type.as_deref())?
    } else if let Some(bytes) = as_bytes(data.value()) {
        let size = f64::from(bytes.length());
        if size == 0.0 {
            return Err(empty("data"));
        }
        if size > MAX_BASE64_FILE_BYTES as f64 {
            return Err(too_large("data", size));
        }
        let mime = match &opts.mime_type {
            Some(m) => m.clone(),
            None => upload::sniff_mime(&bytes.subarray(0, SNIFF_BYTES as u32).to_vec()).to_owned(),
        };
        (data_url(&mime, &base64::encode(&bytes)), size)
    } else {
        return Err(data.invalid(
            "type",
            "uploadBase64 takes Base64 text, a data:<mime>;base64,<data> URL, a Uint8Array or an ArrayBuffer; \
             for a File or Blob use uploadFile",
        ));
    };
    send_base64(inner, text, size, opts).await
}

/// The bytes of an ArrayBuffer or of any view on one (Uint8Array, Node's Buffer, DataView, ...).
fn as_bytes(data: &JsValue) -> Option<Uint8Array> {
    // Constructed under catch: a Proxy of a buffer passes the type checks but throws inside.
    if data.is_instance_of::<ArrayBuffer>() {
        return js::new_uint8_array(&[data]).ok();
    }
    if !ArrayBuffer::is_view(data) {
        return None;
    }
    let buffer = get(data, "buffer").dyn_into::<ArrayBuffer>().ok()?;
    let offset = JsValue::from_f64(get(data, "byteOffset").as_f64()?);
    let length = JsValue::from_f64(get(data, "byteLength").as_f64()?);
    js::new_uint8_array(&[&buffer, &offset, &length]).ok()
}

/// Base64 text or a data URL, checked and measured without decoding it, as the data URL to send.
fn from_text(text: &JsString, mime_type: Option<&str>) -> Result<(JsString, f64), Error> {
    let invalid = |detail: &str| Error::invalid("data", "type", format!("`data` {detail}"));
    // Only the short prefix of a data URL comes into wasm memory, never the payload.
    let (declared, payload) = if text.starts_with("data:", 0) {
        let comma = text.index_of(",", 0);
        let prefix = (0..=512)
            .contains(&comma)
            .then(|| String::from(text.slice(0, comma as u32 + 1)));
        let Some((mime, _)) = prefix.as_deref().and_then(upload::split_data_url) else {
            return Err(invalid(
                "is a data URL but not of the form data:<mime>;base64,<data>",
            ));
        };
        (
            Some(mime.to_owned()).filter(|m| is_mime(m)),
            text.slice(comma as u32 + 1, text.length()),
        )
    } else {
        (None, text.clone())
    };
    let payload = base64::strip_whitespace(&payload);
    if payload.length() == 0 {
        return Err(empty("data"));
    }
    if !base64::is_base64(&payload) {
        return Err(invalid(
            "is not Base64 text (A-Z, a-z, 0-9, + and /, or - and _, then up to two =)",
        ));
    }
    let size = base64::decoded_size(&payload) as f64;
    if size > MAX_BASE64_FILE_BYTES as f64 {
        return Err(too_large("data", size));
    }
    let mime = mime_type.map(str::to_owned).or(declared).or_else(|| {
        let head = base64::head_bytes(&payload)?;
        Some(upload::sniff_mime(&head).to_owned())
    });
    let text = match mime {
        Some(mime) => data_url(&mime, &payload),
        // URL-safe Base64 without a type: sent bare, the service sniffs the type itself.
        None => payload,
    };
    Ok((text, size))
}
