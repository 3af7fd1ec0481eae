//! Callbacks as the emulator really delivers them (captured by its inbox), for every family and
//! stage: `parseCallback` types them, a repeat has its first delivery's key (what the package's
//! `CallbackDeduper` remembers, tested in tests/js/callback-deduper.test.mjs), malformed bodies are
//! refused.

use super::common::*;
use js_sys::Array;
use serde_json::json;
use tunesmith::{callback_key, parse_callback, Client};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::wasm_bindgen_test;

fn fast() -> Option<JsValue> {
    Some(js(json!({ "minIntervalMs": 15, "maxIntervalMs": 30 })))
}

fn wait() -> Option<JsValue> {
    Some(js(
        json!({ "wait": { "minIntervalMs": 15, "maxIntervalMs": 30 } }),
    ))
}

/// The bodies delivered to inbox `name` (every attempt, including those answered with an error),
/// once at least `count` have arrived.
async fn delivered(name: &str, count: u32) -> Vec<JsValue> {
    for _ in 0..100 {
        let items = Array::from(&prop(
            &fetch_json("GET", &format!("{MUSIC}/inbox/{name}"), None, None).await,
            "items",
        ));
        if items.length() >= count {
            return items.iter().map(|i| prop(&i, "body")).collect();
        }
        sleep(50).await;
    }
    panic!("fewer than {count} callbacks arrived in inbox {name}");
}

fn parsed(body: &JsValue) -> JsValue {
    parse_callback(body.clone()).unwrap_or_else(|e| panic!("{} for {}", message(&e), show(body)))
}

fn assert_event(event: &JsValue, family: &str, task_id: &str, stage: &str, state: &str) {
    assert_eq!(prop_str(event, "family"), family, "{}", show(event));
    assert_eq!(prop_str(event, "taskId"), task_id);
    assert_eq!(prop_str(event, "stage"), stage, "{}", show(event));
    assert_eq!(prop_str(event, "state"), state);
    assert!(prop(event, "code").as_f64().is_some());
    assert!(!prop(event, "raw").is_undefined());
}

async fn music_task(client: &Client, inbox: &str, title: &str) -> String {
    let request = js(json!({
        "customMode": true, "instrumental": false, "model": "V6", "callBackUrl": format!("{MUSIC}/inbox/{inbox}"),
        "prompt": "la la la", "style": "dream pop", "title": title,
    }));
    prop_str(&ok(client.generate(request, None)).await, "taskId")
}

#[wasm_bindgen_test]
async fn music_stages_parse_with_tracks_in_the_get_task_shape() {
    let t = tag("cb-music");
    let client = client(&t);
    let id = music_task(&client, &t, "called back").await;
    let record = ok(client.wait_for_task(JsValue::from_str(&id), fast())).await;
    let events: Vec<JsValue> = delivered(&t, 3).await.iter().map(parsed).collect();
    assert_event(&events[0], "music", &id, "text", "running");
    assert_event(&events[1], "music", &id, "first", "running");
    assert_event(&events[2], "music", &id, "complete", "succeeded");
    assert_eq!(Array::from(&prop(&events[0], "tracks")).length(), 0);
    let first = Array::from(&prop(&events[1], "tracks"));
    assert_eq!(first.length(), 1);
    assert!(
        !prop_str(&first.get(0), "streamAudioUrl").is_empty(),
        "playable at `first`"
    );
    // The same Track shape as getTask: camelCase keys, same values, ISO times.
    let tracks = Array::from(&prop(&events[2], "tracks"));
    let queried = Array::from(&prop(&record, "tracks"));
    assert_eq!(tracks.length(), 2);
    for (cb, q) in tracks.iter().zip(queried.iter()) {
        assert!(
            prop(&cb, "audio_url").is_undefined(),
            "snake_case leaked: {}",
            show(&cb)
        );
        for key in [
            "id",
            "audioUrl",
            "streamAudioUrl",
            "imageUrl",
            "modelName",
            "title",
            "createTime",
        ] {
            assert_eq!(prop(&cb, key), prop(&q, key), "{key}");
        }
        let (a, b) = (
            prop(&cb, "duration").as_f64().unwrap(),
            prop(&q, "duration").as_f64().unwrap(),
        );
        assert!((a - b).abs() < 1e-6, "duration {a} vs {b}");
    }
    assert!(!prop_str(&events[2], "msg").is_empty());

    let failing = music_task(
        &client,
        &format!("{t}-error"),
        "emulate:GENERATE_AUDIO_FAILED",
    )
    .await;
    let _ = err(client.wait_for_task(JsValue::from_str(&failing), fast())).await;
    let events: Vec<JsValue> = delivered(&format!("{t}-error"), 2)
        .await
        .iter()
        .map(parsed)
        .collect();
    let last = events.last().unwrap();
    assert_event(last, "music", &failing, "error", "failed");
    assert_ne!(prop(last, "code").as_f64(), Some(200.0));
    assert_eq!(Array::from(&prop(last, "tracks")).length(), 0);
}

#[wasm_bindgen_test]
async fn every_other_family_parses_on_success_and_failure() {
    let t = tag("cb-families");
    let client = client(&t);
    let parent = music_task(&client, &format!("{t}-parent"), "parent").await;
    let record = ok(client.wait_for_task(JsValue::from_str(&parent), fast())).await;
    let audio: Vec<String> = Array::from(&prop(&record, "tracks"))
        .iter()
        .map(|t| prop_str(&t, "id"))
        .collect();
    let failed_parent = music_task(&client, &format!("{t}-parent2"), "parent two").await;
    ok(client.wait_for_task(JsValue::from_str(&failed_parent), fast())).await;

    // (family, inbox, create) for success and for failure (`emulate:failed` in the callBackUrl).
    for failing in [false, true] {
        let suffix = if failing { "?emulate:failed" } else { "" };
        let inbox = |family: &str| format!("{t}-{family}-{failing}");
        let cb = |family: &str| format!("{MUSIC}/inbox/{}{suffix}", inbox(family));
        let cover_parent = if failing { &failed_parent } else { &parent };
        let _ = JsFuture::from(client.generate_cover(
            js(json!({ "taskId": cover_parent, "callBackUrl": cb("cover") })),
            wait(),
        ))
        .await;
        let _ = JsFuture::from(client.convert_to_wav(
            js(json!({ "taskId": parent, "audioId": audio[usize::from(failing)], "callBackUrl": cb("wav") })),
            wait(),
        ))
        .await;
        let _ = JsFuture::from(client.generate_lyrics(
            js(json!({ "prompt": "night train", "callBackUrl": cb("lyrics") })),
            wait(),
        ))
        .await;
        let _ = JsFuture::from(client.separate_vocals(
            js(json!({ "taskId": parent, "audioId": audio[0], "callBackUrl": cb("vocal") })),
            wait(),
        ))
        .await;
        let _ = JsFuture::from(client.generate_video(
            js(json!({ "taskId": parent, "audioId": audio[0], "callBackUrl": cb("video") })),
            wait(),
        ))
        .await;

        let (stage, state) = if failing {
            ("error", "failed")
        } else {
            ("complete", "succeeded")
        };
        let cover = parsed(&delivered(&inbox("cover"), 1).await[0]);
        assert_event(&cover, "cover", &prop_str(&cover, "taskId"), stage, state);
        assert_eq!(
            Array::from(&prop(&cover, "images")).length(),
            if failing { 0 } else { 2 },
            "{}",
            show(&cover)
        );

        let wav = parsed(&delivered(&inbox("wav"), 1).await[0]);
        assert_event(&wav, "wav", &prop_str(&wav, "taskId"), stage, state);
        assert_eq!(
            prop(&wav, "audioWavUrl").as_string().is_some(),
            !failing,
            "{}",
            show(&wav)
        );

        let lyrics = parsed(&delivered(&inbox("lyrics"), 1).await[0]);
        assert_event(
            &lyrics,
            "lyrics",
            &prop_str(&lyrics, "taskId"),
            stage,
            state,
        );
        let texts = Array::from(&prop(&lyrics, "lyrics"));
        if failing {
            assert_eq!(texts.length(), 0);
        } else {
            assert!(
                !prop_str(&texts.get(0), "text").is_empty(),
                "{}",
                show(&lyrics)
            );
        }

        let vocal = parsed(&delivered(&inbox("vocal"), 1).await[0]);
        assert_event(
            &vocal,
            "vocal_separation",
            &prop_str(&vocal, "taskId"),
            stage,
            state,
        );
        if failing {
            assert!(prop(&vocal, "stems").is_null());
        } else {
            assert!(
                prop_str(&prop(&vocal, "stems"), "vocalUrl").starts_with("http"),
                "{}",
                show(&vocal)
            );
        }

        let video = parsed(&delivered(&inbox("video"), 1).await[0]);
        assert_event(&video, "video", &prop_str(&video, "taskId"), stage, state);
        assert_eq!(
            prop(&video, "videoUrl").as_string().is_some(),
            !failing,
            "{}",
            show(&video)
        );
    }
}

#[wasm_bindgen_test]
async fn a_repeated_delivery_has_the_key_of_the_first() {
    let t = tag("cb-dup");
    let client = client(&t);
    // The receiver answers 500 to the first delivery: the service delivers the `text` stage again.
    let id = music_task(&client, &format!("{t}?status=500&times=1"), "twice").await;
    ok(client.wait_for_task(JsValue::from_str(&id), fast())).await;
    let bodies = delivered(&t, 4).await;
    // The key the package's CallbackDeduper remembers: one per family, task and stage.
    let keys: Vec<String> = bodies
        .iter()
        .map(|b| callback_key(parsed(b)).unwrap())
        .collect();
    assert_eq!(keys[0], keys[1], "the redelivered `text` stage");
    assert!(keys[1] != keys[2] && keys[2] != keys[3] && keys[1] != keys[3]);
    // A raw body and its JSON text have the key of the event parsed from them.
    assert_eq!(callback_key(bodies[3].clone()).unwrap(), keys[3]);
    assert_eq!(
        callback_key(JsValue::from_str(&show(&bodies[3]))).unwrap(),
        keys[3],
        "a JSON string is parsed"
    );
}

#[wasm_bindgen_test]
fn malformed_bodies_are_refused_cleanly() {
    let cases: Vec<(JsValue, &str)> = vec![
        (JsValue::from_str("{not json"), "body"),
        (JsValue::UNDEFINED, "body"),
        (JsValue::NULL, "body"),
        (JsValue::from(42), "body"),
        (js(json!([1, 2])), "body"),
        (js(json!({})), "code"),
        (js(json!({ "code": "two hundred", "data": {} })), "code"),
        (js(json!({ "code": 200 })), "data"),
        (js(json!({ "code": 200, "data": "x" })), "data"),
        (
            js(json!({ "code": 200, "data": { "callbackType": "complete" } })),
            "data.task_id",
        ),
        (
            js(json!({ "code": 200, "data": { "task_id": "t", "callbackType": "halfway" } })),
            "data.callbackType",
        ),
        (
            js(json!({ "code": 200, "data": { "task_id": "t", "mystery": 1 } })),
            "data",
        ),
    ];
    for (body, field) in cases {
        // `show` cannot print `undefined`: Debug can.
        let e = parse_callback(body.clone()).expect_err(&format!("{body:?}"));
        assert_class(&e, "ValidationError");
        assert_eq!(prop_str(&e, "field"), field, "{body:?}");
    }
    assert_class(
        &callback_key(js(json!({ "hello": "world" }))).unwrap_err(),
        "ValidationError",
    );
    // Bytes (a Node Buffer is a Uint8Array) are read as UTF-8 JSON.
    let bytes = js_sys::Uint8Array::from(
        br#"{"code":200,"msg":"ok","data":{"task_id":"v","video_url":"http://x/v.mp4"}}"#
            .as_slice(),
    );
    let event = parse_callback(bytes.into()).unwrap();
    assert_event(&event, "video", "v", "complete", "succeeded");
}

/// A track's snake_case keys are its own: an enumerable one on `Object.prototype` (a page's old
/// polyfill) is neither renamed into the track nor copied onto it.
#[wasm_bindgen_test]
fn inherited_snake_case_keys_stay_out_of_tracks() {
    let proto: JsValue = js_sys::Object::get_prototype_of(&js_sys::Object::new().into()).into();
    js_sys::Reflect::set(&proto, &"polluted_key".into(), &"x".into()).unwrap();
    let event = parse_callback(js(json!({
        "code": 200,
        "msg": "ok",
        "data": {
            "callbackType": "complete",
            "task_id": "p",
            "data": [{ "id": "a", "audio_url": "http://x/a.mp3" }],
        },
    })));
    js_sys::Reflect::delete_property(
        proto.unchecked_ref::<js_sys::Object>(),
        &"polluted_key".into(),
    )
    .unwrap();
    let track = Array::from(&prop(&event.unwrap(), "tracks")).get(0);
    assert_eq!(prop_str(&track, "audioUrl"), "http://x/a.mp3");
    let own: Vec<String> = js_sys::Object::keys(track.unchecked_ref::<js_sys::Object>())
        .iter()
        .filter_map(|k| k.as_string())
        .collect();
    assert!(!own.iter().any(|k| k.starts_with("polluted")), "{own:?}");
}

/// JS values whose reading throws: a throwing getter, a Proxy with throwing traps, a revoked Proxy.
fn hostile_values() -> Vec<JsValue> {
    let make = js_sys::Function::new_no_args(
        "const getter = { code: 200, get data() { throw new Error('getter boom'); } };
         const trap = new Proxy({}, { get() { throw new Error('trap boom'); }, ownKeys() { throw new Error('keys boom'); } });
         const { proxy, revoke } = Proxy.revocable({}, {});
         revoke();
         return [getter, trap, proxy];",
    );
    Array::from(&make.call0(&JsValue::UNDEFINED).unwrap())
        .iter()
        .collect()
}

#[wasm_bindgen_test]
async fn hostile_values_are_validation_errors_and_leave_the_module_healthy() {
    let hostile = hostile_values();
    let good = js(
        json!({ "code": 200, "msg": "ok", "data": { "callbackType": "complete", "task_id": "t1", "data": [] } }),
    );
    // Thousands of times: an exception that crossed the wasm frames used to leak them, and after
    // about 2,500 the module's memory was corrupt.
    for i in 0..3_000 {
        let value = &hostile[i % hostile.len()];
        let e = parse_callback(value.clone()).unwrap_err();
        assert_class(&e, "ValidationError");
        assert_class(&callback_key(value.clone()).unwrap_err(), "ValidationError");
    }
    // Still healthy: a valid body parses and has its key, a client can be made and used.
    assert_eq!(prop_str(&parsed(&good), "stage"), "complete");
    assert_eq!(
        callback_key(good.clone()).unwrap(),
        callback_key(parsed(&good)).unwrap()
    );
    let t = tag("hostile");
    let client = client(&t);
    for value in &hostile {
        // A Promise that settles, with a typed error.
        assert_class(
            &err(client.get_task(value.clone(), None)).await,
            "ValidationError",
        );
        assert_class(
            &err(client.generate(value.clone(), None)).await,
            "ValidationError",
        );
    }
    assert!(ok(client.get_credits(JsValue::UNDEFINED, None))
        .await
        .is_object());
    // A `headers` option whose getter throws is refused as such.
    let options = options(&t, json!({}));
    let headers =
        js_sys::Function::new_no_args("return { get boom() { throw new Error('header boom'); } };")
            .call0(&JsValue::UNDEFINED)
            .unwrap();
    js_sys::Reflect::set(&options, &"headers".into(), &headers).unwrap();
    let e = match Client::new(Some(options.unchecked_into())) {
        Ok(_) => panic!("a throwing headers getter was accepted"),
        Err(e) => e,
    };
    assert_class(&e, "ValidationError");
    assert_eq!(prop_str(&e, "field"), "headers");
}
