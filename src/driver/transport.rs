//! How an attempt goes over the wire: the driver's one [`Transport`] trait (one HTTP attempt, a
//! backoff sleep, a JavaScript Promise awaited), as quinn's `Runtime` is to its endpoint: one
//! driver, one trait, one implementation per host. [`Js`] here is the npm package's; the Rust face's
//! is gloo-net's (`gloo.rs`, feature `rust-api`), its futures plain ones for wasm-bindgen-futures.
//! Each face names its own: the driver is generic over it, so the npm build has only [`Js`] (its
//! code is the same as before the trait), and a Rust app links no executor but the one it runs.
//!
//! [`Js`]: one HTTP attempt and one backoff sleep, each a single call into `js/imports.js`
//! (`attempt`, `sleep`) returning `[promise, cancel]`. The JavaScript face sends through it, and so
//! do uploads (through XMLHttpRequest when they report progress: the same `attempt`).
//!
//! Why the npm build's attempt is JavaScript: done from Rust through web-sys, one `getCredits` crossed the
//! boundary some thirty times (the AbortController, its listener and timer, the init object, the
//! response's status, headers and text) and built a Rust closure per await; that was most of the
//! wrappers' time in the per-call profile, and the web-sys bindings and the guard weighed on the
//! module. The wasm side keeps what the attempt means: the URL, headers and body it is given, the
//! envelope, retries and errors (`attempts.rs`, `envelope.rs`).
//!
//! Why not gloo-net there: about 8 KB gzipped for one call on this project's machine kind (its
//! Request/Response builders, header iteration and error types), and it cannot take the custom
//! `fetch` option. A Rust web app has gloo-net already (it is what Leptos, Yew and Dioxus apps
//! fetch with), and no `fetch` option: the Rust face sends with it.
//!
//! Cancellation: the returned `cancel` is called when the Rust future ends or is dropped, so a
//! future dropped mid-request (an abandoned waiter, a closed `watchTask`, a Rust caller's
//! `select!`) aborts the request, clears the timer and removes the listener on the caller's signal,
//! as reqwest's wasm backend does. A finished attempt is not aborted (that built a `DOMException`
//! and ran fetch's listeners for nothing).

use super::config::Config;
use crate::errors::Error;
use js_sys::{Array, Function};
use std::future::Future;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::AbortSignal;

#[wasm_bindgen(module = "/src/js/imports.js")]
extern "C" {
    /// The `fetch` of a client given none: the Node entry's, else the runtime's (`imports.js`).
    #[wasm_bindgen(js_name = defaultFetch)]
    fn default_fetch() -> JsValue;
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

/// How the driver's attempts, sleeps and awaited Promises run on one host: one implementation
/// per host ([`Js`] for the npm package, `Gloo` for the Rust face), chosen by the face.
// Not `Send`: everything here lives on one JavaScript thread.
#[allow(async_fn_in_trait)]
pub trait Transport: Sized {
    /// A call's own headers (`CallOptions::headers`) as this transport sends them, made once per call.
    type Headers;
    /// A JavaScript Promise awaited ([`Transport::settled`]).
    type Settled: Future<Output = Result<JsValue, JsValue>>;

    /// What this transport keeps of the client's settings, made once per client.
    fn new(config: &Config) -> Result<Self, Error>;

    /// A call's own headers, for [`Request::extra`].
    fn headers(headers: &[(String, String)]) -> Self::Headers;

    /// Sends one request and reads the whole answer, within `timeout_ms` and until `signal`
    /// fires; with `report`, reporting the body's bytes as they go out where the host can.
    /// Dropping the future aborts the request in flight.
    async fn send(
        &self,
        req: Request<'_, Self::Headers>,
        timeout_ms: f64,
        signal: Option<&AbortSignal>,
        report: Option<&Function>,
    ) -> Result<Reply, Failure>;

    /// The outcome of a JavaScript Promise (or thenable, or value), as this host's futures await it.
    fn settled(value: JsValue) -> Self::Settled;

    /// Waits `ms`, or fails at once when the signal fires (or has fired). Dropping the future
    /// clears the timer. Every host sleeps with `imports.js`'s `sleep` (one timer shared with the
    /// attempts' deadlines), its Promise awaited the host's way ([`Transport::settled`]).
    async fn sleep(ms: f64, signal: Option<&AbortSignal>) -> Result<(), Failure> {
        if await_pair::<Self>(sleep_js(ms, signal.cloned()))
            .await
            .as_bool()
            == Some(true)
        {
            Ok(())
        } else {
            Err(Failure::Aborted)
        }
    }
}

/// One attempt's request. Its headers are, in this order, a later one replacing an earlier one of
/// the same name: `Authorization: Bearer {key}`, `Content-Type: application/json` for a JSON body,
/// the client's headers (the transport's, made once), the call's `extra`.
pub struct Request<'a, H> {
    /// POST, else GET.
    pub post: bool,
    pub url: &'a str,
    /// The key as a JavaScript string (made once for a literal key: no copy out of wasm memory
    /// per attempt), or `undefined` for none.
    pub key: &'a JsValue,
    pub json: bool,
    /// The call's headers ([`Transport::headers`]).
    pub extra: &'a H,
    /// A JSON string, a FormData, or nothing.
    pub body: Option<&'a JsValue>,
}

/// What came back: the status, the parsed JSON body (or its text), and its headers, read only when
/// the answer is an error (a success needs none: three reads across the boundary saved per call).
pub struct Reply {
    pub status: u16,
    pub body: JsValue,
    /// A function of JavaScript, `header(name)`: the response header `name`, or `undefined` or
    /// `null` when it was not sent. One type of answer for every transport, read by one envelope
    /// reader (`envelope.rs`).
    pub(super) header: JsValue,
}

impl Reply {
    /// The response header `name` (lower case), if it was sent.
    pub fn header(&self, name: &str) -> Option<String> {
        read_header(&self.header, name)
    }
}

#[derive(Debug)]
pub enum Failure {
    Aborted,
    TimedOut,
    /// fetch rejected: connection refused, DNS, CORS, offline. Carries the runtime's error.
    Network(JsValue),
}

/// The npm package's transport: each attempt one call of `imports.js`'s `attempt`, with the
/// client's `fetch` (a custom one, the Node entry's, or the runtime's), each Promise awaited
/// through the crate's own `tasks.rs`.
#[derive(Debug)]
pub struct Js {
    fetch: Function,
    /// The client's headers as the JavaScript object every attempt sends.
    headers: JsValue,
}

impl Transport for Js {
    type Headers = JsValue;
    type Settled = crate::tasks::Settled;

    // Inlined into `Driver::new`, where it was written before the trait: called apart, it cost the
    // page's module 101 B (wasm, before wasm-opt).
    #[inline(always)]
    fn new(config: &Config) -> Result<Js, Error> {
        let fetch = match &config.fetch {
            Some(f) => f.clone(),
            None => default_fetch().dyn_into::<Function>().map_err(|_| {
                Error::configuration(
                    "No global `fetch` in this runtime: pass `fetch` in the Client options",
                )
            })?,
        };
        Ok(Js {
            fetch,
            headers: headers_object(&config.headers),
        })
    }

    fn headers(headers: &[(String, String)]) -> JsValue {
        headers_object(headers)
    }

    async fn send(
        &self,
        req: Request<'_, JsValue>,
        timeout_ms: f64,
        signal: Option<&AbortSignal>,
        report: Option<&Function>,
    ) -> Result<Reply, Failure> {
        let outcome: Array = await_pair::<Js>(attempt(
            &self.fetch,
            req.post,
            req.url,
            req.key,
            req.json,
            &self.headers,
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

    fn settled(value: JsValue) -> crate::tasks::Settled {
        crate::tasks::settled(value)
    }
}

/// `headers` as a JavaScript object for [`Js`], `undefined` when there are none. It has no
/// prototype, so that a header named `__proto__` is a header like any other, not a prototype.
fn headers_object(headers: &[(String, String)]) -> JsValue {
    if headers.is_empty() {
        return JsValue::UNDEFINED;
    }
    let object: js_sys::Object = js_sys::Object::create(JsValue::NULL.unchecked_ref());
    for (name, value) in headers {
        crate::js::set(&object, name, &JsValue::from_str(value));
    }
    object.into()
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

/// Awaits the first item of `[promise, cancel]` as `T` awaits a Promise, cancelling when done or
/// dropped.
async fn await_pair<T: Transport>(pair: Array) -> JsValue {
    let _cancel = Cancel(pair.get(1));
    T::settled(pair.get(0)).await.unwrap_or(JsValue::UNDEFINED)
}
