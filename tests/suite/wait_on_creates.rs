//! `wait` on a create: the call resolves with the task's final record (or rejects as the waiter
//! does), for every family; `wait` on a call that starts no task is refused before it is sent.

use super::common::*;
use super::waiting::*;
use js_sys::{Array, Reflect};
use serde_json::json;
use wasm_bindgen_test::wasm_bindgen_test;

#[wasm_bindgen_test]
async fn wait_true_on_a_create_resolves_with_the_final_record() {
    let t = tag("wait-create");
    let client = client(&t);
    let record = ok(client.generate(
        generate_request("waited"),
        Some(js(json!({ "wait": true }))),
    ))
    .await;
    assert_eq!(prop_str(&record, "state"), "succeeded");
    assert_eq!(prop_str(&record, "stage"), "complete");
    assert_eq!(Array::from(&prop(&record, "tracks")).length(), 2);

    // `wait` in the request is honoured and not sent.
    let (on_progress, seen) = recorder();
    let request = generate_request("waited in request");
    let wait = with(fast(json!({})), "onProgress", on_progress.as_ref());
    Reflect::set(&request, &"wait".into(), &wait).unwrap();
    let record = ok(client.generate(request.clone(), None)).await;
    assert_eq!(prop_str(&record, "state"), "succeeded");
    assert_eq!(
        seen.borrow()
            .last()
            .map(|r| prop_str(r, "stage"))
            .as_deref(),
        Some("complete")
    );
    let param: serde_json::Value = serde_json::from_str(&prop_str(&record, "param")).unwrap();
    assert!(param.get("wait").is_none(), "`wait` was sent: {param}");
    assert!(
        !prop(&request, "wait").is_undefined(),
        "the caller's object is left alone"
    );
}

#[wasm_bindgen_test]
async fn wait_on_every_family_create_resolves_with_its_record() {
    let t = tag("wait-families");
    let client = client(&t);
    let (music, tracks) = finished_music(&client, "parent").await;
    let cb = callback_url(&t);
    let wait = || {
        Some(js(
            json!({ "wait": { "minIntervalMs": 15, "maxIntervalMs": 30 } }),
        ))
    };
    let cover =
        ok(client.generate_cover(js(json!({ "taskId": music, "callBackUrl": cb })), wait())).await;
    assert_eq!(prop_str(&cover, "state"), "succeeded");
    assert_eq!(
        Array::from(&prop(&cover, "images")).length(),
        2,
        "{}",
        show(&cover)
    );
    let wav = ok(client.convert_to_wav(
        js(json!({ "taskId": music, "audioId": tracks[0], "callBackUrl": cb })),
        wait(),
    ))
    .await;
    assert!(
        prop_str(&prop(&wav, "response"), "audioWavUrl").starts_with("http"),
        "{}",
        show(&wav)
    );
    let lyrics = ok(client.generate_lyrics(
        js(json!({ "prompt": "rain on the roof", "callBackUrl": cb })),
        wait(),
    ))
    .await;
    assert!(
        Array::from(&prop(&lyrics, "lyrics")).length() >= 1,
        "{}",
        show(&lyrics)
    );
    let vocal = ok(client.separate_vocals(
        js(json!({ "taskId": music, "audioId": tracks[0], "callBackUrl": cb })),
        wait(),
    ))
    .await;
    assert!(
        prop_str(&prop(&vocal, "response"), "vocalUrl").starts_with("http"),
        "{}",
        show(&vocal)
    );
    let video = ok(client.generate_video(
        js(json!({ "taskId": music, "audioId": tracks[1], "callBackUrl": cb })),
        wait(),
    ))
    .await;
    assert!(
        prop_str(&prop(&video, "response"), "videoUrl").starts_with("http"),
        "{}",
        show(&video)
    );
    for record in [&cover, &wav, &lyrics, &vocal, &video] {
        assert_eq!(prop_str(record, "state"), "succeeded", "{}", show(record));
    }
    // A failing create with `wait` rejects as the waiter does.
    let e = err(client.generate(generate_request("emulate:GENERATE_AUDIO_FAILED"), wait())).await;
    assert_class(&e, "TaskFailedError");
}
