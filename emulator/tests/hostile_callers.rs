//! What a hostile caller tries, refused: URL uploads that would reach the emulator's own admin
//! routes or other local servers, clients that trickle bytes to hold a connection, and admin
//! values without bounds.

mod common;

use std::time::{Duration, Instant};

use axum::http::{header, StatusCode};
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;
use common::{Emu, KEY};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// A local file server standing for "another machine on the network", with a redirect to `to`.
async fn local_server(to: String) -> String {
    let app =
        Router::new()
            .route("/song.txt", get(|| async { "a local song" }))
            .route(
                "/moved",
                get(move || async move {
                    (StatusCode::FOUND, [(header::LOCATION, to)]).into_response()
                }),
            );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    format!("http://{addr}")
}

async fn from_url(emu: &Emu, url: &str) -> (u16, Value) {
    let res = emu
        .http
        .post(format!("{}/api/file-url-upload", emu.upload))
        .bearer_auth(KEY)
        .json(&json!({ "fileUrl": url, "uploadPath": "doors" }))
        .send()
        .await
        .unwrap();
    (res.status().as_u16(), res.json().await.unwrap())
}

fn assert_refused(got: &(u16, Value), rule: &str, what: &str) {
    let (status, body) = got;
    assert_eq!(*status, 400, "{what}: {body}");
    let msg = body["msg"].as_str().unwrap_or("");
    assert!(msg.contains(&format!("(rule: {rule})")), "{what}: {msg}");
}

#[tokio::test]
async fn url_uploads_stay_away_from_the_emulator_and_local_addresses() {
    let emu = Emu::start(&[]).await;
    let admin = format!("{}/_emulator/requests", emu.music);
    let server = local_server(admin.clone()).await;
    let port = emu.music_addr.port();

    for (url, rule) in [
        (admin.clone(), "url_emulator_route"),
        (emu.inbox_url("x"), "url_emulator_route"),
        (format!("{}/openapi.json", emu.music), "url_emulator_route"),
        (
            format!("{}/api/file-url-upload", emu.upload),
            "url_emulator_route",
        ),
        (
            format!("http://localhost:{port}/_emulator/stats"),
            "url_emulator_route",
        ),
        (
            format!("http://2130706433:{port}/_emulator/requests"),
            "url_numeric_host",
        ),
        (
            format!("http://0x7f.1:{port}/_emulator/requests"),
            "url_numeric_host",
        ),
        (
            format!("http://user@127.0.0.1:{port}/_emulator/requests"),
            "url_credentials",
        ),
        (format!("{server}/song.txt"), "url_private_address"),
        (format!("{server}/moved"), "url_private_address"),
    ] {
        assert_refused(&from_url(&emu, &url).await, rule, &url);
    }
    let log: Value = emu.public(&admin).await.json().await.unwrap();
    let reached: Vec<&Value> = log["requests"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["host"] != "upload")
        .collect();
    assert!(
        reached.is_empty(),
        "the music host was reached: {reached:?}"
    );
}

#[tokio::test]
async fn a_switch_allows_local_servers_but_not_redirects_or_the_admin_routes() {
    let emu = Emu::start(&["--allow-private-url-uploads"]).await;
    let admin = format!("{}/_emulator/requests", emu.music);
    let server = local_server(admin.clone()).await;

    let (status, body) = from_url(&emu, &format!("{server}/song.txt")).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["fileSize"], 12);
    assert_refused(
        &from_url(&emu, &format!("{server}/moved")).await,
        "url_redirect",
        "a redirect to the admin routes",
    );
    assert_refused(
        &from_url(&emu, &admin).await,
        "url_emulator_route",
        "the admin routes themselves",
    );
}

/// Reads until the server closes the connection; the time it took, if within `limit`.
async fn closed_within<R: AsyncReadExt + Unpin>(
    mut reader: R,
    limit: Duration,
) -> Option<Duration> {
    let started = Instant::now();
    let mut buf = [0u8; 1024];
    loop {
        let left = limit.checked_sub(started.elapsed())?;
        match tokio::time::timeout(left, reader.read(&mut buf)).await {
            Ok(Ok(0) | Err(_)) => return Some(started.elapsed()),
            Ok(Ok(_)) => {}
            Err(_) => return None,
        }
    }
}

#[tokio::test]
async fn a_client_trickling_its_header_is_cut_off() {
    let emu = Emu::start(&["--read-timeout-ms", "400"]).await;
    for addr in [emu.music_addr, emu.upload_addr] {
        let stream = tokio::net::TcpStream::connect(addr).await.unwrap();
        let (reader, mut writer) = stream.into_split();
        let trickle = tokio::spawn(async move {
            let _ = writer
                .write_all(b"GET /openapi.json HTTP/1.1\r\nHost: x\r\n")
                .await;
            for _ in 0..60 {
                if writer.write_all(b"X").await.is_err() {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        });
        let took = closed_within(reader, Duration::from_secs(3)).await;
        trickle.abort();
        assert!(
            took.is_some_and(|t| t < Duration::from_secs(2)),
            "{addr}: a trickled header kept its connection open: {took:?}"
        );
    }
}

#[tokio::test]
async fn a_client_stalling_in_its_body_is_answered_and_cut_off() {
    let emu = Emu::start(&["--read-timeout-ms", "400"]).await;
    let mut stream = tokio::net::TcpStream::connect(emu.upload_addr)
        .await
        .unwrap();
    let head = format!(
        "POST /api/file-base64-upload HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {KEY}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{{\"base64Data\": \""
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    let took = closed_within(&mut stream, Duration::from_secs(3)).await;
    assert!(took.is_some(), "a stalled body kept its connection for 3 s");
}

async fn admin_refused(emu: &Emu, path: &str, body: Value, field: &str) {
    let res = emu.admin(path, body.clone()).await;
    let status = res.status().as_u16();
    let text = res.text().await.unwrap();
    assert_eq!(status, 400, "{path} {body}: {text}");
    assert!(
        text.contains(field) && (text.contains("at most") || text.contains("at least")),
        "{path} {body}: {text}"
    );
}

#[tokio::test]
async fn admin_values_are_bounded() {
    let emu = Emu::start(&["--manual-clock"]).await;
    let huge = u64::MAX;
    for (body, field) in [
        (json!({"tag": "t", "delayMs": huge}), "delayMs"),
        (
            json!({"tag": "t", "code": 500, "times": huge as u32}),
            "times",
        ),
        (
            json!({"tag": "t", "code": 500, "retryAfterMs": huge}),
            "retryAfterMs",
        ),
        (json!({"tag": "t", "code": 70000}), "code"),
    ] {
        admin_refused(&emu, "faults", body, field).await;
    }
    let credits = emu
        .http
        .post(format!("{}/_emulator/credits", emu.music))
        .bearer_auth(KEY)
        .json(&json!({"credits": i64::MAX}))
        .send()
        .await
        .unwrap();
    assert_eq!(credits.status(), 400);
    assert!(credits.text().await.unwrap().contains("credits"));
    admin_refused(&emu, "clock", json!({"advanceMs": i64::MAX}), "advanceMs").await;
    admin_refused(&emu, "clock", json!({"advanceMs": -1}), "advanceMs").await;

    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(3))
        .build()
        .unwrap();
    for (query, field) in [
        (format!("delayMs={huge}"), "delayMs"),
        ("status=1000".to_owned(), "status"),
        ("status=500&times=4294967296".to_owned(), "times"),
    ] {
        let res = client
            .post(format!("{}?{query}", emu.inbox_url("bounded")))
            .json(&json!({}))
            .send()
            .await
            .unwrap_or_else(|e| panic!("{query}: {e}"));
        assert_eq!(res.status(), 400, "{query}");
        let text = res.text().await.unwrap();
        assert!(text.contains(field), "{query}: {text}");
    }
    // Values within the bounds still work.
    assert_eq!(
        emu.admin("faults", json!({"tag": "ok", "delayMs": 10, "times": 1000}))
            .await
            .status(),
        200
    );
    emu.advance(11 * 24 * 3600 * 1000).await;
}
