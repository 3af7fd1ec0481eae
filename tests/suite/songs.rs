//! What the flows on a song start from: a finished song, its audio uploaded, the callbacks it sent,
//! each value held against its declared type.

use super::common::*;
use super::declared::Js;
use js_sys::{Array, Function, Promise, Uint8Array};
use serde_json::json;
use tunesmith::{parse_callback, Client};
use tunesmith_protocol::schema::{self, Ty};
use tunesmith_protocol::Op;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

pub fn wait() -> Option<JsValue> {
    Some(js(
        json!({ "wait": { "minIntervalMs": 15, "maxIntervalMs": 40 } }),
    ))
}

pub fn fast() -> Option<JsValue> {
    Some(js(json!({ "minIntervalMs": 15, "maxIntervalMs": 40 })))
}

/// Declared = returned: the value agrees with the declaration its TypeScript comes from.
pub fn declared(value: &JsValue, ty: &Ty) {
    if let Err(m) = schema::check(&Js(value.clone()), ty) {
        panic!("not as declared: {m} in {}", show(value));
    }
}

pub fn declared_output(value: &JsValue, op: Op) {
    declared(value, &Ty::Ref(op.output()));
}

pub fn tracks(record: &JsValue) -> Array {
    Array::from(&prop(record, "tracks"))
}

/// A finished music task (custom mode, with lyrics): its final record.
pub async fn song(client: &Client, inbox: &str) -> JsValue {
    let record = ok(client.generate(
        js(json!({
            "customMode": true, "instrumental": false, "model": "V5", "callBackUrl": callback_url(inbox),
            "prompt": "[Verse]\nla la la\n[Chorus]\noh oh", "style": "dream pop", "title": "Source",
        })),
        wait(),
    ))
    .await;
    assert_eq!(prop_str(&record, "state"), "succeeded", "{}", show(&record));
    record
}

/// The bytes at `url` (a track the emulator made: real audio).
pub async fn bytes_of(url: &str) -> Uint8Array {
    let fetch: Function = prop(&js_sys::global(), "fetch").unchecked_into();
    let resp = JsFuture::from(
        fetch
            .call1(&JsValue::UNDEFINED, &url.into())
            .unwrap()
            .unchecked_into::<Promise>(),
    )
    .await
    .unwrap();
    let array_buffer: Function = prop(&resp, "arrayBuffer").unchecked_into();
    let buffer = JsFuture::from(
        array_buffer
            .call0(&resp)
            .unwrap()
            .unchecked_into::<Promise>(),
    )
    .await
    .unwrap();
    Uint8Array::new(&buffer)
}

/// A track's audio stored on the upload host: what an `uploadUrl` of the audio operations is.
pub async fn uploaded_audio(client: &Client, track: &JsValue, name: &str) -> String {
    let bytes = bytes_of(&prop_str(track, "audioUrl")).await;
    let file = ok(client.upload_base64(
        bytes.into(),
        Some(js(json!({ "fileName": format!("{name}.wav") }))),
    ))
    .await;
    prop_str(&file, "downloadUrl")
}

/// The callbacks delivered to inbox `name`, once at least `count` arrived, parsed.
pub async fn events(name: &str, count: u32) -> Vec<JsValue> {
    for _ in 0..200 {
        let items = Array::from(&prop(
            &fetch_json("GET", &format!("{MUSIC}/inbox/{name}"), None, None).await,
            "items",
        ));
        if items.length() >= count {
            return items
                .iter()
                .map(|i| {
                    let body = prop(&i, "body");
                    let event = parse_callback(body.clone())
                        .unwrap_or_else(|e| panic!("{} for {}", message(&e), show(&body)));
                    declared(&event, &Ty::Union(&schema::CALLBACK_EVENT));
                    event
                })
                .collect();
        }
        sleep(50).await;
    }
    panic!("fewer than {count} callbacks arrived in inbox {name}");
}
