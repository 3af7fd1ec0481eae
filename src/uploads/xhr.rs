//! One upload attempt through XMLHttpRequest: the only browser API that reports upload progress
//! (fetch does not). Same inputs and outcomes as `http::send`, so retries and errors stay shared.

use super::progress::Progress;
use crate::driver::{Failure, Reply, Request};
use crate::js::get;
use js_sys::{Function, Promise};
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{AbortSignal, ProgressEvent, XmlHttpRequest};

/// XMLHttpRequest's `readyState` once the request is over.
const DONE: u16 = 4;

/// Whether this runtime has XMLHttpRequest (browsers and workers do; Node does not).
pub fn available() -> bool {
    get(&js_sys::global(), "XMLHttpRequest").is_function()
}

/// Ties the request, its progress listener and the listener on the caller's signal to one value:
/// dropping it aborts a request still in flight and removes both listeners.
struct XhrGuard {
    xhr: XmlHttpRequest,
    abort: Function,
    user_signal: Option<AbortSignal>,
    on_progress: Closure<dyn FnMut(ProgressEvent)>,
}

impl Drop for XhrGuard {
    fn drop(&mut self) {
        if self.xhr.ready_state() != DONE {
            let _ = self.xhr.abort();
        }
        if let Ok(upload) = self.xhr.upload() {
            let _ = upload.remove_event_listener_with_callback(
                "progress",
                self.on_progress.as_ref().unchecked_ref(),
            );
        }
        if let Some(signal) = &self.user_signal {
            let _ = signal.remove_event_listener_with_callback("abort", &self.abort);
        }
    }
}

/// Sends one request and reads the whole answer within `timeout_ms`, reporting the body's bytes
/// as they go out.
pub async fn send(
    req: Request<'_>,
    timeout_ms: f64,
    signal: Option<&AbortSignal>,
    progress: &Rc<Progress>,
) -> Result<Reply, Failure> {
    if signal.is_some_and(AbortSignal::aborted) {
        return Err(Failure::Aborted);
    }
    let xhr = XmlHttpRequest::new().map_err(Failure::Network)?;
    xhr.open(req.method, &req.url).map_err(Failure::Network)?;
    for (name, value) in &req.headers {
        xhr.set_request_header(name, value)
            .map_err(Failure::Network)?;
    }
    // XHR's own timer covers the whole exchange, upload included, like the fetch path's AbortGuard.
    xhr.set_timeout(timeout_ms.clamp(1.0, f64::from(u32::MAX)) as u32);

    let mut handlers: Option<(Function, Function)> = None;
    let finished = Promise::new(&mut |resolve, reject| handlers = Some((resolve, reject)));
    let Some((resolve, reject)) = handlers else {
        return Err(Failure::Network(JsValue::from_str(
            "Promise executor did not run",
        )));
    };
    // The resolve and reject functions are listeners as they are: no Rust closure to keep alive.
    xhr.add_event_listener_with_callback("load", &resolve)
        .map_err(Failure::Network)?;
    for event in ["error", "abort", "timeout"] {
        xhr.add_event_listener_with_callback(event, &reject)
            .map_err(Failure::Network)?;
    }
    let reporter = progress.clone();
    let on_progress = Closure::<dyn FnMut(ProgressEvent)>::new(move |e: ProgressEvent| {
        if e.length_computable() {
            reporter.sent(e.loaded(), e.total());
        }
    });
    let upload = xhr.upload().map_err(Failure::Network)?;
    upload
        .add_event_listener_with_callback("progress", on_progress.as_ref().unchecked_ref())
        .map_err(Failure::Network)?;
    let abort = get(&xhr, "abort")
        .dyn_into::<Function>()
        .map_err(Failure::Network)?
        .bind0(&xhr);
    if let Some(signal) = signal {
        let _ = signal.add_event_listener_with_callback("abort", &abort);
    }
    let guard = XhrGuard {
        xhr,
        abort,
        user_signal: signal.cloned(),
        on_progress,
    };

    // `send` takes a FormData or a string as is; typed web-sys variants would copy a string body
    // (megabytes of Base64) through wasm memory.
    let send = get(&guard.xhr, "send")
        .dyn_into::<Function>()
        .map_err(Failure::Network)?;
    send.call1(&guard.xhr, req.body.as_ref().unwrap_or(&JsValue::NULL))
        .map_err(Failure::Network)?;

    if let Err(event) = JsFuture::from(finished).await {
        let failure = if signal.is_some_and(AbortSignal::aborted) {
            Failure::Aborted
        } else {
            match get(&event, "type").as_string().as_deref() {
                Some("timeout") => Failure::TimedOut,
                Some("abort") => Failure::Aborted,
                _ => Failure::Network(
                    js_sys::Error::new(
                        "XMLHttpRequest failed (connection refused or reset, DNS, CORS, offline)",
                    )
                    .into(),
                ),
            }
        };
        return Err(failure);
    }
    let xhr = &guard.xhr;
    let header = |name: &str| xhr.get_response_header(name).ok().flatten();
    let status = xhr.status().map_err(Failure::Network)?;
    let text = xhr.response_text().ok().flatten().unwrap_or_default();
    let body = js_sys::JSON::parse(&text).unwrap_or_else(|_| JsValue::from_str(&text));
    Ok(Reply {
        status,
        body,
        request_id: header("x-request-id"),
        retry_after: header("retry-after"),
        retry_after_ms: header("retry-after-ms"),
    })
}
