//! Every rule of the spec is refused before the network, by both faces: the error names the field
//! and the rule, and the emulator sees no request. Over 400 lines on purpose: its first test is one
//! table of every rule, read row by row like the endpoint table it checks.

use super::common::*;
use js_sys::Promise;
use serde_json::{json, Value};
use tunesmith::Client;
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::wasm_bindgen_test;

fn call(client: &Client, method: &str, request: JsValue) -> Promise {
    match method {
        "generate" => client.generate(request, None),
        "extend" => client.extend(request, None),
        "uploadCover" => client.upload_cover(request, None),
        "uploadExtend" => client.upload_extend(request, None),
        "addInstrumental" => client.add_instrumental(request, None),
        "addVocals" => client.add_vocals(request, None),
        "boostStyle" => client.boost_style(request, None),
        "getTask" => client.get_task(request, None),
        "generateCover" => client.generate_cover(request, None),
        "getCover" => client.get_cover(request, None),
        "convertToWav" => client.convert_to_wav(request, None),
        "generateLyrics" => client.generate_lyrics(request, None),
        "getTimestampedLyrics" => client.get_timestamped_lyrics(request, None),
        "separateVocals" => client.separate_vocals(request, None),
        "generateVideo" => client.generate_video(request, None),
        other => panic!("no method {other}"),
    }
}

fn with(base: &Value, changes: Value) -> Value {
    let mut v = base.clone();
    for (k, val) in changes.as_object().unwrap() {
        if val.is_null() {
            v.as_object_mut().unwrap().remove(k);
        } else {
            v[k] = val.clone();
        }
    }
    v
}

#[wasm_bindgen_test]
async fn every_rule_is_refused_client_side_with_nothing_sent() {
    let t = tag("validation");
    let client = client(&t);
    let cb = "https://example.com/cb";
    let add_instrumental = json!({ "uploadUrl": "https://example.com/v.mp3", "title": "t", "negativeTags": "n", "tags": "t", "callBackUrl": cb });
    let add_vocals = json!({ "uploadUrl": "https://example.com/v.mp3", "callBackUrl": cb, "prompt": "p", "title": "t", "negativeTags": "n", "style": "s" });
    let extend = json!({ "defaultParamFlag": true, "audioId": "a", "callBackUrl": cb, "prompt": "p", "style": "s", "title": "t", "continueAt": 10 });
    let generate = json!({ "customMode": false, "instrumental": true, "model": "V6", "callBackUrl": cb, "prompt": "p" });
    let long = |n: usize| Value::String("x".repeat(n));
    let words = |n: usize| Value::String(vec!["word"; n].join(" "));

    let cases: Vec<(&str, Value, &str, &str)> = vec![
        (
            "addInstrumental",
            with(&add_instrumental, json!({ "uploadUrl": null })),
            "uploadUrl",
            "required",
        ),
        (
            "addInstrumental",
            with(&add_instrumental, json!({ "title": null })),
            "title",
            "required",
        ),
        (
            "addInstrumental",
            with(&add_instrumental, json!({ "negativeTags": null })),
            "negativeTags",
            "required",
        ),
        (
            "addInstrumental",
            with(&add_instrumental, json!({ "tags": null })),
            "tags",
            "required",
        ),
        (
            "addInstrumental",
            with(&add_instrumental, json!({ "callBackUrl": null })),
            "callBackUrl",
            "required",
        ),
        (
            "addInstrumental",
            with(&add_instrumental, json!({ "lyrics": long(5001) })),
            "lyrics",
            "max_length",
        ),
        (
            "addInstrumental",
            with(
                &add_instrumental,
                json!({ "lyrics": long(5001), "model": "V6_WILD" }),
            ),
            "lyrics",
            "max_length",
        ),
        (
            "addInstrumental",
            with(&add_instrumental, json!({ "vocalGender": "x" })),
            "vocalGender",
            "one_of",
        ),
        (
            "addInstrumental",
            with(&add_instrumental, json!({ "styleWeight": 1.5 })),
            "styleWeight",
            "range",
        ),
        (
            "addInstrumental",
            with(&add_instrumental, json!({ "weirdnessConstraint": 0.123 })),
            "weirdnessConstraint",
            "step",
        ),
        (
            "addInstrumental",
            with(&add_instrumental, json!({ "audioWeight": -0.1 })),
            "audioWeight",
            "range",
        ),
        (
            "addInstrumental",
            with(&add_instrumental, json!({ "audioWeight": "0.5" })),
            "audioWeight",
            "type",
        ),
        (
            "addInstrumental",
            with(&add_instrumental, json!({ "variety": 5 })),
            "variety",
            "range",
        ),
        (
            "addInstrumental",
            with(&add_instrumental, json!({ "variety": 1.5 })),
            "variety",
            "integer",
        ),
        (
            "addInstrumental",
            // A model name is an open list (V6): an unknown one goes on to the service, an
            // empty one is refused here.
            with(&add_instrumental, json!({ "model": " " })),
            "model",
            "not_empty",
        ),
        (
            "addInstrumental",
            with(
                &add_instrumental,
                json!({ "uploadUrl": "ftp://example.com/a.mp3" }),
            ),
            "uploadUrl",
            "url",
        ),
        (
            "addInstrumental",
            with(&add_instrumental, json!({ "callBackUrl": "not a url" })),
            "callBackUrl",
            "url",
        ),
        (
            "addVocals",
            with(&add_vocals, json!({ "style": null })),
            "style",
            "required",
        ),
        (
            "addVocals",
            // V6: addVocals' prompt is no longer required, but still a string when given.
            with(&add_vocals, json!({ "prompt": 5 })),
            "prompt",
            "type",
        ),
        (
            "addVocals",
            with(&add_vocals, json!({ "styleWeight": 0.001 })),
            "styleWeight",
            "step",
        ),
        (
            "extend",
            with(&extend, json!({ "prompt": null })),
            "prompt",
            "required",
        ),
        (
            "extend",
            with(&extend, json!({ "style": null })),
            "style",
            "required",
        ),
        (
            "extend",
            with(&extend, json!({ "title": null })),
            "title",
            "required",
        ),
        (
            "extend",
            with(&extend, json!({ "prompt": long(3001) })),
            "prompt",
            "max_length",
        ),
        (
            "extend",
            with(&extend, json!({ "style": long(201) })),
            "style",
            "max_length",
        ),
        (
            "extend",
            with(&extend, json!({ "title": long(81) })),
            "title",
            "max_length",
        ),
        (
            "extend",
            with(&extend, json!({ "continueAt": 0 })),
            "continueAt",
            "range",
        ),
        (
            "extend",
            with(&extend, json!({ "audioId": null })),
            "audioId",
            "required",
        ),
        (
            "extend",
            with(&extend, json!({ "defaultParamFlag": "yes" })),
            "defaultParamFlag",
            "type",
        ),
        (
            "generate",
            with(&generate, json!({ "model": null })),
            "model",
            "required",
        ),
        (
            "generate",
            with(&generate, json!({ "customMode": null })),
            "customMode",
            "required",
        ),
        (
            "generate",
            with(&generate, json!({ "model": "" })),
            "model",
            "not_empty",
        ),
        (
            "uploadCover",
            json!({ "customMode": false, "instrumental": true, "model": "V6", "callBackUrl": cb }),
            "uploadUrl",
            "required",
        ),
        (
            "uploadExtend",
            json!({ "uploadUrl": "https://e.com/a.mp3", "defaultParamFlag": true, "model": "V6", "callBackUrl": cb, "style": "s", "title": "t", "instrumental": true }),
            "continueAt",
            "required",
        ),
        ("boostStyle", json!({}), "content", "required"),
        ("getTask", json!({}), "taskId", "required"),
        ("getCover", json!({ "taskId": 42 }), "taskId", "type"),
        (
            "generateCover",
            json!({ "taskId": "t" }),
            "callBackUrl",
            "required",
        ),
        (
            "convertToWav",
            json!({ "callBackUrl": cb }),
            "taskId",
            "dependency",
        ),
        (
            "generateLyrics",
            json!({ "prompt": words(201), "callBackUrl": cb }),
            "prompt",
            "max_words",
        ),
        (
            "getTimestampedLyrics",
            json!({ "taskId": "t", "musicIndex": 2 }),
            "musicIndex",
            "range",
        ),
        (
            "separateVocals",
            json!({ "taskId": "t", "audioId": "a", "callBackUrl": cb, "type": "karaoke" }),
            "type",
            "one_of",
        ),
        (
            "generateVideo",
            json!({ "taskId": "t", "audioId": "a", "callBackUrl": cb, "author": long(51) }),
            "author",
            "max_length",
        ),
    ];
    let count = cases.len();
    for (method, request, field, rule) in cases {
        let e = match JsFuture::from(call(&client, method, js(request))).await {
            Ok(v) => panic!(
                "{method} {field} ({rule}): expected a refusal, got {}",
                show(&v)
            ),
            Err(e) => e,
        };
        assert_class(&e, "ValidationError");
        assert_eq!(prop_str(&e, "field"), field, "{method}: {}", message(&e));
        assert_eq!(
            prop_str(&e, "rule"),
            rule,
            "{method} {field}: {}",
            message(&e)
        );
        assert_eq!(prop_str(&e, "kind"), "validation");
        assert!(
            message(&e).contains(field),
            "the message names the field: {}",
            message(&e)
        );
        assert_eq!(prop(&e, "attempts").as_f64(), Some(0.0));
    }
    assert!(count >= 40);
    assert_eq!(
        stats(&t).await,
        (0, 0),
        "validation failures must not reach the service"
    );
}

#[wasm_bindgen_test]
async fn requests_that_are_not_objects_are_refused() {
    let t = tag("not-object");
    let client = client(&t);
    for bad in [
        JsValue::from_str("taskId"),
        JsValue::NULL,
        JsValue::from_f64(1.0),
    ] {
        let e = err(client.get_task(bad, None)).await;
        assert_class(&e, "ValidationError");
        assert_eq!(prop_str(&e, "field"), "request");
    }
    assert_eq!(stats(&t).await, (0, 0));
}

#[wasm_bindgen_test]
async fn unknown_fields_are_refused_with_the_closest_name_and_extra_fields_pass_through() {
    let t = tag("unknown-fields");
    let client = client(&t);
    let typo = js(json!({
        "customMode": false, "instrumental": true, "model": "V6", "prompt": "a song",
        "callBackUrl": callback_url(&t), "callbackUrl": callback_url(&t),
    }));
    let e = err(client.generate(typo, None)).await;
    assert_class(&e, "ValidationError");
    assert_eq!(prop_str(&e, "field"), "callbackUrl");
    assert_eq!(prop_str(&e, "rule"), "unknown_field");
    assert!(
        message(&e).contains("did you mean `callBackUrl`?"),
        "{}",
        message(&e)
    );
    assert_eq!(stats(&t).await.0, 0, "nothing was sent");

    // The explicit way to send what the package does not know yet.
    let request = js(json!({
        "customMode": false, "instrumental": true, "model": "V6", "prompt": "a song",
        "callBackUrl": callback_url(&t),
    }));
    let options = js(json!({ "extraFields": { "futureKnob": 3 } }));
    let created = ok(client.generate(request, Some(options))).await;
    let task_id = prop_str(&created, "taskId");
    let record = ok(client.get_task(
        js(json!({ "taskId": task_id })),
        Some(js(json!({ "extraFields": { "verbose": true } }))),
    ))
    .await;
    assert!(
        prop_str(&record, "param").contains("\"futureKnob\":3"),
        "{}",
        show(&record)
    );
    let log = requests(&t).await;
    let query = prop_str(log.last().unwrap(), "query");
    assert!(query.contains("verbose=true"), "{query}");
    // A non-object is refused before anything is sent.
    let e =
        err(client.get_credits(JsValue::UNDEFINED, Some(js(json!({ "extraFields": 5 }))))).await;
    assert_eq!(prop_str(&e, "field"), "extraFields");
}

#[wasm_bindgen_test]
async fn the_public_documents_stated_rules_are_refused_before_anything_is_sent() {
    let t = tag("stated-rules");
    let client = client(&t);
    let cb = callback_url(&t);
    let long = "p".repeat(3001);
    let url = "https://example.com/r.png";
    let cases = [
        // Non-custom mode (V6): one input at least (the idea in `prompt`, references, style or
        // lyrics); the prompt at most 3000 characters; custom mode's fields refused by name.
        (
            json!({ "customMode": false, "instrumental": false, "model": "V5", "callBackUrl": cb, "prompt": "" }),
            "prompt",
            "required",
        ),
        (
            json!({ "customMode": false, "instrumental": false, "model": "V5", "callBackUrl": cb, "prompt": long }),
            "prompt",
            "max_length",
        ),
        (
            json!({ "customMode": false, "instrumental": false, "model": "V6", "callBackUrl": cb, "prompt": "p", "duration": 30 }),
            "duration",
            "dependency",
        ),
        (
            json!({ "customMode": false, "instrumental": false, "model": "V6", "callBackUrl": cb, "imageUrls": [url, url, url, url, url, url] }),
            "imageUrls",
            "range",
        ),
        (
            json!({ "customMode": false, "instrumental": false, "model": "V6", "callBackUrl": cb, "imageUrls": [url, url, url, url, url], "audioUrls": [url, url, url, url, url], "lyrics": "la" }),
            "lyrics",
            "range",
        ),
        // Custom mode (V6): one of style, lyrics or negativeTags; references refused.
        (
            json!({ "customMode": true, "instrumental": true, "model": "V5", "callBackUrl": cb, "title": "t" }),
            "style",
            "required",
        ),
        (
            json!({ "customMode": true, "instrumental": true, "model": "V6", "callBackUrl": cb, "style": "jazz", "videoUrls": [url] }),
            "videoUrls",
            "dependency",
        ),
        (
            json!({ "customMode": true, "instrumental": true, "model": "V6", "callBackUrl": cb, "style": "jazz", "duration": 361 }),
            "duration",
            "range",
        ),
        (
            json!({ "customMode": true, "instrumental": true, "model": "V6", "callBackUrl": cb, "style": "jazz", "variety": 1.5 }),
            "variety",
            "integer",
        ),
        // The limits depend on the model: V4 titles are at most 80 characters.
        (
            json!({ "customMode": true, "instrumental": true, "model": "V4", "callBackUrl": cb, "style": "jazz", "title": "t".repeat(81) }),
            "title",
            "max_length",
        ),
        (
            json!({ "customMode": true, "instrumental": true, "model": "V4", "callBackUrl": cb, "style": "s".repeat(201), "title": "t" }),
            "style",
            "max_length",
        ),
    ];
    for (request, field, rule) in cases {
        let e = err(client.generate(js(request.clone()), None)).await;
        assert_class(&e, "ValidationError");
        assert_eq!(
            (
                prop_str(&e, "field").as_str(),
                prop_str(&e, "rule").as_str()
            ),
            (field, rule),
            "{request}: {}",
            message(&e)
        );
    }
    let e = err(client.separate_vocals(
        js(json!({ "taskId": "t", "audioId": "a", "callBackUrl": cb, "type": "split_stem_advanced" })),
        None,
    ))
    .await;
    assert_eq!(
        (
            prop_str(&e, "field").as_str(),
            prop_str(&e, "rule").as_str()
        ),
        ("stemName", "required")
    );
    assert_eq!(stats(&t).await, (0, 0), "nothing reached the service");
}

/// The Rust face refuses what the same rules refuse, before anything is sent.
#[cfg(feature = "rust-api")]
mod rust_face {
    use crate::suite::common::{stats, tag};
    use crate::suite::faces::rust::*;
    use tunesmith::rust_api::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    async fn invalid_requests_are_refused_before_anything_is_sent() {
        let t = tag("rs-validation");
        let client = client(&t);
        let mut bad_model = generate_request(&t, "x");
        bad_model.model = " ".into();
        let e = client.generate(&bad_model).await.unwrap_err();
        assert_eq!(e.kind(), ClientErrorKind::Validation, "{e:?}");
        assert_eq!(
            (e.field(), e.rule()),
            (Some("model"), Some(RuleKind::NotEmpty))
        );
        let custom_without_prompt = ExtendRequest {
            default_param_flag: true,
            audio_id: "a1".into(),
            call_back_url: "https://example.com/cb".into(),
            ..ExtendRequest::default()
        };
        let e = client.extend(&custom_without_prompt).await.unwrap_err();
        assert_eq!(e.kind().as_str(), "validation");
        assert_eq!(
            (e.field(), e.rule()),
            (Some("prompt"), Some(RuleKind::Required))
        );
        let e = client
            .convert_to_wav(&ConvertToWavRequest::default())
            .await
            .unwrap_err();
        assert_eq!(e.rule(), Some(RuleKind::Dependency), "{e:?}");
        let e = client
            .get_task(&TaskQuery {
                task_id: " ".into(),
            })
            .await
            .unwrap_err();
        assert_eq!(e.rule(), Some(RuleKind::Required), "{e:?}");
        assert!(client.wait_for_task("", fast()).await.is_err());
        assert_eq!(stats(&t).await, (0, 0), "nothing reached the emulator");
    }
}
