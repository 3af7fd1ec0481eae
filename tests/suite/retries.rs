//! Retries by both faces, as the protocol's credit-safe rules decide: a query is tried again, a
//! create only when the service said it did nothing; `Retry-After` is honoured; a slow answer is a
//! timeout, an unreachable host a network error.

use super::common::*;
use super::faces::{Setup, FACES};
use serde_json::json;
use wasm_bindgen::JsValue;
use wasm_bindgen_test::wasm_bindgen_test;

/// A query (free, safe to repeat) is tried again after server errors, until it succeeds.
#[wasm_bindgen_test]
async fn a_query_is_retried_after_server_errors() {
    for face in FACES {
        let t = tag(&format!("query-retry-{face:?}"));
        arm_fault(
            &t,
            json!({ "code": 500, "times": 2, "ops": ["getCredits"] }),
        )
        .await;
        face.get_credits(&Setup::new(&t)).await.unwrap();
        assert_eq!(stats(&t).await.0, 3, "{face:?}: two 500s, then success");
    }
}

/// A create after a 500 may have started a charged task: it is not tried again.
#[wasm_bindgen_test]
async fn a_create_is_not_retried_after_a_500() {
    for face in FACES {
        let t = tag(&format!("create-500-{face:?}"));
        arm_fault(&t, json!({ "code": 500, "times": 1, "ops": ["generate"] })).await;
        let e = face.generate(&Setup::new(&t), "retry").await.unwrap_err();
        assert_eq!(
            (e.kind.as_str(), e.attempts, e.retryable),
            ("server", 1, false),
            "{face:?}"
        );
        assert!(e.class.as_deref().is_none_or(|c| c == "ApiError"), "{e:?}");
        assert_eq!(
            stats(&t).await,
            (1, 0),
            "{face:?}: one request, no second task"
        );
    }
}

/// A rate limit means the service did nothing: the create is tried again once `Retry-After` has
/// passed, and exactly one task is made.
#[wasm_bindgen_test]
async fn a_rate_limited_create_is_retried_after_retry_after_and_creates_one_task() {
    for face in FACES {
        let t = tag(&format!("create-430-{face:?}"));
        arm_fault(
            &t,
            json!({ "code": 430, "times": 1, "retryAfterMs": 300, "ops": ["generate"] }),
        )
        .await;
        let task_id = face.generate(&Setup::new(&t), "retry").await.unwrap();
        assert!(!task_id.is_empty());
        assert_eq!(stats(&t).await, (2, 1), "{face:?}");
        let log = requests(&t).await;
        let at = |r: &JsValue| js_sys::Date::parse(&prop_str(r, "at"));
        let gap = at(&log[1]) - at(&log[0]);
        assert!(gap >= 290.0, "{face:?}: retried after {gap} ms");
    }
}

/// An answer slower than the per-attempt timeout is a timeout.
#[wasm_bindgen_test]
async fn a_slow_answer_is_a_timeout() {
    for face in FACES {
        let t = tag(&format!("timeout-{face:?}"));
        arm_fault(
            &t,
            json!({ "delayMs": 3000, "times": 1, "ops": ["getCredits"] }),
        )
        .await;
        let setup = Setup {
            max_retries: 0,
            timeout_ms: Some(200),
            ..Setup::new(&t)
        };
        let e = face.get_credits(&setup).await.unwrap_err();
        assert_eq!(e.kind, "timeout", "{face:?}");
        assert!(
            e.class.as_deref().is_none_or(|c| c == "TimeoutError"),
            "{e:?}"
        );
    }
}

/// No answer at all is a network error: a query is tried again, a create is not.
#[wasm_bindgen_test]
async fn an_unreachable_host_is_a_network_error_retried_for_queries_only() {
    for face in FACES {
        let setup = Setup {
            max_retries: 1,
            base_url: Some("http://127.0.0.1:9"),
            ..Setup::new("unreachable")
        };
        let e = face.get_credits(&setup).await.unwrap_err();
        assert_eq!((e.kind.as_str(), e.attempts), ("network", 2), "{face:?}");
        assert!(
            e.class.as_deref().is_none_or(|c| c == "NetworkError"),
            "{e:?}"
        );
        let e = face.generate(&setup, "net").await.unwrap_err();
        assert_eq!(
            e.attempts, 1,
            "{face:?}: a create is not retried after a network error"
        );
    }
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
