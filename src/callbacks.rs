//! The receiving side of callbacks: `parseCallback` turns any documented body into a typed event,
//! and `__callbackKey` names its task stage for the package's `CallbackDeduper` (api.js), which
//! lets a handler act on each stage once. Decisions are `tunesmith_protocol::callback`'s; this
//! module reads and builds JS objects.

use crate::errors::Error;
use crate::js::Arg;
use crate::settle;
use tunesmith_protocol::callback;
use tunesmith_protocol::state::Stage;
use tunesmith_protocol::TaskFamily;
use wasm_bindgen::prelude::*;

#[cfg(feature = "callbacks")]
use reading::parse;

/// What `parseCallback` throws in the module of the browser entry, built without the feature
/// `callbacks` (Cargo.toml): 3.1 KB gzipped that every page would load for something that runs on
/// servers.
#[cfg(not(feature = "callbacks"))]
fn parse(_body: &Arg) -> Result<JsValue, Error> {
    Err(Error::configuration(
        "parseCallback is left out of tunesmith's browser build, which pages load, to keep it small: \
         read callbacks where the service sends them, on a server (the package's Node, Deno, Bun and \
         Cloudflare Workers entries have it), or, in a browser or an edge function, import the \
         package from \"tunesmith/full\" in place of \"tunesmith\" (a page loads one of the two)",
    ))
}

/// Reading a callback body into an event (the feature `callbacks`).
#[cfg(feature = "callbacks")]
mod reading {
    use crate::errors::Error;
    use crate::js::{
        self, array_or_empty, get, is_plain_object, set, Arg, JsFields, MAX_JSON_UNITS,
    };
    use crate::normalize;
    use js_sys::{Array, Object, Uint8Array};
    use tunesmith_protocol::callback::{self, Callback};
    use tunesmith_protocol::rules::Fields;
    use tunesmith_protocol::track::camel_key;
    use tunesmith_protocol::TaskFamily;
    use wasm_bindgen::prelude::*;

    /// The body as a plain object: parsed from a string or bytes (a Node `Buffer` is a `Uint8Array`),
    /// or copied as JSON data from an object, which runs its getters and traps once, here, under catch,
    /// and leaves nothing that can throw later.
    fn body_object(body: &Arg) -> Result<JsValue, Error> {
        let value = body.value();
        let unparsable = |e| {
            body.invalid("type", "the callback body is not valid JSON")
                .with_cause(e)
        };
        let parsed = if let Some(text) = body.text_within(MAX_JSON_UNITS)? {
            js_sys::JSON::parse(&text).map_err(unparsable)?
        } else if value.is_instance_of::<Uint8Array>()
            || value.is_instance_of::<js_sys::ArrayBuffer>()
        {
            let bytes = js::new_uint8_array(&[value]).map_err(|e| {
                body.invalid("type", "the callback body's bytes could not be read")
                    .with_cause(e)
            })?;
            let too_many = bytes.length() > MAX_JSON_UNITS;
            let text = (!too_many)
                .then(|| String::from_utf8(bytes.to_vec()).ok())
                .flatten()
                .ok_or_else(|| {
                    body.invalid(
                        "type",
                        "the callback body is not UTF-8 text of at most 16 MiB",
                    )
                })?;
            js_sys::JSON::parse(&text).map_err(unparsable)?
        } else if value.is_object() {
            body.plain_copy()?
        } else {
            value.clone()
        };
        if !is_plain_object(&parsed) {
            return Err(body.invalid(
                "type",
                "a callback body is a JSON object `{ code, msg, data }` (pass the object, its JSON text or its bytes)",
            ));
        }
        Ok(parsed)
    }

    /// A copy of a plain object with its keys camelCased (`vocal_url` → `vocalUrl`), or `null`.
    fn camel_object(raw: &JsValue) -> JsValue {
        if !is_plain_object(raw) {
            return JsValue::NULL;
        }
        let out = Object::new();
        for (key, value) in crate::js::entries(raw).unwrap_or_default() {
            set(&out, &camel_key(&key), &value);
        }
        out.into()
    }

    /// What the event of a family with one result carries besides its common fields.
    enum Payload {
        /// A string, else `null`.
        Text,
        /// A plain object, else `null`.
        Object,
        /// A plain object with its keys camelCased, else `null`.
        CamelObject,
        /// An array, else an empty one.
        List,
    }

    /// The event's field for a single-shot family's payload (read under `data` from the protocol's
    /// `callback::payload_keys`), and its kind; `None` for music and lyrics, whose lists `parse` reads.
    fn payload(family: TaskFamily) -> Option<(&'static str, Payload)> {
        Some(match family {
            TaskFamily::Music | TaskFamily::Lyrics => return None,
            TaskFamily::Cover => ("images", Payload::List),
            TaskFamily::Wav => ("audioWavUrl", Payload::Text),
            TaskFamily::VocalSeparation => ("stems", Payload::CamelObject),
            TaskFamily::Video => ("videoUrl", Payload::Text),
            TaskFamily::Midi => ("midiData", Payload::Object),
            TaskFamily::Recovery => ("tracks", Payload::List),
            TaskFamily::VoiceValidation => ("validateInfo", Payload::Text),
            TaskFamily::Voice => ("voiceId", Payload::Text),
        })
    }

    fn first_of(data: &JsValue, keys: &[&str]) -> JsValue {
        keys.iter()
            .map(|k| get(data, k))
            .find(|v| !v.is_undefined())
            .unwrap_or(JsValue::NULL)
    }

    fn string_or_null(v: JsValue) -> JsValue {
        if v.as_string().is_some() {
            v
        } else {
            JsValue::NULL
        }
    }

    fn object_or_null(v: JsValue) -> JsValue {
        if is_plain_object(&v) {
            v
        } else {
            JsValue::NULL
        }
    }

    /// Classifies and shapes a callback body (see `CallbackEvent` in `ts/waiters.d.ts`).
    pub fn parse(body: &Arg) -> Result<JsValue, Error> {
        let raw = body_object(body)?;
        // Plain data from here on: `get` reads it.
        let data = get(&raw, "data");
        let items = get(&data, "data");
        let first = array_or_empty(items.clone()).get(0);
        let (raw_fields, data_fields, first_fields) = (
            JsFields::new(&raw),
            JsFields::new(&data),
            JsFields::new(&first),
        );
        let event = callback::classify(
            &raw_fields,
            is_plain_object(&data).then_some(&data_fields as &dyn Fields),
            is_plain_object(&first).then_some(&first_fields as &dyn Fields),
        );
        raw_fields.verdict()?;
        data_fields.verdict()?;
        first_fields.verdict()?;
        let event: Callback = event?;
        let out = Object::new();
        set(&out, "family", &JsValue::from_str(event.family.as_str()));
        set(&out, "taskId", &JsValue::from_str(&event.task_id));
        set(&out, "stage", &JsValue::from_str(event.stage.as_str()));
        set(&out, "state", &JsValue::from_str(event.state.as_str()));
        set(&out, "code", &JsValue::from_f64(event.code as f64));
        set(
            &out,
            "msg",
            &get(&raw, "msg")
                .as_string()
                .map_or(JsValue::from_str(""), JsValue::from),
        );
        match event.family {
            TaskFamily::Music => set(&out, "tracks", &normalize::tracks(&items)),
            TaskFamily::Lyrics => {
                let lyrics: Array = array_or_empty(items.clone())
                    .iter()
                    .map(|l| camel_object(&l))
                    .collect();
                set(&out, "lyrics", &lyrics);
            }
            family => {
                let Some((field, shape)) = payload(family) else {
                    return Err(body.invalid("type", "no event shape for this family"));
                };
                let value = first_of(&data, callback::payload_keys(family));
                let value = match shape {
                    Payload::Text => string_or_null(value),
                    Payload::Object => object_or_null(value),
                    Payload::CamelObject => camel_object(&value),
                    Payload::List => array_or_empty(value).into(),
                };
                set(&out, field, &value);
            }
        }
        set(&out, "raw", &raw);
        Ok(out.into())
    }
}

/// Parses a callback body (an object, its JSON text, or its bytes) into a typed event.
/// Throws `ValidationError` for anything that is not a documented callback.
#[wasm_bindgen(js_name = parseCallback, skip_typescript)]
pub fn parse_callback(body: JsValue) -> Result<JsValue, JsValue> {
    settle::entered()?;
    parse(&Arg::new(body, "body")).map_err(Error::into_js)
}

/// The dedup key of an event from `parseCallback`, or of a raw body (parsed first).
fn key_of(event: &Arg) -> Result<String, Error> {
    let text = |name| -> Result<Option<String>, Error> { event.field(name)?.text() };
    let family = text("family")?.and_then(|f| TaskFamily::from_name(&f));
    let task_id = text("taskId")?.filter(|t| !t.is_empty());
    let stage = text("stage")?.and_then(|s| Stage::from_callback_type(&s));
    match (family, task_id, stage) {
        (Some(kind), Some(task_id), Some(stage)) => Ok(callback::dedup_key(kind, &task_id, stage)),
        _ => key_of(&Arg::new(parse(event)?, "event")),
    }
}

/// The dedup key of a callback event or raw body: what the package's `CallbackDeduper` (api.js)
/// remembers. Throws `ValidationError` for anything that is not a documented callback.
#[wasm_bindgen(js_name = "__callbackKey", skip_typescript)]
pub fn callback_key(event: JsValue) -> Result<String, JsValue> {
    settle::entered()?;
    key_of(&Arg::new(event, "event")).map_err(Error::into_js)
}
