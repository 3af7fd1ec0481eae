//! `uploadFromUrl`: the upload host downloads and stores a public http(s) file.

use super::options::UploadOptions;
use super::send::check;
use crate::driver::{Body, Driver};
use crate::errors::Error;
use crate::js::{self, get, set, Arg};
use crate::normalize;
use crate::{settle, Client};
use js_sys::{Object, Promise};
use tunesmith_protocol::Op;
use wasm_bindgen::prelude::*;

impl Client {
    /// Has the upload host download and store a public http(s) file (within 30 s).
    pub fn upload_from_url(&self, file_url: JsValue, options: Option<JsValue>) -> Promise {
        let inner = self.inner.clone();
        settle::promise(async move {
            upload_from_url(
                &inner,
                Arg::new(file_url, "fileUrl"),
                Arg::optional(options, "options"),
            )
            .await
            .map_err(Error::into_js)
        })
    }
}

async fn upload_from_url(inner: &Driver, file_url: Arg, options: Arg) -> Result<JsValue, Error> {
    let opts = UploadOptions::from_js(&options)?;
    // A `URL` object is as good as its text.
    let file_url = match file_url.is_object() {
        true => match file_url.field_named("href", "fileUrl")? {
            href if href.is_string() => href,
            _ => file_url,
        },
        false => file_url,
    };
    let request = Object::new();
    set(&request, "fileUrl", file_url.value());
    for name in ["uploadPath", "fileName"] {
        let value = get(&opts.fields, name);
        if !value.is_undefined() {
            set(&request, name, &value);
        }
    }
    check(Op::UploadFromUrl, &request)?;
    // Strings only (`check` ran): its JSON form exists.
    let json = js::json_text(&request)
        .ok()
        .flatten()
        .unwrap_or_else(|| js_sys::JsString::from("{}"));
    let data = inner
        .execute(Op::UploadFromUrl, Body::Json(json), &[], &opts.call)
        .await?;
    Ok(normalize::output(Op::UploadFromUrl, data))
}
