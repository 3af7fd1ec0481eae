//! Dropping a future aborts its request: the emulator sees nothing more.

use super::common::{arm_fault, sleep, stats, tag};
use super::helpers::*;
use serde_json::json;
use std::future::Future;
use std::task::Poll;
use wasm_bindgen_test::wasm_bindgen_test;

/// Runs `future` for `ms` (its first poll sends the request), then drops it.
async fn drop_after<F: Future>(future: F, ms: i32) {
    let mut future = Box::pin(future);
    let mut timer = Box::pin(sleep(ms));
    std::future::poll_fn(|cx| {
        if timer.as_mut().poll(cx).is_ready() {
            return Poll::Ready(());
        }
        match future.as_mut().poll(cx) {
            Poll::Ready(_) => panic!("it ended before it was dropped"),
            Poll::Pending => Poll::Pending,
        }
    })
    .await;
    drop(future);
}

#[wasm_bindgen_test]
async fn dropping_a_call_aborts_its_request_in_flight() {
    let t = tag("rs-drop-flight");
    arm_fault(
        &t,
        json!({ "delayMs": 1500, "times": 1, "ops": ["getCredits"] }),
    )
    .await;
    let client = client(&t);
    drop_after(client.get_credits(), 200).await;
    sleep(2000).await;
    // The emulator logs a request when it answers: an aborted one is never answered.
    assert_eq!(
        stats(&t).await.0,
        0,
        "the request was aborted, not answered"
    );
}

#[wasm_bindgen_test]
async fn dropping_a_call_in_its_backoff_sends_no_second_attempt() {
    let t = tag("rs-drop-backoff");
    arm_fault(
        &t,
        json!({ "code": 430, "times": 1, "retryAfterMs": 1000, "ops": ["getCredits"] }),
    )
    .await;
    let client = client(&t);
    drop_after(client.get_credits(), 300).await;
    sleep(1500).await;
    assert_eq!(stats(&t).await.0, 1, "no second attempt after the drop");
}

#[wasm_bindgen_test]
async fn dropping_a_waiter_stops_its_polling() {
    let t = tag("rs-drop-waiter");
    // Every query fails: the waiter goes on polling until it is dropped.
    arm_fault(
        &t,
        json!({ "code": 500, "times": 1000, "ops": ["getTask"] }),
    )
    .await;
    let client = client(&t);
    drop_after(client.wait_for_task("some-task", fast()), 500).await;
    let at_drop = stats(&t).await.0;
    assert!(at_drop >= 2, "the waiter polled ({at_drop} queries)");
    sleep(800).await;
    assert_eq!(stats(&t).await.0, at_drop, "no query after the drop");
}
