//! Client options (`new Client({...})`) and per-call options (`{ signal, timeoutMs }`), read from JS objects.

use crate::driver::{
    service_url, ApiKey, CallOptions, Config, DEFAULT_BASE_URL, DEFAULT_SEGMENT,
    DEFAULT_TIMEOUT_MS, DEFAULT_UPLOAD_TIMEOUT_MS, DEFAULT_UPLOAD_URL,
};
use crate::errors::Error;
use crate::js::{self, get, Arg};
use tunesmith_protocol::retry::DEFAULT_MAX_RETRIES;
use wasm_bindgen::JsCast;
use web_sys::AbortSignal;

impl Config {
    pub fn from_js(options: &Arg) -> Result<Config, Error> {
        if !options.is_absent() && !options.is_object() {
            return Err(Error::configuration(
                "Client options must be an object, e.g. new Client({ apiKey })",
            ));
        }
        if !options.is_absent() {
            refuse_unknown(options)?;
        }
        let api_key = read_api_key(&options.field("apiKey")?)?;
        let base_url = read_url(&options.field("baseUrl")?, DEFAULT_BASE_URL)?;
        let upload_url = read_url(&options.field("uploadUrl")?, DEFAULT_UPLOAD_URL)?;
        let segment = options.field("serviceSegment")?;
        let service_segment = segment
            .text()?
            .unwrap_or_else(|| DEFAULT_SEGMENT.to_owned());
        if service_segment.is_empty() || tunesmith_protocol::text::has_any(&service_segment, b"/?#")
        {
            return Err(segment.invalid("type", "`serviceSegment` must be one path segment"));
        }
        let timeout_ms = read_timeout(&options.field("timeoutMs")?)?.unwrap_or(DEFAULT_TIMEOUT_MS);
        let upload_timeout_ms =
            read_timeout(&options.field("uploadTimeoutMs")?)?.unwrap_or(DEFAULT_UPLOAD_TIMEOUT_MS);
        let max_retries =
            read_retries(&options.field("maxRetries")?)?.unwrap_or(DEFAULT_MAX_RETRIES);
        let headers = read_headers(&options.field("headers")?)?;
        let fetch = options.field("fetch")?;
        let fetch = match fetch.function() {
            _ if fetch.is_absent() => None,
            Some(f) => Some(f),
            None => {
                return Err(fetch.invalid(
                    "type",
                    "`fetch` must be a function with the signature of the global fetch",
                ))
            }
        };
        let dangerously = options
            .field("dangerouslyAllowBrowser")?
            .boolean()
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

/// Every option of `new Client(...)` (`companionUrl` is the JavaScript entry's, passed on as given).
const OPTIONS: [&str; 11] = [
    "apiKey",
    "companionUrl",
    "baseUrl",
    "uploadUrl",
    "serviceSegment",
    "timeoutMs",
    "uploadTimeoutMs",
    "maxRetries",
    "headers",
    "fetch",
    "dangerouslyAllowBrowser",
];

/// Refuses an option the client does not have: ignored, a misspelt one (`apikey`) would leave
/// the client without its key, its URL or its timeout, and say nothing.
fn refuse_unknown(options: &Arg) -> Result<(), Error> {
    for name in options.keys()? {
        if OPTIONS.contains(&name.as_str()) {
            continue;
        }
        let near = tunesmith_protocol::rules::nearest(OPTIONS.into_iter(), &name)
            .map(|known| tunesmith_protocol::text!(" (did you mean `", known, "`?)"))
            .unwrap_or_default();
        return Err(Error::configuration(tunesmith_protocol::text!(
            "`",
            name,
            "` is not a Client option",
            near
        )));
    }
    Ok(())
}

/// A page with a DOM: code (and a key in it) is visible to its users. Workers and Node are not counted.
fn in_browser() -> bool {
    let window = js::global("window");
    !window.is_undefined() && !get(&window, "document").is_undefined()
}

fn read_api_key(v: &Arg) -> Result<Option<ApiKey>, Error> {
    if v.is_absent() {
        return Ok(None);
    }
    if let Some(s) = v.text()? {
        if s.trim().is_empty() {
            return Err(v.invalid("required", "`apiKey` must not be empty"));
        }
        return Ok(Some(ApiKey::Literal(s)));
    }
    match v.function() {
        Some(f) => Ok(Some(ApiKey::Provider(f))),
        None => Err(v.invalid(
            "type",
            "`apiKey` must be a string or a function returning a string or a Promise of one",
        )),
    }
}

/// A URL option; absent, or set to an empty string, it is the service's own. (An environment
/// variable set but left empty, `TUNESMITH_BASE_URL=`, means "not set" to whoever wrote it.)
fn read_url(v: &Arg, default: &str) -> Result<String, Error> {
    if v.is_undefined() {
        return Ok(default.to_owned());
    }
    let Some(url) = v.text()? else {
        return Err(v.invalid(
            "type",
            tunesmith_protocol::text!("`", v.name(), "` must be a string URL"),
        ));
    };
    if url.trim().is_empty() {
        return Ok(default.to_owned());
    }
    service_url(v.name(), &url)
}

/// A positive number of milliseconds, or `None` when absent.
pub fn read_timeout(v: &Arg) -> Result<Option<f64>, Error> {
    if v.is_absent() {
        return Ok(None);
    }
    match v.number() {
        Some(ms) if ms.is_finite() && ms > 0.0 => Ok(Some(ms)),
        _ => Err(v.invalid(
            "range",
            tunesmith_protocol::text!("`", v.name(), "` must be a positive number of milliseconds"),
        )),
    }
}

fn read_retries(v: &Arg) -> Result<Option<u32>, Error> {
    if v.is_absent() {
        return Ok(None);
    }
    match v.number() {
        Some(n) if n.fract() == 0.0 && (0.0..=10.0).contains(&n) => Ok(Some(n as u32)),
        _ => Err(v.invalid("range", "`maxRetries` must be a whole number from 0 to 10")),
    }
}

fn read_headers(v: &Arg) -> Result<Vec<(String, String)>, Error> {
    if v.is_absent() {
        return Ok(Vec::new());
    }
    if !v.is_object() {
        return Err(v.invalid(
            "type",
            "`headers` must be an object of header names to strings",
        ));
    }
    let mut out = Vec::new();
    for (name, value) in v.entries()? {
        let value = Arg::new(value, "headers");
        match value.text()? {
            Some(value) => out.push((name, value)),
            None if value.is_undefined() => {}
            None => {
                return Err(v.invalid(
                    "type",
                    tunesmith_protocol::text!("header `", name, "` must have a string value"),
                ));
            }
        }
    }
    Ok(out)
}

impl CallOptions {
    pub fn from_js(v: &Arg) -> Result<CallOptions, Error> {
        if v.is_absent() {
            return Ok(CallOptions::default());
        }
        if !v.is_object() {
            return Err(v.invalid(
                "type",
                "call options must be an object like { signal, timeoutMs }",
            ));
        }
        let signal = read_signal(&v.field("signal")?)?;
        let extra = v.field("extraFields")?;
        let extra_fields = match extra {
            e if e.is_absent() => None,
            e if e.is_plain_object() => Some(e),
            e => {
                return Err(e.invalid(
                    "type",
                    "`extraFields` must be a plain object of fields to send as they are",
                ))
            }
        };
        Ok(CallOptions {
            signal,
            timeout_ms: read_timeout(&v.field("timeoutMs")?)?,
            max_retries: read_retries(&v.field("maxRetries")?)?,
            headers: read_headers(&v.field("headers")?)?,
            extra_fields,
            report: None,
        })
    }
}

/// An `AbortSignal`, or `None`. The client listens to it and reads it later through web-sys,
/// outside the checked path, where a Proxy's traps or a look-alike's getters would throw: so only a
/// genuine one is taken, and where the runtime has `AbortSignal.any` the client keeps a signal of
/// its own that follows it (made under catch, the caller's signal read once, here).
pub fn read_signal(s: &Arg) -> Result<Option<AbortSignal>, Error> {
    if s.is_absent() {
        return Ok(None);
    }
    let refused = || s.invalid("type", "`signal` must be an AbortSignal");
    let class = js::global("AbortSignal");
    if !get(&class, "any").is_function() {
        return s
            .value()
            .dyn_ref::<AbortSignal>()
            .cloned()
            .map(Some)
            .ok_or_else(refused);
    }
    let list: js_sys::Array = std::iter::once(s.value().clone()).collect();
    match js::call_method(&class, "any", &[&list]) {
        Ok(own) if own.is_object() => Ok(Some(own.unchecked_into())),
        _ => Err(refused()),
    }
}
