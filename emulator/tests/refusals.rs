//! Refused uploads reach the client as answers: the upload host reads (and discards) the body of a
//! request it refuses, so a client still sending a large multipart body sees the status, the JSON
//! envelope and the Retry-After instead of a reset connection.

mod common;

use common::{Emu, KEY};
use reqwest::multipart::{Form, Part};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const BODY_BYTES: usize = 8 * 1024 * 1024;

fn big_form() -> Form {
    Form::new().text("uploadPath", "refused").part(
        "file",
        Part::bytes(vec![7u8; BODY_BYTES]).file_name("big.bin".to_owned()),
    )
}

/// Sends a multi-MB multipart body; `Err` when the client saw no answer at all.
async fn send(
    emu: &Emu,
    key: &str,
    headers: &[(&str, &str)],
) -> Result<(u16, Value, Option<String>), String> {
    let mut req = emu
        .http
        .post(format!("{}/api/file-stream-upload", emu.upload))
        .bearer_auth(key)
        .multipart(big_form());
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let res = req.send().await.map_err(|e| format!("{e:?}"))?;
    let status = res.status().as_u16();
    let retry = res
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let body = res.json().await.map_err(|e| format!("{e:?}"))?;
    Ok((status, body, retry))
}

#[tokio::test]
async fn a_bad_key_on_a_large_stream_upload_gets_the_401_envelope() {
    let emu = Emu::start(&[]).await;
    for attempt in 0..5 {
        let (status, body, _) = send(&emu, "wrong-key", &[])
            .await
            .unwrap_or_else(|e| panic!("attempt {attempt}: no answer, a network error: {e}"));
        assert_eq!(status, 401, "{body}");
        assert_eq!(body["code"], 401, "{body}");
        assert!(
            body["msg"].as_str().is_some_and(|m| !m.is_empty()),
            "{body}"
        );
    }
}

#[tokio::test]
async fn a_refused_large_stream_upload_keeps_its_code_and_retry_after() {
    let emu = Emu::start(&[]).await;
    for (code, retry) in [("429", Some("2")), ("503", Some("1")), ("500", None)] {
        let mut headers = vec![("x-emulate-code", code)];
        if let Some(r) = retry {
            headers.push(("x-emulate-retry-after", r));
        }
        let (status, body, retry_after) = send(&emu, KEY, &headers)
            .await
            .unwrap_or_else(|e| panic!("{code}: no answer, a network error: {e}"));
        assert_eq!(status.to_string(), code, "{body}");
        assert_eq!(body["code"].to_string(), code, "{body}");
        assert_eq!(retry_after.as_deref(), retry, "{code}");
    }
    // The connection stays usable: a good upload right after is stored.
    let (status, body, _) = send(&emu, KEY, &[]).await.expect("an answer");
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["fileSize"], BODY_BYTES as u64);
}

/// As browsers send an upload: the whole body first, then the answer is read. Before the fix the
/// refusal came after the headers and the connection was closed with the body unread, so the
/// sender's writes or its read of the answer failed with a reset.
#[tokio::test]
async fn a_sender_that_writes_the_whole_body_first_still_reads_the_refusal() {
    let emu = Emu::start(&[]).await;
    for attempt in 0..5 {
        let mut stream = tokio::net::TcpStream::connect(emu.upload_addr)
            .await
            .unwrap();
        let boundary = "XyZzY";
        let head_part = format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"big.bin\"\r\nContent-Type: application/octet-stream\r\n\r\n"
        );
        let tail_part = format!("\r\n--{boundary}--\r\n");
        let length = head_part.len() + BODY_BYTES + tail_part.len();
        let head = format!(
            "POST /api/file-stream-upload HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer wrong-key\r\nContent-Type: multipart/form-data; boundary={boundary}\r\nContent-Length: {length}\r\n\r\n{head_part}"
        );
        let sent = async {
            stream.write_all(head.as_bytes()).await?;
            let chunk = vec![7u8; 64 * 1024];
            for _ in 0..BODY_BYTES / chunk.len() {
                stream.write_all(&chunk).await?;
            }
            stream.write_all(tail_part.as_bytes()).await?;
            let mut answer = Vec::new();
            let mut buf = [0u8; 4096];
            loop {
                let n = stream.read(&mut buf).await?;
                answer.extend_from_slice(&buf[..n]);
                let text = String::from_utf8_lossy(&answer);
                if n == 0 || text.contains("}") {
                    return Ok::<_, std::io::Error>(text.into_owned());
                }
            }
        }
        .await;
        let answer = sent.unwrap_or_else(|e| panic!("attempt {attempt}: a network error: {e}"));
        assert!(answer.starts_with("HTTP/1.1 401"), "{answer}");
        assert!(answer.contains("\"code\":401"), "{answer}");
    }
}
