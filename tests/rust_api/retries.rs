//! Credit-safe retries and Retry-After.

use super::common::{arm_fault, prop_str, requests, stats, tag};
use super::helpers::*;
use serde_json::json;
use tunesmith::rust_api::*;
use wasm_bindgen::JsValue;
use wasm_bindgen_test::wasm_bindgen_test;

#[wasm_bindgen_test]
async fn a_rate_limited_create_is_retried_after_retry_after_and_creates_one_task() {
    let t = tag("rs-create-430");
    arm_fault(
        &t,
        json!({ "code": 430, "times": 1, "retryAfterMs": 300, "ops": ["generate"] }),
    )
    .await;
    let client = client(&t);
    let created = client
        .generate(&generate_request(&t, "retry"))
        .await
        .unwrap();
    assert!(!created.task_id.is_empty());
    assert_eq!(stats(&t).await, (2, 1));
    let log = requests(&t).await;
    let at = |r: &JsValue| js_sys::Date::parse(&prop_str(r, "at"));
    let gap = at(&log[1]) - at(&log[0]);
    assert!(gap >= 290.0, "retried after {gap} ms");
}

#[wasm_bindgen_test]
async fn a_create_is_never_retried_after_a_500_but_a_query_is() {
    let t = tag("rs-create-500");
    arm_fault(&t, json!({ "code": 500, "times": 1, "ops": ["generate"] })).await;
    let client = client(&t);
    let e = client
        .generate(&generate_request(&t, "x"))
        .await
        .unwrap_err();
    assert_eq!(e.api_kind(), Some(ErrorKind::Server));
    assert_eq!((e.attempts(), e.retryable()), (1, false));
    assert_eq!(stats(&t).await, (1, 0), "one request, no second task");

    arm_fault(
        &t,
        json!({ "code": 500, "times": 2, "ops": ["getCredits"] }),
    )
    .await;
    client.get_credits().await.unwrap();
    assert_eq!(stats(&t).await.0, 4, "two 500s, then success");
}

#[wasm_bindgen_test]
async fn a_slow_answer_is_a_timeout_and_an_unreachable_host_a_network_error() {
    let t = tag("rs-timeout");
    arm_fault(
        &t,
        json!({ "delayMs": 3000, "times": 1, "ops": ["getCredits"] }),
    )
    .await;
    let mut config = client_with(&t, 0, &[]).config().clone();
    config.timeout_ms = 200;
    let e = Client::new(config)
        .unwrap()
        .get_credits()
        .await
        .unwrap_err();
    assert_eq!(e.kind(), ClientErrorKind::Timeout, "{e:?}");

    let unreachable = Client::new(ClientConfig {
        base_url: "http://127.0.0.1:9".into(),
        max_retries: 1,
        ..ClientConfig::default()
    })
    .unwrap();
    let e = unreachable.get_credits().await.unwrap_err();
    assert_eq!(e.kind(), ClientErrorKind::Network, "{e:?}");
    assert_eq!(e.attempts(), 2, "a query is retried after a network error");
    let e = unreachable
        .generate(&generate_request(&t, "x"))
        .await
        .unwrap_err();
    assert_eq!(e.attempts(), 1, "a create is not");
}
