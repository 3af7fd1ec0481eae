//! The upload host: all three uploads byte for byte, names, overwrites, traversal refusals and
//! oversized bodies that leave nothing behind.

mod common;

use base64::Engine;
use common::{Emu, KEY};
use serde_json::{json, Value};

fn payload(n: usize) -> Vec<u8> {
    let mut v = b"RIFF\0\0\0\0WAVE".to_vec();
    v.extend((0..n).map(|i| (i * 31 % 251) as u8));
    v
}

async fn b64(emu: &Emu, body: Value) -> (u16, Value) {
    let res = emu
        .http
        .post(format!("{}/api/file-base64-upload", emu.upload))
        .bearer_auth(KEY)
        .json(&body)
        .send()
        .await
        .unwrap();
    (res.status().as_u16(), res.json().await.unwrap())
}

async fn stream(
    emu: &Emu,
    bytes: Vec<u8>,
    file_name: &str,
    fields: &[(&str, &str)],
) -> (u16, Value) {
    let mut form = reqwest::multipart::Form::new().part(
        "file",
        reqwest::multipart::Part::bytes(bytes).file_name(file_name.to_owned()),
    );
    for (k, v) in fields {
        form = form.text((*k).to_owned(), (*v).to_owned());
    }
    let res = emu
        .http
        .post(format!("{}/api/file-stream-upload", emu.upload))
        .bearer_auth(KEY)
        .multipart(form)
        .send()
        .await
        .unwrap();
    (res.status().as_u16(), res.json().await.unwrap())
}

async fn download(emu: &Emu, url: &str) -> (u16, Vec<u8>) {
    let res = emu.public(url).await;
    (res.status().as_u16(), res.bytes().await.unwrap().to_vec())
}

fn files_under(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = vec![];
    if let Ok(rd) = std::fs::read_dir(dir) {
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                out.extend(files_under(&p));
            } else {
                out.push(p);
            }
        }
    }
    out
}

fn check_record(d: &Value, size: usize, mime: &str) {
    for key in [
        "fileId",
        "fileName",
        "originalName",
        "mimeType",
        "uploadPath",
        "fileUrl",
        "downloadUrl",
        "uploadTime",
        "expiresAt",
    ] {
        assert!(d[key].is_string(), "{key} in {d}");
    }
    assert_eq!(d["fileSize"], size);
    assert_eq!(d["mimeType"], mime);
    let up =
        tunesmith_protocol::time::epoch_ms_from_iso(d["uploadTime"].as_str().unwrap()).unwrap();
    let exp =
        tunesmith_protocol::time::epoch_ms_from_iso(d["expiresAt"].as_str().unwrap()).unwrap();
    assert_eq!(exp - up, tunesmith_protocol::upload::UPLOAD_RETENTION_MS);
}

#[tokio::test]
async fn all_three_uploads_store_the_exact_bytes() {
    let emu = Emu::start(&[]).await;
    let bytes = payload(300_000);

    let (status, v) = stream(
        &emu,
        bytes.clone(),
        "voice.wav",
        &[("uploadPath", "songs/2025")],
    )
    .await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["success"], true);
    let d = &v["data"];
    check_record(d, bytes.len(), "audio/wav");
    assert_eq!(d["fileName"], "voice.wav");
    assert_eq!(d["originalName"], "voice.wav");
    assert_eq!(d["uploadPath"], "songs/2025");
    for key in ["fileUrl", "downloadUrl"] {
        let (s, got) = download(&emu, d[key].as_str().unwrap()).await;
        assert_eq!((s, got == bytes), (200, true), "{key}");
    }

    let encoded = base64::engine::general_purpose::STANDARD.encode(&bytes);
    let (status, v) = b64(&emu, json!({"base64Data": encoded, "uploadPath": "b64"})).await;
    assert_eq!(status, 200, "{v}");
    check_record(&v["data"], bytes.len(), "audio/wav");
    assert!(
        v["data"]["fileName"].as_str().unwrap().ends_with(".wav"),
        "random name, extension from the MIME type"
    );
    assert_eq!(
        download(&emu, v["data"]["fileUrl"].as_str().unwrap())
            .await
            .1,
        bytes
    );

    let (status, v) = b64(&emu, json!({"base64Data": format!("data:image/png;base64,{}", base64::engine::general_purpose::STANDARD.encode(b"plain words")), "fileName": "note.txt"})).await;
    assert_eq!(status, 200);
    assert_eq!(
        v["data"]["mimeType"], "text/plain",
        "sniffed from the content, not the declared type"
    );
    assert_eq!(
        download(&emu, v["data"]["downloadUrl"].as_str().unwrap())
            .await
            .1,
        b"plain words"
    );

    let source = v["data"]["fileUrl"].as_str().unwrap().to_owned();
    let res = emu
        .http
        .post(format!("{}/api/file-url-upload", emu.upload))
        .bearer_auth(KEY)
        .json(&json!({"fileUrl": source, "uploadPath": "copies"}))
        .send()
        .await
        .unwrap();
    let v: Value = res.json().await.unwrap();
    assert_eq!(v["code"], 200, "{v}");
    assert_eq!(v["data"]["fileName"], "note.txt", "name taken from the URL");
    assert_eq!(
        download(&emu, v["data"]["fileUrl"].as_str().unwrap())
            .await
            .1,
        b"plain words"
    );

    let res = emu
        .http
        .post(format!("{}/api/file-url-upload", emu.upload))
        .bearer_auth(KEY)
        .json(&json!({"fileUrl": format!("{}/files/none/missing.bin", emu.upload)}))
        .send()
        .await
        .unwrap();
    assert_eq!(
        res.status(),
        400,
        "an unreachable file is a parameter error"
    );
}

#[tokio::test]
async fn a_repeated_file_name_overwrites() {
    let emu = Emu::start(&[]).await;
    let (_, a) = stream(
        &emu,
        b"first version".to_vec(),
        "x.txt",
        &[("uploadPath", "p"), ("fileName", "same.txt")],
    )
    .await;
    let (_, b) = stream(
        &emu,
        b"second".to_vec(),
        "y.txt",
        &[("uploadPath", "p"), ("fileName", "same.txt")],
    )
    .await;
    assert_eq!(a["data"]["fileId"], b["data"]["fileId"]);
    assert_eq!(
        download(&emu, a["data"]["fileUrl"].as_str().unwrap())
            .await
            .1,
        b"second"
    );
    assert_eq!(b["data"]["originalName"], "y.txt");
}

#[tokio::test]
async fn traversal_is_refused_and_nothing_lands_outside() {
    let emu = Emu::start(&[]).await;
    let outside = emu.data_dir.parent().unwrap().to_path_buf();
    let before = std::fs::read_dir(&outside).unwrap().count();
    let attempts: Vec<(&str, &str, &str)> = vec![
        ("../../etc", "", "a.txt"),
        ("/tmp", "", "a.txt"),
        ("ok", "../escape.txt", "a.txt"),
        ("ok", "..", "a.txt"),
        ("a/../..", "", "a.txt"),
        ("c:\\x", "", "a.txt"),
        ("ok", "", "../escape.txt"),
    ];
    for (path, name, original) in attempts {
        let mut fields = vec![("uploadPath", path)];
        if !name.is_empty() {
            fields.push(("fileName", name));
        }
        let (status, v) = stream(&emu, b"evil".to_vec(), original, &fields).await;
        assert_eq!(status, 400, "{path} {name} {original}: {v}");
        assert_eq!(v["success"], false);
        let (status, _) = b64(&emu, json!({"base64Data": "ZXZpbA==", "uploadPath": path, "fileName": if name.is_empty() { "f.txt" } else { name }})).await;
        if !(name.is_empty() && original.starts_with("..") && path == "ok") {
            assert_eq!(status, 400, "base64 {path} {name}");
        }
    }
    assert_eq!(std::fs::read_dir(&outside).unwrap().count(), before);
    let stored = files_under(&emu.data_dir.join("uploads"));
    assert!(
        stored
            .iter()
            .all(|p| !p.to_string_lossy().contains("escape")),
        "{stored:?}"
    );
    let res = emu
        .public(&format!("{}/files/..%2F..%2Fetc%2Fpasswd", emu.upload))
        .await;
    assert_eq!(res.status(), 404);
}

#[tokio::test]
async fn a_base64_file_of_exactly_the_limit_is_stored_and_one_byte_more_is_refused() {
    // The limit counts the file's bytes: the `=` padding of a length that is not a multiple of 3
    // stands for no byte (10 MiB is 3k + 1 bytes: its Base64 ends in `==`).
    let emu = Emu::start(&[]).await;
    let limit = tunesmith_protocol::upload::MAX_BASE64_FILE_BYTES as usize;
    for (size, padding) in [(limit, "=="), (limit - 2, "=")] {
        let encoded = base64::engine::general_purpose::STANDARD.encode(payload(size - 12));
        assert!(encoded.ends_with(padding) && !encoded.ends_with(&format!("{padding}=")));
        let (status, v) = b64(&emu, json!({"base64Data": encoded, "fileName": "edge.wav"})).await;
        assert_eq!(status, 200, "{size} bytes: {v}");
        check_record(&v["data"], size, "audio/wav");
    }
    let over = base64::engine::general_purpose::STANDARD.encode(payload(limit + 1 - 12));
    let (status, v) = b64(&emu, json!({"base64Data": over, "fileName": "edge.wav"})).await;
    assert_eq!(status, 400, "{v}");
    let msg = v["msg"].as_str().unwrap_or_default();
    assert!(msg.contains(&format!("holds {} bytes", limit + 1)), "{msg}");
}

#[tokio::test]
async fn oversized_bodies_get_clean_answers_and_leave_nothing() {
    let emu = Emu::start(&["--max-upload-mb", "1"]).await;
    let (status, v) = stream(
        &emu,
        payload(2 * 1024 * 1024),
        "big.wav",
        &[("uploadPath", "big")],
    )
    .await;
    assert_eq!(status, 413, "{v}");
    assert_eq!(v["success"], false);
    let (status, _) = stream(&emu, payload(1000), "small.wav", &[("uploadPath", "big")]).await;
    assert_eq!(status, 200);

    let eleven_mb = base64::engine::general_purpose::STANDARD.encode(vec![7u8; 11 * 1024 * 1024]);
    let (status, v) = b64(&emu, json!({"base64Data": eleven_mb})).await;
    assert_eq!(status, 400);
    assert!(v["msg"].as_str().unwrap().contains("stream upload"), "{v}");
    let huge = "A".repeat(20 * 1024 * 1024);
    let (status, v) = b64(&emu, json!({"base64Data": huge})).await;
    assert_eq!(status, 400);
    assert!(v["msg"].as_str().unwrap().contains("stream upload"));

    let stored = files_under(&emu.data_dir.join("uploads"));
    assert_eq!(stored.len(), 1, "only the small file: {stored:?}");
    assert!(
        files_under(&emu.data_dir.join("tmp")).is_empty(),
        "no temporary leftovers"
    );
    let (status, v) = stream(&emu, vec![], "", &[]).await;
    assert_eq!(status, 400, "{v}");
    let res = emu
        .http
        .post(format!("{}/api/file-stream-upload", emu.upload))
        .bearer_auth(KEY)
        .body("not multipart")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 400);
    let res = emu
        .http
        .get(format!("{}/api/file-stream-upload", emu.upload))
        .bearer_auth(KEY)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 405);
}
