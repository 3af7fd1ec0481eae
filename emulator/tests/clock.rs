//! The manual clock drives time: advancing it reaches stages, delivers the callbacks that fall
//! due and the retries that wait, and frees rate-limit slots, without waiting in real time.

mod common;

use common::{rand_name, Emu};
use serde_json::{json, Value};

const TEN_MINUTES: i64 = 600_000;

async fn status(emu: &Emu, id: &str) -> Value {
    emu.get(&format!("/api/v1/generate/record-info?taskId={id}"))
        .await["data"]["status"]
        .clone()
}

fn kinds(items: &[Value]) -> Vec<&str> {
    items
        .iter()
        .map(|i| i["body"]["data"]["callbackType"].as_str().unwrap_or(""))
        .collect()
}

#[tokio::test]
async fn advancing_the_clock_reaches_stages_and_delivers_their_callbacks() {
    // Stages ten minutes apart: nothing happens unless the clock is moved.
    let emu = Emu::start(&["--manual-clock", "--stage-delay-ms", "600000"]).await;
    let inbox = rand_name();
    let id = emu.generate(&inbox, "Clockwork").await;
    assert_eq!(status(&emu, &id).await, "PENDING");

    emu.advance(TEN_MINUTES).await;
    assert_eq!(status(&emu, &id).await, "TEXT_SUCCESS");
    let items = emu.inbox_wait(&inbox, 1).await;
    assert_eq!(kinds(&items), ["text"]);

    emu.advance(2 * TEN_MINUTES).await;
    assert_eq!(status(&emu, &id).await, "SUCCESS");
    let items = emu.inbox_wait(&inbox, 3).await;
    assert_eq!(kinds(&items), ["text", "first", "complete"]);
}

#[tokio::test]
async fn a_failed_delivery_is_retried_when_the_clock_reaches_the_retry() {
    let emu = Emu::start(&[
        "--manual-clock",
        "--stage-delay-ms",
        "0",
        "--callback-retry-delay-ms",
        "600000",
    ])
    .await;
    let inbox = rand_name();
    let url = format!("{}?status=500&times=1", emu.inbox_url(&inbox));
    let v = emu
        .post(
            "/api/v1/generate",
            json!({"customMode": true, "instrumental": true, "model": "V6", "callBackUrl": url,
                   "style": "ambient", "title": "Retry"}),
        )
        .await;
    assert_eq!(v["code"], 200, "{v}");
    let first = emu.inbox_wait(&inbox, 1).await;
    assert_eq!(first[0]["status"], 500);

    let items = emu.advance_until(TEN_MINUTES, &inbox, 4).await;
    let statuses: Vec<u64> = items
        .iter()
        .map(|i| i["status"].as_u64().unwrap())
        .collect();
    assert_eq!(statuses, [500, 200, 200, 200]);
    assert_eq!(kinds(&items), ["text", "text", "first", "complete"]);
}

#[tokio::test]
async fn the_rate_limit_window_slides_with_the_clock() {
    let emu = Emu::start(&["--manual-clock", "--rate-limit", "2"]).await;
    for _ in 0..2 {
        assert_eq!(emu.get("/api/v1/generate/credit").await["code"], 200);
    }
    assert_eq!(emu.get("/api/v1/generate/credit").await["code"], 430);
    emu.advance(10_000).await;
    assert_eq!(emu.get("/api/v1/generate/credit").await["code"], 200);
}

/// A create request with `X-Emulate-Stage-Delay-Ms: N` (raw, as a test client sends it).
async fn generate_with_delay(emu: &Emu, delay: &str) -> Value {
    emu.http
        .post(format!("{}/api/v1/generate", emu.music))
        .bearer_auth(common::KEY)
        .header("x-emulate-stage-delay-ms", delay)
        .json(
            &json!({"customMode": false, "instrumental": true, "model": "V6",
                      "prompt": "slow stages", "callBackUrl": emu.inbox_url(&rand_name())}),
        )
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}

#[tokio::test]
async fn a_create_with_x_emulate_stage_delay_ms_spaces_its_own_task_stages() {
    let emu = Emu::start(&["--manual-clock", "--stage-delay-ms", "1000"]).await;
    let slow = generate_with_delay(&emu, "600000").await;
    assert_eq!(slow["code"], 200, "{slow}");
    let slow = slow["data"]["taskId"].as_str().unwrap().to_owned();
    let quick = emu.generate(&rand_name(), "Quick").await;

    // The emulator's own delay has passed three times over: the other task is done, this one waits.
    emu.advance(5_000).await;
    assert_eq!(status(&emu, &quick).await, "SUCCESS");
    assert_eq!(status(&emu, &slow).await, "PENDING");
    emu.advance(TEN_MINUTES).await;
    assert_eq!(status(&emu, &slow).await, "TEXT_SUCCESS");
    emu.advance(2 * TEN_MINUTES).await;
    assert_eq!(status(&emu, &slow).await, "SUCCESS");
}

#[tokio::test]
async fn a_stage_delay_header_out_of_its_range_is_refused_naming_it_and_nothing_is_made() {
    let emu = Emu::start(&["--manual-clock"]).await;
    let before = emu.get("/api/v1/generate/credit").await["data"].clone();
    for bad in ["600001", "-1", "1.5", "soon", "18446744073709551616"] {
        let v = generate_with_delay(&emu, bad).await;
        assert_eq!(v["code"], 400, "{bad}: {v}");
        let msg = v["msg"].as_str().unwrap();
        assert!(
            msg.contains("X-Emulate-Stage-Delay-Ms") && msg.contains("from 0 to 600000"),
            "{bad}: {msg}"
        );
    }
    assert_eq!(
        emu.get("/api/v1/generate/credit").await["data"],
        before,
        "nothing was charged"
    );
    let stats = emu.stats(None).await;
    assert_eq!(stats["tasksCreated"], 0, "{stats}");
}
