//! `uploadFile`: a `File` or `Blob`, as a multipart stream (its bytes never enter wasm memory) or,
//! with `method: "base64"`, as a data URL.

use super::mime::{is_mime, read_blob, require_audio, sniff, SNIFF_BYTES};
use super::options::{Method, UploadOptions};
use super::send::{check, empty, encode, send, send_base64, too_large};
use crate::driver::Driver;
use crate::errors::Error;
use crate::js::{get, set, Arg};
use crate::{settle, Client};
use js_sys::Promise;
use tunesmith_protocol::rules::check_file_name;
use tunesmith_protocol::upload::MAX_BASE64_FILE_BYTES;
use tunesmith_protocol::Op;
use wasm_bindgen::prelude::*;

impl Client {
    /// Uploads a `File` or `Blob`: as a multipart stream (default; the bytes never enter wasm
    /// memory) or, with `method: "base64"`, as a data URL of at most 10 MB.
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
    let blob = file.value();
    let facts = super::blob_facts(blob);
    let (Some(size), Some(own_name), Some(own_type)) = (
        get(&facts, "0").as_f64(),
        get(&facts, "1").as_string(),
        get(&facts, "2").as_string(),
    ) else {
        return Err(file.invalid(
            "type",
            "uploadFile takes a File or Blob (from <input type=file>, drag and drop, or new Blob([...])); \
             for Base64 text or bytes use uploadBase64",
        ));
    };
    if size == 0.0 {
        return Err(empty("file"));
    }
    let own_name = Some(own_name).filter(|n| !n.is_empty());
    let own_type = Some(own_type).filter(|t| is_mime(t));
    if opts.require_audio {
        require_audio("file", Some(&read_blob(blob, Some(SNIFF_BYTES)).await?))?;
    }
    match opts.method {
        Method::Stream => {
            check(Op::UploadStream, &opts.fields)?;
            let part_name = match (own_name, opts.file_name()) {
                // The service stores the part's own name when `fileName` is absent: refuse a name it
                // would refuse, before sending megabytes.
                (Some(name), None) => {
                    check_file_name("file", &name).map_err(|_| {
                        Error::invalid(
                            "file",
                            "safe_path",
                            tunesmith_protocol::text!(
                                "the file's name \"",
                                name,
                                "\" cannot be stored as is: pass a `fileName`"
                            ),
                        )
                    })?;
                    name
                }
                (Some(name), Some(_)) => name,
                // A nameless Blob goes as a part without a name (FormData would call it "blob"), so
                // that the service makes one up: two Blobs never overwrite each other.
                (None, _) => String::new(),
            };
            let form = super::form_of(&opts.fields, blob, &part_name);
            if form.is_undefined() {
                return Err(Error::configuration("No FormData in this runtime"));
            }
            send(inner, Op::UploadStream, form, size, opts).await
        }
        Method::Base64 => {
            if opts.file_name().is_none() {
                // Without `fileName` the service would make up a name: keep the File's own.
                if let Some(name) = own_name.filter(|n| check_file_name("fileName", n).is_ok()) {
                    set(&opts.fields, "fileName", &JsValue::from_str(&name));
                }
            }
            check(Op::UploadBase64, &opts.fields)?;
            if size > MAX_BASE64_FILE_BYTES as f64 {
                return Err(too_large("file", size));
            }
            let bytes = read_blob(blob, None).await?;
            let mime = opts
                .mime_type
                .clone()
                .or(own_type)
                .unwrap_or_else(|| sniff(&bytes));
            send_base64(inner, &mime, &encode(&bytes)?, size, opts).await
        }
    }
}
