//! Bindings to the JavaScript runtime (timers, property access), and `Arg`: the one checked path by which a caller's value enters Rust.
//! One file, over 400 lines, on purpose: it is the one place allowed to touch a caller's values
//! (clippy.toml's disallowed methods), and `Arg` is built on the guarded helpers above it.
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
//!
//! # Reading what a caller passed
//!
//! Every value a caller hands the package (client and call options, requests, files, task ids,
//! callback bodies and events) is read through [`Arg`], and only through it. A caller's value can
//! run code of its own (getters, Proxy traps, `toJSON`, `Symbol.toPrimitive`) and can choose its own
//! sizes (an array's `length`), so `Arg` keeps three promises, each one a way the module once
//! broke:
//!
//! - **JavaScript is only called through `catch` imports.** An exception that crosses wasm frames
//!   instead skips their cleanup (and any `RefCell` borrow they hold): it leaves the call's
//!   Promise pending for ever and, repeated, corrupts the module's memory. So no `js_sys` method
//!   that is not declared `catch` is called on a caller's value, and no `unwrap_throw` (which
//!   `String::from(JsString)` hides: `JSON.stringify` of an object whose `toJSON` returns
//!   `undefined` answers `undefined`, not a string). Whatever throws comes back as a
//!   `ValidationError` naming the field.
//! - **Nothing the caller sizes is copied or allocated without a bound.** Strings are measured
//!   before they are copied into wasm memory ([`MAX_TEXT_UNITS`]), arrays and objects before they
//!   are walked ([`MAX_ITEMS`]). Collecting the items of a sparse array of length 2³² − 1 was a
//!   capacity overflow: a panic, which in wasm is a trap that kills the module.
//! - **It never panics**, and nor does the rest of the crate: see "Panics" in `lib.rs`.
//!
//! `clippy.toml` disallows the `js_sys`, `web_sys` and `wasm_bindgen` calls that break the first
//! promise, so that new code cannot reach a caller's value another way: this file is allowed them,
//! to wrap them under `catch`, and so is `normalize.rs`, which reads only the service's answers.
//! [`get`] and its siblings stay for the crate's own values and those answers (parsed from JSON by
//! the crate: plain data, no code in them).
#![allow(clippy::disallowed_methods)]

use crate::errors::Error;
use js_sys::{Function, JsString, Object, Reflect};
use std::borrow::Cow;
use std::cell::Cell;
use tunesmith_protocol::num;
use tunesmith_protocol::rules::{Fields, Value};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen(module = "/src/js/imports.js")]
extern "C" {
    /// `[key, value]` pairs of the keys holding a `_` (see `imports.js`).
    #[wasm_bindgen(js_name = snakeEntries)]
    fn snake_entries_js(v: &JsValue) -> js_sys::Array;
    /// `obj[key]` of an object or function, else `undefined`: one crossing (see `imports.js`).
    #[wasm_bindgen(catch)]
    fn read(obj: &JsValue, key: &str) -> Result<JsValue, JsValue>;
    /// `obj[key] = value` on an object the crate made or copied.
    fn write(obj: &JsValue, key: &str, value: &JsValue);
    #[wasm_bindgen(js_name = isRecord)]
    fn is_record(v: &JsValue) -> bool;
}

#[wasm_bindgen]
extern "C" {
    // Every call that can run the caller's code (a getter, a Proxy trap) is declared `catch`: a JS
    // exception must come back as a `Result`, so that Rust frames unwind normally. One that passes
    // through wasm frames instead leaks them (and any `RefCell` borrow they hold), and after a few
    // thousand the module's memory is corrupt.
    #[wasm_bindgen(catch, js_namespace = Object, js_name = entries)]
    fn object_entries(v: &JsValue) -> Result<js_sys::Array, JsValue>;
    #[wasm_bindgen(catch, js_namespace = Object, js_name = keys)]
    fn object_keys(v: &JsValue) -> Result<js_sys::Array, JsValue>;
    #[wasm_bindgen(catch, js_namespace = Object, js_name = assign)]
    fn object_assign(target: &JsValue, source: &JsValue) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(catch, js_namespace = Array, js_name = isArray)]
    fn array_is_array(v: &JsValue) -> Result<bool, JsValue>;
    // `JsValue`s, not `JsString`/`&str`: `stringify` answers `undefined` for a value with no JSON
    // form, and `parse` takes the text where it is, without a copy through wasm memory.
    #[wasm_bindgen(catch, js_namespace = JSON, js_name = stringify)]
    fn json_stringify(v: &JsValue) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(catch, js_namespace = JSON, js_name = parse)]
    fn json_parse(text: &JsValue) -> Result<JsValue, JsValue>;
}

/// The longest string read from a caller, in UTF-16 units (1 Mi): far above any field's limit (the
/// longest, a prompt, takes 5,000 characters), and small enough to copy into wasm memory at once.
pub const MAX_TEXT_UNITS: u32 = 1 << 20;

/// The most items read from a caller's array, or keys from an object: the longest list a field
/// may declare (the protocol's tests hold every list rule to it), far above the headers or fields
/// a request carries.
pub const MAX_ITEMS: u32 = tunesmith_protocol::rules::MAX_LIST_ITEMS as u32;

/// The longest JSON text of a request or callback body copied into wasm memory (16 Mi units).
pub const MAX_JSON_UNITS: u32 = 1 << 24;

/// `Object.entries(v)` as pairs; a throwing getter or trap is the `Err`.
pub fn entries(v: &JsValue) -> Result<Vec<(String, JsValue)>, JsValue> {
    Ok(pairs(&object_entries(v)?))
}

/// `Object.entries(v)` of the keys holding a `_`, for a value parsed from JSON (no getters).
pub fn snake_entries(v: &JsValue) -> Vec<(String, JsValue)> {
    pairs(&snake_entries_js(v))
}

/// The `[key, value]` pairs of an entries array, the keys copied into wasm memory.
fn pairs(entries: &js_sys::Array) -> Vec<(String, JsValue)> {
    entries
        .iter()
        .map(|pair| {
            let pair: js_sys::Array = pair.unchecked_into();
            (pair.get(0).as_string().unwrap_or_default(), pair.get(1))
        })
        .collect()
}

/// `JSON.stringify(v)` under catch: `None` when `v` has no JSON form (a function, a symbol, or a
/// `toJSON` that returns `undefined`), where `String::from` of js-sys's `JsString` would throw.
pub fn json_text(v: &JsValue) -> Result<Option<JsString>, JsValue> {
    let text = json_stringify(v)?;
    Ok(text.is_string().then(|| text.unchecked_into()))
}

/// `new Uint8Array(...args)` under catch: given a Proxy of an ArrayBuffer, the constructor runs
/// the Proxy's traps. Used by `parseCallback` only (the feature `callbacks`).
#[cfg(feature = "callbacks")]
pub fn new_uint8_array(args: &[&JsValue]) -> Result<js_sys::Uint8Array, JsValue> {
    let ctor: Function = global("Uint8Array").dyn_into()?;
    let list: js_sys::Array = args.iter().copied().collect();
    Ok(Reflect::construct(&ctor, &list)?.unchecked_into())
}

/// `obj[name](...args)`, under catch (a method of a caller's object may throw, or be a Proxy's).
pub fn call_method(obj: &JsValue, name: &str, args: &[&JsValue]) -> Result<JsValue, JsValue> {
    let method: Function = read(obj, name)?.dyn_into()?;
    let list: js_sys::Array = args.iter().copied().collect();
    Reflect::apply(&method, obj, &list)
}

/// The message of a caught JS exception, for error texts: its first 300 characters (what was thrown
/// is the caller's, and may be a string of any length).
pub fn thrown_message(e: &JsValue) -> String {
    let message = read(e, "message")
        .ok()
        .filter(JsValue::is_string)
        .or_else(|| e.is_string().then(|| e.clone()));
    match message {
        Some(m) => m
            .unchecked_into::<JsString>()
            .slice(0, 300)
            .as_string()
            .unwrap_or_default(),
        None => "it threw".to_owned(),
    }
}

#[wasm_bindgen]
extern "C" {
    /// The global object, imported once: `js_sys::global()` probes `globalThis`, `global`, `self`
    /// and `window`, each through its own import, and caches the answer in a lazy thread local
    /// (this one took 373 B gzipped off the page's module and glue, 2026-11-27).
    #[wasm_bindgen(thread_local_v2, js_name = globalThis)]
    static GLOBAL_THIS: JsValue;
}

/// `globalThis[name]` (a constructor or `window`), or `undefined`.
pub fn global(name: &str) -> JsValue {
    GLOBAL_THIS.with(|g| get(g, name))
}

/// `obj[key]`, or `undefined` when `obj` is not an object or the read throws. For the crate's own
/// objects and the service's answers; a caller's values are read through [`Arg`].
pub fn get(obj: &JsValue, key: &str) -> JsValue {
    read(obj, key).unwrap_or(JsValue::UNDEFINED)
}

pub fn get_string(obj: &JsValue, key: &str) -> Option<String> {
    get(obj, key).as_string()
}

pub fn get_f64(obj: &JsValue, key: &str) -> Option<f64> {
    get(obj, key).as_f64()
}

pub fn set(obj: &JsValue, key: &str, value: &JsValue) {
    // Only called on plain objects this crate created or copied.
    write(obj, key, value);
}

/// A shallow copy of a plain object, so results never alias what the caller passed in; a copy
/// that throws (a getter, a Proxy) yields an empty object.
pub fn shallow_copy(obj: &JsValue) -> Object {
    let target = Object::new();
    let _ = object_assign(&target, obj);
    target
}

/// Whether `v` is an array (`false` for a revoked Proxy, whose check throws).
pub fn is_array(v: &JsValue) -> bool {
    array_is_array(v) == Ok(true)
}

/// `v` when it is an array, else a new empty one: lists the service may send as null or omit.
pub fn array_or_empty(v: JsValue) -> js_sys::Array {
    if is_array(&v) {
        v.unchecked_into()
    } else {
        js_sys::Array::new()
    }
}

/// An object that is not an array (a revoked Proxy, whose check throws, is not one).
pub fn is_plain_object(v: &JsValue) -> bool {
    is_record(v)
}

/// A value a caller passed, with the name of the field it came from: the one checked path from
/// JavaScript input into Rust (see the module's documentation). Reading it calls JavaScript only
/// under `catch`, copies nothing unbounded, and turns whatever is wrong into a `ValidationError`
/// that names the field.
#[derive(Clone)]
pub struct Arg {
    value: JsValue,
    name: &'static str,
}

impl Arg {
    pub fn new(value: JsValue, name: &'static str) -> Arg {
        Arg { value, name }
    }

    /// An argument that may be left out: `undefined` when it was.
    pub fn optional(value: Option<JsValue>, name: &'static str) -> Arg {
        Arg::new(value.unwrap_or(JsValue::UNDEFINED), name)
    }

    pub fn value(&self) -> &JsValue {
        &self.value
    }

    pub fn name(&self) -> &'static str {
        self.name
    }

    /// A `ValidationError` about this value.
    pub fn invalid(&self, rule: &'static str, message: impl Into<String>) -> Error {
        Error::invalid(self.name, rule, message)
    }

    /// `self[key]`, named `key`. A getter or Proxy trap that throws is a `ValidationError` naming
    /// `key` (with what was thrown as its `cause`); a value that is not an object has no fields,
    /// which read as `undefined`.
    pub fn field(&self, key: &'static str) -> Result<Arg, Error> {
        self.field_named(key, key)
    }

    /// `self[key]`, named `name` in errors: the field it stands for (a URL object's `href` is the
    /// `fileUrl`, an array's `length` is the array).
    pub fn field_named(&self, key: &str, name: &'static str) -> Result<Arg, Error> {
        match read(&self.value, key) {
            Ok(value) => Ok(Arg::new(value, name)),
            Err(e) => Err(unreadable(name, e)),
        }
    }

    /// `undefined` or `null`: an option or field that was not given.
    pub fn is_absent(&self) -> bool {
        self.value.is_undefined() || self.value.is_null()
    }

    pub fn is_undefined(&self) -> bool {
        self.value.is_undefined()
    }

    /// An object (not a function, not a primitive).
    pub fn is_object(&self) -> bool {
        self.value.is_object()
    }

    pub fn is_string(&self) -> bool {
        self.value.is_string()
    }

    /// An object that is not an array.
    pub fn is_plain_object(&self) -> bool {
        is_plain_object(&self.value)
    }

    /// The string, copied into wasm memory; `None` when the value is not a string. A string
    /// longer than [`MAX_TEXT_UNITS`] is refused before it is copied.
    pub fn text(&self) -> Result<Option<String>, Error> {
        self.text_within(MAX_TEXT_UNITS)
    }

    /// [`Arg::text`], for a string of at most `max` UTF-16 units.
    pub fn text_within(&self, max: u32) -> Result<Option<String>, Error> {
        let Some(s) = self.value.dyn_ref::<JsString>() else {
            return Ok(None);
        };
        if s.length() > max {
            return Err(self.too_long("max_length", f64::from(s.length()), max, "characters"));
        }
        Ok(s.as_string())
    }

    /// The number (`NaN` and infinities included); `None` when the value is not a number. Reads
    /// no property and runs no code.
    pub fn number(&self) -> Option<f64> {
        self.value.as_f64()
    }

    pub fn boolean(&self) -> Option<bool> {
        self.value.as_bool()
    }

    /// The function; `None` when the value is not one.
    pub fn function(&self) -> Option<Function> {
        self.value.dyn_ref::<Function>().cloned()
    }

    /// The items of an array (holes read as `undefined`); `None` when the value is not an array.
    /// An array longer than [`MAX_ITEMS`] is refused before it is walked; an item whose reading
    /// throws is named `name[i]`.
    pub fn items(&self) -> Result<Option<Vec<JsValue>>, Error> {
        match array_is_array(&self.value) {
            Ok(true) => {}
            Ok(false) => return Ok(None),
            Err(e) => return Err(unreadable(self.name, e)),
        }
        let length = self.field_named("length", self.name)?;
        let n = length.number().unwrap_or(f64::NAN);
        if !(0.0..=f64::from(MAX_ITEMS)).contains(&n) {
            return Err(self.too_long("range", n, MAX_ITEMS, "items"));
        }
        let mut items = Vec::new();
        for i in 0..n as u32 {
            match Reflect::get_u32(&self.value, i) {
                Ok(item) => items.push(item),
                Err(e) => {
                    return Err(unreadable(
                        &tunesmith_protocol::text!(self.name, "[", num::int(i64::from(i)), "]"),
                        e,
                    ))
                }
            }
        }
        Ok(Some(items))
    }

    /// The own enumerable keys of an object (`Object.keys`: no getter runs).
    pub fn keys(&self) -> Result<Vec<String>, Error> {
        let keys = object_keys(&self.value).map_err(|e| unreadable(self.name, e))?;
        Ok(keys.iter().filter_map(|k| k.as_string()).collect())
    }

    /// The own enumerable `[key, value]` pairs of an object (`Object.entries`), at most
    /// [`MAX_ITEMS`] of them.
    pub fn entries(&self) -> Result<Vec<(String, JsValue)>, Error> {
        let pairs = entries(&self.value).map_err(|e| unreadable(self.name, e))?;
        if pairs.len() > MAX_ITEMS as usize {
            return Err(self.too_long("range", pairs.len() as f64, MAX_ITEMS, "keys"));
        }
        Ok(pairs)
    }

    /// Refuses a value larger than the package reads (`got` of `unit`, over `max`).
    fn too_long(&self, rule: &'static str, got: f64, max: u32, unit: &str) -> Error {
        self.invalid(
            rule,
            tunesmith_protocol::text!(
                "`",
                self.name,
                "` has ",
                num::fmt(got),
                " ",
                unit,
                ": more than the package reads (",
                num::int(i64::from(max)),
                ")"
            ),
        )
    }

    /// A plain-data copy (`JSON.parse(JSON.stringify(v))`): getters and `toJSON` run once, here,
    /// under catch, and everything after reads plain objects with no traps. The JSON text stays in
    /// JavaScript.
    pub fn plain_copy(&self) -> Result<JsValue, Error> {
        let text = self.json()?;
        json_parse(&text).map_err(|e| unreadable(self.name, e))
    }

    /// [`Arg::plain_copy`], with the JSON text it was made from (a request's body, without
    /// encoding the copy a second time), at most [`MAX_JSON_UNITS`] long.
    pub fn plain_json(&self) -> Result<(JsString, JsValue), Error> {
        let text = self.json()?;
        if text.length() > MAX_JSON_UNITS {
            return Err(self.too_long(
                "max_size",
                f64::from(text.length()),
                MAX_JSON_UNITS,
                "characters of JSON",
            ));
        }
        let value = json_parse(&text).map_err(|e| unreadable(self.name, e))?;
        Ok((text, value))
    }

    fn json(&self) -> Result<JsString, Error> {
        match json_text(&self.value) {
            Ok(Some(text)) => Ok(text),
            Ok(None) => Err(self.invalid(
                "type",
                tunesmith_protocol::text!(
                    "`",
                    self.name,
                    "` has no JSON form: it must be JSON data"
                ),
            )),
            Err(e) => Err(unreadable(self.name, e)),
        }
    }
}

/// The error for a value whose reading threw (a getter, a Proxy trap, a revoked Proxy).
fn unreadable(name: &str, thrown: JsValue) -> Error {
    Error::invalid(
        name,
        "type",
        tunesmith_protocol::text!("`", name, "` could not be read: ", thrown_message(&thrown)),
    )
    .with_cause(thrown)
}

/// A request object as the shared validator reads it, through [`Arg`]: every field under catch,
/// lists and strings bounded. `Fields::field` cannot fail, so a field that cannot be read is set
/// aside and reported by [`JsFields::verdict`].
pub struct JsFields<'a> {
    obj: &'a JsValue,
    refused: Cell<Option<Error>>,
}

impl<'a> JsFields<'a> {
    pub fn new(obj: &'a JsValue) -> Self {
        JsFields {
            obj,
            refused: Cell::new(None),
        }
    }

    /// The error of the first field that could not be read, if any: it comes before whatever the
    /// validator concluded without it.
    pub fn verdict(self) -> Result<(), Error> {
        self.refused.into_inner().map_or(Ok(()), Err)
    }

    fn read(&self, name: &'static str) -> Result<Value<'static>, Error> {
        let field = Arg::new(self.obj.clone(), name).field(name)?;
        match field.items()? {
            Some(items) => {
                let mut list = Vec::new();
                for item in items {
                    list.push(scalar(&Arg::new(item, field.name))?);
                }
                Ok(Value::List(list))
            }
            None => scalar(&field),
        }
    }
}

impl Fields for JsFields<'_> {
    fn field(&self, name: &'static str) -> Value<'_> {
        self.read(name).unwrap_or_else(|e| {
            let first = self.refused.take().unwrap_or(e);
            self.refused.set(Some(first));
            Value::Missing
        })
    }
}

/// A value that is not a list, as the validator reads it.
fn scalar(v: &Arg) -> Result<Value<'static>, Error> {
    let value = v.value();
    Ok(if value.is_undefined() {
        Value::Missing
    } else if value.is_null() {
        Value::Null
    } else if let Some(s) = v.text()? {
        Value::Str(Cow::Owned(s))
    } else if let Some(n) = v.number() {
        Value::Num(n)
    } else if let Some(b) = v.boolean() {
        Value::Bool(b)
    } else {
        Value::Other
    })
}
