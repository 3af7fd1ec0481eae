//! Uploads to the upload host: `uploadFile` (a File or Blob, as a multipart stream or as Base64),
//! `uploadBase64` (Base64 text, a data URL or bytes) and `uploadFromUrl`.

mod base64;
mod progress;
mod xhr;

use crate::call::{Attempt, Body, Inner};
use crate::errors::Error;
use crate::js::{self, get, set, Arg, JsFields};
use crate::normalize;
use crate::options::CallOptions;
use crate::{settle, Client};
use js_sys::{ArrayBuffer, Function, JsString, Object, Promise, Uint8Array};
use progress::Progress;
use std::rc::Rc;
use tunesmith_protocol::rules::{self, check_file_name, Fields};
use tunesmith_protocol::upload::{self, MAX_BASE64_FILE_BYTES};
use tunesmith_protocol::Op;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::FormData;

/// Bytes read from a nameless Blob to sniff its type, for a stored name with the right extension.
const SNIFF_BYTES: f64 = 512.0;

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

    /// Uploads Base64 text, a `data:` URL, a `Uint8Array` or an `ArrayBuffer` (at most 10 MB of file).
    #[wasm_bindgen(js_name = uploadBase64, skip_typescript)]
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

    /// Has the upload host download and store a public http(s) file (within 30 s).
    #[wasm_bindgen(js_name = uploadFromUrl, skip_typescript)]
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

#[derive(Clone, Copy, PartialEq, Eq)]
enum Method {
    Stream,
    Base64,
}

/// The options of the three methods, read once; each method uses the ones it documents.
struct UploadOptions {
    call: CallOptions,
    /// `uploadPath` and `fileName` as given: the request fields sent beside the payload.
    fields: Object,
    method: Method,
    on_progress: Option<Function>,
    mime_type: Option<String>,
}

impl UploadOptions {
    fn from_js(v: &Arg) -> Result<UploadOptions, Error> {
        let call = CallOptions::from_js(v)?;
        // Strings or nothing, checked by the protocol's rules (`check`) before anything is sent.
        let fields = Object::new();
        for name in ["uploadPath", "fileName"] {
            let value = v.field(name)?;
            if !value.is_absent() {
                set(&fields, name, value.value());
            }
        }
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
        Ok(UploadOptions {
            call,
            fields,
            method,
            on_progress,
            mime_type,
        })
    }

    fn file_name(&self) -> Option<String> {
        get(&self.fields, "fileName").as_string()
    }
}

/// `type/subtype`, without parameters, separators or quotes that would break a data URL or the JSON
/// put together around it.
fn is_mime(s: &str) -> bool {
    let valid = |part: &str| {
        !part.is_empty()
            && part
                .bytes()
                .all(|b| b.is_ascii_graphic() && !b"/;,\"\\".contains(&b))
    };
    s.split_once('/')
        .is_some_and(|(kind, sub)| valid(kind) && valid(sub))
}

/// Checks the request fields beside the payload with the protocol's rules. The payload itself
/// (`file`, `base64Data`) is checked apart, so that megabytes of it are never copied into wasm.
fn check(op: Op, request: &JsValue) -> Result<(), Error> {
    for rule in op
        .endpoint()
        .fields
        .iter()
        .filter(|r| r.name != "base64Data")
    {
        let fields = JsFields::new(request);
        let verdict = rules::check_one(rule, &fields.field(rule.name));
        fields.verdict()?;
        verdict?;
    }
    Ok(())
}

fn too_large(field: &str, bytes: f64) -> Error {
    let mut e = Error::from(upload::base64_too_large(field, bytes as u64));
    e.message.push_str(" (`client.uploadFile(file)`)");
    e
}

fn empty(field: &str) -> Error {
    Error::invalid(
        field,
        "not_empty",
        format!("`{field}` is empty (0 bytes): there is nothing to upload"),
    )
}

async fn upload_file(inner: &Inner, file: Arg, options: Arg) -> Result<JsValue, Error> {
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

/// The bytes of a Blob (`arrayBuffer()`, under catch).
async fn read_blob(blob: &JsValue) -> Result<JsValue, Error> {
    let unreadable = |e| Error::invalid("file", "type", "the file could not be read").with_cause(e);
    let promise = js::call_method(blob, "arrayBuffer", &[])
        .and_then(|p| p.dyn_into::<Promise>())
        .map_err(unreadable)?;
    JsFuture::from(promise).await.map_err(unreadable)
}

/// The Blob's own type, else one sniffed from its first bytes (read from `bytes` when at hand).
async fn blob_mime(blob: &JsValue, bytes: Option<&Uint8Array>) -> Result<String, Error> {
    let own = Arg::new(get(blob, "type"), "file")
        .text()
        .ok()
        .flatten()
        .unwrap_or_default();
    if is_mime(&own) {
        return Ok(own);
    }
    let head = match bytes {
        Some(b) => b.subarray(0, SNIFF_BYTES.min(f64::from(b.length())) as u32),
        None => {
            let slice = js::call_method(
                blob,
                "slice",
                &[&JsValue::from_f64(0.0), &JsValue::from_f64(SNIFF_BYTES)],
            )
            .map_err(|e| {
                Error::invalid("file", "type", "the file could not be read").with_cause(e)
            })?;
            Uint8Array::new(&read_blob(&slice).await?)
        }
    };
    Ok(upload::sniff_mime(&head.to_vec()).to_owned())
}

fn data_url(mime: &str, base64: &JsString) -> JsString {
    JsString::from(format!("data:{mime};base64,")).concat(base64)
}

async fn upload_base64(inner: &Inner, data: Arg, options: Arg) -> Result<JsValue, Error> {
    let opts = UploadOptions::from_js(&options)?;
    check(Op::UploadBase64, &opts.fields)?;
    // Neither is copied into wasm memory: Base64 text is checked and measured where it is, and
    // bytes are encoded chunk by chunk.
    let (text, size) = if let Some(text) = data.value().dyn_ref::<JsString>() {
        from_text(text, opts.mime_type.as_deref())?
    } else if let Some(bytes) = as_bytes(data.value()) {
        let size = f64::from(bytes.length());
        if size == 0.0 {
            return Err(empty("data"));
        }
        if size > MAX_BASE64_FILE_BYTES as f64 {
            return Err(too_large("data", size));
        }
        let mime = match &opts.mime_type {
            Some(m) => m.clone(),
            None => upload::sniff_mime(&bytes.subarray(0, SNIFF_BYTES as u32).to_vec()).to_owned(),
        };
        (data_url(&mime, &base64::encode(&bytes)), size)
    } else {
        return Err(data.invalid(
            "type",
            "uploadBase64 takes Base64 text, a data:<mime>;base64,<data> URL, a Uint8Array or an ArrayBuffer; \
             for a File or Blob use uploadFile",
        ));
    };
    send_base64(inner, text, size, opts).await
}

/// The bytes of an ArrayBuffer or of any view on one (Uint8Array, Node's Buffer, DataView, ...).
fn as_bytes(data: &JsValue) -> Option<Uint8Array> {
    // Constructed under catch: a Proxy of a buffer passes the type checks but throws inside.
    if data.is_instance_of::<ArrayBuffer>() {
        return js::new_uint8_array(&[data]).ok();
    }
    if !ArrayBuffer::is_view(data) {
        return None;
    }
    let buffer = get(data, "buffer").dyn_into::<ArrayBuffer>().ok()?;
    let offset = JsValue::from_f64(get(data, "byteOffset").as_f64()?);
    let length = JsValue::from_f64(get(data, "byteLength").as_f64()?);
    js::new_uint8_array(&[&buffer, &offset, &length]).ok()
}

/// Base64 text or a data URL, checked and measured without decoding it, as the data URL to send.
fn from_text(text: &JsString, mime_type: Option<&str>) -> Result<(JsString, f64), Error> {
    let invalid = |detail: &str| Error::invalid("data", "type", format!("`data` {detail}"));
    // Only the short prefix of a data URL comes into wasm memory, never the payload.
    let (declared, payload) = if text.starts_with("data:", 0) {
        let comma = text.index_of(",", 0);
        let prefix = (0..=512)
            .contains(&comma)
            .then(|| String::from(text.slice(0, comma as u32 + 1)));
        let Some((mime, _)) = prefix.as_deref().and_then(upload::split_data_url) else {
            return Err(invalid(
                "is a data URL but not of the form data:<mime>;base64,<data>",
            ));
        };
        (
            Some(mime.to_owned()).filter(|m| is_mime(m)),
            text.slice(comma as u32 + 1, text.length()),
        )
    } else {
        (None, text.clone())
    };
    let payload = base64::strip_whitespace(&payload);
    if payload.length() == 0 {
        return Err(empty("data"));
    }
    if !base64::is_base64(&payload) {
        return Err(invalid(
            "is not Base64 text (A-Z, a-z, 0-9, + and /, or - and _, then up to two =)",
        ));
    }
    let size = base64::decoded_size(&payload) as f64;
    if size > MAX_BASE64_FILE_BYTES as f64 {
        return Err(too_large("data", size));
    }
    let mime = mime_type.map(str::to_owned).or(declared).or_else(|| {
        let head = base64::head_bytes(&payload)?;
        Some(upload::sniff_mime(&head).to_owned())
    });
    let text = match mime {
        Some(mime) => data_url(&mime, &payload),
        // URL-safe Base64 without a type: sent bare, the service sniffs the type itself.
        None => payload,
    };
    Ok((text, size))
}

/// Sends `{ base64Data, uploadPath, fileName }`. The JSON is put together by string concatenation
/// in JavaScript: `JSON.stringify` would scan megabytes of Base64 for characters to escape (about
/// 45 ms for 10 MB in Chromium, more than encoding it), and `Body::Json` holds a Rust `String`,
/// which would copy it all into wasm memory. Base64 and a checked data URL prefix need no escaping.
async fn send_base64(
    inner: &Inner,
    base64_data: JsString,
    size: f64,
    mut opts: UploadOptions,
) -> Result<JsValue, Error> {
    // Strings only (`check` ran): this cannot fail, and a failure is still an error, not a throw.
    let fields = match js::json_text(&opts.fields) {
        Ok(Some(fields)) => fields,
        _ => {
            return Err(Error::invalid(
                "fileName",
                "type",
                "`uploadPath` and `fileName` must be strings",
            ))
        }
    };
    let rest = if fields.length() > 2 {
        JsString::from(",").concat(&fields.slice(1, fields.length()))
    } else {
        JsString::from("}")
    };
    let json = JsString::from("{\"base64Data\":\"")
        .concat(&base64_data)
        .concat(&JsString::from("\""))
        .concat(&rest);
    opts.call
        .headers
        .push(("Content-Type".to_owned(), "application/json".to_owned()));
    send(inner, Op::UploadBase64, json.into(), size, opts).await
}

/// Sends an upload body: through XMLHttpRequest when progress is wanted and the runtime has it,
/// else through fetch (Node: `onProgress` is then called once, at the end, with `loaded == total`).
async fn send(
    inner: &Inner,
    op: Op,
    body: JsValue,
    file_size: f64,
    opts: UploadOptions,
) -> Result<JsValue, Error> {
    let data = match opts.on_progress {
        Some(callback) if xhr::available() => {
            let progress = Rc::new(Progress::new(callback, file_size));
            let shared = &progress;
            let send = move |req, timeout_ms, signal| -> Attempt<'_> {
                Box::pin(xhr::send(req, timeout_ms, signal, shared))
            };
            let data = inner
                .execute_via(op, Body::Raw(body), &[], &opts.call, &send)
                .await?;
            progress.done();
            data
        }
        Some(callback) => {
            let data = inner.execute(op, Body::Raw(body), &[], &opts.call).await?;
            Progress::new(callback, file_size).done();
            data
        }
        None => inner.execute(op, Body::Raw(body), &[], &opts.call).await?,
    };
    Ok(normalize::output(op, data))
}

async fn upload_from_url(inner: &Inner, file_url: Arg, options: Arg) -> Result<JsValue, Error> {
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
        .and_then(|j| j.as_string())
        .unwrap_or_default();
    let data = inner
        .execute(Op::UploadFromUrl, Body::Json(json), &[], &opts.call)
        .await?;
    Ok(normalize::output(Op::UploadFromUrl, data))
}
