//! Every rule of the spec is refused before the network: `ValidationError` names the field and the
//! rule, and the emulator sees no request.

use super::common::*;
use js_sys::Promise;
use serde_json::{json, Value};
use tunesmith::Client;
use wasm_bindgen::JsValue;
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
            with(&add_instrumental, json!({ "model": "V7" })),
            "model",
            "one_of",
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
            with(&add_vocals, json!({ "prompt": "" })),
            "prompt",
            "required",
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
            with(&generate, json!({ "model": "V3" })),
            "model",
            "one_of",
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
        let e = err(call(&client, method, js(request))).await;
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
fn bad_client_options_throw_typed_errors() {
    for (extra, field) in [
        (json!({ "baseUrl": "ftp://x" }), "baseUrl"),
        (json!({ "maxRetries": -1 }), "maxRetries"),
        (json!({ "maxRetries": 2.5 }), "maxRetries"),
        (json!({ "timeoutMs": 0 }), "timeoutMs"),
        (json!({ "apiKey": 42 }), "apiKey"),
        (json!({ "headers": { "X-A": 1 } }), "headers"),
    ] {
        let opts = options("opts", extra);
        let e = match Client::new(Some(wasm_bindgen::JsCast::unchecked_into(opts))) {
            Ok(_) => panic!("{field}: accepted"),
            Err(e) => e,
        };
        assert_class(&e, "ValidationError");
        assert_eq!(prop_str(&e, "field"), field);
    }
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
