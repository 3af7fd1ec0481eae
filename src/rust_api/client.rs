//! The Rust client: its settings, and the path every operation takes (serialize, validate with
//! the protocol's rules, send with retries, decode the record).

use super::envelope;
use super::error::Error;
use super::retries::Policy;
use crate::options::{
    DEFAULT_BASE_URL, DEFAULT_SEGMENT, DEFAULT_TIMEOUT_MS, DEFAULT_UPLOAD_TIMEOUT_MS,
    DEFAULT_UPLOAD_URL,
};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::fmt;
use std::rc::Rc;
use tunesmith_protocol::endpoints::{Host, Method};
use tunesmith_protocol::retry::DEFAULT_MAX_RETRIES;
use tunesmith_protocol::rules::check_url;
use tunesmith_protocol::Op;
use wasm_bindgen::JsValue;

/// Settings of a [`Client`]; start from `ClientConfig::default()` and set what differs.
#[derive(Clone, PartialEq)]
pub struct ClientConfig {
    /// Sent as `Authorization: Bearer …`. In a web page, leave it `None` and point `base_url` at
    /// your own backend, which adds the key: a key shipped to browsers is a key given away.
    pub api_key: Option<String>,
    /// The music host, e.g. `https://api.sunoapi.org`.
    pub base_url: String,
    /// The upload host.
    pub upload_url: String,
    /// The path segment of the cover endpoints (`/api/v1/{segment}/cover/...`).
    pub service_segment: String,
    /// Per attempt, on the music host.
    pub timeout_ms: u32,
    /// Per attempt, on the upload host.
    pub upload_timeout_ms: u32,
    /// Retries after a failure that is safe to repeat (see [`Error::retryable`]).
    pub max_retries: u32,
    /// Extra headers on every request.
    pub headers: Vec<(String, String)>,
}

impl Default for ClientConfig {
    fn default() -> Self {
        ClientConfig {
            api_key: None,
            base_url: DEFAULT_BASE_URL.to_owned(),
            upload_url: DEFAULT_UPLOAD_URL.to_owned(),
            service_segment: DEFAULT_SEGMENT.to_owned(),
            timeout_ms: DEFAULT_TIMEOUT_MS as u32,
            upload_timeout_ms: DEFAULT_UPLOAD_TIMEOUT_MS as u32,
            max_retries: DEFAULT_MAX_RETRIES,
            headers: Vec::new(),
        }
    }
}

/// Everything but the key, which never appears in logs.
impl fmt::Debug for ClientConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClientConfig")
            .field("api_key", &self.api_key.as_ref().map(|_| "<redacted>"))
            .field("base_url", &self.base_url)
            .field("upload_url", &self.upload_url)
            .field("service_segment", &self.service_segment)
            .field("timeout_ms", &self.timeout_ms)
            .field("upload_timeout_ms", &self.upload_timeout_ms)
            .field("max_retries", &self.max_retries)
            .field("headers", &self.headers)
            .finish()
    }
}

/// A client of the music-generation service for Rust code compiled to wasm. Cheap to clone.
///
/// Every method validates its request before anything is sent, retries only what is safe to
/// repeat (a create only when the service said it did nothing), and aborts its request when its
/// future is dropped.
#[derive(Clone, Debug)]
pub struct Client {
    pub(super) config: Rc<ClientConfig>,
}

impl Client {
    /// Checks the settings; fails with [`Error::Configuration`] for a bad URL or an empty key.
    pub fn new(mut config: ClientConfig) -> Result<Client, Error> {
        for (name, url) in [
            ("base_url", &mut config.base_url),
            ("upload_url", &mut config.upload_url),
        ] {
            check_url(name, url).map_err(|e| Error::Configuration { message: e.message })?;
            *url = url.trim().trim_end_matches('/').to_owned();
        }
        if config
            .api_key
            .as_deref()
            .is_some_and(|k| k.trim().is_empty())
        {
            return Err(Error::Configuration {
                message: "`api_key` is empty: give the key, or None to send none".to_owned(),
            });
        }
        if config.timeout_ms == 0 || config.upload_timeout_ms == 0 {
            return Err(Error::Configuration {
                message: "timeouts must be above 0 ms".to_owned(),
            });
        }
        Ok(Client {
            config: Rc::new(config),
        })
    }

    pub fn config(&self) -> &ClientConfig {
        &self.config
    }

    /// One operation: validated, sent with the configured retries, its `data` decoded.
    pub(super) async fn call<Req, Out>(&self, op: Op, request: &Req) -> Result<Out, Error>
    where
        Req: Serialize + ?Sized,
        Out: DeserializeOwned,
    {
        let timeout_ms = match op.endpoint().host {
            Host::Music => self.config.timeout_ms,
            Host::Upload => self.config.upload_timeout_ms,
        };
        let policy = Policy {
            max_retries: self.config.max_retries,
            timeout_ms,
        };
        let data = self.execute(op, request, policy).await?;
        envelope::decode(op, data)
    }

    /// Validates `request` with the same rules (and the same `Fields` reader over JSON) as the
    /// emulator, then sends it; resolves with the envelope's `data`.
    pub(super) async fn execute<Req>(
        &self,
        op: Op,
        request: &Req,
        policy: Policy,
    ) -> Result<JsValue, Error>
    where
        Req: Serialize + ?Sized,
    {
        let endpoint = op.endpoint();
        let fields = match serde_json::to_value(request) {
            Ok(serde_json::Value::Object(map)) => map,
            Ok(serde_json::Value::Null) => serde_json::Map::new(),
            Ok(_) => {
                return Err(Error::Configuration {
                    message: format!("{} takes a request struct", endpoint.name),
                })
            }
            Err(e) => {
                return Err(Error::Configuration {
                    message: format!("{}: the request could not be encoded ({e})", endpoint.name),
                })
            }
        };
        op.validate(&fields)?;
        let mut url = format!(
            "{}{}",
            match endpoint.host {
                Host::Music => &self.config.base_url,
                Host::Upload => &self.config.upload_url,
            },
            op.path(&self.config.service_segment)
        );
        let body = match endpoint.method {
            Method::Get => {
                let query = fields
                    .iter()
                    .filter_map(|(k, v)| v.as_str().map(|v| (k, v)));
                for (i, (k, v)) in query.enumerate() {
                    url.push(if i == 0 { '?' } else { '&' });
                    url.push_str(k);
                    url.push('=');
                    url.push_str(&String::from(js_sys::encode_uri_component(v)));
                }
                None
            }
            Method::Post => Some(serde_json::Value::Object(fields).to_string()),
        };
        self.send_with_retries(op, &url, body.as_deref(), policy)
            .await
    }
}
