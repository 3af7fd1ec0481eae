//! A file's type: checked, and sniffed from its first bytes when it has none.

use crate::errors::Error;
use js_sys::Uint8Array;
use tunesmith_protocol::upload;
use wasm_bindgen::prelude::*;

/// Bytes read from a file to sniff its type.
pub const SNIFF_BYTES: f64 = 512.0;

/// `type/subtype`, without parameters, separators or quotes that would break a data URL or the JSON
/// put together around it.
pub fn is_mime(s: &str) -> bool {
    let valid = |part: &str| {
        !part.is_empty()
            && part.bytes().all(|b| {
                b.is_ascii_graphic() && !tunesmith_protocol::text::is_one_of(b, b"/;,\"\\")
            })
    };
    tunesmith_protocol::text::split_once(s, b'/')
        .is_some_and(|(kind, sub)| valid(kind) && valid(sub))
}

/// The bytes of a Blob, or of its first `end` bytes.
pub async fn read_blob(blob: &JsValue, end: Option<f64>) -> Result<Uint8Array, Error> {
    crate::tasks::settled(super::read_blob(blob, end).into())
        .await
        .map(JsCast::unchecked_into)
        .map_err(|e| Error::invalid("file", "type", "the file could not be read").with_cause(e))
}

/// The type sniffed from a file's first bytes.
pub fn sniff(head: &Uint8Array) -> String {
    let head = head.subarray(0, SNIFF_BYTES.min(f64::from(head.length())) as u32);
    upload::sniff_mime(&head.to_vec()).to_owned()
}

/// With the `requireAudio` option: refuses a file whose first bytes are not those of an audio
/// format the service can use, before anything is sent (an operation that uses the file would
/// charge its credits first, then fail).
pub fn require_audio(field: &str, head: Option<&Uint8Array>) -> Result<(), Error> {
    let head = head
        .map(|h| {
            h.subarray(0, SNIFF_BYTES.min(f64::from(h.length())) as u32)
                .to_vec()
        })
        .unwrap_or_default();
    if upload::is_audio(&head) {
        return Ok(());
    }
    Err(Error::invalid(
        field,
        "type",
        tunesmith_protocol::text!(
            "`",
            field,
            "` must be audio (`requireAudio`); its first bytes read as ",
            upload::sniff_mime(&head)
        ),
    ))
}
