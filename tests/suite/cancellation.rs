//! Cancellation: an AbortSignal stops a call or a wait in the JavaScript face, dropping the future
//! does in the Rust face; either way nothing more reaches the service.

use super::common::*;
use super::waiting::*;
use serde_json::json;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsValue;
use wasm_bindgen_test::wasm_bindgen_test;

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

/// An attempt whose answer was read has nothing left in flight: its signal is not aborted
/// afterwards (an abort then only cost an error object and fetch's listeners on every call).
#[wasm_bindgen_test]
async fn an_answered_attempt_is_not_aborted_afterwards() {
    let t = tag("answered");
    let signals = js_sys::Array::new();
    let fetch = js_sys::Function::new_with_args(
        "signals",
        "return (input, init) => { signals.push(init.signal); return fetch(input, init); }",
    )
    .call1(&JsValue::UNDEFINED, &signals)
    .unwrap();
    let opts = options(&t, json!({}));
    js_sys::Reflect::set(&opts, &"fetch".into(), &fetch).unwrap();
    let client = tunesmith::Client::new(Some(wasm_bindgen::JsCast::unchecked_into(opts))).unwrap();
    ok(client.get_credits(JsValue::UNDEFINED, None)).await;
    assert_eq!(signals.length(), 1);
    assert_eq!(prop(&signals.get(0), "aborted").as_bool(), Some(false));
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

fn signal_of(controller: &web_sys::AbortController) -> JsValue {
    controller.signal().into()
}

#[wasm_bindgen_test]
async fn abort_mid_wait_rejects_at_once_and_sends_nothing_more() {
    let t = tag("wait-abort");
    let client = client(&t);
    let id = create_music(&client, "aborted").await;
    let controller = abort_controller();
    let opts = with(
        js(json!({ "minIntervalMs": 30, "maxIntervalMs": 30 })),
        "signal",
        &signal_of(&controller),
    );
    let pending = client.wait_for_task(JsValue::from_str(&id), Some(opts));
    // The abort once the first query has been answered: a slower emulator (its wasm build
    // behind Node, or a loaded machine) takes longer than a fixed pause, and the query it is
    // answering when the abort comes is dropped unanswered, never counted.
    for _ in 0..250 {
        if get_task_queries(&t).await >= 1 {
            break;
        }
        sleep(20).await;
    }
    controller.abort();
    let e = err(pending).await;
    assert_class(&e, "AbortError");
    let after_abort = get_task_queries(&t).await;
    assert!(after_abort >= 1, "no query was answered before the abort");
    // Ten intervals later: still no further query.
    sleep(300).await;
    assert_eq!(
        get_task_queries(&t).await,
        after_abort,
        "a query went out after the abort"
    );
}

#[wasm_bindgen_test]
async fn abort_in_a_long_sleep_and_an_aborted_signal() {
    let t = tag("wait-abort-sleep");
    let client = client(&t);
    let id = create_music(&client, "aborted-sleep").await;
    let controller = abort_controller();
    // Aborting from onProgress: the waiter is between a query and a 20 s sleep.
    let c = controller.clone();
    let abort = Closure::<dyn FnMut(JsValue)>::new(move |_| c.abort());
    let opts = with(
        js(json!({ "minIntervalMs": 20000 })),
        "signal",
        &signal_of(&controller),
    );
    let opts = with(opts, "onProgress", abort.as_ref());
    let e = err(client.wait_for_task(JsValue::from_str(&id), Some(opts))).await;
    assert_class(&e, "AbortError");
    assert_eq!(get_task_queries(&t).await, 1);

    let t = tag("wait-pre-aborted");
    let client = super::common::client(&t);
    let opts = with(js(json!({})), "signal", &signal_of(&controller));
    assert_class(
        &err(client.wait_for_task(JsValue::from_str(&id), Some(opts))).await,
        "AbortError",
    );
    assert_eq!(
        get_task_queries(&t).await,
        0,
        "an aborted signal sends nothing"
    );
}

/// The Rust face cancels by dropping: its request in flight is aborted.
#[cfg(feature = "rust-api")]
mod rust_face {
    use crate::suite::common::{arm_fault, sleep, stats, tag};
    use crate::suite::faces::rust::*;
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

    /// A dropped call's attempt is aborted, and that outcome comes back after the next call has
    /// started awaiting its own, in the same slot of `tasks.rs` (its generation tells them apart):
    /// it must not become the next call's answer.
    #[wasm_bindgen_test]
    async fn a_dropped_calls_late_outcome_never_reaches_the_next_call() {
        let t = tag("rs-drop-reuse");
        let client = client(&t);
        {
            let mut first = Box::pin(client.get_credits());
            let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
            assert!(
                first.as_mut().poll(&mut cx).is_pending(),
                "its request is in flight"
            );
        }
        let next = client.get_credits().await;
        assert!(next.is_ok(), "the next call got its own answer: {next:?}");
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
}
