//! One HTTP attempt through `fetch`: headers, body, per-attempt timeout and the caller's AbortSignal,
//! all owned by one [`AbortGuard`]. Both faces send through it.
//!
//! Why a hand-written `fetch` call rather than gloo-net: gloo-net measured about 8 KB gzipped for
//! one call on this project's machine kind (its Request/Response builders, header iteration and
//! error types), in a package of 58 KB gzipped with a 64 KB budget, and it cannot take the custom
//! `fetch` option. The Rust face sends through this one too, although its size would not reach npm
//! users: with gloo-net it would have a second transport and a second abort guard, two places to
//! keep right for "a dropped future leaves no request in flight".

use crate::js::{clear_timeout, get, get_f64, set, set_timeout};
use js_sys::{Function, Object, Promise};
use wasm_bindgen::prelude::*;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{AbortController, AbortSignal};

#[wasm_bindgen(module = "/src/js/imports.js")]
extern "C" {
    /// `promise`'s value, or `signal` itself if it fires first (see `imports.js`).
    #[wasm_bindgen(js_name = untilSignal)]
    fn until_signal(promise: &JsValue, signal: &AbortSignal) -> Promise;
}

pub struct Request<'a> {
    pub method: &'static str,
    pub url: String,
    pub headers: Vec<(&'a str, String)>,
    /// A JSON string, a FormData, or nothing.
    pub body: Option<JsValue>,
}

/// What came back: the status, the parsed JSON body (or its text), and the headers the client reads.
pub struct Reply {
    pub status: u16,
    pub body: JsValue,
    pub request_id: Option<String>,
    pub retry_after: Option<String>,
    pub retry_after_ms: Option<String>,
}

#[derive(Debug)]
pub enum Failure {
    Aborted,
    TimedOut,
    /// fetch rejected: connection refused, DNS, CORS, offline. Carries the runtime's error.
    Network(JsValue),
}

/// Ties the attempt's AbortController, its timeout timer and the listener on the caller's signal to
/// one value: dropping it aborts the request (unless the whole answer was read: nothing is in
/// flight then, and an abort would only build an error and run fetch's listeners), clears the
/// timer and removes the listener, whichever way the attempt ends. So a future dropped mid-request
/// (an abandoned waiter, a closed `watchTask`, a Rust caller's `select!`) leaves nothing in flight,
/// as reqwest's wasm backend does.
struct AbortGuard {
    controller: AbortController,
    abort: Function,
    timer: JsValue,
    user_signal: Option<AbortSignal>,
    answered: bool,
}

impl AbortGuard {
    fn new(timeout_ms: f64, user_signal: Option<&AbortSignal>) -> Result<AbortGuard, Failure> {
        let controller = AbortController::new().map_err(Failure::Network)?;
        let abort = get(&controller, "abort")
            .dyn_into::<Function>()
            .map_err(Failure::Network)?
            .bind0(&controller);
        let timer = set_timeout(&abort, timeout_ms);
        if let Some(signal) = user_signal {
            // The same bound function is registered and later removed: no Rust closure to keep alive.
            let _ = signal.add_event_listener_with_callback("abort", &abort);
        }
        Ok(AbortGuard {
            controller,
            abort,
            timer,
            user_signal: user_signal.cloned(),
            answered: false,
        })
    }

    /// Waits for `promise`, raced against the attempt's own signal (at the timeout or the
    /// caller's abort), so that a `fetch` that ignores `init.signal` (some polyfills and test
    /// doubles) still settles; the signal firing first is a failure.
    async fn race(&self, promise: &JsValue) -> Result<JsValue, Failure> {
        let signal = self.controller.signal();
        let value = JsFuture::from(until_signal(promise, &signal))
            .await
            .map_err(|e| self.failure(e))?;
        if Object::is(&value, &signal) {
            return Err(self.failure(JsValue::UNDEFINED));
        }
        Ok(value)
    }

    /// Why the attempt's signal fired: the caller's abort wins over our timer.
    fn failure(&self, cause: JsValue) -> Failure {
        if self.user_signal.as_ref().is_some_and(AbortSignal::aborted) {
            Failure::Aborted
        } else if self.controller.signal().aborted() {
            Failure::TimedOut
        } else {
            Failure::Network(cause)
        }
    }
}

impl Drop for AbortGuard {
    fn drop(&mut self) {
        if !self.answered {
            self.controller.abort();
        }
        clear_timeout(&self.timer);
        if let Some(signal) = &self.user_signal {
            let _ = signal.remove_event_listener_with_callback("abort", &self.abort);
        }
    }
}

/// Sends one request and reads the whole answer, within `timeout_ms`.
pub async fn send(
    fetch: &Function,
    req: Request<'_>,
    timeout_ms: f64,
    signal: Option<&AbortSignal>,
) -> Result<Reply, Failure> {
    if signal.is_some_and(AbortSignal::aborted) {
        return Err(Failure::Aborted);
    }
    let mut guard = AbortGuard::new(timeout_ms, signal)?;
    let headers = Object::new();
    for (name, value) in &req.headers {
        set(&headers, name, &JsValue::from_str(value));
    }
    let init = Object::new();
    set(&init, "method", &JsValue::from_str(req.method));
    set(&init, "headers", &headers);
    if let Some(body) = &req.body {
        set(&init, "body", body);
    }
    set(&init, "signal", &guard.controller.signal());

    let started = fetch
        .call2(&js_sys::global(), &JsValue::from_str(&req.url), &init)
        .map_err(|e| guard.failure(e))?;
    let response = guard.race(&started).await?;
    let status = get_f64(&response, "status").unwrap_or(0.0) as u16;
    let headers = get(&response, "headers");
    let getter = get(&headers, "get").dyn_into::<Function>().ok();
    let header = |name: &str| -> Option<String> {
        getter
            .as_ref()?
            .call1(&headers, &JsValue::from_str(name))
            .ok()?
            .as_string()
    };
    let request_id = header("x-request-id");
    let retry_after = header("retry-after");
    let retry_after_ms = header("retry-after-ms");
    let text_fn = get(&response, "text")
        .dyn_into::<Function>()
        .map_err(Failure::Network)?;
    let text_promise = text_fn.call0(&response).map_err(|e| guard.failure(e))?;
    let text = guard.race(&text_promise).await?;
    guard.answered = true;
    drop(guard);
    // Parsed where it is: the text is not copied into wasm memory and back.
    let body = if text.is_string() {
        crate::js::parse_json(&text).unwrap_or(text)
    } else {
        JsValue::UNDEFINED
    };
    Ok(Reply {
        status,
        body,
        request_id,
        retry_after,
        retry_after_ms,
    })
}

/// Waits `ms`, or fails at once when the signal fires (or has fired).
pub async fn sleep(ms: f64, signal: Option<&AbortSignal>) -> Result<(), Failure> {
    if signal.is_some_and(AbortSignal::aborted) {
        return Err(Failure::Aborted);
    }
    let mut handlers: Option<(Function, Function)> = None;
    let promise = Promise::new(&mut |resolve, reject| handlers = Some((resolve, reject)));
    let Some((resolve, reject)) = handlers else {
        return Err(Failure::Network(JsValue::from_str(
            "Promise executor did not run",
        )));
    };
    let _guard = SleepGuard {
        timer: set_timeout(&resolve, ms),
        reject,
        signal: signal.cloned(),
    };
    if let Some(signal) = signal {
        let _ = signal.add_event_listener_with_callback("abort", &_guard.reject);
    }
    JsFuture::from(promise)
        .await
        .map(|_| ())
        .map_err(|_| Failure::Aborted)
}

/// A sleep's timer and abort listener, released when the sleep ends or its future is dropped.
struct SleepGuard {
    timer: JsValue,
    reject: Function,
    signal: Option<AbortSignal>,
}

impl Drop for SleepGuard {
    fn drop(&mut self) {
        clear_timeout(&self.timer);
        if let Some(signal) = &self.signal {
            let _ = signal.remove_event_listener_with_callback("abort", &self.reject);
        }
    }
}
