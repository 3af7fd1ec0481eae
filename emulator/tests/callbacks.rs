//! Callback delivery and deterministic outcomes: receivers that fail, that are slow, that recover;
//! and the `emulate:` tokens of every family.

mod common;

use std::time::Duration;

use common::Emu;
use serde_json::{json, Value};

fn kinds(items: &[Value]) -> Vec<String> {
    items
        .iter()
        .map(|i| {
            i["body"]["data"]["callbackType"]
                .as_str()
                .unwrap_or("")
                .to_owned()
        })
        .collect()
}

fn statuses(items: &[Value]) -> Vec<u64> {
    items
        .iter()
        .map(|i| i["status"].as_u64().unwrap())
        .collect()
}

async fn create(emu: &Emu, title: &str, callback: &str) -> String {
    let v = emu
        .post(
            "/api/v1/generate",
            json!({"customMode": true, "instrumental": true, "model": "V6", "callBackUrl": callback,
                   "style": "ambient", "title": title}),
        )
        .await;
    assert_eq!(v["code"], 200, "{v}");
    v["data"]["taskId"].as_str().unwrap().to_owned()
}

async fn final_record(emu: &Emu, id: &str, status: &str) -> Value {
    emu.wait_for(
        &format!("/api/v1/generate/record-info?taskId={id}"),
        "status",
        &[json!(status)],
    )
    .await
}

/// Lets any delivery that would still come arrive, so "no more" can be checked.
async fn settle() {
    tokio::time::sleep(Duration::from_millis(400)).await;
}

/// Stages and retries ten minutes apart on a manual clock: each advance releases one step.
const PACED: [&str; 5] = [
    "--manual-clock",
    "--stage-delay-ms",
    "600000",
    "--callback-retry-delay-ms",
    "600000",
];

#[tokio::test]
async fn a_failing_receiver_gets_three_attempts_and_the_task_still_succeeds() {
    let emu = Emu::start(&PACED).await;
    let id = create(
        &emu,
        "Fails",
        &format!("{}?status=500", emu.inbox_url("fail")),
    )
    .await;
    for attempt in 1..=3 {
        let items = emu.advance_until(600_000, "fail", attempt).await;
        assert_eq!(items.len(), attempt, "one attempt per step of the clock");
    }
    final_record(&emu, &id, "SUCCESS").await;
    // A day later nothing more is due: delivery has stopped.
    emu.advance(86_400_000).await;
    settle().await;
    let items = emu.inbox("fail").await;
    assert_eq!(statuses(&items), [500, 500, 500]);
    assert_eq!(
        kinds(&items),
        ["text", "text", "text"],
        "retries repeat the same stage"
    );
}

#[tokio::test]
async fn a_receiver_answering_500_three_times_stops_the_callbacks() {
    let emu = Emu::start(&PACED).await;
    let id = create(
        &emu,
        "Three",
        &format!("{}?status=500&times=3", emu.inbox_url("three")),
    )
    .await;
    for attempt in 1..=3 {
        emu.advance_until(600_000, "three", attempt).await;
    }
    final_record(&emu, &id, "SUCCESS").await;
    emu.advance(86_400_000).await;
    settle().await;
    assert_eq!(statuses(&emu.inbox("three").await), [500, 500, 500]);
}

#[tokio::test]
async fn a_receiver_that_recovers_gets_every_stage_in_order() {
    let emu = Emu::start(&[]).await;
    let id = create(
        &emu,
        "Two",
        &format!("{}?status=500&times=2", emu.inbox_url("two")),
    )
    .await;
    let items = emu.inbox_wait("two", 5).await;
    assert_eq!(statuses(&items), [500, 500, 200, 200, 200]);
    assert_eq!(kinds(&items), ["text", "text", "text", "first", "complete"]);
    final_record(&emu, &id, "SUCCESS").await;
}

#[tokio::test]
async fn a_receiver_slower_than_the_timeout_counts_as_failed() {
    let emu = Emu::start(&["--callback-timeout-ms", "150"]).await;
    let id = create(
        &emu,
        "Slow",
        &format!("{}?delayMs=1000", emu.inbox_url("slow")),
    )
    .await;
    final_record(&emu, &id, "SUCCESS").await;
    emu.inbox_wait("slow", 3).await;
    settle().await;
    let items = emu.inbox("slow").await;
    assert_eq!(items.len(), 3, "stopped after 3 timed-out attempts");
    assert_eq!(kinds(&items), ["text", "text", "text"]);
}

#[tokio::test]
async fn an_unreachable_receiver_does_not_change_the_outcome() {
    let emu = Emu::start(&[]).await;
    let id = create(&emu, "Nobody", "http://127.0.0.1:9/cb").await;
    let rec = final_record(&emu, &id, "SUCCESS").await;
    assert_eq!(rec["response"]["sunoData"].as_array().unwrap().len(), 2);
}

#[tokio::test]
async fn emulate_tokens_pick_the_outcome_of_music_tasks() {
    let emu = Emu::start(&[]).await;
    let cases = [
        (
            "emulate:SENSITIVE_WORD_ERROR",
            "SENSITIVE_WORD_ERROR",
            vec!["error"],
            400,
        ),
        (
            "emulate:GENERATE_AUDIO_FAILED",
            "GENERATE_AUDIO_FAILED",
            vec!["text", "error"],
            500,
        ),
        (
            "emulate:CALLBACK_EXCEPTION",
            "CALLBACK_EXCEPTION",
            vec!["text", "first", "error"],
            500,
        ),
        (
            "emulate:failed",
            "GENERATE_AUDIO_FAILED",
            vec!["text", "error"],
            500,
        ),
        ("x emulate:skip-stages y", "SUCCESS", vec!["complete"], 200),
    ];
    for (i, (title, status, stages, code)) in cases.into_iter().enumerate() {
        let name = format!("tok{i}");
        let id = create(&emu, title, &emu.inbox_url(&name)).await;
        let rec = final_record(&emu, &id, status).await;
        let items = emu.inbox_wait(&name, stages.len()).await;
        assert_eq!(kinds(&items), stages, "{title}");
        let last = &items.last().unwrap()["body"];
        assert_eq!(last["code"], code, "{title}");
        if status == "SUCCESS" {
            assert_eq!(last["data"]["data"].as_array().unwrap().len(), 2);
            assert_eq!(rec["errorCode"], Value::Null);
        } else {
            assert_eq!(
                last["data"]["data"],
                Value::Null,
                "error callbacks carry data.data null"
            );
            assert_eq!(rec["errorCode"], code);
            assert!(rec["errorMessage"].is_string());
        }
    }
}

#[tokio::test]
async fn emulate_failed_fails_the_other_families() {
    let emu = Emu::start(&[]).await;
    let done = emu.finished("Parent").await;
    let task_id = done["taskId"].as_str().unwrap();
    let audio_id = done["response"]["sunoData"][0]["id"].as_str().unwrap();
    let cb = |name: &str| format!("{}?emulate:failed", emu.inbox_url(name));

    let v = emu
        .post(
            "/api/v1/suno/cover/generate",
            json!({"taskId": task_id, "callBackUrl": cb("cf")}),
        )
        .await;
    let rec = emu
        .wait_for(
            &format!(
                "/api/v1/suno/cover/record-info?taskId={}",
                v["data"]["taskId"].as_str().unwrap()
            ),
            "successFlag",
            &[json!(3)],
        )
        .await;
    assert_eq!(rec["errorCode"], 500);
    assert_eq!(rec["response"], Value::Null);
    let items = emu.inbox_wait("cf", 1).await;
    assert_eq!(items[0]["body"]["data"]["images"], Value::Null);

    let v = emu
        .post(
            "/api/v1/wav/generate",
            json!({"audioId": audio_id, "callBackUrl": cb("wf")}),
        )
        .await;
    emu.wait_for(
        &format!(
            "/api/v1/wav/record-info?taskId={}",
            v["data"]["taskId"].as_str().unwrap()
        ),
        "successFlag",
        &[json!("GENERATE_WAV_FAILED")],
    )
    .await;
    assert_eq!(
        emu.inbox_wait("wf", 1).await[0]["body"]["data"]["audioWavUrl"],
        Value::Null
    );

    let v = emu
        .post(
            "/api/v1/lyrics",
            json!({"prompt": "sad emulate:failed", "callBackUrl": emu.inbox_url("lf")}),
        )
        .await;
    emu.wait_for(
        &format!(
            "/api/v1/lyrics/record-info?taskId={}",
            v["data"]["taskId"].as_str().unwrap()
        ),
        "status",
        &[json!("GENERATE_LYRICS_FAILED")],
    )
    .await;
    let items = emu.inbox_wait("lf", 1).await;
    assert_eq!(items[0]["body"]["data"]["callbackType"], "error");

    let v = emu
        .post(
            "/api/v1/mp4/generate",
            json!({"taskId": task_id, "audioId": audio_id, "callBackUrl": cb("vf")}),
        )
        .await;
    emu.wait_for(
        &format!(
            "/api/v1/mp4/record-info?taskId={}",
            v["data"]["taskId"].as_str().unwrap()
        ),
        "successFlag",
        &[json!("GENERATE_MP4_FAILED")],
    )
    .await;
    assert_eq!(
        emu.inbox_wait("vf", 1).await[0]["body"]["data"]["video_url"],
        Value::Null
    );

    let v = emu
        .post(
            "/api/v1/vocal-removal/generate",
            json!({"taskId": task_id, "audioId": audio_id, "callBackUrl": cb("sf")}),
        )
        .await;
    emu.wait_for(
        &format!(
            "/api/v1/vocal-removal/record-info?taskId={}",
            v["data"]["taskId"].as_str().unwrap()
        ),
        "successFlag",
        &[json!("GENERATE_AUDIO_FAILED")],
    )
    .await;
    assert_eq!(
        emu.inbox_wait("sf", 1).await[0]["body"]["data"]["vocal_removal_info"],
        Value::Null
    );
}
