//! `uploadBase64`: Base64 text, a `data:` URL, or bytes (`Uint8Array`, `ArrayBuffer`), checked and
//! measured without copying megabytes of it into wasm memory.

use super::mime::{is_mime, require_audio, sniff};
use super::options::UploadOptions;
use super::send::{check, empty, encode, send_base64, too_large};
use crate::driver::Driver;
use crate::errors::Error;
use crate::js::{get, get_string, Arg};
use crate::{settle, Client};
use js_sys::{JsString, Promise, Uint8Array};
use tunesmith_protocol::upload::{self, MAX_BASE64_FILE_BYTES};
use tunesmith_protocol::Op;
use wasm_bindgen::prelude::*;
impl Client {
    /// Uploads Base64 text, a `data:` URL, a `Uint8Array` or an `ArrayBuffer` (at most 10 MB of file).
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
    // bytes are encoded in JavaScript.
    let (mime, text, size) = if let Some(text) = data.value().dyn_ref::<JsString>() {
        from_text(text, opts.mime_type.clone(), opts.require_audio)?
    } else if let Some(bytes) = super::bytes_of(data.value()) {
        let size = f64::from(bytes.length());
        if size == 0.0 {
            return Err(empty("data"));
        }
        if size > MAX_BASE64_FILE_BYTES as f64 {
            return Err(too_large("data", size));
        }
        if opts.require_audio {
            require_audio("data", Some(&bytes))?;
        }
        let mime = opts.mime_type.clone().unwrap_or_else(|| sniff(&bytes));
        (mime, encode(&bytes)?, size)
    } else {
        return Err(data.invalid(
            "type",
            "uploadBase64 takes Base64 text, a data:<mime>;base64,<data> URL, a Uint8Array or an ArrayBuffer; \
             for a File or Blob use uploadFile",
        ));
    };
    send_base64(inner, &mime, &text, size, opts).await
}

/// Base64 text or a data URL, checked and measured without decoding it: its type (empty when
/// unknown: the service sniffs bare Base64 itself), its Base64 payload and the bytes it stands for.
fn from_text(
    text: &JsString,
    mime_type: Option<String>,
    audio: bool,
) -> Result<(String, JsString, f64), Error> {
    let invalid =
        |detail: &str| Error::invalid("data", "type", tunesmith_protocol::text!("`data` ", detail));
    let checked = super::base64_text(text);
    let (payload, prefix, head) = match checked.as_f64() {
        Some(1.0) => {
            return Err(invalid(
                "is a data URL but not of the form data:<mime>;base64,<data>",
            ))
        }
        Some(2.0) => return Err(empty("data")),
        Some(_) => {
            return Err(invalid(
                "is not Base64 text (A-Z, a-z, 0-9, + and /, or - and _, then up to two =)",
            ))
        }
        None => (
            get(&checked, "0").unchecked_into::<JsString>(),
            get_string(&checked, "1").unwrap_or_default(),
            get(&checked, "2").dyn_into::<Uint8Array>().ok(),
        ),
    };
    let size = decoded_size(&payload);
    if size > MAX_BASE64_FILE_BYTES as f64 {
        return Err(too_large("data", size));
    }
    if audio {
        require_audio("data", head.as_ref())?;
    }
    let declared = upload::split_data_url(&prefix)
        .map(|(mime, _)| mime.to_owned())
        .filter(|m| is_mime(m));
    let mime = mime_type
        .or(declared)
        .or_else(|| head.map(|h| sniff(&h)))
        .unwrap_or_default();
    Ok((mime, payload, size))
}

/// Bytes that Base64 `text` (without whitespace) decodes to, from its length and padding alone.
fn decoded_size(text: &JsString) -> f64 {
    let len = text.length();
    let padding = (1..=2.min(len))
        .take_while(|back| text.char_code_at(len - back) == f64::from(b'='))
        .count();
    upload::decoded_len(u64::from(len)).saturating_sub(padding as u64) as f64
}
