//! Two families with encodings of their own: the MIDI notes of a separation's stems (an integer
//! flag), and an older song's recovered links (recovery's own envelope, 201 while running).

use super::common::*;
use super::songs::*;
use js_sys::Array;
use serde_json::json;
use tunesmith_protocol::Op;
use wasm_bindgen::JsValue;
use wasm_bindgen_test::wasm_bindgen_test;

#[wasm_bindgen_test]
async fn midi_lists_the_notes_of_a_separation_and_refuses_other_tasks() {
    let t = tag("midi");
    let client = client(&t);
    let source = song(&client, &t).await;
    let task_id = prop_str(&source, "taskId");
    let separation = ok(client.separate_vocals(
        js(json!({
            "taskId": task_id, "audioId": prop_str(&tracks(&source).get(0), "id"),
            "type": "split_stem", "callBackUrl": callback_url(&t),
        })),
        wait(),
    ))
    .await;
    assert_eq!(prop_str(&separation, "state"), "succeeded");
    let stems = Array::from(&prop(&prop(&separation, "response"), "originData"));
    assert!(stems.length() >= 2, "{}", show(&separation));
    let stem_id = prop_str(&stems.get(0), "id");
    let midi = ok(client.generate_midi(
        js(json!({
            "taskId": prop_str(&separation, "taskId"), "audioId": stem_id,
            "callBackUrl": callback_url(&format!("{t}-midi")),
        })),
        wait(),
    ))
    .await;
    assert_eq!(prop_str(&midi, "state"), "succeeded", "{}", show(&midi));
    declared_output(&midi, Op::GetMidi);
    declared_output(&separation, Op::GetVocalSeparation);
    assert_eq!(prop(&midi, "successFlag").as_f64(), Some(1.0));
    let instruments = Array::from(&prop(&prop(&midi, "midiData"), "instruments"));
    assert!(instruments.length() >= 1);
    let notes = Array::from(&prop(&instruments.get(0), "notes"));
    assert!(notes.length() > 0, "{}", show(&midi));
    for note in notes.iter() {
        let pitch = prop(&note, "pitch").as_f64().unwrap();
        let (start, end) = (
            prop(&note, "start").as_f64().unwrap(),
            prop(&note, "end").as_f64().unwrap(),
        );
        assert!((0.0..=127.0).contains(&pitch) && pitch.fract() == 0.0);
        assert!(start < end, "{}", show(&note));
    }
    // ISO 8601 times, whatever the service wrote (epoch milliseconds here).
    assert_eq!(prop_str(&midi, "createTime").as_bytes()[10], b'T');
    let callback = events(&format!("{t}-midi"), 1).await;
    assert_eq!(prop_str(&callback[0], "family"), "midi");
    assert_eq!(prop_str(&callback[0], "stage"), "complete");
    assert!(!prop(&callback[0], "midiData").is_null());

    // MIDI of a task that is not a finished vocal separation: the documented error.
    let e = err(client.generate_midi(
        js(json!({ "taskId": task_id, "callBackUrl": callback_url(&t) })),
        None,
    ))
    .await;
    assert_class(&e, "ApiError");
}

#[wasm_bindgen_test]
async fn recovery_answers_its_own_envelope_until_fresh_links_are_ready() {
    let t = tag("recovery");
    let client = client(&t);
    let source = song(&client, &t).await;
    let created = ok(client.recover_audio(
        js(json!({ "sunoTaskId": prop_str(&source, "taskId"), "callBackUrl": callback_url(&t) })),
        None,
    ))
    .await;
    let task_id = prop_str(&created, "taskId");
    // Right after creation: 201, running, no tracks yet (not an error).
    let first = ok(client.get_recovery(js(json!({ "task_id": task_id })), None)).await;
    assert_eq!(prop_str(&first, "taskId"), task_id);
    declared_output(&first, Op::GetRecovery);
    assert!(["running", "succeeded"].contains(&prop_str(&first, "state").as_str()));
    let record = ok(client.wait_for_recovery(
        JsValue::from_str(&task_id),
        Some(js(json!({ "minIntervalMs": 15, "maxIntervalMs": 40 }))),
    ))
    .await;
    assert_eq!(prop_str(&record, "state"), "succeeded", "{}", show(&record));
    assert_eq!(prop(&record, "code").as_f64(), Some(200.0));
    declared_output(&record, Op::GetRecovery);
    let recovered = tracks(&record);
    assert_eq!(recovered.length(), tracks(&source).length());
    let link = prop_str(&recovered.get(0), "audio_url");
    assert!(
        bytes_of(&link).await.length() > 1000,
        "the fresh link serves audio"
    );
    let callback = events(&t, 3).await;
    assert!(callback.iter().any(|e| prop_str(e, "family") == "recovery"));

    let e = err(client.recover_audio(
        js(json!({ "sunoTaskId": "no-such-task", "callBackUrl": callback_url(&t) })),
        None,
    ))
    .await;
    assert_class(&e, "ApiError");
}
