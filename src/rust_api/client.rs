//! The Rust face's client: its settings, converted into the driver's, and the way in and out of
//! every operation (a request struct serialized and validated with the protocol's rules, the
//! driver's answer decoded into the operation's record).

use crate::driver::{
    service_url, ApiKey, Body, CallOptions, Config, Driver, Gloo, DEFAULT_BASE_URL,
    DEFAULT_SEGMENT, DEFAULT_TIMEOUT_MS, DEFAULT_UPLOAD_TIMEOUT_MS, DEFAULT_UPLOAD_URL,
};
use crate::errors::Error;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::fmt;
use std::rc::Rc;
use tunesmith_protocol::endpoints::Method;
use tunesmith_protocol::retry::DEFAULT_MAX_RETRIES;
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
    config: Rc<ClientConfig>,
    /// The driver over gloo-net (`driver::Gloo`): plain futures, for wasm-bindgen-futures.
    pub(super) driver: Rc<Driver<Gloo>>,
}

impl Client {
    /// Checks the settings: a bad URL is a validation error naming the field, an empty key or a
    /// zero timeout a configuration error.
    pub fn new(mut config: ClientConfig) -> Result<Client, Error> {
        config.base_url = service_url("base_url", &config.base_url)?;
        config.upload_url = service_url("upload_url", &config.upload_url)?;
        if config
            .api_key
            .as_deref()
            .is_some_and(|k| k.trim().is_empty())
        {
            return Err(Error::configuration(
                "`api_key` is empty: give the key, or None to send none",
            ));
        }
        if config.timeout_ms == 0 || config.upload_timeout_ms == 0 {
            return Err(Error::configuration("timeouts must be above 0 ms"));
        }
        let driver = Driver::new(Config {
            api_key: config.api_key.clone().map(ApiKey::Literal),
            base_url: config.base_url.clone(),
            upload_url: config.upload_url.clone(),
            service_segment: config.service_segment.clone(),
            timeout_ms: f64::from(config.timeout_ms),
            upload_timeout_ms: f64::from(config.upload_timeout_ms),
            max_retries: config.max_retries,
            headers: config.headers.clone(),
            fetch: None,
        })?;
        Ok(Client {
            config: Rc::new(config),
            driver: Rc::new(driver),
        })
    }

    pub fn config(&self) -> &ClientConfig {
        &self.config
    }

    /// One operation: the request validated with the same rules (and the same JSON reader) as
    /// the emulator's, sent by the driver, its answer decoded into `Out`.
    pub(super) async fn call<Req, Out>(&self, op: Op, request: &Req) -> Result<Out, Error>
    where
        Req: Serialize + ?Sized,
        Out: DeserializeOwned,
    {
        let endpoint = op.endpoint();
        let fields = match serde_json::to_value(request) {
            Ok(serde_json::Value::Object(map)) => map,
            Ok(serde_json::Value::Null) => serde_json::Map::new(),
            Ok(_) => {
                return Err(Error::configuration(format!(
                    "{} takes a request struct",
                    endpoint.name
                )))
            }
            Err(e) => {
                return Err(Error::configuration(format!(
                    "{}: the request could not be encoded ({e})",
                    endpoint.name
                )))
            }
        };
        op.validate(&fields)?;
        let (body, query) = match endpoint.method {
            Method::Get => {
                let query = fields
                    .iter()
                    .filter_map(|(k, v)| Some((k.as_str(), v.as_str()?.to_owned())))
                    .collect::<Vec<_>>();
                (Body::None, query)
            }
            Method::Post => (
                Body::Json(
                    serde_json::Value::Object(fields.clone())
                        .to_string()
                        .as_str()
                        .into(),
                ),
                Vec::new(),
            ),
        };
        let data = self
            .driver
            .execute(op, body, &query, &CallOptions::default())
            .await?;
        decode(op, data)
    }
}

/// The Rust face's method of each operation, from one line: its request struct in, its record
/// out, its operation (`generated.rs` holds the lines, from the endpoint table).
macro_rules! operations {
    ($($(#[$doc:meta])* $name:ident($($request:ty)?) -> $out:ty = $op:ident;)*) => {
        impl $crate::rust_api::Client {
            $($crate::rust_api::client::operations!(@method $(#[$doc])* $name($($request)?) -> $out = $op);)*
        }
    };
    (@method $(#[$doc:meta])* $name:ident($request:ty) -> $out:ty = $op:ident) => {
        $(#[$doc])*
        pub async fn $name(&self, request: &$request) -> Result<$out, $crate::errors::Error> {
            self.call(tunesmith_protocol::Op::$op, request).await
        }
    };
    (@method $(#[$doc:meta])* $name:ident() -> $out:ty = $op:ident) => {
        $(#[$doc])*
        pub async fn $name(&self) -> Result<$out, $crate::errors::Error> {
            self.call(tunesmith_protocol::Op::$op, &()).await
        }
    };
}
pub(super) use operations;

/// `data` as the operation's record type: a success of another shape is an unexpected answer.
pub(super) fn decode<T: DeserializeOwned>(op: Op, data: JsValue) -> Result<T, Error> {
    serde_wasm_bindgen::from_value(data).map_err(|e| {
        Error::unexpected(
            op.endpoint().name,
            &format!("a record of the declared shape ({e})"),
            None,
        )
    })
}
