//! Retries, Retry-After, timeouts, cancellation, custom fetch and key functions, against the emulator.

use super::common::*;
use js_sys::Function;
use serde_json::json;
use tunesmith::Client;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::wasm_bindgen_test;

fn generate_request(t: &str) -> JsValue {
    js(
        json!({ "customMode": false, "instrumental": true, "model": "V6", "callBackUrl": callback_url(t), "prompt": "retry" }),
    )
}

#[wasm_bindgen_test]
async fn queries_retry_server_errors_until_success() {
    let t = tag("query-retry");
    arm_fault(
        &t,
        json!({ "code": 500, "times": 2, "ops": ["getCredits"] }),
    )
    .await;
    let client = client(&t);
    ok(client.get_credits(JsValue::UNDEFINED, None)).await;
    assert_eq!(stats(&t).await.0, 3, "two 500s, then success");
}

#[wasm_bindgen_test]
async fn creates_are_never_retried_after_a_500() {
    let t = tag("create-500");
    arm_fault(&t, json!({ "code": 500, "times": 1, "ops": ["generate"] })).await;
    let client = client(&t);
    let e = err(client.generate(generate_request(&t), None)).await;
    assert_class(&e, "ApiError");
    assert_eq!(prop_str(&e, "kind"), "server");
    assert_eq!(prop(&e, "attempts").as_f64(), Some(1.0));
    assert_eq!(prop(&e, "retryable").as_bool(), Some(false));
    assert_eq!(stats(&t).await, (1, 0), "one request, no second task");
}

#[wasm_bindgen_test]
async fn creates_retry_rate_limits_and_create_exactly_one_task() {
    let t = tag("create-430");
    arm_fault(
        &t,
        json!({ "code": 430, "times": 1, "retryAfterMs": 300, "ops": ["generate"] }),
    )
    .await;
    let client = client(&t);
    let created = ok(client.generate(generate_request(&t), None)).await;
    assert!(!prop_str(&created, "taskId").is_empty());
    assert_eq!(stats(&t).await, (2, 1));
    // Retry-After was honoured: the second attempt came no sooner than the service asked.
    let log = requests(&t).await;
    let at = |r: &JsValue| js_sys::Date::parse(&prop_str(r, "at"));
    assert!(
        at(&log[1]) - at(&log[0]) >= 290.0,
        "retried after {} ms",
        at(&log[1]) - at(&log[0])
    );
}

#[wasm_bindgen_test]
async fn max_retries_zero_turns_retries_off_and_errors_count_attempts() {
    let t = tag("no-retry");
    arm_fault(
        &t,
        json!({ "code": 455, "times": 5, "retryAfterMs": 10, "ops": ["getTask"] }),
    )
    .await;
    let client = client_with(&t, json!({ "maxRetries": 0 }));
    let e = err(client.get_task(js(json!({ "taskId": "x" })), None)).await;
    assert_eq!(prop_str(&e, "kind"), "maintenance");
    assert_eq!(prop(&e, "attempts").as_f64(), Some(1.0));
    assert_eq!(prop(&e, "retryable").as_bool(), Some(true));
    let client = client_with(&t, json!({ "maxRetries": 2 }));
    let e = err(client.get_task(js(json!({ "taskId": "x" })), None)).await;
    assert_eq!(prop(&e, "attempts").as_f64(), Some(3.0));
    assert_eq!(stats(&t).await.0, 4);
}

#[wasm_bindgen_test]
async fn timeouts_reject_with_timeout_error() {
    let t = tag("timeout");
    arm_fault(
        &t,
        json!({ "delayMs": 3000, "times": 1, "ops": ["getCredits"] }),
    )
    .await;
    let client = client_with(&t, json!({ "maxRetries": 0, "timeoutMs": 200 }));
    let e = err(client.get_credits(JsValue::UNDEFINED, None)).await;
    assert_class(&e, "TimeoutError");
    assert_eq!(prop_str(&e, "kind"), "timeout");
}

#[wasm_bindgen_test]
async fn abort_stops_a_request_in_flight() {
    let t = tag("abort-flight");
    arm_fault(
        &t,
        json!({ "delayMs": 5000, "times": 1, "ops": ["getCredits"] }),
    )
    .await;
    let client = client(&t);
    let controller = abort_controller();
    let opts = signal_options(&controller);
    let pending = client.get_credits(JsValue::UNDEFINED, Some(opts));
    sleep(100).await;
    controller.abort();
    let e = err(pending).await;
    assert_class(&e, "AbortError");
    assert_eq!(prop(&e, "attempts").as_f64(), Some(1.0));
    // The emulator logs a request when it answers; an aborted one may never be answered.
    assert!(stats(&t).await.0 <= 1, "no retry after an abort");
}

#[wasm_bindgen_test]
async fn abort_stops_a_backoff_sleep() {
    let t = tag("abort-backoff");
    arm_fault(
        &t,
        json!({ "code": 430, "times": 1, "retryAfterMs": 20000, "ops": ["getCredits"] }),
    )
    .await;
    let client = client(&t);
    let controller = abort_controller();
    let opts = signal_options(&controller);
    let pending = client.get_credits(JsValue::UNDEFINED, Some(opts));
    sleep(300).await;
    controller.abort();
    let e = err(pending).await;
    assert_class(&e, "AbortError");
    assert_eq!(stats(&t).await.0, 1, "no second attempt after the abort");
}

#[wasm_bindgen_test]
async fn an_aborted_signal_sends_nothing() {
    let t = tag("pre-aborted");
    let client = client(&t);
    let controller = abort_controller();
    controller.abort();
    let opts = signal_options(&controller);
    let e = err(client.get_credits(JsValue::UNDEFINED, Some(opts))).await;
    assert_class(&e, "AbortError");
    assert_eq!(stats(&t).await.0, 0);
}

#[wasm_bindgen_test]
async fn network_errors_are_typed_and_retried_for_queries() {
    let client = Client::new(Some(
        js(json!({ "baseUrl": "http://127.0.0.1:9", "apiKey": KEY, "dangerouslyAllowBrowser": true, "maxRetries": 1 }))
            .unchecked_into(),
    ))
    .unwrap();
    let e = err(client.get_credits(JsValue::UNDEFINED, None)).await;
    assert_class(&e, "NetworkError");
    assert_eq!(prop(&e, "attempts").as_f64(), Some(2.0));
    assert!(!prop(&e, "cause").is_undefined());
    let e = err(client.generate(generate_request("net"), None)).await;
    assert_eq!(
        prop(&e, "attempts").as_f64(),
        Some(1.0),
        "a create is not retried after a network error"
    );
}

#[wasm_bindgen_test]
async fn a_custom_fetch_and_an_api_key_function_are_used() {
    let t = tag("custom-fetch");
    let counter = js(json!({ "calls": 0, "keys": 0 }));
    let fetch = Function::new_with_args(
        "counter, url, init",
        "counter.calls += 1; return globalThis.fetch(url, init);",
    )
    .bind1(&JsValue::NULL, &counter);
    let api_key = Function::new_with_args(
        "counter, key",
        "counter.keys += 1; return Promise.resolve(key);",
    )
    .bind2(&JsValue::NULL, &counter, &JsValue::from_str(KEY));
    let opts = options(&t, json!({}));
    js_sys::Reflect::set(&opts, &"fetch".into(), &fetch).unwrap();
    js_sys::Reflect::set(&opts, &"apiKey".into(), &api_key).unwrap();
    js_sys::Reflect::delete_property(
        opts.unchecked_ref::<js_sys::Object>(),
        &"dangerouslyAllowBrowser".into(),
    )
    .unwrap();
    let client = Client::new(Some(opts.unchecked_into())).unwrap();
    let credits = ok(client.get_credits(JsValue::UNDEFINED, None)).await;
    assert!(prop(&credits, "credits").as_f64().is_some());
    assert_eq!(prop(&counter, "calls").as_f64(), Some(1.0));
    assert_eq!(prop(&counter, "keys").as_f64(), Some(1.0));
    assert_eq!(stats(&t).await.0, 1);
}

#[wasm_bindgen_test]
async fn a_failing_api_key_function_is_a_typed_error() {
    let api_key = Function::new_no_args("return Promise.reject(new Error('backend down'))");
    let opts = js(json!({ "baseUrl": MUSIC }));
    js_sys::Reflect::set(&opts, &"apiKey".into(), &api_key).unwrap();
    let client = Client::new(Some(opts.unchecked_into())).unwrap();
    let e = err(client.get_credits(JsValue::UNDEFINED, None)).await;
    assert_class(&e, "TunesmithError");
    assert_eq!(prop_str(&e, "kind"), "configuration");
    assert_eq!(message(&prop(&e, "cause")), "backend down");
}

/// In a page, a literal key needs `dangerouslyAllowBrowser`; in Node and workers it does not.
#[wasm_bindgen_test]
fn the_browser_key_guard_throws_only_in_pages() {
    let in_page = !prop(&js_sys::global(), "document").is_undefined();
    let literal = js(json!({ "baseUrl": MUSIC, "apiKey": "secret-literal-key" }));
    match Client::new(Some(literal.unchecked_into())) {
        Ok(_) => assert!(!in_page, "a page must refuse a literal key"),
        Err(e) => {
            assert!(in_page, "outside a page a literal key is fine");
            assert_class(&e, "TunesmithError");
            assert_eq!(prop_str(&e, "kind"), "configuration");
            let m = message(&e);
            assert!(
                m.contains("baseUrl")
                    && m.contains("function")
                    && m.contains("dangerouslyAllowBrowser"),
                "{m}"
            );
            assert!(!m.contains("secret-literal-key"));
        }
    }
    // The two safe ways are accepted in a page.
    Client::new(Some(js(json!({ "baseUrl": MUSIC })).unchecked_into())).unwrap();
    let f = js(json!({ "baseUrl": MUSIC }));
    js_sys::Reflect::set(&f, &"apiKey".into(), &Function::new_no_args("return 'k'")).unwrap();
    Client::new(Some(f.unchecked_into())).unwrap();
}
