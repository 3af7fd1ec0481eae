//! Helpers of the wasm suites: the emulator's addresses (set by `cargo xtask test` at build time),
//! clients, JSON literals, the emulator's admin routes, and error inspection.

use js_sys::{Function, Object, Promise, Reflect};
use tunesmith::Client;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

pub const MUSIC: &str = match option_env!("TUNESMITH_TEST_MUSIC_URL") {
    Some(u) => u,
    None => "http://127.0.0.1:8790",
};
pub const UPLOAD: &str = match option_env!("TUNESMITH_TEST_UPLOAD_URL") {
    Some(u) => u,
    None => "http://127.0.0.1:8791",
};
pub const KEY: &str = match option_env!("TUNESMITH_TEST_API_KEY") {
    Some(k) => k,
    None => "ts-dev-key",
};
pub const SPARE_KEY: &str = match option_env!("TUNESMITH_TEST_SPARE_KEY") {
    Some(k) => k,
    None => "ts-dev-key",
};

/// A JSON literal as a JS value.
pub fn js(value: serde_json::Value) -> JsValue {
    js_sys::JSON::parse(&value.to_string()).unwrap()
}

pub fn prop(v: &JsValue, key: &str) -> JsValue {
    Reflect::get(v, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

pub fn prop_str(v: &JsValue, key: &str) -> String {
    prop(v, key)
        .as_string()
        .unwrap_or_else(|| panic!("`{key}` is not a string in {}", show(v)))
}

pub fn show(v: &JsValue) -> String {
    js_sys::JSON::stringify(v)
        .map(String::from)
        .unwrap_or_else(|_| format!("{v:?}"))
}

/// A tag unique to one test: sent as `X-Emulator-Tag`, it filters the emulator's request log.
pub fn tag(name: &str) -> String {
    format!("{name}-{}", (js_sys::Math::random() * 1e12) as u64)
}

/// Options for a test client: the emulator, the test key, the tag, plus `extra` fields.
pub fn options(tag: &str, extra: serde_json::Value) -> JsValue {
    let base = js(serde_json::json!({
        "baseUrl": MUSIC,
        "uploadUrl": UPLOAD,
        "apiKey": KEY,
        "dangerouslyAllowBrowser": true,
        "headers": { "X-Emulator-Tag": tag },
    }));
    Object::assign(&Object::from(base), &Object::from(js(extra))).into()
}

/// The emulator's header that sets the stage delay of the task a create request makes.
pub const STAGE_DELAY_HEADER: &str = "X-Emulate-Stage-Delay-Ms";

/// Stages this far apart (ms) for the tests that must see every stage by polling, `pending` first:
/// on the suites' emulator stages are 100 ms apart, and a loaded machine can stall a waiter past one.
pub const SLOW_STAGES_MS: &str = "700";

/// A client whose tasks' stages are [`SLOW_STAGES_MS`] apart.
pub fn slow_client(tag: &str) -> Client {
    client_with(
        tag,
        serde_json::json!({ "headers": { "X-Emulator-Tag": tag, STAGE_DELAY_HEADER: SLOW_STAGES_MS } }),
    )
}

pub fn client(tag: &str) -> Client {
    client_with(tag, serde_json::json!({}))
}

pub fn client_with(tag: &str, extra: serde_json::Value) -> Client {
    Client::new(Some(options(tag, extra).unchecked_into()))
        .unwrap_or_else(|e| panic!("client: {}", show(&e)))
}

pub async fn ok(p: Promise) -> JsValue {
    JsFuture::from(p)
        .await
        .unwrap_or_else(|e| panic!("expected success, got {} ({})", show(&e), message(&e)))
}

pub async fn err(p: Promise) -> JsValue {
    match JsFuture::from(p).await {
        Ok(v) => panic!("expected an error, got {}", show(&v)),
        Err(e) => e,
    }
}

pub fn message(e: &JsValue) -> String {
    prop(e, "message").as_string().unwrap_or_default()
}

/// Asserts the error's class (`name`), and that it is a real `Error`.
pub fn assert_class(e: &JsValue, name: &str) {
    assert!(
        e.is_instance_of::<js_sys::Error>(),
        "not an Error: {}",
        show(e)
    );
    assert_eq!(prop_str(e, "name"), name, "{}", message(e));
}

/// A JSON answer of the emulator (admin routes, inbox), outside the client under test.
pub async fn fetch_json(
    method: &str,
    url: &str,
    body: Option<serde_json::Value>,
    key: Option<&str>,
) -> JsValue {
    let init = js(
        serde_json::json!({ "method": method, "headers": { "Content-Type": "application/json" } }),
    );
    if let Some(b) = body {
        Reflect::set(&init, &"body".into(), &JsValue::from_str(&b.to_string())).unwrap();
    }
    if let Some(k) = key {
        Reflect::set(
            &prop(&init, "headers"),
            &"Authorization".into(),
            &format!("Bearer {k}").into(),
        )
        .unwrap();
    }
    let fetch: Function = prop(&js_sys::global(), "fetch").unchecked_into();
    let resp = JsFuture::from(
        fetch
            .call2(&JsValue::UNDEFINED, &url.into(), &init)
            .unwrap()
            .unchecked_into::<Promise>(),
    )
    .await
    .unwrap();
    let json: Function = prop(&resp, "json").unchecked_into();
    JsFuture::from(json.call0(&resp).unwrap().unchecked_into::<Promise>())
        .await
        .unwrap()
}

/// `{requests, tasksCreated}` of the requests tagged `tag`.
pub async fn stats(tag: &str) -> (u32, u32) {
    let s = fetch_json(
        "GET",
        &format!("{MUSIC}/_emulator/stats?tag={tag}"),
        None,
        None,
    )
    .await;
    (
        prop(&s, "requests").as_f64().unwrap() as u32,
        prop(&s, "tasksCreated").as_f64().unwrap() as u32,
    )
}

/// The request log of `tag`, oldest first.
pub async fn requests(tag: &str) -> Vec<JsValue> {
    let log = fetch_json(
        "GET",
        &format!("{MUSIC}/_emulator/requests?tag={tag}"),
        None,
        None,
    )
    .await;
    js_sys::Array::from(&prop(&log, "requests"))
        .iter()
        .collect()
}

/// Arms the next `times` requests tagged `tag` (of `ops`, or all) to answer `code` or to be delayed.
pub async fn arm_fault(tag: &str, fault: serde_json::Value) {
    let mut body = fault;
    body["tag"] = serde_json::Value::String(tag.to_owned());
    fetch_json(
        "POST",
        &format!("{MUSIC}/_emulator/faults"),
        Some(body),
        None,
    )
    .await;
}

pub async fn set_credits(key: &str, credits: u64) {
    fetch_json(
        "POST",
        &format!("{MUSIC}/_emulator/credits"),
        Some(serde_json::json!({ "credits": credits })),
        Some(key),
    )
    .await;
}

pub async fn sleep(ms: i32) {
    let p = Promise::new(&mut |resolve, _| {
        let set_timeout: Function = prop(&js_sys::global(), "setTimeout").unchecked_into();
        set_timeout
            .call2(&JsValue::UNDEFINED, &resolve, &ms.into())
            .unwrap();
    });
    JsFuture::from(p).await.unwrap();
}

/// Polls `query` until its `state` is final; returns the final record.
pub async fn settle(query: impl Fn() -> Promise) -> JsValue {
    for _ in 0..200 {
        let record = ok(query()).await;
        let state = prop_str(&record, "state");
        if state == "succeeded" || state == "failed" {
            return record;
        }
        sleep(50).await;
    }
    panic!("task did not settle");
}

pub fn callback_url(name: &str) -> String {
    format!("{MUSIC}/inbox/{name}")
}

/// An AbortController and its signal.
pub fn abort_controller() -> web_sys::AbortController {
    web_sys::AbortController::new().unwrap()
}

/// Call options `{ signal }` with the controller's signal.
pub fn signal_options(controller: &web_sys::AbortController) -> JsValue {
    let opts = js(serde_json::json!({}));
    Reflect::set(&opts, &"signal".into(), &controller.signal()).unwrap();
    opts
}
