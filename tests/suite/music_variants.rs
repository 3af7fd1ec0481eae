//! New music from music: sounds and loops at a tempo and key, a replaced section, a mashup of two
//! uploads; each watched like any music task, each refusal made before anything is sent.

use super::common::*;
use super::songs::*;
use js_sys::Function;
use serde_json::json;
use tunesmith_protocol::Op;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::wasm_bindgen_test;

#[wasm_bindgen_test]
async fn sounds_follow_their_request_and_are_watched_like_music() {
    let t = tag("sounds");
    let client = client(&t);
    let created = ok(client.generate_sounds(
        js(json!({
            "prompt": "a warm rhodes loop", "model": "V5", "soundLoop": true, "soundTempo": 96,
            "soundKey": "Am", "callBackUrl": callback_url(&t),
        })),
        None,
    ))
    .await;
    let task_id = prop_str(&created, "taskId");
    // watchTask works for every music-like family: each stage once, ending with the final one.
    let iterator = client
        .watch_task(JsValue::from_str(&task_id), fast())
        .unwrap();
    let next: Function = prop(&iterator, "next").unchecked_into();
    let mut stages = Vec::new();
    loop {
        let step = ok(next.call0(&iterator).unwrap().unchecked_into()).await;
        if prop(&step, "done").as_bool() == Some(true) {
            break;
        }
        stages.push(prop_str(&prop(&step, "value"), "stage"));
    }
    assert_eq!(
        stages.last().map(String::as_str),
        Some("complete"),
        "{stages:?}"
    );
    let mut sorted = stages.clone();
    sorted.dedup();
    assert_eq!(sorted, stages, "no stage twice");
    let record = ok(client.get_task(js(json!({ "taskId": task_id })), None)).await;
    declared_output(&record, Op::GetTask);
    let sound = tracks(&record).get(0);
    assert!(prop(&sound, "duration").as_f64().is_some_and(|d| d > 0.0));
    let last = events(&t, 1).await;
    assert!(last.iter().all(|e| prop_str(e, "family") == "music"));

    // Sounds take any model's name (V6 by default), and a tempo of 1 to 300.
    for (request, field, rule) in [
        (json!({ "prompt": "p", "model": "" }), "model", "not_empty"),
        (
            json!({ "prompt": "p", "model": "V5", "soundTempo": 301 }),
            "soundTempo",
            "range",
        ),
        (
            json!({ "prompt": "p".repeat(501), "model": "V5" }),
            "prompt",
            "max_length",
        ),
        (
            json!({ "prompt": "p", "model": "V5", "soundKey": "H" }),
            "soundKey",
            "one_of",
        ),
    ] {
        let e = err(client.generate_sounds(js(request), None)).await;
        assert_class(&e, "ValidationError");
        assert_eq!(
            (
                prop_str(&e, "field").as_str(),
                prop_str(&e, "rule").as_str()
            ),
            (field, rule)
        );
    }
    assert_eq!(
        stats(&t).await.1,
        1,
        "only the valid sounds task was created"
    );
}

#[wasm_bindgen_test]
async fn replace_section_regenerates_a_window_and_refuses_bad_windows_before_sending() {
    let t = tag("replace");
    let client = client(&t);
    let source = song(&client, &t).await;
    let task_id = prop_str(&source, "taskId");
    let audio_id = prop_str(&tracks(&source).get(0), "id");
    let request = |start: f64, end: f64| {
        js(json!({
            "taskId": task_id, "audioId": audio_id, "prompt": "new words here",
            "tags": "dream pop", "title": "Source (edit)", "fullLyrics": "la la la\nnew words here",
            "infillStartS": start, "infillEndS": end, "callBackUrl": callback_url(&t),
        }))
    };
    let before = stats(&t).await;
    for (start, end, field, rule) in [
        (20.0, 10.0, "infillEndS", "range"),
        (10.0, 19.99, "infillEndS", "range"),
        (10.0, 20.005, "infillEndS", "step"),
    ] {
        let e = err(client.replace_section(request(start, end), None)).await;
        assert_class(&e, "ValidationError");
        assert_eq!(
            (
                prop_str(&e, "field").as_str(),
                prop_str(&e, "rule").as_str()
            ),
            (field, rule),
            "{}",
            message(&e)
        );
    }
    assert_eq!(stats(&t).await, before, "refused windows reach nothing");

    let record = ok(client.replace_section(request(4.0, 14.0), wait())).await;
    assert_eq!(prop_str(&record, "state"), "succeeded", "{}", show(&record));
    assert!(tracks(&record).length() >= 1);

    // The service's own check: at most half of the track.
    let duration = prop(&tracks(&source).get(0), "duration").as_f64().unwrap();
    let long = (duration * 0.5 + 6.0).clamp(6.0, 60.0);
    if long > duration / 2.0 {
        let e =
            err(client.replace_section(request(0.0, (long * 100.0).round() / 100.0), None)).await;
        assert_class(&e, "ApiError");
        assert_eq!(prop_str(&e, "kind"), "invalid", "{}", message(&e));
    }
}

#[wasm_bindgen_test]
async fn mashup_mixes_two_uploads_and_needs_exactly_two() {
    let t = tag("mashup");
    let client = client(&t);
    let source = song(&client, &t).await;
    let first = uploaded_audio(&client, &tracks(&source).get(0), &format!("{t}-a")).await;
    let second = uploaded_audio(&client, &tracks(&source).get(1), &format!("{t}-b")).await;
    let record = ok(client.mashup(
        js(json!({
            "uploadUrlList": [first, second], "customMode": false, "model": "V5",
            "prompt": "mash them together", "callBackUrl": callback_url(&t),
        })),
        wait(),
    ))
    .await;
    assert_eq!(prop_str(&record, "state"), "succeeded", "{}", show(&record));
    let e = err(client.mashup(
        js(json!({
            "uploadUrlList": [first], "customMode": false, "model": "V5",
            "prompt": "p", "callBackUrl": callback_url(&t),
        })),
        None,
    ))
    .await;
    assert_eq!(prop_str(&e, "field"), "uploadUrlList");
    assert_eq!(prop_str(&e, "rule"), "range");
}
