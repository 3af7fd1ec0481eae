//! `uploadFile`: a `File` or `Blob`, as a multipart stream (its bytes never enter wasm memory) or,
//! with `method: "base64"`, as a data URL.

use super::base64;
use super::mime::{blob_mime, data_url, read_blob};
use super::options::{Method, UploadOptions};
use super::send::{check, empty, send, send_base64, too_large};
use crate::driver::Driver;
use crate::errors::Error;
use crate::js::{get, set, Arg};
use crate::{settle, Client};
use js_sys::{Promise, Uint8Array};
use tunesmith_protocol::rules::check_file_name;
use tunesmith_protocol::upload::{self, MAX_BASE64_FILE_BYTES};
use tunesmith_protocol::Op;
use wasm_bindgen::prelude::*;
use web_sys::FormData;

#[wasm_bindgen]
impl Client {
    /// Uploads a `File` or `Blob`: as a multipart stream (default; the bytes never enter wasm
    /// memory) or, with `method: "base64"`, as a data URL of at most 10 MB.
    #[wasm_bindgen(js_name = uploadFile, skip_typescript)]
    pub fn upload_file(&self, file: JsValue, options: Option<JsValue>) -> Promise {
        let inner = self.inner.clone();
        settle::promise(async move {
            upload_file(
                &inner,
                Arg::new(file, "file"),
                Arg::optional(options, "options"),
            )
            .await
            .map_err(Error::into_js)
        })
    }
}

async fn upload_file(inner: &Driver, file: Arg, options: Arg) -> Result<JsValue, Error> {
    let opts = UploadOptions::from_js(&options)?;
    // A Blob (or File), read only under catch: a Proxy of one passes `instanceof` but its getters
    // may throw ("Illegal invocation"), and a subclass's may be anything.
    let blob = file.value();
    let size = match file.field("size") {
        Ok(size) if blob.is_instance_of::<web_sys::Blob>() && size.number().is_some() => {
            size.number().unwrap_or(0.0)
        }
        _ => {
            return Err(file.invalid(
                "type",
                "uploadFile takes a File or Blob (from <input type=file>, drag and drop, or new Blob([...])); \
                 for Base64 text or bytes use uploadBase64",
            ))
        }
    };
    if size == 0.0 {
        return Err(empty("file"));
    }
    let own_name = file
        .field("name")
        .and_then(|n| n.text())
        .ok()
        .flatten()
        .filter(|n| !n.is_empty());
    match opts.method {
        Method::Stream => {
            check(Op::UploadStream, &opts.fields)?;
            let part_name = match (&own_name, opts.file_name()) {
                // The service stores the part's own name when `fileName` is absent: refuse a name it
                // would refuse, before sending megabytes.
                (Some(name), None) => {
                    check_file_name("file", name).map_err(|_| {
                        Error::invalid(
                            "file",
                            "safe_path",
                            format!("the file's name \"{name}\" cannot be stored as is: pass a `fileName`"),
                        )
                    })?;
                    name.clone()
                }
                (Some(name), Some(_)) => name.clone(),
                // Browsers name a nameless Blob "blob": give it the extension of its type instead.
                (None, _) => format!(
                    "blob.{}",
                    upload::extension_for_mime(&blob_mime(blob, None).await?)
                ),
            };
            let form = FormData::new()
                .map_err(|e| Error::configuration("No FormData in this runtime").with_cause(e))?;
            let append_error = |e: JsValue| {
                Error::invalid("file", "type", "the file could not be added to FormData")
                    .with_cause(e)
            };
            for name in ["uploadPath", "fileName"] {
                if let Some(value) = get(&opts.fields, name).as_string() {
                    form.append_with_str(name, &value).map_err(append_error)?;
                }
            }
            // Last, so that progress is the file's bytes: the fields are a few bytes before it.
            // `instanceof Blob` is true of the genuine Blob the getters above read.
            form.append_with_blob_and_filename("file", blob.unchecked_ref(), &part_name)
                .map_err(append_error)?;
            send(inner, Op::UploadStream, form.into(), size, opts).await
        }
        Method::Base64 => {
            if own_name.is_some() && opts.file_name().is_none() {
                // Without `fileName` the service would make up a name: keep the File's own.
                if let Some(name) = own_name.filter(|n| check_file_name("fileName", n).is_ok()) {
                    set(&opts.fields, "fileName", &JsValue::from_str(&name));
                }
            }
            check(Op::UploadBase64, &opts.fields)?;
            if size > MAX_BASE64_FILE_BYTES as f64 {
                return Err(too_large("file", size));
            }
            let bytes = Uint8Array::new(&read_blob(blob).await?);
            let mime = match &opts.mime_type {
                Some(m) => m.clone(),
                None => blob_mime(blob, Some(&bytes)).await?,
            };
            let data_url = data_url(&mime, &base64::encode(&bytes));
            send_base64(inner, data_url, size, opts).await
        }
    }
}
