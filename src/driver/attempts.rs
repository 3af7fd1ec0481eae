//! One operation sent: the URL, the key, the attempts with their backoff, each answer read by the
//! envelope reader. Whether to try again, and after how long, is `tunesmith_protocol::retry`'s call.

use super::config::{ApiKey, CallOptions, Config};
use super::envelope;
use super::transport::{Failure, Js, Request, Transport};
use crate::errors::Error;
use crate::js::{get, get_string};
use js_sys::Promise;
use tunesmith_protocol::endpoints::{Host, Method};
use tunesmith_protocol::{retry, ClientErrorKind, Op};
use wasm_bindgen::prelude::*;
use wasm_bindgen::{JsCast, JsValue};

#[wasm_bindgen(module = "/src/js/imports.js")]
extern "C" {
    /// `text` without the key, in any spelling an echo of the `Authorization` header may take.
    fn scrub(text: &str, key: &JsValue) -> String;
}

/// The driver of one client, whichever face made it, over that face's transport (the JavaScript
/// face's [`Js`] unless named); each call borrows it through an `Rc`.
#[derive(Debug)]
pub struct Driver<T: Transport = Js> {
    pub config: Config,
    transport: T,
    /// A literal key as the JavaScript string every attempt sends, made once; else `undefined`.
    key: KeyText,
}

/// A key as a JavaScript string. Its Debug output never shows it.
struct KeyText(JsValue);

impl std::fmt::Debug for KeyText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("[redacted]")
    }
}

/// What goes over the wire for one operation.
pub enum Body {
    None,
    /// JSON text, as a JavaScript string: a request's text stays where `JSON.stringify` made it,
    /// without a copy through wasm memory and back.
    Json(js_sys::JsString),
    /// FormData or any other body fetch takes as is; no Content-Type is set (the runtime adds the boundary).
    Raw(JsValue),
}

impl<T: Transport> Driver<T> {
    pub fn new(config: Config) -> Result<Driver<T>, Error> {
        let transport = T::new(&config)?;
        let key = KeyText(match &config.api_key {
            Some(ApiKey::Literal(k)) => JsValue::from_str(k),
            _ => JsValue::UNDEFINED,
        });
        Ok(Driver {
            config,
            transport,
            key,
        })
    }

    /// Sends `op` with its body and query, retrying as the protocol allows; resolves with the
    /// envelope's `data`. Uploads with progress set `opts.report`: their attempts go through
    /// XMLHttpRequest, while keys, retries, timeouts and the envelope stay the same.
    pub async fn execute(
        &self,
        op: Op,
        body: Body,
        query: &[(&str, String)],
        opts: &CallOptions,
    ) -> Result<JsValue, Error> {
        let endpoint = op.endpoint();
        let max_retries = opts.max_retries.unwrap_or(self.config.max_retries);
        let timeout_ms = opts.timeout_ms.unwrap_or(match endpoint.host {
            Host::Music => self.config.timeout_ms,
            Host::Upload => self.config.upload_timeout_ms,
        });
        let url = self.url(op, query);
        let (body, json) = match body {
            Body::None => (None, false),
            Body::Json(s) => (Some(s.into()), true),
            Body::Raw(v) => (Some(v), false),
        };
        let extra = T::headers(&opts.headers);
        let mut attempt = 0u32;
        loop {
            attempt += 1;
            let provided = self.provided_key().await?;
            let key = provided.as_ref().unwrap_or(&self.key.0);
            let request = Request {
                post: matches!(endpoint.method, Method::Post),
                url: &url,
                key,
                json,
                extra: &extra,
                body: body.as_ref(),
            };
            let outcome = self
                .transport
                .send(
                    request,
                    timeout_ms,
                    opts.signal.as_ref(),
                    opts.report.as_ref(),
                )
                .await;
            let mut error = match outcome {
                Ok(reply) => match envelope::read(op, reply) {
                    Ok(data) => return Ok(data),
                    Err(e) => e,
                },
                Err(failure) => attempt_error(endpoint.name, failure, timeout_ms),
            };
            // A service or a proxy may echo the Authorization header into what the message quotes.
            if !key.is_undefined() {
                error.message = scrub(&error.message, key);
            }
            error.attempts = attempt;
            if matches!(error.kind, ClientErrorKind::Aborted) {
                return Err(error);
            }
            error.retryable = error
                .retry_failure()
                .is_some_and(|f| retry::is_retryable(endpoint.creates_task(), f));
            if !error.retryable
                || attempt > max_retries
                || retry::retry_after_too_long(error.retry_after_ms)
            {
                return Err(error);
            }
            let delay = retry::backoff_ms(attempt, error.retry_after_ms, js_sys::Math::random());
            if T::sleep(delay as f64, opts.signal.as_ref()).await.is_err() {
                let mut aborted = Error::aborted(endpoint.name);
                aborted.attempts = attempt;
                return Err(aborted.after(error));
            }
        }
    }

    /// The operation's URL on its host, with the query (a GET's fields) encoded.
    fn url(&self, op: Op, query: &[(&str, String)]) -> String {
        let endpoint = op.endpoint();
        let base = match endpoint.host {
            Host::Music => &self.config.base_url,
            Host::Upload => &self.config.upload_url,
        };
        let mut url = tunesmith_protocol::text!(base, op.path(&self.config.service_segment));
        for (i, (k, v)) in query.iter().enumerate() {
            url.push(if i == 0 { '?' } else { '&' });
            url.push_str(k);
            url.push('=');
            url.push_str(&String::from(js_sys::encode_uri_component(v)));
        }
        url
    }

    /// A fresh key from the provider function for this attempt; `None` for a literal key or none.
    async fn provided_key(&self) -> Result<Option<JsValue>, Error> {
        let Some(ApiKey::Provider(provider)) = &self.config.api_key else {
            return Ok(None);
        };
        let failed = |cause: JsValue| {
            Error::configuration("The `apiKey` function threw or rejected; see `cause`")
                .with_cause(cause)
        };
        let value = provider.call0(&JsValue::UNDEFINED).map_err(failed)?;
        let key = if value.is_instance_of::<Promise>() || get(&value, "then").is_function() {
            T::settled(value).await.map_err(failed)?
        } else {
            value
        };
        match key.as_string() {
            Some(k) if !k.trim().is_empty() => Ok(Some(key)),
            _ => Err(Error::configuration(
                "The `apiKey` function must return a non-empty string (or a Promise of one)",
            )),
        }
    }
}

fn attempt_error(operation: &str, failure: Failure, timeout_ms: f64) -> Error {
    match failure {
        Failure::Aborted => Error::aborted(operation),
        Failure::TimedOut => Error::no_answer(operation, timeout_ms),
        Failure::Network(cause) => {
            let detail = get_string(&cause, "message").unwrap_or_default();
            Error::unreachable(operation, &detail).with_cause(cause)
        }
    }
}
