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
