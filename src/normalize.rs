//! Shapes the service's answers for JavaScript: a normalized `state` on every record, one `Track`
//! shape whatever the casing, ISO 8601 times. Raw fields are kept; unknown fields pass through.

use crate::driver;
use crate::js::{array_or_empty, get, get_f64, get_string, is_plain_object, set, shallow_copy};
use js_sys::{Array, Object};
use tunesmith_protocol::endpoints::Answer;
use tunesmith_protocol::state::{self, TaskState};
use tunesmith_protocol::{time, track, Op, TaskFamily};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsValue;

/// The value a method resolves with, from the envelope's `data`.
pub fn output(op: Op, data: JsValue) -> JsValue {
    if let Some(family) = op.queries() {
        return task_record(family, &data);
    }
    match op.answer() {
        Answer::TaskId => match data.as_string() {
            Some(id) => {
                let out = Object::new();
                set(&out, "taskId", &JsValue::from_str(&id));
                out.into()
            }
            None => copy_with_times(&data).into(),
        },
        Answer::Number => {
            let out = Object::new();
            let credits = data.as_f64().or_else(|| get_f64(&data, "credits"));
            set(&out, "credits", &JsValue::from_f64(credits.unwrap_or(0.0)));
            out.into()
        }
        // The style boost has a status of its own, though no waiter: it answers at once.
        _ if op == Op::BoostStyle => style_record(&data),
        Answer::Object | Answer::Record(_) | Answer::Envelope => copy_with_times(&data).into(),
    }
}

/// A status record of `family`: the raw fields, times in ISO 8601, the normalized `state` (and a
/// music task's `stage` and `tracks`), and the family's list under one name.
fn task_record(family: TaskFamily, raw: &JsValue) -> JsValue {
    let seen = driver::observe(family, raw);
    if family == TaskFamily::Recovery {
        return recovery_record(raw, seen.state);
    }
    let out = copy_with_times(raw);
    set_state(&out, seen.state);
    let response = get(raw, "response");
    match family {
        TaskFamily::Music => {
            set(&out, "stage", &JsValue::from_str(seen.stage.as_str()));
            let list = get(&response, "sunoData");
            let list = if list.is_undefined() {
                get(&response, "data")
            } else {
                list
            };
            set(&out, "tracks", &tracks(&list));
        }
        TaskFamily::Lyrics => {
            // Some copies of the service's docs name the array `data` rather than `lyricsData`.
            let list = get(&response, "lyricsData");
            let list = if Array::is_array(&list) {
                list
            } else {
                get(&response, "data")
            };
            set(&out, "lyrics", &array_or_empty(list));
        }
        TaskFamily::Cover => set(&out, "images", &array_or_empty(get(&response, "images"))),
        TaskFamily::Wav
        | TaskFamily::VocalSeparation
        | TaskFamily::Video
        | TaskFamily::Midi
        | TaskFamily::Recovery
        | TaskFamily::VoiceValidation
        | TaskFamily::Voice => {}
    }
    out.into()
}

/// A plain-object copy with its time fields normalized; non-objects come back as an empty object.
fn copy_with_times(raw: &JsValue) -> Object {
    if !is_plain_object(raw) {
        return Object::new();
    }
    let out = shallow_copy(raw);
    normalize_times(&out);
    out
}

#[wasm_bindgen(module = "/src/js/imports.js")]
extern "C" {
    /// `[mask, value...]` of the fields named in `keys` (comma-separated) that hold a number or a
    /// string (`imports.js`).
    #[wasm_bindgen(js_name = timeFields)]
    fn time_fields(obj: &JsValue, keys: &JsValue) -> Array;
}

thread_local! {
    /// `track::TIME_KEYS` as a JavaScript string, made once: not copied out of wasm memory for every
    /// record and track, and `timeFields` splits it once.
    static TIME_KEYS: JsValue = JsValue::from_str(track::TIME_KEYS);
}

/// Writes each time field of `obj` in ISO 8601: epoch milliseconds converted, text normalized
/// (and left alone when it already is).
fn normalize_times(obj: &JsValue) {
    let found = TIME_KEYS.with(|keys| time_fields(obj, keys));
    let mask = found.get(0).as_f64().unwrap_or(0.0) as u32;
    let mut next = 1;
    for (i, key) in tunesmith_protocol::text::parts(track::TIME_KEYS, b',').enumerate() {
        if mask & (1 << i) == 0 {
            continue;
        }
        let v = found.get(next);
        next += 1;
        let iso = match v.as_f64() {
            Some(ms) => time::iso_from_epoch_ms(ms as i64),
            None => {
                let text = v.as_string().unwrap_or_default();
                let iso = time::normalize_text(&text);
                if iso == text {
                    continue;
                }
                iso
            }
        };
        set(obj, key, &JsValue::from_str(&iso));
    }
}

fn set_state(obj: &JsValue, state: TaskState) {
    set(obj, "state", &JsValue::from_str(state.as_str()));
}

/// A track in camelCase, whichever casing the service used; unknown fields kept (camelCased).
pub fn track(raw: &JsValue) -> JsValue {
    if !is_plain_object(raw) {
        return Object::new().into();
    }
    // Copied in one call, then only the fields not in camelCase renamed: the service answers
    // queries in camelCase, so a track costs no property write per field, and only the keys with
    // a `_` cross the boundary (`snake_entries`), not every key and value.
    let out = shallow_copy(raw);
    for (key, value) in crate::js::snake_entries(raw) {
        let camel = track::camel_key(&key);
        if camel == key {
            continue;
        }
        let _ = js_sys::Reflect::delete_property(&out, &JsValue::from_str(&key));
        // A camelCase field wins over its snake_case twin when the service sent both.
        if get(raw, &camel).is_undefined() {
            set(&out, &camel, &value);
        }
    }
    normalize_times(&out);
    out.into()
}

/// Normalizes an array of tracks; anything that is not an array becomes an empty one.
pub fn tracks(raw: &JsValue) -> Array {
    array_or_empty(raw.clone())
        .iter()
        .map(|t| track(&t))
        .collect()
}

/// Recovery answers with its own envelope (`{code, msg, task_id, data}`): the record is built
/// from it, `data` (null while running) becoming `tracks`.
fn recovery_record(envelope: &JsValue, state: TaskState) -> JsValue {
    let out = Object::new();
    let code = get_f64(envelope, "code").unwrap_or(500.0);
    set(
        &out,
        "taskId",
        &JsValue::from_str(&get_string(envelope, "task_id").unwrap_or_default()),
    );
    set(&out, "code", &JsValue::from_f64(code));
    set(
        &out,
        "msg",
        &JsValue::from_str(&get_string(envelope, "msg").unwrap_or_default()),
    );
    set(&out, "tracks", &array_or_empty(get(envelope, "data")));
    set_state(&out, state);
    out.into()
}

fn style_record(raw: &JsValue) -> JsValue {
    let out = copy_with_times(raw);
    let flag = get(raw, "successFlag");
    let text = flag
        .as_string()
        .or_else(|| flag.as_f64().map(tunesmith_protocol::num::fmt))
        .unwrap_or_default();
    set_state(&out, state::from_style_flag(&text));
    out.into()
}
