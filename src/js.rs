//! Small bindings to the JavaScript runtime (timers, property access) that work in windows, workers and Node.
//!
//! Why the npm path reads and builds JS objects by hand (`Reflect` through a few helpers) instead of
//! serde-wasm-bindgen: measured on this project's machine kind, serde-wasm-bindgen costs about
//! 1.8 KB gzipped per record type it decodes, and the package returns 30-odd record and event
//! types: decoding them with serde would roughly double a package that ships at 58 KB gzipped
//! (budget 64 KB). The table-driven boundary instead costs one generic reader (`JsFields`, this
//! file) and one normalizer (`normalize.rs`), and it keeps unknown fields the service adds later
//! untouched, which a typed decode would drop. What the shapes must be is still declared once, in
//! `tunesmith_protocol::schema`: the suites hold every returned value against it in Node and
//! Chromium (`tests/suite/declared.rs`). Rust callers get serde-typed records from the Rust API,
//! where the size does not reach npm users.

use js_sys::{Function, Object, Reflect};
use std::borrow::Cow;
use tunesmith_protocol::rules::{Fields, Value};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen]
extern "C" {
    // Global functions, never `window.*`: the same code runs in workers and Node.
    #[wasm_bindgen(js_name = setTimeout)]
    fn set_timeout_raw(callback: &Function, ms: f64) -> JsValue;
    #[wasm_bindgen(js_name = clearTimeout)]
    pub fn clear_timeout(id: &JsValue);

    // Every call that can run the caller's code (a getter, a Proxy trap) is declared `catch`: a JS
    // exception must come back as a `Result`, so that Rust frames unwind normally. One that passes
    // through wasm frames instead leaks them (and any `RefCell` borrow they hold), and after a few
    // thousand the module's memory is corrupt.
    #[wasm_bindgen(catch, js_namespace = Object, js_name = keys)]
    fn object_keys(v: &JsValue) -> Result<js_sys::Array, JsValue>;
    #[wasm_bindgen(catch, js_namespace = Object, js_name = entries)]
    fn object_entries(v: &JsValue) -> Result<js_sys::Array, JsValue>;
    #[wasm_bindgen(catch, js_namespace = Object, js_name = assign)]
    fn object_assign(target: &JsValue, source: &JsValue) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(catch, js_namespace = Array, js_name = isArray)]
    fn array_is_array(v: &JsValue) -> Result<bool, JsValue>;
}

/// The longest delay timers take (2^31 - 1 ms, about 24.8 days): past it they fire at once.
const MAX_TIMER_MS: f64 = 2_147_483_647.0;

/// `setTimeout`, with the delay clamped to what timers take: a `timeoutMs` of 1e308 ("never")
/// must not become an immediate timeout.
pub fn set_timeout(callback: &Function, ms: f64) -> JsValue {
    let ms = if ms.is_nan() {
        0.0
    } else {
        ms.clamp(0.0, MAX_TIMER_MS)
    };
    set_timeout_raw(callback, ms)
}

/// `Object.keys(v)` as strings; a throwing Proxy trap is the `Err`.
pub fn keys(v: &JsValue) -> Result<Vec<String>, JsValue> {
    Ok(object_keys(v)?
        .iter()
        .filter_map(|k| k.as_string())
        .collect())
}

/// `Object.entries(v)` as pairs; a throwing getter or trap is the `Err`.
pub fn entries(v: &JsValue) -> Result<Vec<(String, JsValue)>, JsValue> {
    Ok(object_entries(v)?
        .iter()
        .map(|pair| {
            let pair: js_sys::Array = pair.unchecked_into();
            (pair.get(0).as_string().unwrap_or_default(), pair.get(1))
        })
        .collect())
}

/// A plain-data copy of what the caller passed (`JSON.parse(JSON.stringify(v))`): getters run
/// once, here, under `catch`, and everything after reads plain objects with no traps.
pub fn plain_copy(v: &JsValue) -> Result<JsValue, JsValue> {
    plain_json(v).map(|(_, value)| value)
}

/// [`plain_copy`], with the JSON text it was made from (a request's body, without encoding the
/// copy a second time).
pub fn plain_json(v: &JsValue) -> Result<(String, JsValue), JsValue> {
    let text = String::from(js_sys::JSON::stringify(v)?);
    let value = js_sys::JSON::parse(&text)?;
    Ok((text, value))
}

/// `new Uint8Array(...args)` under `catch`: given a Proxy of an ArrayBuffer, the constructor runs
/// the Proxy's traps.
pub fn new_uint8_array(args: &[&JsValue]) -> Result<js_sys::Uint8Array, JsValue> {
    let ctor: Function = get(&js_sys::global(), "Uint8Array").dyn_into()?;
    let list: js_sys::Array = args.iter().copied().collect();
    Ok(Reflect::construct(&ctor, &list)?.unchecked_into())
}

/// The message of a caught JS exception, for error texts.
pub fn thrown_message(e: &JsValue) -> String {
    get_string(e, "message")
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "it threw".to_owned())
}

/// `obj[key]`, or `undefined` when `obj` is not an object.
pub fn get(obj: &JsValue, key: &str) -> JsValue {
    if !obj.is_object() && !obj.is_function() {
        return JsValue::UNDEFINED;
    }
    Reflect::get(obj, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

pub fn get_string(obj: &JsValue, key: &str) -> Option<String> {
    get(obj, key).as_string()
}

pub fn get_f64(obj: &JsValue, key: &str) -> Option<f64> {
    get(obj, key).as_f64()
}

pub fn set(obj: &JsValue, key: &str, value: &JsValue) {
    // Only called on plain objects this crate created or copied: setting cannot fail.
    let _ = Reflect::set(obj, &JsValue::from_str(key), value);
}

/// A shallow copy of a plain object, so results never alias what the caller passed in; a copy
/// that throws (a getter, a Proxy) yields an empty object.
pub fn shallow_copy(obj: &JsValue) -> Object {
    let target = Object::new();
    let _ = object_assign(&target, obj);
    target
}

/// `v` when it is an array, else a new empty one: lists the service may send as null or omit.
pub fn array_or_empty(v: JsValue) -> js_sys::Array {
    if array_is_array(&v).unwrap_or(false) {
        v.unchecked_into()
    } else {
        js_sys::Array::new()
    }
}

/// An object that is not an array (a revoked Proxy, whose check throws, is not one).
pub fn is_plain_object(v: &JsValue) -> bool {
    v.is_object() && array_is_array(v) == Ok(false)
}

/// A request object as the shared validator reads it.
pub struct JsFields<'a>(pub &'a JsValue);

impl Fields for JsFields<'_> {
    fn field(&self, name: &str) -> Value<'_> {
        let v = get(self.0, name);
        if array_is_array(&v) == Ok(true) {
            return Value::List(array_or_empty(v).iter().map(|item| scalar(&item)).collect());
        }
        scalar(&v)
    }
}

/// A value that is not a list, as the validator reads it.
fn scalar(v: &JsValue) -> Value<'static> {
    if v.is_undefined() {
        Value::Missing
    } else if v.is_null() {
        Value::Null
    } else if let Some(s) = v.as_string() {
        Value::Str(Cow::Owned(s))
    } else if let Some(n) = v.as_f64() {
        Value::Num(n)
    } else if let Some(b) = v.as_bool() {
        Value::Bool(b)
    } else {
        Value::Other
    }
}
