//! What survives: tasks (in flight ones resume), uploads and credits across a restart on the same
//! data directory; and what does not: files past their retention, by the manual clock.

mod common;

use common::{config, Emu, KEY};
use serde_json::{json, Value};

const DAY_MS: i64 = 24 * 3600 * 1000;

fn on(base: &str, url: &str) -> String {
    // URLs name the host that wrote them; after a restart the ports differ.
    let path = url.splitn(4, '/').nth(3).unwrap_or("");
    format!("{base}/{path}")
}

#[tokio::test]
async fn a_restart_keeps_tasks_uploads_and_credits_and_resumes_callbacks() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_str().unwrap().to_owned();
    let receiver = Emu::start(&[]).await;
    let first = Emu::start(&["--data-dir", &data, "--stage-delay-ms", "400"]).await;

    let id = first.generate("unused", "Survivor").await;
    // Re-point the callback at the receiver that outlives both emulators.
    let v = first
        .post(
            "/api/v1/generate",
            json!({"customMode": true, "instrumental": true, "model": "V6", "style": "s", "title": "Resumed",
                   "callBackUrl": receiver.inbox_url("resume")}),
        )
        .await;
    let resumed = v["data"]["taskId"].as_str().unwrap().to_owned();
    let upload: Value = first
        .http
        .post(format!("{}/api/file-base64-upload", first.upload))
        .bearer_auth(KEY)
        .json(&json!({"base64Data": "a2VlcCBtZQ==", "fileName": "keep.txt"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let credits = first.get("/api/v1/generate/credit").await["data"]
        .as_i64()
        .unwrap();
    assert_eq!(credits, 10_000 - 20);
    receiver.inbox_wait("resume", 1).await;
    first.shutdown().await;

    let second = Emu::start(&["--data-dir", &data, "--stage-delay-ms", "400"]).await;
    assert_eq!(second.get("/api/v1/generate/credit").await["data"], credits);
    let rec = second
        .wait_for(
            &format!("/api/v1/generate/record-info?taskId={resumed}"),
            "status",
            &[json!("SUCCESS")],
        )
        .await;
    assert_eq!(rec["response"]["sunoData"][0]["title"], "Resumed");
    assert!(rec["response"]["sunoData"][0]["audioUrl"]
        .as_str()
        .unwrap()
        .starts_with(&second.music));
    let items = receiver.inbox_wait("resume", 3).await;
    let mut kinds: Vec<String> = items
        .iter()
        .map(|i| {
            i["body"]["data"]["callbackType"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    kinds.dedup();
    assert_eq!(
        kinds,
        ["text", "first", "complete"],
        "stages resume in order after the restart"
    );
    let old = second
        .get(&format!("/api/v1/generate/record-info?taskId={id}"))
        .await;
    assert_eq!(old["code"], 200);
    let url = on(
        &second.upload,
        upload["data"]["downloadUrl"].as_str().unwrap(),
    );
    let res = second.public(&url).await;
    assert_eq!(res.status(), 200);
    assert_eq!(res.bytes().await.unwrap().as_ref(), b"keep me");
    let twice = second
        .post(
            "/api/v1/suno/cover/generate",
            json!({"taskId": id, "callBackUrl": receiver.inbox_url("c")}),
        )
        .await;
    assert_eq!(twice["code"], 200);
    second.shutdown().await;
    let third = Emu::with(config(&["--data-dir", &data])).await;
    let again = third
        .post(
            "/api/v1/suno/cover/generate",
            json!({"taskId": id, "callBackUrl": receiver.inbox_url("c")}),
        )
        .await;
    assert_eq!(again["code"], 409, "the 409 rule survives restarts too");
}

async fn status_of(emu: &Emu, url: &str) -> u16 {
    emu.public(url).await.status().as_u16()
}

#[tokio::test]
async fn retention_is_enforced_by_the_clock() {
    let emu = Emu::start(&["--manual-clock", "--stage-delay-ms", "0"]).await;
    let music = emu.finished("Kept").await;
    let track = music["response"]["sunoData"][0]["audioUrl"]
        .as_str()
        .unwrap()
        .to_owned();
    let audio_id = music["response"]["sunoData"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let cb = emu.inbox_url("r");
    let ext = emu
        .post(
            "/api/v1/generate/extend",
            json!({"defaultParamFlag": false, "audioId": audio_id, "callBackUrl": cb}),
        )
        .await;
    let ext_rec = emu
        .get(&format!(
            "/api/v1/generate/record-info?taskId={}",
            ext["data"]["taskId"].as_str().unwrap()
        ))
        .await;
    let ext_url = ext_rec["data"]["response"]["sunoData"][0]["audioUrl"]
        .as_str()
        .unwrap()
        .to_owned();
    let wav = emu
        .post("/api/v1/wav/generate", json!({"audioId": audio_id}))
        .await;
    let wav_rec = emu
        .get(&format!(
            "/api/v1/wav/record-info?taskId={}",
            wav["data"]["taskId"].as_str().unwrap()
        ))
        .await;
    let wav_url = wav_rec["data"]["response"]["audioWavUrl"]
        .as_str()
        .unwrap()
        .to_owned();
    let cover = emu
        .post(
            "/api/v1/suno/cover/generate",
            json!({"taskId": music["taskId"], "callBackUrl": cb}),
        )
        .await;
    let cover_rec = emu
        .get(&format!(
            "/api/v1/suno/cover/record-info?taskId={}",
            cover["data"]["taskId"].as_str().unwrap()
        ))
        .await;
    let image = cover_rec["data"]["response"]["images"][0]
        .as_str()
        .unwrap()
        .to_owned();
    let upload: Value = emu
        .http
        .post(format!("{}/api/file-base64-upload", emu.upload))
        .bearer_auth(KEY)
        .json(&json!({"base64Data": "c2hvcnQgbGlmZQ=="}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let file = upload["data"]["fileUrl"].as_str().unwrap().to_owned();
    for url in [&track, &ext_url, &wav_url, &image, &file] {
        assert_eq!(status_of(&emu, url).await, 200, "{url}");
    }
    let advance = |ms: i64| emu.admin("clock", json!({"advanceMs": ms}));

    assert_eq!(advance(3 * DAY_MS - 60_000).await.status(), 200);
    assert_eq!(status_of(&emu, &file).await, 200, "still inside 3 days");
    advance(120_000).await;
    assert_eq!(
        status_of(&emu, &file).await,
        404,
        "uploads are deleted after 3 days"
    );
    assert_eq!(status_of(&emu, &track).await, 200);

    advance(11 * DAY_MS).await;
    for url in [&track, &image] {
        assert_eq!(status_of(&emu, url).await, 404, "14 days: {url}");
    }
    for url in [&ext_url, &wav_url] {
        assert_eq!(status_of(&emu, url).await, 200, "15 days: {url}");
    }
    advance(DAY_MS).await;
    for url in [&ext_url, &wav_url] {
        assert_eq!(status_of(&emu, url).await, 404, "after 15 days: {url}");
    }
    let rec = emu
        .get(&format!(
            "/api/v1/generate/record-info?taskId={}",
            music["taskId"].as_str().unwrap()
        ))
        .await;
    assert_eq!(
        rec["data"]["status"], "SUCCESS",
        "records outlive their files"
    );

    let system = Emu::start(&[]).await;
    assert_eq!(
        system
            .admin("clock", json!({"advanceMs": 1}))
            .await
            .status(),
        409
    );
}

/// The emulator under test (either build) as a process of its own on `data`, and its music
/// host's address.
fn spawn_emulator(data: &str) -> (std::process::Child, String) {
    use std::io::BufRead;
    let mut child = common::emulator_command()
        .args(["--data-dir", data, "--music-addr", "127.0.0.1:0"])
        .args(["--upload-addr", "127.0.0.1:0", "--api-key", KEY])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("the emulator binary starts");
    let mut line = String::new();
    let stdout = child.stdout.take().expect("stdout");
    std::io::BufReader::new(stdout)
        .read_line(&mut line)
        .expect("ready line");
    let music = line
        .split_whitespace()
        .find_map(|w| w.strip_prefix("music="))
        .expect("music address")
        .to_owned();
    (child, music)
}

#[tokio::test]
async fn the_inbox_survives_kill_9() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_str().unwrap().to_owned();
    let http = reqwest::Client::new();
    let (mut first, music) = spawn_emulator(&data);
    let inbox = format!("{music}/inbox/kept");
    let mut answered = Vec::new();
    for n in 0..40 {
        let res = http
            .post(format!("{inbox}?status=500&times=3"))
            .json(&json!({"n": n}))
            .send()
            .await
            .unwrap();
        answered.push(res.status().as_u16());
    }
    assert_eq!(answered.iter().filter(|s| **s == 500).count(), 3);
    let before: Value = http.get(&inbox).send().await.unwrap().json().await.unwrap();
    first.kill().expect("SIGKILL");
    first.wait().unwrap();

    let (mut second, music) = spawn_emulator(&data);
    let inbox = format!("{music}/inbox/kept");
    let after: Value = http.get(&inbox).send().await.unwrap().json().await.unwrap();
    let again = http
        .post(format!("{inbox}?status=500&times=3"))
        .json(&json!({"n": 40}))
        .send()
        .await
        .unwrap()
        .status();
    second.kill().expect("SIGKILL");
    second.wait().unwrap();
    assert_eq!(
        after["items"].as_array().map(Vec::len),
        Some(40),
        "every acknowledged post is still listed: {after}"
    );
    assert_eq!(after, before, "the inbox is intact after kill -9");
    assert_eq!(
        again, 200,
        "the 3 failures already answered count after the restart"
    );
}
