//! The Rust face's transport (feature `rust-api`): each attempt a gloo-net request on the global
//! `fetch` (the same code in windows, workers and Node), each Promise awaited with
//! wasm-bindgen-futures' `JsFuture`. Its futures are plain ones: a Rust web app runs them on
//! wasm-bindgen-futures (`spawn_local`, `future_to_promise`), as the rest of its futures, and none
//! of them goes through the crate's own executor (`tasks.rs`, the npm package's).
//!
//! The same attempt as the npm package's (`transport::Js`): its headers in the same order, its
//! body parsed as JSON where it is JSON, its deadline, and a dropped future aborts its request in
//! flight (the attempt's own `AbortController`). The deadline is `AbortSignal.timeout`, joined to
//! that controller by `AbortSignal.any`, so the request and the reading of its body end together.

use super::config::Config;
use super::transport::{Failure, Reply, Request, Transport};
use crate::errors::Error;
use gloo_net::http::Request as GlooRequest;
use js_sys::{Array, Function};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{AbortController, AbortSignal};

/// Timers take at most 2^31 - 1 ms: a longer deadline must not fire at once (and `AbortSignal.timeout`
/// throws on a value that is not finite).
const MAX_TIMER_MS: f64 = 2_147_483_647.0;

/// gloo-net's transport: the client's headers, copied once.
#[derive(Debug)]
pub struct Gloo {
    headers: Vec<(String, String)>,
}

/// Aborts an attempt's controller when dropped before the attempt ended: a dropped future leaves
/// no request running. A finished attempt is not aborted.
struct AbortOnDrop {
    controller: AbortController,
    done: bool,
}

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        if !self.done {
            self.controller.abort();
        }
    }
}

impl Transport for Gloo {
    type Headers = Vec<(String, String)>;
    type Settled = JsFuture;

    /// The Rust face has no `fetch` option: gloo-net sends with the global one.
    fn new(config: &Config) -> Result<Gloo, Error> {
        Ok(Gloo {
            headers: config.headers.clone(),
        })
    }

    fn headers(headers: &[(String, String)]) -> Vec<(String, String)> {
        headers.to_vec()
    }

    /// The Rust face cancels by dropping its futures, and takes no signal: one given here (the
    /// driver gives none) is looked at once, before the request is sent. Nor does it report an
    /// upload's progress (its uploads are from a URL or Base64 text).
    async fn send(
        &self,
        req: Request<'_, Vec<(String, String)>>,
        timeout_ms: f64,
        signal: Option<&AbortSignal>,
        _report: Option<&Function>,
    ) -> Result<Reply, Failure> {
        if signal.is_some_and(AbortSignal::aborted) {
            return Err(Failure::Aborted);
        }
        let controller = AbortController::new().map_err(Failure::Network)?;
        let mut guard = AbortOnDrop {
            controller,
            done: false,
        };
        let ms = if timeout_ms.is_nan() {
            0.0
        } else {
            timeout_ms.clamp(0.0, MAX_TIMER_MS)
        };
        let deadline = AbortSignal::timeout_with_f64(ms);
        let either = AbortSignal::any(&Array::of2(&guard.controller.signal(), &deadline));
        let failed = |e: gloo_net::Error| {
            if deadline.aborted() {
                Failure::TimedOut
            } else {
                Failure::Network(js_error(e))
            }
        };

        let mut builder = if req.post {
            GlooRequest::post(req.url)
        } else {
            GlooRequest::get(req.url)
        };
        if let Some(key) = req.key.as_string() {
            builder = builder.header("Authorization", &tunesmith_protocol::text!("Bearer ", key));
        }
        if req.json {
            builder = builder.header("Content-Type", "application/json");
        }
        for (name, value) in self.headers.iter().chain(req.extra) {
            builder = builder.header(name, value);
        }
        builder = builder.abort_signal(Some(&either));
        let request = match req.body {
            Some(body) => builder.body(body),
            None => builder.build(),
        }
        .map_err(failed)?;
        let response = request.send().await.map_err(failed)?;
        let text = response.text().await.map_err(failed)?;
        guard.done = true;
        let headers = response.headers().into_raw();
        // The reply's `header(name)`: the response's `Headers.get`, bound to them.
        let header = match js_sys::Reflect::get(&headers, &JsValue::from_str("get")) {
            Ok(get) => get.unchecked_into::<Function>().bind0(&headers).into(),
            Err(_) => JsValue::UNDEFINED,
        };
        Ok(Reply {
            status: response.status(),
            // Parsed where it is JSON, as the npm package's attempt does; its text otherwise.
            body: js_sys::JSON::parse(&text).unwrap_or_else(|_| JsValue::from_str(&text)),
            header,
        })
    }

    fn settled(value: JsValue) -> JsFuture {
        JsFuture::from(js_sys::Promise::resolve(&value))
    }
}

/// gloo-net's error as a JavaScript `Error`, whose `message` the driver quotes.
fn js_error(e: gloo_net::Error) -> JsValue {
    let error = match e {
        gloo_net::Error::JsError(js) => {
            let error = js_sys::Error::new(&js.message);
            error.set_name(&js.name);
            error
        }
        other => js_sys::Error::new(&other.to_string()),
    };
    error.into()
}
