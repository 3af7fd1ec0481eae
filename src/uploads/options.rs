//! The options of the three upload methods, read from JavaScript once.

use super::mime::is_mime;
use crate::driver::{CallOptions, Error};
use crate::js::{get, set};
use js_sys::{Function, Object};
use wasm_bindgen::prelude::*;

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
}

impl UploadOptions {
    pub fn from_js(v: &JsValue) -> Result<UploadOptions, Error> {
        let call = CallOptions::from_js(v)?;
        let fields = Object::new();
        for name in ["uploadPath", "fileName"] {
            let value = get(v, name);
            if !value.is_undefined() && !value.is_null() {
                set(&fields, name, &value);
            }
        }
        let method = match get(v, "method") {
            m if m.is_undefined() || m.is_null() => Method::Stream,
            m => match m.as_string().as_deref() {
                Some("auto" | "stream") => Method::Stream,
                Some("base64") => Method::Base64,
                _ => {
                    return Err(Error::invalid(
                        "method",
                        "one_of",
                        "`method` must be \"auto\", \"stream\" or \"base64\"",
                    ))
                }
            },
        };
        let on_progress = match get(v, "onProgress") {
            f if f.is_undefined() || f.is_null() => None,
            f => Some(f.dyn_into::<Function>().map_err(|_| {
                Error::invalid(
                    "onProgress",
                    "type",
                    "`onProgress` must be a function receiving { loaded, total }",
                )
            })?),
        };
        let mime_type = match get(v, "mimeType") {
            m if m.is_undefined() || m.is_null() => None,
            m => Some(m.as_string().filter(|s| is_mime(s)).ok_or_else(|| {
                Error::invalid(
                    "mimeType",
                    "type",
                    "`mimeType` must be a MIME type such as \"audio/wav\"",
                )
            })?),
        };
        Ok(UploadOptions {
            call,
            fields,
            method,
            on_progress,
            mime_type,
        })
    }

    pub fn file_name(&self) -> Option<String> {
        get(&self.fields, "fileName").as_string()
    }
}
