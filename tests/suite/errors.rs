//! Envelope codes map to the right class and `kind` per endpoint family; the key never leaks.

use super::common::*;
use serde_json::json;
use wasm_bindgen::JsValue;
use wasm_bindgen_test::wasm_bindgen_test;

fn emulate(code: u32) -> Option<JsValue> {
    Some(js(
        json!({ "headers": { "X-Emulate-Code": code.to_string() }, "maxRetries": 0 }),
    ))
}

#[wasm_bindgen_test]
async fn music_family_codes_map_to_kinds() {
    let t = tag("music-codes");
    let client = client(&t);
    for (code, kind) in [
        (400, "invalid"),
        (401, "unauthorized"),
        (404, "not_found"),
        (405, "rate_limited"),
        (413, "invalid"),
        (429, "insufficient_credits"),
        (430, "rate_limited"),
        (455, "maintenance"),
        (500, "server"),
    ] {
        let e = err(client.add_instrumental(
            js(json!({ "uploadUrl": "https://example.com/a.wav", "title": "t", "negativeTags": "n", "tags": "t", "callBackUrl": "https://example.com/cb" })),
            emulate(code),
        ))
        .await;
        assert_class(&e, "ApiError");
        assert_eq!(
            prop(&e, "code").as_f64(),
            Some(f64::from(code)),
            "{}",
            message(&e)
        );
        assert_eq!(prop_str(&e, "kind"), kind, "code {code}: {}", message(&e));
        assert!(
            prop(&e, "requestId")
                .as_string()
                .is_some_and(|r| !r.is_empty()),
            "requestId on {code}"
        );
        assert_eq!(prop(&e, "attempts").as_f64(), Some(1.0));
        assert!(message(&e).contains(&code.to_string()));
    }
    // X-Emulate-Code answers create nothing.
    assert_eq!(stats(&t).await.1, 0);
}

#[wasm_bindgen_test]
async fn cover_family_codes_map_to_kinds() {
    let t = tag("cover-codes");
    let client = client(&t);
    for (code, kind) in [
        (400, "invalid"),
        (401, "unauthorized"),
        (402, "insufficient_credits"),
        (404, "not_found"),
        (409, "conflict"),
        (422, "invalid"),
        (429, "rate_limited"),
        (455, "maintenance"),
        (500, "server"),
    ] {
        let e = err(client.get_cover(js(json!({ "taskId": "any" })), emulate(code))).await;
        assert_class(&e, "ApiError");
        assert_eq!(
            prop_str(&e, "kind"),
            kind,
            "cover code {code}: {}",
            message(&e)
        );
    }
}

#[wasm_bindgen_test]
async fn real_service_errors_are_typed() {
    let t = tag("real-errors");
    // A wrong key: 401 from the emulator itself, and the key appears nowhere in the error.
    let secret = "ts-wrong-key-that-must-not-leak";
    let wrong = client_with(&t, json!({ "apiKey": secret }));
    let e = err(wrong.get_credits(JsValue::UNDEFINED, None)).await;
    assert_class(&e, "ApiError");
    assert_eq!(prop_str(&e, "kind"), "unauthorized");
    let everything = format!(
        "{} {} {} {}",
        message(&e),
        show(&e),
        prop(&e, "stack").as_string().unwrap_or_default(),
        String::from(wasm_bindgen::JsCast::unchecked_ref::<js_sys::Object>(&e).to_string())
    );
    assert!(!everything.contains(secret), "the key leaked: {everything}");

    // An unknown task: not_found.
    let client = client(&t);
    let e = err(client.get_task(js(json!({ "taskId": "no-such-task" })), None)).await;
    assert_class(&e, "ApiError");
    assert_eq!(prop_str(&e, "kind"), "not_found");

    // A second cover for the same task: conflict (409).
    let created = ok(client.generate(
        js(json!({ "customMode": false, "instrumental": true, "model": "V6", "callBackUrl": callback_url(&t), "prompt": "p" })),
        None,
    ))
    .await;
    let id = prop_str(&created, "taskId");
    settle(|| client.get_task(js(json!({ "taskId": id })), None)).await;
    let cover = js(json!({ "taskId": id, "callBackUrl": callback_url(&t) }));
    ok(client.generate_cover(cover.clone(), None)).await;
    let e = err(client.generate_cover(cover, None)).await;
    assert_eq!(prop_str(&e, "kind"), "conflict");
    assert_eq!(prop(&e, "code").as_f64(), Some(409.0));
}

#[wasm_bindgen_test]
async fn insufficient_credits_differ_per_family_and_create_nothing() {
    let t = tag("credits");
    // A finished task of another key, so that the cover request names a real task.
    let rich = client(&t);
    let created = ok(rich.generate(
        js(json!({ "customMode": false, "instrumental": true, "model": "V6", "callBackUrl": callback_url(&t), "prompt": "p" })),
        None,
    ))
    .await;
    let task_id = prop_str(&created, "taskId");
    settle(|| rich.get_task(js(json!({ "taskId": task_id })), None)).await;
    let before = stats(&t).await.1;
    set_credits(SPARE_KEY, 0).await;
    let client = client_with(&t, json!({ "apiKey": SPARE_KEY }));
    let e = err(client.generate(
        js(json!({ "customMode": false, "instrumental": true, "model": "V6", "callBackUrl": callback_url(&t), "prompt": "p" })),
        None,
    ))
    .await;
    assert_eq!(prop_str(&e, "kind"), "insufficient_credits");
    assert_eq!(prop(&e, "code").as_f64(), Some(429.0));
    let e = err(client.generate_cover(
        js(json!({ "taskId": task_id, "callBackUrl": callback_url(&t) })),
        None,
    ))
    .await;
    assert_eq!(prop_str(&e, "kind"), "insufficient_credits");
    assert_eq!(prop(&e, "code").as_f64(), Some(402.0));
    assert_eq!(
        stats(&t).await.1,
        before,
        "no task was created without credits"
    );
    set_credits(SPARE_KEY, 10_000).await;
}
