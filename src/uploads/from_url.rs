//! `uploadFromUrl`: the upload host downloads and stores a public http(s) file.

use super::options::target;
use super::send::check;
use crate::driver::{CallOptions, Driver};
use crate::errors::Error;
use crate::js::{set, Arg};
use crate::{settle, Client};
use js_sys::Promise;
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
    let call = CallOptions::from_js(&options)?;
    let request = target(&options)?;
    // A `URL` object is as good as its text.
    let file_url = match file_url.is_object() {
        true => match file_url.field_named("href", "fileUrl")? {
            href if href.is_string() => href,
            _ => file_url,
        },
        false => file_url,
    };
    // `{ fileUrl, uploadPath, fileName }`: a request like any other operation's from here on.
    set(&request, "fileUrl", file_url.value());
    // Checked field by field first, as the other uploads' fields are: a value that cannot be copied
    // as part of the request (an array of 2^32 - 1 holes) is refused naming `fileUrl`, not `request`.
    check(Op::UploadFromUrl, &request)?;
    crate::send_request(inner, Op::UploadFromUrl, request.into(), call).await
}
