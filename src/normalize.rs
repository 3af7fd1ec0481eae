//! Shapes the service's answers for JavaScript: a normalized `state` on every record, one `Track`
//! shape whatever the casing, ISO 8601 times. Raw fields are kept; unknown fields pass through.

use crate::js::{array_or_empty, get, get_f64, get_string, is_plain_object, set, shallow_copy};
use js_sys::{Array, Object};
use tunesmith_protocol::state::{self, TaskState};
use tunesmith_protocol::{time, track, Op};
use wasm_bindgen::JsValue;

/// The value a method resolves with, from the envelope's `data`.
pub fn output(op: Op, data: JsValue) -> JsValue {
    match op {
        Op::GetTask => music_record(&data),
        Op::GetLyrics => lyrics_record(&data),
        Op::GetCover => cover_record(&data),
        Op::GetWav | Op::GetVocalSeparation | Op::GetVideo => flag_record(&data),
        Op::GetMidi => midi_record(&data),
        Op::GetRecovery => recovery_record(&data),
        Op::GetVoiceValidation | Op::GetVoice => voice_record(&data),
        Op::BoostStyle => style_record(&data),
        Op::GetCredits => {
            let out = Object::new();
            set(
                &out,
                "credits",
                &JsValue::from_f64(
                    data.as_f64()
                        .or_else(|| get_f64(&data, "credits"))
                        .unwrap_or(0.0),
                ),
            );
            out.into()
        }
        _ if op.endpoint().creates_task() => {
            if let Some(id) = data.as_string() {
                let out = Object::new();
                set(&out, "taskId", &JsValue::from_str(&id));
                out.into()
            } else {
                copy_with_times(&data).into()
            }
        }
        _ => copy_with_times(&data).into(),
    }
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

fn normalize_times(obj: &JsValue) {
    for key in track::TIME_KEYS {
        let v = get(obj, key);
        if let Some(ms) = v.as_f64() {
            set(
                obj,
                key,
                &JsValue::from_str(&time::iso_from_epoch_ms(ms as i64)),
            );
        } else if let Some(s) = v.as_string() {
            set(obj, key, &JsValue::from_str(&time::normalize_text(&s)));
        }
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
    let out = Object::new();
    for (key, value) in crate::js::entries(raw).unwrap_or_default() {
        let camel = track::camel_key(&key);
        // A camelCase field wins over its snake_case twin when the service sent both.
        if camel != key && !get(raw, &camel).is_undefined() {
            continue;
        }
        set(&out, &camel, &value);
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

/// Music task (`generate/record-info`): `state`, `stage`, and `tracks` from `response.sunoData`.
pub fn music_record(raw: &JsValue) -> JsValue {
    let out = copy_with_times(raw);
    let status = get_string(raw, "status").unwrap_or_default();
    let (state, stage) = state::from_status(&status);
    set_state(&out, state);
    set(&out, "stage", &JsValue::from_str(stage.as_str()));
    let response = get(raw, "response");
    let list = get(&response, "sunoData");
    let list = if list.is_undefined() {
        get(&response, "data")
    } else {
        list
    };
    set(&out, "tracks", &tracks(&list));
    out.into()
}

fn lyrics_record(raw: &JsValue) -> JsValue {
    let out = copy_with_times(raw);
    let (state, _) = state::from_status(&get_string(raw, "status").unwrap_or_default());
    set_state(&out, state);
    let response = get(raw, "response");
    // Some copies of the service's docs name the array `data` rather than `lyricsData`.
    let list = get(&response, "lyricsData");
    let list = if Array::is_array(&list) {
        list
    } else {
        get(&response, "data")
    };
    set(&out, "lyrics", &array_or_empty(list));
    out.into()
}

fn cover_record(raw: &JsValue) -> JsValue {
    let out = copy_with_times(raw);
    let flag = get(raw, "successFlag");
    let state = match (flag.as_f64(), flag.as_string()) {
        (Some(n), _) => state::from_cover_flag(n as i64),
        (None, Some(s)) => state::from_string_flag(&s),
        _ => TaskState::Pending,
    };
    set_state(&out, state);
    set(
        &out,
        "images",
        &array_or_empty(get(&get(raw, "response"), "images")),
    );
    out.into()
}

/// WAV, vocal separation and video: string `successFlag` (PENDING, SUCCESS, ..._FAILED).
fn flag_record(raw: &JsValue) -> JsValue {
    let out = copy_with_times(raw);
    let flag = get(raw, "successFlag");
    let state = match (flag.as_string(), flag.as_f64()) {
        (Some(s), _) => state::from_string_flag(&s),
        (None, Some(n)) => state::from_cover_flag(n as i64),
        _ => TaskState::Pending,
    };
    set_state(&out, state);
    out.into()
}

/// MIDI: integer `successFlag` (0 pending, 1 success, above 1 failed); epoch times made ISO.
fn midi_record(raw: &JsValue) -> JsValue {
    let out = copy_with_times(raw);
    let flag = get(raw, "successFlag");
    let flag = flag
        .as_f64()
        .or_else(|| {
            flag.as_string()
                .and_then(|s| tunesmith_protocol::num::parse_int(&s).map(|n| n as f64))
        })
        .unwrap_or(0.0);
    set_state(&out, state::from_midi_flag(flag as i64));
    out.into()
}

/// Recovery answers with its own envelope (`{code, msg, task_id, data}`): the record is built
/// from it, `data` (null while running) becoming `tracks`.
fn recovery_record(envelope: &JsValue) -> JsValue {
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
    set_state(&out, state::from_recovery_code(code as i64));
    out.into()
}

/// Voice validation and voice records: lower-case `status`.
fn voice_record(raw: &JsValue) -> JsValue {
    let out = copy_with_times(raw);
    let status = get_string(raw, "status").unwrap_or_default();
    set_state(&out, state::from_voice_status(&status));
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
