//! Every operation of the music host, end to end: creation, record-info at each stage, callbacks,
//! and the real files behind the URLs. Over 400 lines on purpose: one short test per operation,
//! read as a list.

mod common;

use common::{rand_name, Emu};
use serde_json::{json, Value};

async fn bytes(emu: &Emu, url: &str) -> (u16, String, Vec<u8>) {
    let res = emu.public(url).await;
    let status = res.status().as_u16();
    let ct = res
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap_or("").to_owned())
        .unwrap_or_default();
    (status, ct, res.bytes().await.expect("body").to_vec())
}

fn wav_seconds(b: &[u8]) -> f64 {
    let r = hound::WavReader::new(std::io::Cursor::new(b)).expect("a WAV");
    f64::from(r.duration()) / f64::from(r.spec().sample_rate)
}

#[tokio::test]
async fn generate_moves_through_stages_with_callbacks_and_real_audio() {
    let emu = Emu::start(&["--stage-delay-ms", "60"]).await;
    let id = emu.generate("gen", "Night Drive").await;
    let q = format!("/api/v1/generate/record-info?taskId={id}");
    let first = emu
        .wait_for(&q, "status", &[json!("FIRST_SUCCESS"), json!("SUCCESS")])
        .await;
    let tracks = first["response"]["sunoData"].as_array().unwrap();
    if first["status"] == "FIRST_SUCCESS" {
        assert_eq!(tracks.len(), 1);
        assert_ne!(tracks[0]["streamAudioUrl"], "");
    }
    let done = emu.wait_for(&q, "status", &[json!("SUCCESS")]).await;
    assert_eq!(done["operationType"], "generate");
    assert_eq!(done["taskId"], id.as_str());
    let param: Value = serde_json::from_str(done["param"].as_str().unwrap()).unwrap();
    assert_eq!(param["title"], "Night Drive");
    let tracks = done["response"]["sunoData"].as_array().unwrap();
    assert_eq!(tracks.len(), 2);
    for t in tracks {
        assert_eq!(t["title"], "Night Drive");
        assert_eq!(t["modelName"], "chirp-v6");
        for key in ["audioUrl", "streamAudioUrl", "imageUrl"] {
            let (status, _, body) = bytes(&emu, t[key].as_str().unwrap()).await;
            assert_eq!(status, 200, "{key}");
            assert!(!body.is_empty());
        }
        let (_, ct, audio) = bytes(&emu, t["audioUrl"].as_str().unwrap()).await;
        assert!(ct.starts_with("audio/"), "{ct}");
        let duration = t["duration"].as_f64().unwrap();
        assert!(
            (wav_seconds(&audio) - duration).abs() < 0.05,
            "duration is the true length"
        );
        let (_, _, png) = bytes(&emu, t["imageUrl"].as_str().unwrap()).await;
        assert!(png.starts_with(b"\x89PNG"));
    }
    let items = emu.inbox_wait("gen", 3).await;
    let kinds: Vec<&str> = items
        .iter()
        .map(|i| i["body"]["data"]["callbackType"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["text", "first", "complete"]);
    let complete = &items[2]["body"];
    assert_eq!(complete["code"], 200);
    assert_eq!(complete["data"]["task_id"], id.as_str());
    let cb_track = &complete["data"]["data"][0];
    assert!(cb_track["audio_url"].as_str().unwrap().starts_with("http"));
    assert!(cb_track.get("createTime").is_some());
    assert!(
        cb_track.get("audioUrl").is_none(),
        "callbacks are snake_case"
    );
}

#[tokio::test]
async fn the_same_request_gives_the_same_audio() {
    let emu = Emu::start(&["--stage-delay-ms", "0"]).await;
    let body = json!({"customMode": false, "instrumental": true, "model": "V6",
                      "callBackUrl": emu.inbox_url("same"), "prompt": "same song"});
    let mut audio = Vec::new();
    for _ in 0..2 {
        let id = emu.post("/api/v1/generate", body.clone()).await["data"]["taskId"].clone();
        let rec = emu
            .get(&format!(
                "/api/v1/generate/record-info?taskId={}",
                id.as_str().unwrap()
            ))
            .await;
        audio.push(
            bytes(
                &emu,
                rec["data"]["response"]["sunoData"][0]["audioUrl"]
                    .as_str()
                    .unwrap(),
            )
            .await
            .2,
        );
    }
    assert_eq!(audio[0], audio[1]);
}

#[tokio::test]
async fn pending_task_shows_no_tracks_and_files_are_not_there_yet() {
    let emu = Emu::start(&["--stage-delay-ms", "60000"]).await;
    let id = emu.generate("slow", "Later").await;
    let rec = emu
        .get(&format!("/api/v1/generate/record-info?taskId={id}"))
        .await;
    assert_eq!(rec["data"]["status"], "PENDING");
    assert_eq!(rec["data"]["response"]["sunoData"], json!([]));
    assert_eq!(rec["data"]["errorCode"], Value::Null);
    let missing = emu.get("/api/v1/generate/record-info?taskId=nope").await;
    assert_eq!(missing["code"], 404);
}

#[tokio::test]
async fn extend_and_the_upload_operations_create_music_tasks() {
    let emu = Emu::start(&[]).await;
    let src = emu.finished("Source").await;
    let audio_id = src["response"]["sunoData"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let duration = src["response"]["sunoData"][0]["duration"].as_f64().unwrap();
    let cb = emu.inbox_url(&rand_name());

    let ext = emu
        .post(
            "/api/v1/generate/extend",
            json!({"defaultParamFlag": false, "audioId": audio_id, "callBackUrl": cb}),
        )
        .await;
    assert_eq!(ext["code"], 200, "{ext}");
    let rec = emu
        .wait_for(
            &format!(
                "/api/v1/generate/record-info?taskId={}",
                ext["data"]["taskId"].as_str().unwrap()
            ),
            "status",
            &[json!("SUCCESS")],
        )
        .await;
    assert_eq!(rec["operationType"], "extend");
    assert_eq!(rec["parentMusicId"], audio_id.as_str());
    assert_eq!(rec["response"]["sunoData"][0]["title"], "Source (extended)");

    let past_end = emu
        .post(
            "/api/v1/generate/extend",
            json!({"defaultParamFlag": true, "audioId": audio_id, "callBackUrl": cb,
                   "prompt": "p", "style": "s", "title": "t", "continueAt": duration + 1.0}),
        )
        .await;
    assert_eq!(past_end["code"], 400, "{past_end}");
    let other_model = emu
        .post("/api/v1/generate/extend", json!({"defaultParamFlag": false, "audioId": audio_id, "callBackUrl": cb, "model": "V4"}))
        .await;
    assert_eq!(other_model["code"], 400);
    let unknown = emu
        .post(
            "/api/v1/generate/extend",
            json!({"defaultParamFlag": false, "audioId": "missing", "callBackUrl": cb}),
        )
        .await;
    assert_eq!(unknown["code"], 404);

    // An uploaded source on our own upload host is mixed in.
    let source_url = src["response"]["sunoData"][1]["audioUrl"]
        .as_str()
        .unwrap()
        .to_owned();
    let upload: Value = emu
        .http
        .post(format!("{}/api/file-url-upload", emu.upload))
        .bearer_auth(common::KEY)
        .json(&json!({"fileUrl": source_url, "uploadPath": "src"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let upload_url = upload["data"]["fileUrl"].as_str().unwrap().to_owned();
    let bodies = [
        (
            "/api/v1/generate/upload-cover",
            json!({"uploadUrl": upload_url, "customMode": false, "instrumental": true, "model": "V6", "callBackUrl": cb, "prompt": "cover it"}),
            "upload_cover",
        ),
        (
            "/api/v1/generate/upload-extend",
            json!({"uploadUrl": upload_url, "defaultParamFlag": false, "model": "V6", "callBackUrl": cb}),
            "upload_extend",
        ),
        (
            "/api/v1/generate/add-instrumental",
            json!({"uploadUrl": upload_url, "title": "Inst", "negativeTags": "none", "tags": "piano", "callBackUrl": cb}),
            "add_instrumental",
        ),
        (
            "/api/v1/generate/add-vocals",
            json!({"uploadUrl": upload_url, "title": "Voc", "negativeTags": "none", "style": "pop", "prompt": "sing", "callBackUrl": cb}),
            "add_vocals",
        ),
    ];
    for (path, body, op_type) in bodies {
        let v = emu.post(path, body).await;
        assert_eq!(v["code"], 200, "{path}: {v}");
        let rec = emu
            .wait_for(
                &format!(
                    "/api/v1/generate/record-info?taskId={}",
                    v["data"]["taskId"].as_str().unwrap()
                ),
                "status",
                &[json!("SUCCESS")],
            )
            .await;
        assert_eq!(rec["operationType"], op_type);
        let url = rec["response"]["sunoData"][0]["audioUrl"].as_str().unwrap();
        let (status, _, audio) = bytes(&emu, url).await;
        assert_eq!(status, 200);
        let want = rec["response"]["sunoData"][0]["duration"].as_f64().unwrap();
        assert!((wav_seconds(&audio) - want).abs() < 0.05);
    }
}

#[tokio::test]
async fn covers_have_integer_flags_two_real_pngs_and_refuse_a_second_request() {
    let emu = Emu::start(&[]).await;
    let music = emu.finished("For a cover").await;
    let task_id = music["taskId"].as_str().unwrap();
    let cb = emu.inbox_url("cover");
    let v = emu
        .post(
            "/api/v1/suno/cover/generate",
            json!({"taskId": task_id, "callBackUrl": cb}),
        )
        .await;
    assert_eq!(v["code"], 200, "{v}");
    let cover_id = v["data"]["taskId"].as_str().unwrap();
    let rec = emu
        .wait_for(
            &format!("/api/v1/suno/cover/record-info?taskId={cover_id}"),
            "successFlag",
            &[json!(1)],
        )
        .await;
    assert_eq!(rec["parentTaskId"], task_id);
    assert_eq!(rec["errorCode"], 200);
    let images = rec["response"]["images"].as_array().unwrap();
    assert_eq!(images.len(), 2);
    let a = bytes(&emu, images[0].as_str().unwrap()).await;
    let b = bytes(&emu, images[1].as_str().unwrap()).await;
    assert_eq!((a.0, b.0), (200, 200));
    assert!(a.2.starts_with(b"\x89PNG") && b.2.starts_with(b"\x89PNG"));
    assert_ne!(a.2, b.2, "two different styles");
    let again = emu
        .post(
            "/api/v1/suno/cover/generate",
            json!({"taskId": task_id, "callBackUrl": cb}),
        )
        .await;
    assert_eq!(again["code"], 409);
    let missing = emu
        .post(
            "/api/v1/suno/cover/generate",
            json!({"taskId": "nope", "callBackUrl": cb}),
        )
        .await;
    assert_eq!(missing["code"], 404);
    let items = emu.inbox_wait("cover", 1).await;
    assert_eq!(items[0]["body"]["data"]["taskId"], cover_id);
    assert_eq!(
        items[0]["body"]["data"]["images"].as_array().unwrap().len(),
        2
    );
}

#[tokio::test]
async fn wav_conversion_yields_a_44k_wav_once_per_track() {
    let emu = Emu::start(&[]).await;
    let music = emu.finished("For WAV").await;
    let audio_id = music["response"]["sunoData"][1]["id"].as_str().unwrap();
    let cb = emu.inbox_url("wav");
    let v = emu
        .post(
            "/api/v1/wav/generate",
            json!({"taskId": music["taskId"], "audioId": audio_id, "callBackUrl": cb}),
        )
        .await;
    assert_eq!(v["code"], 200, "{v}");
    let id = v["data"]["taskId"].as_str().unwrap();
    let rec = emu
        .wait_for(
            &format!("/api/v1/wav/record-info?taskId={id}"),
            "successFlag",
            &[json!("SUCCESS")],
        )
        .await;
    assert_eq!(rec["musicId"], audio_id);
    let (status, _, wav) = bytes(&emu, rec["response"]["audioWavUrl"].as_str().unwrap()).await;
    assert_eq!(status, 200);
    let reader = hound::WavReader::new(std::io::Cursor::new(&wav)).unwrap();
    assert_eq!(reader.spec().sample_rate, 44_100);
    let want = music["response"]["sunoData"][1]["duration"]
        .as_f64()
        .unwrap();
    assert!((wav_seconds(&wav) - want).abs() < 0.05);
    let again = emu
        .post("/api/v1/wav/generate", json!({"audioId": audio_id}))
        .await;
    assert_eq!(again["code"], 409);
    let none = emu
        .post("/api/v1/wav/generate", json!({"audioId": "nope"}))
        .await;
    assert_eq!(none["code"], 404);
    let items = emu.inbox_wait("wav", 1).await;
    let data = &items[0]["body"]["data"];
    assert_eq!(data["task_id"], id);
    assert!(data["audioWavUrl"].as_str().unwrap().ends_with(".wav"));
}

#[tokio::test]
async fn lyrics_separation_video_and_the_synchronous_operations() {
    let emu = Emu::start(&[]).await;
    let music = emu.finished("Words").await;
    let task_id = music["taskId"].as_str().unwrap();
    let audio_id = music["response"]["sunoData"][0]["id"].as_str().unwrap();

    let cb = emu.inbox_url("lyrics");
    let v = emu
        .post(
            "/api/v1/lyrics",
            json!({"prompt": "a song about the sea", "callBackUrl": cb}),
        )
        .await;
    let rec = emu
        .wait_for(
            &format!(
                "/api/v1/lyrics/record-info?taskId={}",
                v["data"]["taskId"].as_str().unwrap()
            ),
            "status",
            &[json!("SUCCESS")],
        )
        .await;
    let texts = rec["response"]["lyricsData"].as_array().unwrap();
    assert_eq!(texts.len(), 2);
    assert!(texts[0]["text"].as_str().unwrap().contains("sea"));
    let items = emu.inbox_wait("lyrics", 1).await;
    assert_eq!(items[0]["body"]["data"]["callbackType"], "complete");
    assert_eq!(
        items[0]["body"]["data"]["data"].as_array().unwrap().len(),
        2
    );

    for (kind, stems) in [("separate_vocal", 2), ("split_stem", 12)] {
        let name = format!("sep-{kind}");
        let v = emu
            .post("/api/v1/vocal-removal/generate", json!({"taskId": task_id, "audioId": audio_id, "callBackUrl": emu.inbox_url(&name), "type": kind}))
            .await;
        assert_eq!(v["code"], 200, "{v}");
        let rec = emu
            .wait_for(
                &format!(
                    "/api/v1/vocal-removal/record-info?taskId={}",
                    v["data"]["taskId"].as_str().unwrap()
                ),
                "successFlag",
                &[json!("SUCCESS")],
            )
            .await;
        let urls: Vec<&str> = rec["response"]
            .as_object()
            .unwrap()
            .iter()
            .filter(|(k, _)| *k != "originUrl")
            .filter_map(|(_, v)| v.as_str())
            .collect();
        assert_eq!(urls.len(), stems, "{kind}");
        let (status, _, wav) = bytes(&emu, urls[0]).await;
        assert_eq!(status, 200);
        assert!(wav.starts_with(b"RIFF"));
        let cb = emu.inbox_wait(&name, 1).await;
        assert!(cb[0]["body"]["data"]["vocal_removal_info"]["vocal_url"].is_string());
    }
    let mismatch = emu
        .post(
            "/api/v1/vocal-removal/generate",
            json!({"taskId": "other", "audioId": audio_id, "callBackUrl": cb}),
        )
        .await;
    assert_eq!(mismatch["code"], 404);

    let v = emu
        .post("/api/v1/mp4/generate", json!({"taskId": task_id, "audioId": audio_id, "callBackUrl": emu.inbox_url("mp4"), "author": "me"}))
        .await;
    let rec = emu
        .wait_for(
            &format!(
                "/api/v1/mp4/record-info?taskId={}",
                v["data"]["taskId"].as_str().unwrap()
            ),
            "successFlag",
            &[json!("SUCCESS")],
        )
        .await;
    let (status, ct, mp4) = bytes(&emu, rec["response"]["videoUrl"].as_str().unwrap()).await;
    assert_eq!(status, 200);
    assert_eq!(ct, "video/mp4");
    assert_eq!(&mp4[4..8], b"ftyp");
    assert!(emu.inbox_wait("mp4", 1).await[0]["body"]["data"]["video_url"].is_string());

    let ts = emu
        .post(
            "/api/v1/generate/get-timestamped-lyrics",
            json!({"taskId": task_id, "musicIndex": 1}),
        )
        .await;
    assert_eq!(ts["code"], 200, "{ts}");
    assert!(!ts["data"]["alignedWords"].as_array().unwrap().is_empty());
    assert!(ts["data"]["waveformData"].is_array());
    let boost = emu
        .post("/api/v1/style/generate", json!({"content": "dreamy lo-fi"}))
        .await;
    assert_eq!(boost["data"]["successFlag"], "1");
    assert!(boost["data"]["result"]
        .as_str()
        .unwrap()
        .contains("dreamy lo-fi"));
    let credits = emu.get("/api/v1/generate/credit").await;
    assert!(credits["data"].is_i64());
}

#[tokio::test]
async fn unknown_paths_and_methods_answer_404_and_openapi_lists_every_operation() {
    let emu = Emu::start(&[]).await;
    let res = emu.public(&format!("{}/api/v1/nothing", emu.music)).await;
    assert_eq!(res.status().as_u16(), 404);
    assert_eq!(res.json::<Value>().await.unwrap()["code"], 404);
    let wrong_method = emu.get("/api/v1/generate").await;
    assert_eq!(wrong_method["code"], 404);
    let doc: Value = emu
        .public(&format!("{}/openapi.json", emu.music))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(doc["openapi"], "3.0.3");
    for op in tunesmith_protocol::Op::ALL {
        let e = op.endpoint();
        let method = if e.method == tunesmith_protocol::Method::Get {
            "get"
        } else {
            "post"
        };
        let entry = &doc["paths"][op.path("suno")][method];
        assert_eq!(entry["operationId"], e.name);
    }
    let weight = &doc["paths"]["/api/v1/generate/add-instrumental"]["post"]["requestBody"]
        ["content"]["application/json"]["schema"]["properties"]["styleWeight"];
    assert_eq!(weight["multipleOf"], 0.01);
    assert!(doc["paths"]["/_emulator/faults"].is_object());
}
