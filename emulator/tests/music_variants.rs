//! New music from music over real HTTP: sounds and loops, a replaced section, a mashup, a persona;
//! each succeeds with the public document's own example request (live ids and URLs put in), fails
//! the documented way, charges what the README says, and its audio is what was asked for.

mod common;

use common::songs::*;
use common::Emu;
use serde_json::{json, Value};

#[tokio::test]
async fn sounds_play_the_requested_loop_and_call_back_like_music() {
    let emu = Emu::start(&["--stage-delay-ms", "0"]).await;
    let before = credits(&emu).await;
    // The document's example.
    let doc = emu
        .post(
            "/api/v1/generate/sounds",
            json!({"prompt": "A soft rain ambience with distant thunder and gentle wind", "model": "V5",
                   "soundLoop": false, "soundTempo": 120, "soundKey": "Any", "grabLyrics": false,
                   "callBackUrl": emu.inbox_url("sounds-doc")}),
        )
        .await;
    assert_eq!(doc["code"], 200, "{doc}");
    assert_eq!(credits(&emu).await, before - 6);
    let v = emu
        .post(
            "/api/v1/generate/sounds",
            json!({"prompt": "a warm rhodes loop", "model": "V5", "soundLoop": true,
                   "soundTempo": 96, "soundKey": "Am", "callBackUrl": emu.inbox_url("sounds")}),
        )
        .await;
    let rec = music_done(&emu, v["data"]["taskId"].as_str().unwrap()).await;
    assert_eq!(rec["operationType"], "generate_sounds");
    for track in rec["response"]["sunoData"].as_array().unwrap() {
        let wav = download(&emu, track["audioUrl"].as_str().unwrap()).await;
        let x = samples(&wav);
        // A loop of whole beats at 96 BPM: 13781.25 samples a beat, rounded to 13781.
        assert_eq!(x.len() % 13_781, 0, "{} samples", x.len());
        assert!((x.len() as f64 / 22_050.0 - track["duration"].as_f64().unwrap()).abs() < 0.01);
        let seam = (x[0] - x[x.len() - 1]).abs();
        assert!(seam < 0.05, "the loop joins without a click ({seam})");
    }
    let items = emu.inbox_wait("sounds", 3).await;
    let kinds: Vec<&str> = items
        .iter()
        .map(|i| i["body"]["data"]["callbackType"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["text", "first", "complete"]);
    for (body, field) in [
        (json!({"prompt": "p", "model": "V7_UNKNOWN"}), "model"),
        (
            json!({"prompt": "p", "model": "V5", "soundTempo": 301}),
            "soundTempo",
        ),
        (
            json!({"prompt": "p", "model": "V5", "soundKey": "H"}),
            "soundKey",
        ),
    ] {
        let e = emu.post("/api/v1/generate/sounds", body).await;
        assert_eq!(e["code"], 400, "{e}");
        assert!(e["msg"].as_str().unwrap().contains(field), "{e}");
    }
    assert_eq!(credits(&emu).await, before - 12, "refusals cost nothing");
}

#[tokio::test]
async fn replace_section_changes_only_the_window_and_refuses_bad_windows_first() {
    let emu = Emu::start(&["--stage-delay-ms", "0"]).await;
    let (task_id, track) = song(&emu, 21.5).await;
    let audio_id = track["id"].as_str().unwrap();
    let source = download(&emu, track["audioUrl"].as_str().unwrap()).await;
    let request = |start: f64, end: f64| {
        json!({"taskId": task_id, "audioId": audio_id, "prompt": "A calm and relaxing piano track.",
               "tags": "Jazz", "title": "Relaxing Piano", "negativeTags": "Rock",
               "infillStartS": start, "infillEndS": end,
               "fullLyrics": "[Verse 1]\nOriginal lyrics here\n[Chorus]\nModified lyrics for this section\n[Verse 2]\nMore original lyrics",
               "callBackUrl": emu.inbox_url("replace")})
    };
    let before = credits(&emu).await;
    let duration = track["duration"].as_f64().unwrap();
    for (start, end, words) in [
        (20.0, 10.0, "above"),
        (10.0, 19.99, "at least 10"),
        (0.0, 61.0, "within the track"),
        (10.0, 20.005, "0.01"),
        (0.0, (duration * 0.5 + 1.0).min(60.0), "half"),
    ] {
        let e = emu
            .post("/api/v1/generate/replace-section", request(start, end))
            .await;
        assert_eq!(e["code"], 422, "{start}..{end}: {e}");
        assert!(e["msg"].as_str().unwrap().contains(words), "{e}");
    }
    assert_eq!(credits(&emu).await, before, "refused windows cost nothing");

    // The document's example window, on a live track.
    let v = emu
        .post("/api/v1/generate/replace-section", request(10.5, 20.75))
        .await;
    assert_eq!(v["code"], 200, "{v}");
    assert_eq!(credits(&emu).await, before - 5);
    let rec = music_done(&emu, v["data"]["taskId"].as_str().unwrap()).await;
    assert_eq!(rec["operationType"], "replace_section");
    let out = raw(&download(
        &emu,
        rec["response"]["sunoData"][0]["audioUrl"].as_str().unwrap(),
    )
    .await);
    let src = raw(&source);
    assert_eq!(out.len(), src.len());
    let (a, b) = ((10.5 * 22_050.0) as usize, (20.75 * 22_050.0) as usize);
    assert_eq!(
        out[..a],
        src[..a],
        "before the window: the source's samples"
    );
    assert_eq!(out[b..], src[b..], "after the window: the source's samples");
    let changed = (a..b).filter(|&i| out[i] != src[i]).count();
    assert!(changed * 10 > (b - a) * 9, "the window is new");

    // From an upload (with its model); an upload that cannot be fetched is 451.
    let url = upload(&emu, track["audioUrl"].as_str().unwrap(), "replace-src").await;
    let mut body = request(2.0, 12.5);
    body.as_object_mut().unwrap().remove("taskId");
    body.as_object_mut().unwrap().remove("audioId");
    body["uploadUrl"] = json!(url);
    body["model"] = json!("V5");
    let v = emu
        .post("/api/v1/generate/replace-section", body.clone())
        .await;
    assert_eq!(v["code"], 200, "{v}");
    music_done(&emu, v["data"]["taskId"].as_str().unwrap()).await;
    body["uploadUrl"] = json!(format!("{}/download/no-such-file", emu.upload));
    let e = emu.post("/api/v1/generate/replace-section", body).await;
    assert_eq!(e["code"], 451, "{e}");
}

#[tokio::test]
async fn a_mashup_holds_both_uploads() {
    let emu = Emu::start(&["--stage-delay-ms", "0"]).await;
    // Two different songs. Each task's music has its own seed, so two of them can come out alike
    // (a full run failed on such a pair): take the first pair that is not, so the mix can be told apart.
    let mut pair = None;
    for attempt in 0..5 {
        let a = emu.finished(&format!("Mash A{attempt}")).await["response"]["sunoData"][0].clone();
        let b = emu.finished(&format!("Mash B{attempt}")).await["response"]["sunoData"][0].clone();
        let sa = samples(&download(&emu, a["audioUrl"].as_str().unwrap()).await);
        let sb = samples(&download(&emu, b["audioUrl"].as_str().unwrap()).await);
        if correlation(&sa, &sb).abs() < 0.3 {
            pair = Some((a, b, sa, sb));
            break;
        }
    }
    let (a, b, sa, sb) = pair.expect("five pairs of generated songs, all alike");
    let urls = [
        upload(&emu, a["audioUrl"].as_str().unwrap(), "mash-a").await,
        upload(&emu, b["audioUrl"].as_str().unwrap(), "mash-b").await,
    ];
    let before = credits(&emu).await;
    // The document's example, with live uploads.
    let v = emu
        .post(
            "/api/v1/generate/mashup",
            json!({"uploadUrlList": urls, "customMode": true,
                   "prompt": "A calm and relaxing piano track with soft melodies", "style": "Classical",
                   "title": "Peaceful Piano Meditation", "instrumental": true, "model": "V4_5ALL",
                   "vocalGender": "m", "styleWeight": 0.65, "weirdnessConstraint": 0.65,
                   "audioWeight": 0.65, "callBackUrl": emu.inbox_url("mashup")}),
        )
        .await;
    assert_eq!(v["code"], 200, "{v}");
    assert_eq!(credits(&emu).await, before - 10);
    let rec = music_done(&emu, v["data"]["taskId"].as_str().unwrap()).await;
    let mixed = samples(
        &download(
            &emu,
            rec["response"]["sunoData"][0]["audioUrl"].as_str().unwrap(),
        )
        .await,
    );
    assert_eq!(mixed.len(), sa.len().max(sb.len()));
    let (ca, cb) = (correlation(&mixed, &sa), correlation(&mixed, &sb));
    println!("mashup correlates {ca:.2} with the first upload, {cb:.2} with the second");
    assert!(ca > 0.4 && cb > 0.4, "{ca} {cb}");
    let items = emu.inbox_wait("mashup", 3).await;
    assert_eq!(items[2]["body"]["data"]["callbackType"], "complete");
    let e = emu
        .post(
            "/api/v1/generate/mashup",
            json!({"uploadUrlList": [urls[0]], "customMode": false, "model": "V5",
                   "prompt": "p", "callBackUrl": emu.inbox_url("mashup")}),
        )
        .await;
    assert_eq!(e["code"], 422, "mashup's own table (V6): {e}");
    assert!(e["msg"].as_str().unwrap().contains("uploadUrlList"));
}

#[tokio::test]
async fn a_persona_answers_at_once_and_only_known_personas_sing() {
    let emu = Emu::start(&["--stage-delay-ms", "0"]).await;
    let (task_id, track) = song(&emu, 0.0).await;
    let audio_id = track["id"].as_str().unwrap();
    let doc = json!({"taskId": task_id, "audioId": audio_id, "name": "Electronic Pop Singer",
                     "description": "A modern electronic music style pop singer, skilled in dynamic rhythms and synthesizer tones",
                     "vocalStart": 0.0, "vocalEnd": 30.0, "style": "Electronic Pop"});
    let p = emu
        .post("/api/v1/generate/generate-persona", doc.clone())
        .await;
    assert_eq!(p["code"], 200, "{p}");
    let persona = p["data"]["personaId"].as_str().unwrap().to_owned();
    assert_eq!(p["data"]["name"], "Electronic Pop Singer");
    assert!(p["data"]["description"]
        .as_str()
        .unwrap()
        .starts_with("A modern"));
    let again = emu.post("/api/v1/generate/generate-persona", doc).await;
    assert_eq!(again["code"], 409, "{again}");
    let missing = emu
        .post(
            "/api/v1/generate/generate-persona",
            json!({"taskId": task_id, "audioId": "nope", "name": "n", "description": "d"}),
        )
        .await;
    assert_eq!(missing["code"], 404);

    // Accepted by generate, extend, upload-cover and upload-extend; an unknown one refused.
    let cb = emu.inbox_url("persona");
    let url = upload(&emu, track["audioUrl"].as_str().unwrap(), "persona-src").await;
    let custom = |extra: Value| {
        let mut body = json!({"model": "V5", "callBackUrl": cb, "prompt": "la la",
                              "style": "pop", "title": "With a persona", "personaId": persona});
        for (k, v) in extra.as_object().unwrap() {
            body[k] = v.clone();
        }
        body
    };
    for (path, extra) in [
        (
            "/api/v1/generate",
            json!({"customMode": true, "instrumental": false}),
        ),
        (
            "/api/v1/generate/extend",
            json!({"defaultParamFlag": true, "audioId": audio_id, "continueAt": 5}),
        ),
        (
            "/api/v1/generate/upload-cover",
            json!({"customMode": true, "instrumental": false, "uploadUrl": url}),
        ),
        (
            "/api/v1/generate/upload-extend",
            json!({"defaultParamFlag": true, "instrumental": false, "uploadUrl": url, "continueAt": 3}),
        ),
    ] {
        let v = emu.post(path, custom(extra.clone())).await;
        assert_eq!(v["code"], 200, "{path}: {v}");
        let mut unknown = custom(extra);
        unknown["personaId"] = json!("no-such-persona");
        let before = credits(&emu).await;
        let e = emu.post(path, unknown).await;
        assert_eq!(e["code"], 400, "{path}: {e}");
        assert!(e["msg"].as_str().unwrap().contains("personaId"), "{e}");
        assert_eq!(credits(&emu).await, before);
    }
    let e = emu
        .post(
            "/api/v1/generate",
            custom(
                json!({"customMode": true, "instrumental": false, "personaModel": "voice_persona"}),
            ),
        )
        .await;
    assert_eq!(e["code"], 400, "a persona is not a voice: {e}");
}
