//! Uploads to the upload host: `uploadFile` (a File or Blob, as a multipart stream or as Base64),
//! `uploadBase64` (Base64 text, a data URL or bytes) and `uploadFromUrl`.

mod from_data;
mod from_file;
mod from_url;
mod mime;
mod options;
mod send;

use js_sys::{Function, JsString, Object, Promise, Uint8Array};
use wasm_bindgen::prelude::*;

// The value-level work, done where the values are (see `imports.js`); none of these throws.
#[wasm_bindgen(module = "/src/js/imports.js")]
extern "C" {
    /// `[size, name, type]` of a File or Blob, else undefined.
    #[wasm_bindgen(js_name = blobFacts)]
    fn blob_facts(file: &JsValue) -> JsValue;
    /// The bytes of the Blob (its first `end` bytes with `end`); rejects if it cannot be read.
    #[wasm_bindgen(js_name = readBlob)]
    fn read_blob(blob: &JsValue, end: Option<f64>) -> Promise;
    /// The bytes of an ArrayBuffer or of a view on one, not copied.
    #[wasm_bindgen(js_name = bytesOf)]
    fn bytes_of(data: &JsValue) -> Option<Uint8Array>;
    /// `[payload, data URL prefix, first bytes]` of Base64 text, or a code saying what is wrong.
    #[wasm_bindgen(js_name = base64Text)]
    fn base64_text(text: &JsString) -> JsValue;
    /// Standard Base64 of the bytes; `None` only if the runtime's encoders all failed.
    #[wasm_bindgen(js_name = toBase64)]
    fn to_base64(bytes: &Uint8Array) -> Option<JsString>;
    /// `{"base64Data":"data:<mime>;base64,<data>", ...fields}` (bare `data` when `mime` is empty).
    #[wasm_bindgen(js_name = base64Body)]
    fn base64_body(mime: &str, data: &JsString, fields: &Object) -> JsString;
    /// A FormData of the fields, then the file under `name`; undefined if there is no FormData.
    #[wasm_bindgen(js_name = formOf)]
    fn form_of(fields: &Object, blob: &JsValue, name: &str) -> JsValue;
    /// `report(sent, bodyTotal)` of one upload call, calling the caller's `onProgress`.
    #[wasm_bindgen(js_name = progressOf)]
    fn progress_of(callback: &Function, total: f64) -> Function;
}
