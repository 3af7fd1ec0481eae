//! Load held as on the native server, on either build (issue 39): bodies past a host's limit get
//! the family's 413 envelope while the server's memory stays bounded, and a client that sends a
//! large body after its headers is answered, not left hanging.

mod common;

use common::{Emu, KEY};
use serde_json::Value;

/// Resident memory of `pid`, in bytes (Linux).
fn rss(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("/proc");
    let kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .expect("VmRSS");
    kb * 1024
}

/// What the emulator promises about memory under oversized bodies (README, "Limits"): bodies
/// held at once are at most 256 MiB (or one largest upload), on top of what it holds at rest.
const BOUND: u64 = 768 * 1024 * 1024;

#[tokio::test]
async fn sixteen_mib_bodies_get_the_413_envelope_and_memory_stays_bounded() {
    let emu = Emu::start(&[]).await;
    // One copy, shared by every request (so that this process's memory is not the clients').
    let body = axum::body::Bytes::from(format!(
        "{{\"prompt\": \"{}\"}}",
        "x".repeat(16 * 1024 * 1024)
    ));
    let send = |url: String| {
        let (http, body) = (emu.http.clone(), body.clone());
        async move {
            let res = http
                .post(url)
                .bearer_auth(KEY)
                .header("content-type", "application/json")
                .body(body)
                .send()
                .await
                .expect("an answer, not a reset");
            (res.status().as_u16(), res.text().await.unwrap_or_default())
        }
    };
    // The music family answers in its envelope (HTTP 200, code 413), as the service does.
    let (_, text) = send(format!("{}/api/v1/generate", emu.music)).await;
    let v: Value = serde_json::from_str(&text).expect("the envelope");
    assert_eq!(v["code"], 413, "{v}");
    assert!(v["msg"].as_str().unwrap_or("").contains("too large"), "{v}");
    let (status, _) = send(emu.inbox_url("big")).await;
    assert_eq!(status, 413, "an inbox post past the host's limit");

    let before = rss(emu.pid());
    // 24 at once, on both hosts: 384 MiB sent.
    let urls = (0..24).map(|n| {
        if n % 2 == 0 {
            format!("{}/api/v1/generate", emu.music)
        } else {
            format!("{}/api/file-base64-upload", emu.upload)
        }
    });
    let answers = futures_join(urls.map(send).collect()).await;
    for (status, text) in &answers {
        let v: Value = serde_json::from_str(text).unwrap_or_default();
        assert!(
            v["code"] == 413 || (*status == 400 && text.contains("(rule: max_size)")),
            "a clear refusal: {status} {text}"
        );
    }
    let after = rss(emu.pid());
    println!("resident memory: {before} B before, {after} B after 24 bodies of 16 MiB");
    assert!(
        after < BOUND,
        "resident memory {after} B is past the stated bound of {BOUND} B"
    );
    // Still serving.
    assert_eq!(emu.get("/api/v1/generate/credit").await["code"], 200);
}

async fn futures_join<F: std::future::Future + Send + 'static>(all: Vec<F>) -> Vec<F::Output>
where
    F::Output: Send,
{
    let handles: Vec<_> = all.into_iter().map(tokio::spawn).collect();
    let mut out = Vec::new();
    for h in handles {
        out.push(h.await.expect("a task"));
    }
    out
}
