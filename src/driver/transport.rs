//! One HTTP attempt and one backoff sleep, each a single call into `js/imports.js` (`attempt`,
//! `sleep`) returning `[promise, cancel]`. Both faces send through it, and so do uploads (through
//! XMLHttpRequest when they report progress: the same `attempt`).
//!
//! Why the attempt is JavaScript: done from Rust through web-sys, one `getCredits` crossed the
//! boundary some thirty times (the AbortController, its listener and timer, the init object, the
//! response's status, headers and text) and built a Rust closure per await; that was most of the
//! wrappers' time in the per-call profile, and the web-sys bindings and the guard weighed on the
//! module. The wasm side keeps what the attempt means: the URL, headers and body it is given, the
//! envelope, retries and errors (`attempts.rs`, `envelope.rs`).
//!
//! Why not gloo-net: about 8 KB gzipped for one call on this project's machine kind (its
//! Request/Response builders, header iteration and error types), and it cannot take the custom
//! `fetch` option.
//!
//! Cancellation: the returned `cancel` is called when the Rust future ends or is dropped, so a
//! future dropped mid-request (an abandoned waiter, a closed `watchTask`, a Rust caller's
//! `select!`) aborts the request, clears the timer and removes the listener on the caller's signal,
//! as reqwest's wasm backend does. A finished attempt is not aborted (that built a `DOMException`
//! and ran fetch's listeners for nothing).

use js_sys::{Array, Function};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::AbortSignal;

#[wasm_bindgen(module = "/src/js/imports.js")]
extern "C" {
    /// `[answer, cancel]` of one attempt (see `imports.js`); never throws, `answer` never rejects.
    #[allow(clippy::too_many_arguments)]
    fn attempt(
        fetch: &Function,
        post: bool,
        url: &str,
        key: &JsValue,
        json: bool,
        headers: &JsValue,
        extra: &JsValue,
        body: &JsValue,
        timeout_ms: f64,
        signal: Option<AbortSignal>,
        report: Option<Function>,
    ) -> Array;
    /// A response header of an answer (its `header` function), if it was sent.
    #[wasm_bindgen(js_name = readHeader)]
    fn read_header(header: &JsValue, name: &str) -> Option<String>;
    /// `[slept, cancel]`: `slept` resolves `true` after `ms`, `false` when the signal fires.
    #[wasm_bindgen(js_name = sleep)]
    fn sleep_js(ms: f64, signal: Option<AbortSignal>) -> Array;
}

/// One attempt's request. Its headers are put together in JavaScript, in this order, a later one
/// replacing an earlier one of the same name: `Authorization: Bearer {key}`, `Content-Type:
/// application/json` for a JSON body, the client's `headers`, the call's `extra`.
pub struct Request<'a> {
    /// POST, else GET.
    pub post: bool,
    pub url: &'a str,
    /// The key as a JavaScript string (made once for a literal key: no copy out of wasm memory
    /// per attempt), or `undefined` for none.
    pub key: &'a JsValue,
    pub json: bool,
    /// The client's headers, as a JavaScript object made once (`headers_object`), or `undefined`.
    pub headers: &'a JsValue,
    /// The call's headers, likewise.
    pub extra: &'a JsValue,
    /// A JSON string, a FormData, or nothing.
    pub body: Option<&'a JsValue>,
}

/// What came back: the status, the parsed JSON body (or its text), and its headers, read only when
/// the answer is an error (a success needs none: three reads across the boundary saved per call).
pub struct Reply {
    pub status: u16,
    pub body: JsValue,
    header: JsValue,
}

impl Reply {
    /// The response header `name` (lower case), if it was sent.
    pub fn header(&self, name: &str) -> Option<String> {
        read_header(&self.header, name)
    }
}

/// `headers` as a JavaScript object for [`Request`], `undefined` when there are none. It has no
/// prototype, so that a header named `__proto__` is a header like any other, not a prototype.
pub fn headers_object(headers: &[(String, String)]) -> JsValue {
    if headers.is_empty() {
        return JsValue::UNDEFINED;
    }
    let object: js_sys::Object = js_sys::Object::create(JsValue::NULL.unchecked_ref());
    for (name, value) in headers {
        crate::js::set(&object, name, &JsValue::from_str(value));
    }
    object.into()
}

#[derive(Debug)]
pub enum Failure {
    Aborted,
    TimedOut,
    /// fetch rejected: connection refused, DNS, CORS, offline. Carries the runtime's error.
    Network(JsValue),
}

/// Calls the JavaScript `cancel` of an attempt or a sleep when dropped, however its future ends.
struct Cancel(JsValue);

impl Drop for Cancel {
    fn drop(&mut self) {
        if let Some(cancel) = self.0.dyn_ref::<Function>() {
            let _ = cancel.call0(&JsValue::UNDEFINED);
        }
    }
}

/// Awaits the first item of `[promise, cancel]`, cancelling when done or dropped.
async fn await_pair(pair: Array) -> JsValue {
    let _cancel = Cancel(pair.get(1));
    crate::tasks::settled(pair.get(0))
        .await
        .unwrap_or(JsValue::UNDEFINED)
}

/// Sends one request and reads the whole answer, within `timeout_ms`; with `report`, through
/// XMLHttpRequest where the runtime has it, reporting the body's bytes as they go out.
pub async fn send(
    fetch: &Function,
    req: Request<'_>,
    timeout_ms: f64,
    signal: Option<&AbortSignal>,
    report: Option<&Function>,
) -> Result<Reply, Failure> {
    let outcome: Array = await_pair(attempt(
        fetch,
        req.post,
        req.url,
        req.key,
        req.json,
        req.headers,
        req.extra,
        req.body.unwrap_or(&JsValue::NULL),
        timeout_ms,
        signal.cloned(),
        report.cloned(),
    ))
    .await
    .unchecked_into();
    let first = outcome.get(0);
    if let Some(status) = first.as_f64() {
        return Ok(Reply {
            status: status as u16,
            body: outcome.get(1),
            header: outcome.get(2),
        });
    }
    Err(match first.as_string().as_deref() {
        Some("abort") => Failure::Aborted,
        Some("timeout") => Failure::TimedOut,
        _ => Failure::Network(outcome.get(1)),
    })
}

/// Waits `ms`, or fails at once when the signal fires (or has fired).
pub async fn sleep(ms: f64, signal: Option<&AbortSignal>) -> Result<(), Failure> {
    if await_pair(sleep_js(ms, signal.cloned())).await.as_bool() == Some(true) {
        Ok(())
    } else {
        Err(Failure::Aborted)
    }
}
