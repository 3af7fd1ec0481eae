//! One HTTP attempt through gloo-net, owned by an `AbortGuard`: however the attempt ends (an
//! answer, its timeout, or its future dropped by the caller), the fetch does not outlive it.

use gloo_net::http::RequestBuilder;
use gloo_timers::callback::Timeout;
use std::cell::Cell;
use std::rc::Rc;
use tunesmith_protocol::endpoints::Method;
use wasm_bindgen::JsValue;
use web_sys::AbortController;

/// What one attempt sends.
pub(super) struct Request<'a> {
    pub method: Method,
    pub url: &'a str,
    pub headers: &'a [(String, String)],
    pub api_key: Option<&'a str>,
    /// A JSON body, or nothing.
    pub json: Option<&'a str>,
}

/// What came back: the status, the parsed JSON body (or its text), and the headers read.
pub(super) struct Reply {
    pub status: u16,
    pub body: JsValue,
    pub request_id: Option<String>,
    pub retry_after: Option<String>,
    pub retry_after_ms: Option<String>,
}

/// Why there is no reply. Cancellation has no variant: a dropped attempt returns nothing.
pub(super) enum Failure {
    TimedOut,
    /// fetch rejected: connection refused, DNS, CORS, offline; with the runtime's message.
    Network(String),
}

/// The attempt's AbortController and timeout timer, tied to one value. Dropping it aborts the
/// fetch (a no-op once the body has been read) and clears the timer, so a future dropped at an
/// `.await` leaves no request in flight. (reqwest's wasm backend does the same.)
struct AbortGuard {
    controller: AbortController,
    timed_out: Rc<Cell<bool>>,
    _timer: Timeout,
}

impl AbortGuard {
    fn new(timeout_ms: u32) -> Result<AbortGuard, Failure> {
        let controller = AbortController::new().map_err(|e| Failure::Network(describe(&e)))?;
        let timed_out = Rc::new(Cell::new(false));
        let timer = {
            let (controller, timed_out) = (controller.clone(), timed_out.clone());
            Timeout::new(timeout_ms, move || {
                timed_out.set(true);
                controller.abort();
            })
        };
        Ok(AbortGuard {
            controller,
            timed_out,
            _timer: timer,
        })
    }

    /// Why the fetch failed: our timer, or the network.
    fn failure(&self, error: gloo_net::Error) -> Failure {
        if self.timed_out.get() {
            Failure::TimedOut
        } else {
            Failure::Network(error.to_string())
        }
    }
}

impl Drop for AbortGuard {
    fn drop(&mut self) {
        self.controller.abort();
    }
}

/// Sends one request and reads the whole answer, within `timeout_ms`.
pub(super) async fn send(req: Request<'_>, timeout_ms: u32) -> Result<Reply, Failure> {
    let guard = AbortGuard::new(timeout_ms)?;
    let method = match req.method {
        Method::Get => gloo_net::http::Method::GET,
        Method::Post => gloo_net::http::Method::POST,
    };
    let mut builder = RequestBuilder::new(req.url).method(method);
    if let Some(key) = req.api_key {
        builder = builder.header("Authorization", &format!("Bearer {key}"));
    }
    for (name, value) in req.headers {
        builder = builder.header(name, value);
    }
    let signal = guard.controller.signal();
    builder = builder.abort_signal(Some(&signal));
    let request = match req.json {
        Some(json) => builder
            .header("Content-Type", "application/json")
            .body(json),
        None => builder.build(),
    }
    .map_err(|e| Failure::Network(e.to_string()))?;
    let response = request.send().await.map_err(|e| guard.failure(e))?;
    let headers = response.headers();
    let status = response.status();
    let request_id = headers.get("x-request-id");
    let retry_after = headers.get("retry-after");
    let retry_after_ms = headers.get("retry-after-ms");
    let text = response.text().await.map_err(|e| guard.failure(e))?;
    drop(guard);
    let body = js_sys::JSON::parse(&text).unwrap_or_else(|_| JsValue::from_str(&text));
    Ok(Reply {
        status,
        body,
        request_id,
        retry_after,
        retry_after_ms,
    })
}

/// Waits `ms`; dropping the future clears the timer.
pub(super) async fn sleep(ms: u64) {
    gloo_timers::future::TimeoutFuture::new(u32::try_from(ms).unwrap_or(u32::MAX)).await;
}

fn describe(e: &JsValue) -> String {
    e.as_string().unwrap_or_else(|| format!("{e:?}"))
}
