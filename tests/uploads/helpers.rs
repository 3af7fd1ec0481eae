//! Helpers of the upload tests: files and bytes made in the page, digests, downloads, progress logs.

use crate::common::*;
use js_sys::{Array, Function, Promise, Reflect, Uint8Array};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// `new <class>(...args)` for a global class (File, Blob), without extra web-sys features.
pub fn construct(class: &str, args: &[JsValue]) -> JsValue {
    let ctor: Function = prop(&js_sys::global(), class).unchecked_into();
    Reflect::construct(&ctor, &args.iter().collect::<Array>()).unwrap()
}

/// Deterministic bytes that differ from position to position (a digest catches any reordering).
pub fn pattern(len: u32, seed: u32) -> Uint8Array {
    let bytes: Vec<u8> = (0..len)
        .map(|i| (i.wrapping_mul(2_654_435_761).wrapping_add(seed) >> 13) as u8)
        .collect();
    Uint8Array::from(&bytes[..])
}

/// A WAV header followed by `len` bytes of pattern: the service recognizes it as audio/wav.
pub fn wav_bytes(len: u32, seed: u32) -> Uint8Array {
    let body = pattern(len, seed);
    let mut header = Vec::from(&b"RIFF"[..]);
    header.extend_from_slice(&(36 + len).to_le_bytes());
    header.extend_from_slice(b"WAVEfmt ");
    header.extend_from_slice(&[
        16, 0, 0, 0, 1, 0, 1, 0, 0x44, 0xAC, 0, 0, 0x88, 0x58, 1, 0, 2, 0, 16, 0,
    ]);
    header.extend_from_slice(b"data");
    header.extend_from_slice(&len.to_le_bytes());
    let out = Uint8Array::new_with_length(header.len() as u32 + len);
    out.set(&Uint8Array::from(&header[..]), 0);
    out.set(&body, header.len() as u32);
    out
}

pub fn file_of(parts: &[JsValue], name: &str, mime: &str) -> JsValue {
    let options = js(serde_json::json!({ "type": mime }));
    construct(
        "File",
        &[parts.iter().collect::<Array>().into(), name.into(), options],
    )
}

pub fn blob_of(parts: &[JsValue], mime: &str) -> JsValue {
    construct(
        "Blob",
        &[
            parts.iter().collect::<Array>().into(),
            js(serde_json::json!({ "type": mime })),
        ],
    )
}

/// A File of `mb` MiB made of 1 MiB chunks built in JS, each a little different.
pub fn big_file(mb: u32, name: &str) -> JsValue {
    let chunk = pattern(1 << 20, 7);
    let parts: Vec<JsValue> = (0..mb)
        .map(|i| {
            let c = chunk.slice(0, chunk.length());
            c.set_index(0, i as u8);
            c.set_index(1, (i >> 8) as u8);
            c.into()
        })
        .collect();
    file_of(&parts, name, "application/octet-stream")
}

async fn promise(v: JsValue) -> JsValue {
    JsFuture::from(v.unchecked_into::<Promise>()).await.unwrap()
}

async fn call_async(obj: &JsValue, method: &str, args: &[JsValue]) -> JsValue {
    let f: Function = prop(obj, method).unchecked_into();
    promise(Reflect::apply(&f, obj, &args.iter().collect::<Array>()).unwrap()).await
}

/// Hex SHA-256 of a Blob, an ArrayBuffer or a typed array, by crypto.subtle.
pub async fn sha256(data: &JsValue) -> String {
    let bytes =
        if data.is_instance_of::<js_sys::ArrayBuffer>() || js_sys::ArrayBuffer::is_view(data) {
            data.clone()
        } else {
            call_async(data, "arrayBuffer", &[]).await
        };
    let subtle = prop(&prop(&js_sys::global(), "crypto"), "subtle");
    let digest = call_async(&subtle, "digest", &["SHA-256".into(), bytes]).await;
    Uint8Array::new(&digest)
        .to_vec()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// GET `url`: its status and body.
pub async fn download(url: &str) -> (u16, JsValue) {
    let response = call_async(&js_sys::global(), "fetch", &[url.into()]).await;
    let status = prop(&response, "status").as_f64().unwrap() as u16;
    (status, call_async(&response, "arrayBuffer", &[]).await)
}

/// A progress callback and the `(loaded, total)` pairs it received.
pub struct ProgressLog {
    pub events: Rc<RefCell<Vec<(f64, f64)>>>,
    pub callback: Closure<dyn FnMut(JsValue)>,
}

impl ProgressLog {
    /// `on_event` runs after each event is recorded (to abort mid-upload, for example).
    pub fn new(mut on_event: impl FnMut(f64, f64) + 'static) -> ProgressLog {
        let events = Rc::new(RefCell::new(Vec::new()));
        let log = events.clone();
        let callback = Closure::<dyn FnMut(JsValue)>::new(move |e: JsValue| {
            let loaded = prop(&e, "loaded").as_f64().unwrap();
            let total = prop(&e, "total").as_f64().unwrap();
            log.borrow_mut().push((loaded, total));
            on_event(loaded, total);
        });
        ProgressLog { events, callback }
    }

    pub fn function(&self) -> JsValue {
        self.callback.as_ref().clone()
    }

    /// Asserts strictly increasing `loaded`, a constant `total` equal to `size`, ending at it.
    pub fn assert_complete(&self, size: f64) {
        let events = self.events.borrow();
        assert!(!events.is_empty(), "no progress event");
        for pair in events.windows(2) {
            assert!(
                pair[1].0 > pair[0].0,
                "progress went from {} to {}",
                pair[0].0,
                pair[1].0
            );
        }
        assert!(
            events.iter().all(|e| e.1 == size),
            "total is not the file size {size}: {events:?}"
        );
        assert_eq!(
            events.last().map(|e| e.0),
            Some(size),
            "the last event is not loaded == total"
        );
    }
}

/// Call options as a JS object, with extra JS values (functions, signals) set on top of `json`.
pub fn opts(json: serde_json::Value, extra: &[(&str, JsValue)]) -> JsValue {
    let o = js(json);
    for (k, v) in extra {
        Reflect::set(&o, &(*k).into(), v).unwrap();
    }
    o
}

/// Checks the fields every uploaded-file record has, and that it expires 3 days after upload.
pub fn assert_record(record: &JsValue, name: &str, mime: &str, size: f64) {
    assert_eq!(prop_str(record, "fileName"), name, "{}", show(record));
    assert_eq!(prop_str(record, "mimeType"), mime, "{}", show(record));
    assert_eq!(
        prop(record, "fileSize").as_f64(),
        Some(size),
        "{}",
        show(record)
    );
    for key in [
        "fileId",
        "originalName",
        "uploadPath",
        "fileUrl",
        "downloadUrl",
    ] {
        prop_str(record, key);
    }
    let time = |key: &str| js_sys::Date::parse(&prop_str(record, key));
    let (uploaded, expires) = (time("uploadTime"), time("expiresAt"));
    assert!(
        uploaded.is_finite(),
        "uploadTime is not ISO 8601: {}",
        show(record)
    );
    assert_eq!(
        expires - uploaded,
        3.0 * 24.0 * 3600.0 * 1000.0,
        "expiresAt is not 3 days after upload"
    );
    assert!(
        prop_str(record, "uploadTime").ends_with('Z'),
        "times are not normalized to UTC ISO 8601"
    );
}

/// Asserts that the stored bytes behind `downloadUrl` are the original's.
pub async fn assert_stored(record: &JsValue, original: &JsValue) {
    let (status, body) = download(&prop_str(record, "downloadUrl")).await;
    assert_eq!(status, 200, "download failed");
    assert_eq!(
        sha256(&body).await,
        sha256(original).await,
        "the stored bytes differ from the original"
    );
}

/// A fresh, unique path for one test's files.
pub fn unique_path(tag: &str) -> String {
    format!("tests/{tag}")
}
