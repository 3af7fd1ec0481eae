//! Waiters survive transient faults and honour their deadline.

use super::common::{arm_fault, prop, requests, tag};
use super::helpers::*;
use serde_json::json;
use tunesmith::rust_api::*;
use wasm_bindgen_test::wasm_bindgen_test;

#[wasm_bindgen_test]
async fn a_waiter_survives_server_errors_and_rate_limits() {
    let t = tag("rs-waiter-faults");
    let client = client(&t);
    let created = client
        .generate(&generate_request(&t, "faults on the way"))
        .await
        .unwrap();
    arm_fault(&t, json!({ "code": 500, "times": 2, "ops": ["getTask"] })).await;
    arm_fault(
        &t,
        json!({ "code": 430, "times": 1, "retryAfterMs": 200, "ops": ["getTask"] }),
    )
    .await;
    let task = client
        .wait_for_task(&created.task_id, fast())
        .await
        .unwrap();
    assert_eq!(task.state(), TaskState::Succeeded);
    let codes: Vec<i64> = requests(&t)
        .await
        .iter()
        .filter(|r| prop(r, "op").as_string().as_deref() == Some("getTask"))
        .map(|r| prop(r, "code").as_f64().unwrap() as i64)
        .collect();
    assert_eq!(&codes[..3], &[500, 500, 430], "{codes:?}");
    assert!(codes[3..].iter().all(|c| *c == 200), "{codes:?}");
}

#[wasm_bindgen_test]
async fn a_waiter_gives_up_at_its_deadline() {
    let t = tag("rs-waiter-deadline");
    arm_fault(
        &t,
        json!({ "code": 500, "times": 1000, "ops": ["getTask"] }),
    )
    .await;
    let client = client(&t);
    let options = WaitOptions {
        timeout_ms: 600,
        min_interval_ms: Some(50),
        max_interval_ms: Some(100),
    };
    let started = js_sys::Date::now();
    let e = client
        .wait_for_task("some-task", options)
        .await
        .unwrap_err();
    let took = js_sys::Date::now() - started;
    assert_eq!(e.kind(), ClientErrorKind::Timeout, "{e:?}");
    assert!(e.attempts() >= 3, "{e}");
    let last = std::error::Error::source(&e).expect("the last failure is the cause");
    assert!(last.to_string().contains("code 500"), "{last}");
    assert!(took < 2000.0, "took {took} ms");
}

/// A task whose stages come and go between two queries: each stage it passed is still reported,
/// once and in order (the JavaScript waiters' test of the same).
#[wasm_bindgen_test]
async fn a_stage_passed_between_two_queries_is_still_reported_in_order() {
    let t = tag("rs-waiter-skip");
    let client = client(&t);
    let created = client
        .generate(&generate_request(&t, "emulate:skip-stages"))
        .await
        .unwrap();
    let mut stages = Vec::new();
    let task = client
        .wait_for(&created.task_id, fast(), |r: &MusicRecord| {
            stages.push((r.observed().stage, r.task_id.clone()))
        })
        .await
        .unwrap();
    let names: Vec<Stage> = stages.iter().map(|(s, _)| *s).collect();
    assert_eq!(
        names,
        [Stage::Pending, Stage::Text, Stage::First, Stage::Complete]
    );
    assert!(stages.iter().all(|(_, id)| *id == created.task_id));
    assert_eq!(task.state(), TaskState::Succeeded);
}
