//! The options of the three upload methods, read from JavaScript once.

use super::mime::is_mime;
use crate::driver::CallOptions;
use crate::errors::Error;
use crate::js::{get, set, Arg};
use js_sys::{Function, Object};

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Method {
    Stream,
    Base64,
}

/// The options of the three methods, read once; each method uses the ones it documents.
pub struct UploadOptions {
    pub call: CallOptions,
    /// `uploadPath` and `fileName` as given: the request fields sent beside the payload.
    pub fields: Object,
    pub method: Method,
    pub on_progress: Option<Function>,
    pub mime_type: Option<String>,
    /// `requireAudio`: refuse a file that is not audio, by its first bytes.
    pub require_audio: bool,
}

impl UploadOptions {
    #[inline(never)]
    pub fn from_js(v: &Arg) -> Result<UploadOptions, Error> {
        let call = CallOptions::from_js(v)?;
        let fields = target(v)?;
        let method = v.field("method")?;
        let method = match method.text()?.as_deref() {
            _ if method.is_absent() => Method::Stream,
            Some("auto" | "stream") => Method::Stream,
            Some("base64") => Method::Base64,
            _ => {
                return Err(method.invalid(
                    "one_of",
                    "`method` must be \"auto\", \"stream\" or \"base64\"",
                ))
            }
        };
        let on_progress = v.field("onProgress")?;
        let on_progress = match on_progress.function() {
            _ if on_progress.is_absent() => None,
            Some(f) => Some(f),
            None => {
                return Err(on_progress.invalid(
                    "type",
                    "`onProgress` must be a function receiving { loaded, total }",
                ))
            }
        };
        let mime = v.field("mimeType")?;
        let mime_type = match mime.text()?.filter(|s| is_mime(s)) {
            _ if mime.is_absent() => None,
            Some(m) => Some(m),
            None => {
                return Err(mime.invalid(
                    "type",
                    "`mimeType` must be a MIME type such as \"audio/wav\"",
                ))
            }
        };
        let require = v.field("requireAudio")?;
        let require_audio = match require.boolean() {
            _ if require.is_absent() => false,
            Some(b) => b,
            None => return Err(require.invalid("type", "`requireAudio` must be true or false")),
        };
        Ok(UploadOptions {
            call,
            fields,
            method,
            on_progress,
            mime_type,
            require_audio,
        })
    }

    pub fn file_name(&self) -> Option<String> {
        get(&self.fields, "fileName").as_string()
    }
}

/// `uploadPath` and `fileName` of the options, as given: the request fields sent beside the
/// payload. Strings or nothing, checked by the protocol's rules before anything is sent.
pub fn target(v: &Arg) -> Result<Object, Error> {
    let fields = Object::new();
    for name in ["uploadPath", "fileName"] {
        let value = v.field(name)?;
        if !value.is_absent() {
            set(&fields, name, value.value());
        }
    }
    Ok(fields)
}
