//! The retry loop: attempts, backoff and `Retry-After`, as `tunesmith_protocol::retry` decides.

use super::client::Client;
use super::envelope;
use super::error::Error;
use super::transport::{self, Failure, Request};
use tunesmith_protocol::{retry, Op};
use wasm_bindgen::JsValue;

/// How one call may be attempted.
#[derive(Clone, Copy, Debug)]
pub(super) struct Policy {
    pub max_retries: u32,
    /// Per attempt.
    pub timeout_ms: u32,
}

impl Client {
    /// Sends `op` until it succeeds, fails for good, or runs out of retries. A create is repeated
    /// only when the service said that nothing was done (rate limit, maintenance): after a 500, a
    /// timeout or a broken connection a task may exist already, and a second one costs twice.
    pub(super) async fn send_with_retries(
        &self,
        op: Op,
        url: &str,
        json: Option<&str>,
        policy: Policy,
    ) -> Result<JsValue, Error> {
        let endpoint = op.endpoint();
        let mut attempt = 0u32;
        loop {
            attempt += 1;
            let request = Request {
                method: endpoint.method,
                url,
                headers: &self.config.headers,
                api_key: self.config.api_key.as_deref(),
                json,
            };
            let error = match transport::send(request, policy.timeout_ms).await {
                Ok(reply) => match envelope::read(op, reply) {
                    Ok(data) => return Ok(data),
                    Err(e) => e,
                },
                Err(Failure::TimedOut) => Error::Timeout {
                    retryable: false,
                    attempts: 0,
                    message: format!(
                        "{} got no answer within {} ms (per attempt)",
                        endpoint.name, policy.timeout_ms
                    ),
                },
                Err(Failure::Network(detail)) => Error::Network {
                    retryable: false,
                    attempts: 0,
                    message: format!(
                        "{} could not reach the service ({detail}); check the URL, the network, and CORS",
                        endpoint.name
                    ),
                },
            };
            let may_retry = error
                .retry_failure()
                .is_some_and(|f| retry::is_retryable(endpoint.creates_task(), f));
            let error = error.after_attempts(attempt, may_retry);
            let retry_after_ms = error.retry_after_ms();
            if !may_retry
                || attempt > policy.max_retries
                || retry::retry_after_too_long(retry_after_ms)
            {
                return Err(error);
            }
            transport::sleep(retry::backoff_ms(
                attempt,
                retry_after_ms,
                js_sys::Math::random(),
            ))
            .await;
        }
    }
}
