//! The V6 fields over real HTTP (issue 38): `duration` gives audio of that length, `lyrics` are
//! the words timestamped lyrics return, generate's references are fetched and refused by kind,
//! size and length before anything is charged, mashup answers its own table's codes, and a
//! replaced window is at least 10 s and at most half the track.

mod common;

use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;
use common::songs::{credits, download, music_done};
use common::{sine_wav, Emu};
use serde_json::{json, Value};

/// A generate request of custom mode with `extra` fields on top.
fn custom(emu: &Emu, extra: Value) -> Value {
    let mut body = json!({"customMode": true, "instrumental": false, "model": "V6",
                          "callBackUrl": emu.inbox_url("v6"), "style": "dream pop",
                          "title": "V6 song"});
    for (k, v) in extra.as_object().unwrap() {
        body[k] = v.clone();
    }
    body
}

/// A generate request of non-custom mode (the idea in `prompt`) with `extra` fields on top.
fn described(emu: &Emu, extra: Value) -> Value {
    let mut body = json!({"customMode": false, "instrumental": false, "model": "V6",
                          "callBackUrl": emu.inbox_url("v6"), "prompt": "a song about the sea"});
    for (k, v) in extra.as_object().unwrap() {
        body[k] = v.clone();
    }
    body
}

async fn created(emu: &Emu, path: &str, body: Value) -> String {
    let v = emu.post(path, body).await;
    assert_eq!(v["code"], 200, "{v}");
    v["data"]["taskId"].as_str().unwrap().to_owned()
}

/// Seconds a WAV lasts by its header: frames over sample rate.
fn header_seconds(wav: &[u8]) -> f64 {
    let r = hound::WavReader::new(std::io::Cursor::new(wav)).expect("a WAV");
    f64::from(r.duration()) / f64::from(r.spec().sample_rate)
}

#[tokio::test]
async fn a_duration_gives_audio_of_that_length() {
    let emu = Emu::start(&["--stage-delay-ms", "0"]).await;
    // Outside the 20 to 40 s a track lasts without one, on both sides.
    for duration in [12.3, 75.0] {
        let id = created(
            &emu,
            "/api/v1/generate",
            custom(
                &emu,
                json!({"duration": duration, "lyrics": "one two three"}),
            ),
        )
        .await;
        let rec = music_done(&emu, &id).await;
        let tracks = rec["response"]["sunoData"].as_array().unwrap();
        assert_eq!(tracks.len(), 2);
        for t in tracks {
            assert_eq!(t["duration"].as_f64(), Some(duration), "{t}");
            let wav = download(&emu, t["audioUrl"].as_str().unwrap()).await;
            let seconds = header_seconds(&wav);
            assert!(
                (seconds - duration).abs() < 0.01,
                "asked {duration} s, the WAV lasts {seconds} s"
            );
        }
    }
}

#[tokio::test]
async fn lyrics_are_the_words_timestamped_lyrics_return() {
    let emu = Emu::start(&["--stage-delay-ms", "0"]).await;
    let lyrics = "[Verse]\nsalt wind on the harbor\nlanterns in the rain";
    let words: Vec<&str> = lyrics.split_whitespace().collect();
    for body in [
        // Custom mode: `lyrics` take priority over `prompt`.
        custom(
            &emu,
            json!({"prompt": "not these words", "lyrics": lyrics, "duration": 30}),
        ),
        // Non-custom mode: `prompt` is the idea, `lyrics` the words.
        described(&emu, json!({"lyrics": lyrics})),
    ] {
        let id = created(&emu, "/api/v1/generate", body).await;
        let rec = music_done(&emu, &id).await;
        let track = &rec["response"]["sunoData"][0];
        let seconds = track["duration"].as_f64().unwrap();
        let v = emu
            .post(
                "/api/v1/generate/get-timestamped-lyrics",
                json!({"taskId": id, "audioId": track["id"]}),
            )
            .await;
        assert_eq!(v["code"], 200, "{v}");
        let aligned = v["data"]["alignedWords"].as_array().unwrap();
        let got: Vec<&str> = aligned
            .iter()
            .map(|w| w["word"].as_str().unwrap())
            .collect();
        assert_eq!(got, words);
        // Spread over the whole track, in order.
        let at = |w: &Value, k: &str| w[k].as_f64().unwrap();
        assert_eq!(at(&aligned[0], "startS"), 0.0);
        let last = at(aligned.last().unwrap(), "endS");
        assert!(
            last <= seconds && last > seconds * 0.8,
            "{last} of {seconds}"
        );
        for pair in aligned.windows(2) {
            assert!(at(&pair[0], "endS") <= at(&pair[1], "startS"), "{pair:?}");
        }
    }
}

/// An MP4 (or MOV) header lasting `seconds`: `ftyp`, then `moov` holding `mvhd`.
fn mp4(seconds: u32) -> Vec<u8> {
    let boxed = |kind: &[u8], payload: &[u8]| {
        let mut b = ((payload.len() + 8) as u32).to_be_bytes().to_vec();
        b.extend_from_slice(kind);
        b.extend_from_slice(payload);
        b
    };
    let mut mvhd = vec![0u8; 12];
    mvhd.extend_from_slice(&600u32.to_be_bytes());
    mvhd.extend_from_slice(&(seconds * 600).to_be_bytes());
    mvhd.extend_from_slice(&[0; 80]);
    let mut out = boxed(b"ftyp", b"isom\0\0\x02\0isommp41");
    out.extend(boxed(b"moov", &boxed(b"mvhd", &mvhd)));
    out.extend(boxed(b"mdat", &[0; 64]));
    out
}

const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x02\0\0\0";

/// A local server of reference files, some wrong.
async fn files_server() -> String {
    let bytes = |b: Vec<u8>| move || async move { b.into_response() };
    let mut big = PNG.to_vec();
    big.resize(11 * 1024 * 1024, 0);
    let app = Router::new()
        .route("/pic.png", get(bytes(PNG.to_vec())))
        .route("/big.png", get(bytes(big)))
        .route("/notes.txt", get(bytes(b"just some notes\n".to_vec())))
        .route("/clip.mp4", get(bytes(mp4(30))))
        .route("/long.mp4", get(bytes(mp4(250))))
        .route("/song.wav", get(bytes(sine_wav(8.0))))
        .route("/blip.wav", get(bytes(sine_wav(3.0))))
        .route(
            "/gone.wav",
            get(|| async { (StatusCode::NOT_FOUND, "gone").into_response() }),
        );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    format!("http://{addr}")
}

#[tokio::test]
async fn references_are_fetched_and_refused_by_kind_size_and_length_before_any_charge() {
    let emu = Emu::start(&["--stage-delay-ms", "0", "--allow-private-url-uploads"]).await;
    let server = files_server().await;
    let url = |name: &str| format!("{server}/{name}");

    let before = credits(&emu).await;
    for (field, file, code, words) in [
        ("imageUrls", "notes.txt", 400, "(rule: type)"),
        ("imageUrls", "clip.mp4", 400, "(rule: type)"),
        ("imageUrls", "big.png", 413, "(rule: max_size)"),
        ("videoUrls", "pic.png", 400, "(rule: type)"),
        ("videoUrls", "long.mp4", 400, "at most 241 s"),
        ("audioUrls", "notes.txt", 400, "(rule: type)"),
        ("audioUrls", "blip.wav", 400, "at least 6 s"),
        ("audioUrls", "gone.wav", 451, "HTTP 404"),
    ] {
        let list = if field == "audioUrls" {
            // The wrong one second: every item is checked, and named.
            json!([url("song.wav"), url(file)])
        } else {
            json!([url(file)])
        };
        let e = emu
            .post("/api/v1/generate", described(&emu, json!({ field: list })))
            .await;
        assert_eq!(e["code"], code, "{field} {file}: {e}");
        let msg = e["msg"].as_str().unwrap();
        assert!(msg.contains(&format!("`{field}`")), "{msg}");
        assert!(msg.contains(words), "{file}: {msg}");
        if field == "audioUrls" {
            assert!(msg.contains("item 2"), "{msg}");
        }
    }
    assert_eq!(
        credits(&emu).await,
        before,
        "refused references cost nothing"
    );

    // Good ones, remote and on the upload host, make a task.
    let stored = emu.store_bytes(PNG, "refs", "pic.png").await["fileUrl"]
        .as_str()
        .unwrap()
        .to_owned();
    let id = created(
        &emu,
        "/api/v1/generate",
        described(
            &emu,
            json!({"imageUrls": [url("pic.png"), stored], "videoUrls": [url("clip.mp4")],
                   "audioUrls": [url("song.wav")]}),
        ),
    )
    .await;
    music_done(&emu, &id).await;
    assert!(credits(&emu).await < before, "a task is charged");
    // A text file stored on the upload host is still no image.
    let notes = emu.store_bytes(b"just some notes\n", "refs", "n.png").await["fileUrl"]
        .as_str()
        .unwrap()
        .to_owned();
    let e = emu
        .post(
            "/api/v1/generate",
            described(&emu, json!({ "imageUrls": [notes] })),
        )
        .await;
    assert_eq!(e["code"], 400, "{e}");
}

#[tokio::test]
async fn references_follow_the_url_rules() {
    // Without --allow-private-url-uploads a local server is out of reach, as for URL uploads.
    let emu = Emu::start(&["--stage-delay-ms", "0"]).await;
    let server = files_server().await;
    let before = credits(&emu).await;
    let e = emu
        .post(
            "/api/v1/generate",
            described(&emu, json!({"imageUrls": [format!("{server}/pic.png")]})),
        )
        .await;
    assert_eq!(e["code"], 451, "{e}");
    assert!(
        e["msg"].as_str().unwrap().contains("url_private_address"),
        "{e}"
    );
    // The emulator's own routes but its files are refused too.
    let e = emu
        .post(
            "/api/v1/generate",
            described(
                &emu,
                json!({"imageUrls": [format!("{}/_emulator/requests", emu.music)]}),
            ),
        )
        .await;
    assert_eq!(e["code"], 451, "{e}");
    assert!(
        e["msg"].as_str().unwrap().contains("url_emulator_route"),
        "{e}"
    );
    assert_eq!(credits(&emu).await, before);
}

/// A mashup of two files of a local server (no call to the emulator, which a rate limit counts).
fn mashup_body(emu: &Emu, server: &str) -> Value {
    json!({"uploadUrlList": [format!("{server}/song.wav"), format!("{server}/song.wav?b")],
           "model": "V6", "style": "lofi", "title": "Mash", "callBackUrl": emu.inbox_url("mash")})
}

#[tokio::test]
async fn mashup_answers_402_for_insufficient_credits() {
    let emu = Emu::start(&[
        "--stage-delay-ms",
        "0",
        "--credits",
        "5",
        "--allow-private-url-uploads",
    ])
    .await;
    let body = mashup_body(&emu, &files_server().await);
    let e = emu.post("/api/v1/generate/mashup", body).await;
    assert_eq!(e["code"], 402, "mashup's table: {e}");
    assert!(e["data"].is_null(), "{e}");
    assert_eq!(credits(&emu).await, 5, "nothing charged");
    // generate's table, on the same account, numbers it 429.
    let e = emu
        .post(
            "/api/v1/generate",
            custom(&emu, json!({"duration": 20, "style": "pop"})),
        )
        .await;
    assert_eq!(e["code"], 429, "the music table: {e}");
}

#[tokio::test]
async fn mashup_answers_429_when_rate_limited() {
    let emu = Emu::start(&[
        "--stage-delay-ms",
        "0",
        "--rate-limit",
        "1",
        "--allow-private-url-uploads",
    ])
    .await;
    let body = mashup_body(&emu, &files_server().await);
    let v = emu.post("/api/v1/generate/mashup", body.clone()).await;
    assert_eq!(v["code"], 200, "{v}");
    let res = emu.post_raw("/api/v1/generate/mashup", body).await;
    assert!(res.headers().contains_key("retry-after"), "{res:?}");
    let e: Value = res.json().await.unwrap();
    assert_eq!(e["code"], 429, "mashup's table: {e}");
    // generate's table numbers the same refusal 430.
    let e = emu
        .post("/api/v1/generate", custom(&emu, json!({"style": "pop"})))
        .await;
    assert_eq!(e["code"], 430, "the music table: {e}");
}

#[tokio::test]
async fn a_replaced_window_is_at_least_10_s_and_at_most_half_the_track() {
    let emu = Emu::start(&["--stage-delay-ms", "0"]).await;
    let id = created(
        &emu,
        "/api/v1/generate",
        custom(&emu, json!({"duration": 30, "lyrics": "la la la"})),
    )
    .await;
    let rec = music_done(&emu, &id).await;
    let audio = rec["response"]["sunoData"][0]["id"].clone();
    let request = |start: f64, end: f64| {
        json!({"taskId": id, "audioId": audio, "prompt": "new words", "tags": "jazz",
               "title": "Replaced", "fullLyrics": "la la la\nnew words",
               "infillStartS": start, "infillEndS": end})
    };
    let before = credits(&emu).await;
    for (start, end, words) in [
        (5.0, 14.0, "at least 10"),
        // 10 s or more, but more than half of 30 s.
        (0.0, 15.5, "half"),
        (2.0, 22.0, "half"),
    ] {
        let e = emu
            .post("/api/v1/generate/replace-section", request(start, end))
            .await;
        assert_eq!(e["code"], 422, "{start}..{end}: {e}");
        assert!(e["msg"].as_str().unwrap().contains(words), "{e}");
    }
    assert_eq!(credits(&emu).await, before, "refused windows cost nothing");
    // Exactly half, 15 of 30 s.
    let v = emu
        .post("/api/v1/generate/replace-section", request(5.0, 20.0))
        .await;
    assert_eq!(v["code"], 200, "{v}");
    let rec = music_done(&emu, v["data"]["taskId"].as_str().unwrap()).await;
    assert_eq!(rec["response"]["sunoData"][0]["duration"], 30.0);
}

#[tokio::test]
async fn the_openapi_document_shows_the_v6_fields_and_checks() {
    let emu = Emu::start(&[]).await;
    let doc = emu.get("/openapi.json").await;
    let generate = &doc["paths"]["/api/v1/generate"]["post"];
    let props = &generate["requestBody"]["content"]["application/json"]["schema"]["properties"];
    for name in [
        "lyrics",
        "duration",
        "variety",
        "imageUrls",
        "videoUrls",
        "audioUrls",
    ] {
        assert!(props[name].is_object(), "{name}: {props}");
    }
    assert_eq!(props["duration"]["minimum"], 10.0);
    assert_eq!(props["duration"]["maximum"], 360.0);
    let refs = &generate["x-references"]["lists"];
    assert_eq!(refs["imageUrls"]["maxBytes"], 10 * 1024 * 1024);
    assert_eq!(refs["videoUrls"]["maxSeconds"], 241.0);
    assert_eq!(refs["audioUrls"]["minSeconds"], 6.0);
    assert_eq!(refs["audioUrls"]["maxBytes"], 500 * 1024 * 1024);
    assert_eq!(
        generate["x-nonCustomModeOnly"],
        json!(["imageUrls", "videoUrls", "audioUrls"])
    );
    assert!(generate["x-customModeOnly"]
        .as_array()
        .unwrap()
        .contains(&json!("duration")));
    let codes = generate["responses"]["200"]["description"]
        .as_str()
        .unwrap();
    assert!(codes.contains("451"), "{codes}");
    let mashup = doc["paths"]["/api/v1/generate/mashup"]["post"]["responses"]["200"]["description"]
        .as_str()
        .unwrap();
    assert!(
        mashup.contains("402 ") && mashup.contains("429 "),
        "{mashup}"
    );
}
