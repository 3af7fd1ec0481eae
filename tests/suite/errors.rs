//! Envelope codes map to the right class and `kind` per table of codes, in both faces; the key
//! never leaks.

use super::common::*;
use serde_json::json;
use tunesmith::Client;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::wasm_bindgen_test;

fn emulate(code: u32) -> Option<JsValue> {
    Some(js(
        json!({ "headers": { "X-Emulate-Code": code.to_string() }, "maxRetries": 0 }),
    ))
}

#[wasm_bindgen_test]
async fn music_table_codes_map_to_kinds() {
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
async fn cover_table_codes_map_to_kinds() {
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
async fn insufficient_credits_differ_per_table_and_create_nothing() {
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

/// A client whose `fetch` is the given JS function source (`(input, init) => ...`).
fn client_with_fetch(t: &str, source: &str) -> Client {
    let fetch = js_sys::Function::new_no_args(&format!("return {source};"))
        .call0(&JsValue::UNDEFINED)
        .unwrap();
    let opts = options(t, json!({}));
    js_sys::Reflect::set(&opts, &"fetch".into(), &fetch).unwrap();
    Client::new(Some(opts.unchecked_into())).unwrap()
}

#[wasm_bindgen_test]
async fn timeouts_and_aborts_settle_even_when_fetch_ignores_its_signal() {
    let t = tag("deaf-fetch");
    // Some polyfills and test doubles never look at `init.signal`: this one never answers at all.
    let client = client_with_fetch(&t, "() => new Promise(() => {})");
    let e = err(client.get_credits(
        JsValue::UNDEFINED,
        Some(js(json!({ "timeoutMs": 100, "maxRetries": 0 }))),
    ))
    .await;
    assert_class(&e, "TimeoutError");

    let controller = abort_controller();
    let pending = client.get_credits(JsValue::UNDEFINED, Some(signal_options(&controller)));
    sleep(50).await;
    controller.abort();
    assert_class(&err(pending).await, "AbortError");

    let e = err(client.wait_for_task(
        JsValue::from_str("some-task"),
        Some(js(json!({ "timeoutMs": 200, "minIntervalMs": 20 }))),
    ))
    .await;
    assert_class(&e, "TimeoutError");
}

#[wasm_bindgen_test]
async fn malformed_success_answers_are_typed_errors_never_silent_empty_records() {
    let t = tag("malformed-success");
    let answer = |data: &str| {
        format!(
            "async () => new Response(JSON.stringify({{ code: 200, msg: 'success', data: {data} }}), {{ headers: {{ 'x-request-id': 'req-42' }} }})"
        )
    };
    let create = js(
        json!({ "customMode": false, "instrumental": true, "model": "V6", "prompt": "a song", "callBackUrl": callback_url(&t) }),
    );
    for (data, expect) in [
        ("null", "a taskId"),
        ("{}", "a taskId"),
        ("{ taskId: '' }", "a taskId"),
    ] {
        let client = client_with_fetch(&t, &answer(data));
        let e = err(client.generate(create.clone(), None)).await;
        assert_class(&e, "ApiError");
        assert!(
            message(&e).contains(&format!("without {expect}")),
            "{}",
            message(&e)
        );
        assert_eq!(prop_str(&e, "requestId"), "req-42");
        assert_eq!(
            prop(&e, "retryable").as_bool(),
            Some(false),
            "a create may have been charged"
        );
        // With `wait`, the same error, not a ValidationError about a missing id.
        let e = err(client.generate(create.clone(), Some(js(json!({ "wait": true }))))).await;
        assert_class(&e, "ApiError");
    }
    for data in ["'5'", "1e999", "null"] {
        let client = client_with_fetch(&t, &answer(data));
        let e =
            err(client.get_credits(JsValue::UNDEFINED, Some(js(json!({ "maxRetries": 0 }))))).await;
        assert!(
            message(&e).contains("without a number"),
            "{data}: {}",
            message(&e)
        );
    }
    for data in ["[]", "{ fileId: 'f1', downloadUrl: null }"] {
        let client = client_with_fetch(&t, &answer(data));
        let e = err(client.upload_base64(
            JsValue::from_str("aGVsbG8="),
            Some(js(json!({ "mimeType": "audio/wav", "maxRetries": 0 }))),
        ))
        .await;
        assert!(
            message(&e).contains("without a record"),
            "{data}: {}",
            message(&e)
        );
    }
    let client = client_with_fetch(&t, &answer("{ status: 'SUCCESS' }"));
    let e = err(client.get_task(
        js(json!({ "taskId": "t1" })),
        Some(js(json!({ "maxRetries": 0 }))),
    ))
    .await;
    assert!(message(&e).contains("without a record"), "{}", message(&e));
}

#[wasm_bindgen_test]
async fn a_huge_timeout_means_a_long_wait_not_an_immediate_timeout() {
    // Timers fire at once past 2^31 - 1 ms; the client clamps, so 1e308 reads as "very long".
    let client = client(&tag("huge-timeout"));
    let credits = ok(client.get_credits(
        JsValue::UNDEFINED,
        Some(js(json!({ "timeoutMs": 1e308, "maxRetries": 0 }))),
    ))
    .await;
    assert!(prop(&credits, "credits").as_f64().is_some());
}

/// The Rust face's errors: the same kinds, read the same way.
#[cfg(feature = "rust-api")]
mod rust_face {
    use crate::suite::common::{stats, tag, KEY};
    use crate::suite::faces::rust::*;
    use tunesmith::rust_api::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    async fn the_same_code_means_what_its_table_says() {
        let t = tag("rs-tables-429");
        let client = client_with(&t, 0, &[("X-Emulate-Code", "429")]);
        let music = client
            .generate(&generate_request(&t, "x"))
            .await
            .unwrap_err();
        assert_eq!(
            music.api_kind(),
            Some(ErrorKind::InsufficientCredits),
            "{music}"
        );
        assert_eq!(music.kind().as_str(), "insufficient_credits");
        assert_eq!((music.code(), music.status()), (Some(429), Some(200)));
        assert!(music.request_id().is_some_and(|r| !r.is_empty()));
        assert!(
            !music.retryable(),
            "a create with no credits must not be repeated"
        );
        assert_eq!(music.attempts(), 1);

        let cover = client
            .get_cover(&TaskQuery {
                task_id: "any".into(),
            })
            .await
            .unwrap_err();
        assert_eq!(cover.api_kind(), Some(ErrorKind::RateLimited), "{cover}");
        assert_eq!(cover.code(), Some(429));
        assert!(cover.retryable(), "a rate-limited query may be repeated");
        assert_eq!(cover.attempts(), 1, "max_retries 0");

        for e in [&music, &cover] {
            assert!(!format!("{e} {e:?}").contains(KEY), "the key leaked: {e:?}");
        }
        assert!(!format!("{:?}", client.config()).contains(KEY));
        // The client itself, with its driver, which holds the key as a JavaScript string.
        assert!(!format!("{client:?}").contains(KEY), "{client:?}");
        assert_eq!(
            stats(&t).await,
            (2, 0),
            "X-Emulate-Code answers create nothing"
        );
    }

    #[wasm_bindgen_test]
    async fn an_unknown_task_is_not_found_and_a_failed_task_is_task_failed() {
        let t = tag("rs-not-found");
        let client = client(&t);
        let e = client
            .get_task(&TaskQuery {
                task_id: "no-such-task".into(),
            })
            .await
            .unwrap_err();
        assert_eq!(e.api_kind(), Some(ErrorKind::NotFound), "{e}");
        let created = client
            .generate(&generate_request(&t, "emulate:GENERATE_AUDIO_FAILED"))
            .await
            .unwrap();
        let e = client
            .wait_for_task(&created.task_id, fast())
            .await
            .unwrap_err();
        assert_eq!(e.kind(), ClientErrorKind::TaskFailed, "{e:?}");
        assert_eq!(e.task_id(), Some(created.task_id.as_str()));
        assert_eq!(e.task_status().as_deref(), Some("GENERATE_AUDIO_FAILED"));
    }
}
