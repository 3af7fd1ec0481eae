//! Helpers of the waiter tests: fast polling options, an `onProgress` that records, music tasks.

use super::common::*;
use js_sys::{Array, Reflect};
use serde_json::json;
use std::cell::RefCell;
use std::rc::Rc;
use tunesmith::Client;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsValue;

/// Fast waiter options: stages last about 100 ms in the test emulator, so every stage is seen.
pub fn fast(extra: serde_json::Value) -> JsValue {
    let mut base = json!({ "minIntervalMs": 15, "maxIntervalMs": 30 });
    if let (Some(b), Some(e)) = (base.as_object_mut(), extra.as_object()) {
        b.extend(e.clone());
    }
    js(base)
}

pub fn with(opts: JsValue, key: &str, value: &JsValue) -> JsValue {
    Reflect::set(&opts, &key.into(), value).unwrap();
    opts
}

pub type Seen = Rc<RefCell<Vec<JsValue>>>;

/// An `onProgress` that records every record it gets.
pub fn recorder() -> (Closure<dyn FnMut(JsValue)>, Seen) {
    let seen = Rc::new(RefCell::new(Vec::new()));
    let sink = seen.clone();
    (
        Closure::new(move |record: JsValue| sink.borrow_mut().push(record)),
        seen,
    )
}

pub fn generate_request(title: &str) -> JsValue {
    js(json!({
        "customMode": true, "instrumental": false, "model": "V6", "callBackUrl": callback_url("waiters"),
        "prompt": "la la la", "style": "dream pop", "title": title,
    }))
}

pub async fn create_music(client: &Client, title: &str) -> String {
    prop_str(
        &ok(client.generate(generate_request(title), None)).await,
        "taskId",
    )
}

/// A finished music task: its id and its tracks' ids.
pub async fn finished_music(client: &Client, title: &str) -> (String, Vec<String>) {
    let id = create_music(client, title).await;
    let record = ok(client.wait_for_task(JsValue::from_str(&id), Some(fast(json!({}))))).await;
    let tracks = Array::from(&prop(&record, "tracks"))
        .iter()
        .map(|t| prop_str(&t, "id"))
        .collect();
    (id, tracks)
}

pub async fn get_task_queries(tag: &str) -> usize {
    requests(tag)
        .await
        .iter()
        .filter(|r| prop(r, "op").as_string().as_deref() == Some("getTask"))
        .count()
}
