//! Client options (`new Client({...})`) and per-call options (`{ signal, timeoutMs }`), read from JS objects.

use crate::driver::{
    service_url, ApiKey, CallOptions, Config, Error, DEFAULT_BASE_URL, DEFAULT_SEGMENT,
    DEFAULT_TIMEOUT_MS, DEFAULT_UPLOAD_TIMEOUT_MS, DEFAULT_UPLOAD_URL,
};
use crate::js::{get, get_string};
use js_sys::Function;
use tunesmith_protocol::retry::DEFAULT_MAX_RETRIES;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::AbortSignal;

impl Config {
    pub fn from_js(options: &JsValue) -> Result<Config, Error> {
        if !options.is_undefined() && !options.is_null() && !options.is_object() {
            return Err(Error::configuration(
                "Client options must be an object, e.g. new Client({ apiKey })",
            ));
        }
        let api_key = read_api_key(&get(options, "apiKey"))?;
        let base_url = read_url(options, "baseUrl", DEFAULT_BASE_URL)?;
        let upload_url = read_url(options, "uploadUrl", DEFAULT_UPLOAD_URL)?;
        let service_segment =
            get_string(options, "serviceSegment").unwrap_or_else(|| DEFAULT_SEGMENT.to_owned());
        if service_segment.is_empty() || service_segment.contains(['/', '?', '#']) {
            return Err(Error::invalid(
                "serviceSegment",
                "type",
                "`serviceSegment` must be one path segment",
            ));
        }
        let timeout_ms = read_timeout(options, "timeoutMs")?.unwrap_or(DEFAULT_TIMEOUT_MS);
        let upload_timeout_ms =
            read_timeout(options, "uploadTimeoutMs")?.unwrap_or(DEFAULT_UPLOAD_TIMEOUT_MS);
        let max_retries = read_retries(options)?.unwrap_or(DEFAULT_MAX_RETRIES);
        let headers = read_headers(&get(options, "headers"))?;
        let fetch = match get(options, "fetch") {
            v if v.is_undefined() || v.is_null() => None,
            v => Some(v.dyn_into::<Function>().map_err(|_| {
                Error::invalid(
                    "fetch",
                    "type",
                    "`fetch` must be a function with the signature of the global fetch",
                )
            })?),
        };
        let dangerously = get(options, "dangerouslyAllowBrowser")
            .as_bool()
            .unwrap_or(false);
        if matches!(api_key, Some(ApiKey::Literal(_))) && !dangerously && in_browser() {
            return Err(Error::configuration(
                "A literal `apiKey` in browser code can be read by anyone who opens the page, and used to spend \
                 your credits. Use one of the safe ways instead: point `baseUrl` (and `uploadUrl`) at your own \
                 server, which adds the key (then omit `apiKey`), or pass `apiKey` as a function that fetches a \
                 short-lived key from your backend. If you understand the risk (a local emulator, an internal \
                 tool), pass `dangerouslyAllowBrowser: true`.",
            ));
        }
        Ok(Config {
            api_key,
            base_url,
            upload_url,
            service_segment,
            timeout_ms,
            upload_timeout_ms,
            max_retries,
            headers,
            fetch,
        })
    }
}

/// A page with a DOM: code (and a key in it) is visible to its users. Workers and Node are not counted.
fn in_browser() -> bool {
    let global = js_sys::global();
    let window = get(&global, "window");
    !window.is_undefined() && !get(&window, "document").is_undefined()
}

fn read_api_key(v: &JsValue) -> Result<Option<ApiKey>, Error> {
    if v.is_undefined() || v.is_null() {
        return Ok(None);
    }
    if let Some(s) = v.as_string() {
        if s.trim().is_empty() {
            return Err(Error::invalid(
                "apiKey",
                "required",
                "`apiKey` must not be empty",
            ));
        }
        return Ok(Some(ApiKey::Literal(s)));
    }
    match v.clone().dyn_into::<Function>() {
        Ok(f) => Ok(Some(ApiKey::Provider(f))),
        Err(_) => Err(Error::invalid(
            "apiKey",
            "type",
            "`apiKey` must be a string or a function returning a string or a Promise of one",
        )),
    }
}

fn read_url(options: &JsValue, field: &'static str, default: &str) -> Result<String, Error> {
    let Some(url) = get_string(options, field) else {
        if get(options, field).is_undefined() {
            return Ok(default.to_owned());
        }
        return Err(Error::invalid(
            field,
            "type",
            format!("`{field}` must be a string URL"),
        ));
    };
    service_url(field, &url)
}

/// A positive number of milliseconds, or `None` when absent.
pub fn read_timeout(options: &JsValue, field: &'static str) -> Result<Option<f64>, Error> {
    let v = get(options, field);
    if v.is_undefined() || v.is_null() {
        return Ok(None);
    }
    match v.as_f64() {
        Some(ms) if ms.is_finite() && ms > 0.0 => Ok(Some(ms)),
        _ => Err(Error::invalid(
            field,
            "range",
            format!("`{field}` must be a positive number of milliseconds"),
        )),
    }
}

fn read_retries(options: &JsValue) -> Result<Option<u32>, Error> {
    let v = get(options, "maxRetries");
    if v.is_undefined() || v.is_null() {
        return Ok(None);
    }
    match v.as_f64() {
        Some(n) if n.fract() == 0.0 && (0.0..=10.0).contains(&n) => Ok(Some(n as u32)),
        _ => Err(Error::invalid(
            "maxRetries",
            "range",
            "`maxRetries` must be a whole number from 0 to 10",
        )),
    }
}

fn read_headers(v: &JsValue) -> Result<Vec<(String, String)>, Error> {
    if v.is_undefined() || v.is_null() {
        return Ok(Vec::new());
    }
    if !v.is_object() {
        return Err(Error::invalid(
            "headers",
            "type",
            "`headers` must be an object of header names to strings",
        ));
    }
    let mut out = Vec::new();
    let pairs = crate::js::entries(v).map_err(|e| {
        Error::invalid(
            "headers",
            "type",
            format!(
                "`headers` could not be read: {}",
                crate::js::thrown_message(&e)
            ),
        )
    })?;
    for (name, value) in pairs {
        match value.as_string() {
            Some(value) => out.push((name, value)),
            None if value.is_undefined() => {}
            None => {
                return Err(Error::invalid(
                    "headers",
                    "type",
                    format!("header `{name}` must have a string value"),
                ));
            }
        }
    }
    Ok(out)
}

impl CallOptions {
    pub fn from_js(v: &JsValue) -> Result<CallOptions, Error> {
        if v.is_undefined() || v.is_null() {
            return Ok(CallOptions::default());
        }
        if !v.is_object() {
            return Err(Error::invalid(
                "options",
                "type",
                "call options must be an object like { signal, timeoutMs }",
            ));
        }
        let signal = match get(v, "signal") {
            s if s.is_undefined() || s.is_null() => None,
            s if get(&s, "aborted").as_bool().is_some() => Some(s.unchecked_into::<AbortSignal>()),
            _ => {
                return Err(Error::invalid(
                    "signal",
                    "type",
                    "`signal` must be an AbortSignal",
                ))
            }
        };
        let extra_fields = match get(v, "extraFields") {
            e if e.is_undefined() || e.is_null() => None,
            e if crate::js::is_plain_object(&e) => Some(e),
            _ => {
                return Err(Error::invalid(
                    "extraFields",
                    "type",
                    "`extraFields` must be a plain object of fields to send as they are",
                ))
            }
        };
        Ok(CallOptions {
            signal,
            timeout_ms: read_timeout(v, "timeoutMs")?,
            max_retries: read_retries(v)?,
            headers: read_headers(&get(v, "headers"))?,
            extra_fields,
        })
    }
}
