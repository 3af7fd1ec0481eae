//! `uploadFromUrl`: the upload host downloads and stores a public http(s) file.

use super::options::UploadOptions;
use super::send::check;
use crate::driver::{Body, Driver, Error};
use crate::js::{get, set};
use crate::normalize;
use crate::Client;
use js_sys::{Object, Promise};
use tunesmith_protocol::Op;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

#[wasm_bindgen]
impl Client {
    /// Has the upload host download and store a public http(s) file (within 30 s).
    #[wasm_bindgen(js_name = uploadFromUrl, skip_typescript)]
    pub fn upload_from_url(&self, file_url: JsValue, options: Option<JsValue>) -> Promise {
        let inner = self.inner.clone();
        future_to_promise(async move {
            upload_from_url(&inner, file_url, options.unwrap_or(JsValue::UNDEFINED))
                .await
                .map_err(Error::into_js)
        })
    }
}

async fn upload_from_url(
    inner: &Driver,
    file_url: JsValue,
    options: JsValue,
) -> Result<JsValue, Error> {
    let opts = UploadOptions::from_js(&options)?;
    // A `URL` object is as good as its text.
    let file_url = match get(&file_url, "href") {
        href if file_url.is_object() && href.is_string() => href,
        _ => file_url,
    };
    let request = Object::new();
    set(&request, "fileUrl", &file_url);
    Object::assign(&request, &opts.fields);
    check(Op::UploadFromUrl, &request)?;
    let json = js_sys::JSON::stringify(&request).map_err(|e| {
        Error::invalid(
            "fileUrl",
            "type",
            "the request could not be encoded as JSON",
        )
        .with_cause(e)
    })?;
    let data = inner
        .execute(
            Op::UploadFromUrl,
            Body::Json(String::from(json)),
            &[],
            &opts.call,
        )
        .await?;
    Ok(normalize::output(Op::UploadFromUrl, data))
}
