//! Waiters against the real emulator: progress once per stage and in order (a stage passed between
//! two queries included), every failure status, the deadline, transient answers, `wait` on
//! creates. No timing asserted.

use super::common::*;
use super::faces::{Setup, FACES};
use super::waiting::*;
use js_sys::{Array, Promise};
use serde_json::json;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::wasm_bindgen_test;

/// A task whose stages come and go between two queries (`emulate:skip-stages` goes from pending
/// straight to complete, and this waiter queries every 400 ms): each stage it passed is still
/// reported, once and in order, by either face; a passed stage reads as that stage, from the record
/// that showed it passed.
#[wasm_bindgen_test]
async fn a_stage_passed_between_two_queries_is_still_reported_in_order() {
    for face in FACES {
        let t = tag(&format!("wait-skip-{face:?}"));
        // Long enough that the first query, right after the create, sees `pending` however loaded
        // the machine is.
        let setup = Setup {
            stage_delay_ms: Some(SLOW_STAGES_MS),
            ..Setup::new(&t)
        };
        let id = face.generate(&setup, "emulate:skip-stages").await.unwrap();
        let seen = face.reported(&setup, &id, 400).await;
        let stages: Vec<&str> = seen.iter().map(|r| r.stage.as_str()).collect();
        assert_eq!(stages, ["pending", "text", "first", "complete"], "{face:?}");
        assert_eq!(seen[1].status, "TEXT_SUCCESS", "{face:?}");
        assert_eq!(seen[2].status, "FIRST_SUCCESS", "{face:?}");
        assert!(seen.iter().all(|r| r.task_id == id), "{face:?}");
    }
}

#[wasm_bindgen_test]
async fn progress_arrives_once_per_stage_in_order_with_the_first_track_at_first() {
    let t = tag("wait-progress");
    // Every stage seen live by polling, `pending` first: stages longer than any stall.
    let client = slow_client(&t);
    let id = create_music(&client, "progress").await;
    let (on_progress, seen) = recorder();
    let opts = with(fast(json!({})), "onProgress", on_progress.as_ref());
    let done = ok(client.wait_for_task(JsValue::from_str(&id), Some(opts))).await;

    let stages: Vec<String> = seen.borrow().iter().map(|r| prop_str(r, "stage")).collect();
    assert_eq!(
        stages,
        ["pending", "text", "first", "complete"],
        "one report per stage, in order"
    );
    // More queries than reports: repeated states were not reported again.
    assert!(get_task_queries(&t).await > stages.len());
    let first = seen.borrow()[2].clone();
    let tracks = Array::from(&prop(&first, "tracks"));
    assert_eq!(tracks.length(), 1, "{}", show(&first));
    assert!(
        !prop_str(&tracks.get(0), "streamAudioUrl").is_empty(),
        "the first track is playable at `first`"
    );
    assert_eq!(prop_str(&done, "state"), "succeeded");
    assert_eq!(prop_str(&done, "taskId"), id);
    assert_eq!(Array::from(&prop(&done, "tracks")).length(), 2);
    assert!(prop_str(&Array::from(&prop(&done, "tracks")).get(1), "audioUrl").starts_with("http"));
}

async fn assert_task_failed(p: Promise, task_id: &str, status: JsValue) -> JsValue {
    let e = err(p).await;
    assert_class(&e, "TaskFailedError");
    assert_eq!(prop_str(&e, "kind"), "task_failed");
    assert_eq!(prop_str(&e, "taskId"), task_id);
    assert_eq!(prop(&e, "taskStatus"), status, "{}", message(&e));
    assert!(
        prop(&e, "errorCode").as_f64().is_some(),
        "errorCode in {}",
        message(&e)
    );
    assert!(!prop(&e, "errorMessage").is_undefined());
    assert_eq!(prop_str(&prop(&e, "record"), "state"), "failed");
    assert!(e.is_instance_of::<js_sys::Error>());
    e
}

#[wasm_bindgen_test]
async fn every_music_failure_status_rejects_with_task_failed() {
    let t = tag("wait-fail-music");
    let client = client(&t);
    for status in [
        "SENSITIVE_WORD_ERROR",
        "GENERATE_AUDIO_FAILED",
        "CALLBACK_EXCEPTION",
        "CREATE_TASK_FAILED",
    ] {
        let id = create_music(&client, &format!("doomed emulate:{status}")).await;
        let (on_progress, seen) = recorder();
        let opts = with(fast(json!({})), "onProgress", on_progress.as_ref());
        let e = assert_task_failed(
            client.wait_for_task(JsValue::from_str(&id), Some(opts)),
            &id,
            status.into(),
        )
        .await;
        assert!(message(&e).contains(status), "{}", message(&e));
        // A failure is the rejection, never a progress report.
        assert!(seen
            .borrow()
            .iter()
            .all(|r| prop_str(r, "state") != "failed"));
    }
}

#[wasm_bindgen_test]
async fn every_other_family_fails_with_its_own_status() {
    let t = tag("wait-fail-others");
    let client = client(&t);
    let (music, tracks) = finished_music(&client, "parent").await;
    let cb = format!("{}?emulate:failed", callback_url(&t));
    let cover =
        ok(client.generate_cover(js(json!({ "taskId": music, "callBackUrl": cb })), None)).await;
    let cover = prop_str(&cover, "taskId");
    assert_task_failed(
        client.wait_for_cover(JsValue::from_str(&cover), Some(fast(json!({})))),
        &cover,
        JsValue::from(3),
    )
    .await;

    let wav = ok(client.convert_to_wav(
        js(json!({ "taskId": music, "audioId": tracks[0], "callBackUrl": cb })),
        None,
    ))
    .await;
    let wav = prop_str(&wav, "taskId");
    assert_task_failed(
        client.wait_for_wav(JsValue::from_str(&wav), Some(fast(json!({})))),
        &wav,
        "GENERATE_WAV_FAILED".into(),
    )
    .await;

    let lyrics = ok(client.generate_lyrics(
        js(json!({ "prompt": "a song emulate:failed", "callBackUrl": cb })),
        None,
    ))
    .await;
    let lyrics = prop_str(&lyrics, "taskId");
    let p = client.wait_for_lyrics(JsValue::from_str(&lyrics), Some(fast(json!({}))));
    assert_task_failed(p, &lyrics, "GENERATE_LYRICS_FAILED".into()).await;

    let vocal = ok(client.separate_vocals(
        js(json!({ "taskId": music, "audioId": tracks[0], "callBackUrl": cb })),
        None,
    ))
    .await;
    let vocal = prop_str(&vocal, "taskId");
    let p = client.wait_for_vocal_separation(JsValue::from_str(&vocal), Some(fast(json!({}))));
    assert_task_failed(p, &vocal, "GENERATE_AUDIO_FAILED".into()).await;

    let video = ok(client.generate_video(
        js(json!({ "taskId": music, "audioId": tracks[0], "callBackUrl": cb })),
        None,
    ))
    .await;
    let video = prop_str(&video, "taskId");
    let p = client.wait_for_video(JsValue::from_str(&video), Some(fast(json!({}))));
    assert_task_failed(p, &video, "GENERATE_MP4_FAILED".into()).await;
}

#[wasm_bindgen_test]
async fn the_deadline_rejects_with_timeout_after_a_last_query() {
    let t = tag("wait-deadline");
    // Every query fails: the task never looks finished, whatever the machine's speed.
    arm_fault(
        &t,
        json!({ "code": 500, "times": 1000, "ops": ["getTask"] }),
    )
    .await;
    let client = client(&t);
    let id = create_music(&client, "slow").await;
    let opts = js(json!({ "timeoutMs": 400, "minIntervalMs": 50, "maxIntervalMs": 100 }));
    let e = err(client.wait_for_task(JsValue::from_str(&id), Some(opts))).await;
    assert_class(&e, "TimeoutError");
    assert_eq!(prop_str(&e, "kind"), "timeout");
    let queries = get_task_queries(&t).await;
    assert!(queries >= 2, "{queries} queries");
    assert_eq!(prop(&e, "attempts").as_f64(), Some(queries as f64));
    // The last failure is the cause.
    assert_class(&prop(&e, "cause"), "ApiError");
}

#[wasm_bindgen_test]
async fn a_waiter_survives_500_430_and_455_answers() {
    let t = tag("wait-transient");
    arm_fault(&t, json!({ "code": 500, "times": 2, "ops": ["getTask"] })).await;
    arm_fault(
        &t,
        json!({ "code": 430, "times": 2, "retryAfterMs": 40, "ops": ["getTask"] }),
    )
    .await;
    arm_fault(&t, json!({ "code": 455, "times": 1, "ops": ["getTask"] })).await;
    let client = client(&t);
    let id = create_music(&client, "bumpy").await;
    let done = ok(client.wait_for_task(JsValue::from_str(&id), Some(fast(json!({}))))).await;
    assert_eq!(prop_str(&done, "state"), "succeeded");
    let codes: Vec<i64> = requests(&t)
        .await
        .iter()
        .filter(|r| prop(r, "op").as_string().as_deref() == Some("getTask"))
        .filter_map(|r| prop(r, "code").as_f64().map(|c| c as i64))
        .collect();
    assert_eq!(&codes[..5], [500, 500, 430, 430, 455], "{codes:?}");
    assert_eq!(codes.last(), Some(&200));
}

#[wasm_bindgen_test]
async fn hopeless_answers_reject_at_once() {
    let t = tag("wait-hopeless");
    let client = client(&t);
    let e =
        err(client.wait_for_task(JsValue::from_str("no-such-task"), Some(fast(json!({}))))).await;
    assert_class(&e, "ApiError");
    assert_eq!(prop_str(&e, "kind"), "not_found");
    assert_eq!(get_task_queries(&t).await, 1);

    for (id, opts, field) in [
        (JsValue::from_str(""), json!({}), "taskId"),
        (JsValue::from(42), json!({}), "taskId"),
        (
            JsValue::from_str("x"),
            json!({ "timeoutMs": -1 }),
            "timeoutMs",
        ),
        (
            JsValue::from_str("x"),
            json!({ "minIntervalMs": "fast" }),
            "minIntervalMs",
        ),
        (
            JsValue::from_str("x"),
            json!({ "onProgress": 3 }),
            "onProgress",
        ),
    ] {
        let e = err(client.wait_for_task(id, Some(js(opts)))).await;
        assert_class(&e, "ValidationError");
        assert_eq!(prop_str(&e, "field"), field);
    }
    // `wait` on a query is refused before anything is sent.
    let e = err(client.get_task(
        js(json!({ "taskId": "x" })),
        Some(js(json!({ "wait": true }))),
    ))
    .await;
    assert_class(&e, "ValidationError");
    assert_eq!(prop_str(&e, "field"), "wait");
    assert_eq!(get_task_queries(&t).await, 1);
}

/// The Rust face's waiter: the same polling loop, typed records.
#[cfg(feature = "rust-api")]
mod rust_face {
    use crate::suite::common::{arm_fault, prop, requests, stats, tag};
    use crate::suite::faces::rust::*;
    use serde_json::json;
    use tunesmith::rust_api::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    async fn create_and_wait_to_completion_reports_each_stage_once() {
        let t = tag("rs-create-wait");
        let client = client(&t);
        let created = client
            .generate(&generate_request(&t, "a calm piano piece"))
            .await
            .unwrap();
        assert!(!created.task_id.is_empty());
        let mut stages = Vec::new();
        let task = client
            .wait_for(&created.task_id, fast(), |r: &MusicRecord| {
                stages.push(r.observed().stage)
            })
            .await
            .unwrap();
        assert_eq!(task.task_id, created.task_id);
        assert_eq!(task.state(), TaskState::Succeeded);
        assert_eq!(stages.last(), Some(&Stage::Complete));
        assert!(stages.windows(2).all(|w| w[0] < w[1]), "{stages:?}");
        assert_eq!(task.response.suno_data.len(), 2);
        for track in &task.response.suno_data {
            assert!(track.audio_url.starts_with("http"), "{track:?}");
            assert!(track.duration > 0.0);
        }
        let again = client
            .get_task(&TaskQuery {
                task_id: created.task_id.clone(),
            })
            .await
            .unwrap();
        assert_eq!(again, task);
        assert_eq!(stats(&t).await.1, 1, "one task created");
    }

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
}
