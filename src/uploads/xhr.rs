//! One upload attempt through XMLHttpRequest (`xhrSend` in `js/imports.js`): the only browser API that
//! reports upload progress. Same inputs and outcomes as the driver's fetch transport, so retries
//! and errors stay shared.

use crate::driver::{Failure, Reply, Request};
use crate::js::get;
use js_sys::{Array, Function, Promise};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::AbortSignal;

#[wasm_bindgen(module = "/src/js/imports.js")]
extern "C" {
    /// `[answer, cancel]` of one attempt (see `imports.js`).
    #[wasm_bindgen(js_name = xhrSend)]
    fn xhr_send(
        method: &str,
        url: &str,
        headers: Array,
        body: &JsValue,
        timeout_ms: f64,
        signal: Option<AbortSignal>,
        report: &Function,
    ) -> Array;
}

/// Whether this runtime has XMLHttpRequest (browsers and workers do; Node does not).
pub fn available() -> bool {
    get(&js_sys::global(), "XMLHttpRequest").is_function()
}

/// Cancels the attempt when dropped: a request still in flight is aborted, the listener removed.
struct Cancel(Function);

impl Drop for Cancel {
    fn drop(&mut self) {
        let _ = self.0.call0(&JsValue::UNDEFINED);
    }
}

/// Sends one request and reads the whole answer within `timeout_ms`, reporting the body's bytes
/// to `report` as they go out.
pub async fn send(
    req: Request<'_>,
    timeout_ms: f64,
    signal: Option<&AbortSignal>,
    report: &Function,
) -> Result<Reply, Failure> {
    if signal.is_some_and(AbortSignal::aborted) {
        return Err(Failure::Aborted);
    }
    let headers: Array = req
        .headers
        .iter()
        .map(|(name, value)| Array::of2(&JsValue::from_str(name), &JsValue::from_str(value)))
        .collect();
    let attempt = xhr_send(
        req.method,
        &req.url,
        headers,
        req.body.as_ref().unwrap_or(&JsValue::NULL),
        timeout_ms.clamp(1.0, f64::from(u32::MAX)).floor(),
        signal.cloned(),
        report,
    );
    let _cancel = Cancel(attempt.get(1).unchecked_into());
    match JsFuture::from(attempt.get(0).unchecked_into::<Promise>()).await {
        Err(_) if signal.is_some_and(AbortSignal::aborted) => Err(Failure::Aborted),
        Err(e) => Err(match e.as_string().as_deref() {
            Some("timeout") => Failure::TimedOut,
            Some("abort") => Failure::Aborted,
            _ => Failure::Network(e),
        }),
        Ok(answer) => {
            let answer: Array = answer.unchecked_into();
            Ok(Reply {
                status: answer.get(0).as_f64().unwrap_or(0.0) as u16,
                body: answer.get(1),
                request_id: answer.get(2).as_string(),
                retry_after: answer.get(3).as_string(),
                retry_after_ms: answer.get(4).as_string(),
            })
        }
    }
}
