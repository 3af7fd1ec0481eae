//! Personas, audio recovery and custom voices over real HTTP: the document's example requests
//! with live ids, every refusal, the voice flow in its documented order (regenerate supersedes),
//! recovery's own envelope (201, then 200 with links that download the old tracks' audio), and
//! the callbacks in their shapes.
//! One file for the three flows more-operations.md adds, over 400 lines on purpose: they share the
//! helpers below (uploads, finished tasks, the callback inbox), and each test follows its flow in
//! the document's order.

mod common;

use common::{rand_name, Emu};
use serde_json::{json, Value};
use tunesmith_protocol::Stage;
use tunesmith_protocol::TaskFamily;

/// Stages ten minutes apart on a manual clock: each advance releases one stage.
const STAGE: i64 = 600_000;
const PACED: [&str; 3] = ["--manual-clock", "--stage-delay-ms", "600000"];

fn wav(seconds: f64) -> Vec<u8> {
    common::sine_wav(seconds)
}

/// Uploads `bytes` as `name`; its download URL.
async fn upload(emu: &Emu, bytes: &[u8], name: &str) -> String {
    emu.store_bytes(bytes, "voice", name).await["downloadUrl"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// The family and outcome the client's callback parser reads from a delivered body.
fn classified(body: &Value) -> (TaskFamily, bool) {
    let data = body["data"].as_object().expect("data object");
    let c = tunesmith_protocol::callback::classify(body.as_object().unwrap(), Some(data), None)
        .expect("a callback the client recognises");
    assert_eq!(
        c.task_id,
        data.get("taskId")
            .or(data.get("task_id"))
            .unwrap()
            .as_str()
            .unwrap()
    );
    (c.family, c.stage == Stage::Complete)
}

fn id(v: &Value) -> String {
    assert_eq!(v["code"], 200, "{v}");
    v["data"]["taskId"].as_str().expect("taskId").to_owned()
}

/// A generate task finished on the manual clock: its id and record.
async fn finished(emu: &Emu, title: &str) -> (String, Value) {
    let task = emu.generate(&rand_name(), title).await;
    emu.advance(3 * STAGE).await;
    let rec = emu
        .wait_for(
            &format!("/api/v1/generate/record-info?taskId={task}"),
            "status",
            &[json!("SUCCESS")],
        )
        .await;
    (task, rec)
}

fn tracks(rec: &Value) -> Vec<Value> {
    rec["response"]["sunoData"].as_array().unwrap().clone()
}

fn custom(extra: Value) -> Value {
    let mut body = json!({
        "customMode": true, "instrumental": false, "model": "V5",
        "callBackUrl": "https://example.com/cb",
        "prompt": "la la la", "style": "pop", "title": "With a persona",
    });
    body.as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    body
}

#[tokio::test]
async fn a_persona_from_the_documents_example_is_used_by_generate_and_extend() {
    let emu = Emu::start(&PACED).await;
    // The document's example segment is 0 to 30 s: a track at least that long.
    let (task, track) = loop {
        let (task, rec) = finished(&emu, "Persona source").await;
        if let Some(t) = tracks(&rec)
            .into_iter()
            .find(|t| t["duration"].as_f64().unwrap() >= 30.0)
        {
            break (task, t);
        }
    };
    let audio = track["id"].as_str().unwrap();
    let example = json!({
        "taskId": task, "audioId": audio,
        "name": "Electronic Pop Singer",
        "description": "A modern electronic music style pop singer, skilled in dynamic rhythms and synthesizer tones",
        "vocalStart": 0.0, "vocalEnd": 30.0, "style": "Electronic Pop",
    });
    let v = emu
        .post("/api/v1/generate/generate-persona", example.clone())
        .await;
    assert_eq!(v["code"], 200, "{v}");
    assert_eq!(v["data"]["name"], "Electronic Pop Singer");
    assert_eq!(v["data"]["description"], example["description"]);
    let persona = v["data"]["personaId"].as_str().unwrap().to_owned();
    assert!(!persona.is_empty());

    // One persona per track.
    let again = emu.post("/api/v1/generate/generate-persona", example).await;
    assert_eq!(again["code"], 409, "{again}");
    assert_eq!(again["msg"], "Persona already exists for this music");

    let g = emu
        .post(
            "/api/v1/generate",
            custom(json!({"personaId": persona, "personaModel": "style_persona"})),
        )
        .await;
    id(&g);
    let e = emu
        .post(
            "/api/v1/generate/extend",
            json!({"defaultParamFlag": true, "audioId": audio, "callBackUrl": "https://example.com/cb",
                   "prompt": "more", "style": "pop", "title": "Longer", "continueAt": 10, "personaId": persona}),
        )
        .await;
    id(&e);
}

#[tokio::test]
async fn personas_refuse_unknown_tracks_long_segments_unfinished_tracks_and_unknown_ids() {
    let emu = Emu::start(&PACED).await;
    let (task, rec) = finished(&emu, "Short or long").await;
    let t = &tracks(&rec)[0];
    let (audio, seconds) = (t["id"].as_str().unwrap(), t["duration"].as_f64().unwrap());
    let body = |extra: Value| {
        let mut b = json!({"taskId": task, "audioId": audio, "name": "n", "description": "d"});
        b.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        b
    };
    let unknown = emu
        .post(
            "/api/v1/generate/generate-persona",
            body(json!({"audioId": "no-such-track"})),
        )
        .await;
    assert_eq!(unknown["code"], 404, "{unknown}");
    // The segment ends after the track does.
    let past = emu
        .post(
            "/api/v1/generate/generate-persona",
            body(json!({"vocalStart": seconds - 5.0, "vocalEnd": seconds + 10.0})),
        )
        .await;
    assert_eq!(past["code"], 422, "{past}");
    assert!(past["msg"].as_str().unwrap().contains("vocalEnd"), "{past}");
    // A segment the protocol refuses (over 30 s) and a missing name.
    let long = emu
        .post(
            "/api/v1/generate/generate-persona",
            body(json!({"vocalStart": 0, "vocalEnd": 35})),
        )
        .await;
    assert_eq!(long["code"], 422, "{long}");
    let mut nameless = body(json!({}));
    nameless.as_object_mut().unwrap().remove("name");
    let nameless = emu
        .post("/api/v1/generate/generate-persona", nameless)
        .await;
    assert_eq!(nameless["code"], 422, "{nameless}");
    // A track still being generated (its first stream is ready, its full audio not).
    let running = emu.generate(&rand_name(), "Running").await;
    emu.advance(2 * STAGE).await;
    let rec = emu
        .get(&format!("/api/v1/generate/record-info?taskId={running}"))
        .await;
    assert_eq!(rec["data"]["status"], "FIRST_SUCCESS", "{rec}");
    let running_audio = rec["data"]["response"]["sunoData"][0]["id"].clone();
    assert!(running_audio.is_string(), "{rec}");
    let v = emu
        .post(
            "/api/v1/generate/generate-persona",
            json!({"taskId": running, "audioId": running_audio, "name": "n", "description": "d"}),
        )
        .await;
    assert_eq!(v["code"], 422, "{v}");
    // Shorter defaults: without vocalEnd the segment stops at the track's end.
    let v = emu
        .post("/api/v1/generate/generate-persona", body(json!({})))
        .await;
    assert_eq!(v["code"], 200, "{v}");

    // Unknown personas are refused by every operation that takes one, naming the field.
    for (path, b) in [
        ("/api/v1/generate", custom(json!({"personaId": "nobody"}))),
        (
            "/api/v1/generate/upload-cover",
            custom(json!({"personaId": "nobody", "uploadUrl": "https://example.com/a.mp3"})),
        ),
        (
            "/api/v1/generate",
            custom(json!({"personaId": "nobody", "personaModel": "voice_persona"})),
        ),
    ] {
        let v = emu.post(path, b).await;
        assert_eq!(v["code"], 400, "{path}: {v}");
        assert!(v["msg"].as_str().unwrap().contains("personaId"), "{v}");
    }
    // A persona is not a voice.
    let persona = v["data"]["personaId"].as_str().unwrap();
    let v = emu
        .post(
            "/api/v1/generate",
            custom(json!({"personaId": persona, "personaModel": "voice_persona"})),
        )
        .await;
    assert_eq!(v["code"], 400, "{v}");
}

#[tokio::test]
async fn personas_survive_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_str().unwrap().to_owned();
    let first = Emu::start(&["--data-dir", &data, "--stage-delay-ms", "1"]).await;
    let rec = first.finished("Kept").await;
    let (task, audio) = (
        rec["taskId"].clone(),
        rec["response"]["sunoData"][0]["id"].clone(),
    );
    let body = json!({"taskId": task, "audioId": audio, "name": "n", "description": "d"});
    let v = first
        .post("/api/v1/generate/generate-persona", body.clone())
        .await;
    let persona = v["data"]["personaId"]
        .as_str()
        .expect("personaId")
        .to_owned();
    first.shutdown().await;

    let second = Emu::start(&["--data-dir", &data, "--stage-delay-ms", "1"]).await;
    id(&second
        .post("/api/v1/generate", custom(json!({"personaId": persona})))
        .await);
    let again = second.post("/api/v1/generate/generate-persona", body).await;
    assert_eq!(again["code"], 409, "{again}");
}

#[tokio::test]
async fn recovery_answers_201_then_200_with_links_to_the_same_audio_and_calls_back() {
    let emu = Emu::start(&PACED).await;
    let (old, rec) = finished(&emu, "Expired links").await;
    let inbox = rand_name();
    let task = id(&emu
        .post(
            "/api/v1/suno/recovery",
            json!({"sunoTaskId": old, "callBackUrl": emu.inbox_url(&inbox)}),
        )
        .await);
    let q = format!("/api/v1/suno/recovery/record-info?task_id={task}");
    let running = emu.get(&q).await;
    assert_eq!(running["code"], 201, "{running}");
    assert_eq!(running["task_id"], task.as_str());
    assert_eq!(running["data"], Value::Null);
    assert!(running.get("msg").is_some());

    emu.advance(STAGE).await;
    let done = emu.get(&q).await;
    assert_eq!(done["code"], 200, "{done}");
    assert_eq!(done["task_id"], task.as_str());
    let items = done["data"].as_array().unwrap();
    let old_tracks = tracks(&rec);
    assert_eq!(items.len(), old_tracks.len());
    for (item, t) in items.iter().zip(&old_tracks) {
        assert_eq!(item["id"], t["id"]);
        assert_eq!(item["title"], t["title"]);
        assert_eq!(item["status"], "success");
        assert_eq!(item["error"], Value::Null);
        let fresh = item["audio_url"].as_str().unwrap();
        assert_ne!(fresh, t["audioUrl"].as_str().unwrap(), "a fresh link");
        let got = emu.public(fresh).await;
        assert_eq!(got.status(), 200);
        let got = got.bytes().await.unwrap();
        let original = emu
            .public(t["audioUrl"].as_str().unwrap())
            .await
            .bytes()
            .await
            .unwrap();
        assert!(!got.is_empty());
        assert_eq!(got, original, "the same audio as the old track");
    }

    let cb = emu.inbox_wait(&inbox, 1).await;
    let body = &cb[0]["body"];
    assert_eq!(body["code"], 200, "{body}");
    assert_eq!(body["data"]["task_id"], task.as_str());
    assert_eq!(body["data"]["recovery_data"], done["data"]);
    assert_eq!(classified(body), (TaskFamily::Recovery, true));
}

#[tokio::test]
async fn recovery_refuses_unknown_and_unfinished_tasks_and_reports_a_failure() {
    let emu = Emu::start(&PACED).await;
    let cb = "https://example.com/cb";
    let v = emu
        .post(
            "/api/v1/suno/recovery",
            json!({"sunoTaskId": "nope", "callBackUrl": cb}),
        )
        .await;
    assert_eq!(v["code"], 404, "{v}");
    let running = emu.generate(&rand_name(), "Not yet").await;
    let v = emu
        .post(
            "/api/v1/suno/recovery",
            json!({"sunoTaskId": running, "callBackUrl": cb}),
        )
        .await;
    assert_eq!(v["code"], 404, "{v}");
    let v = emu
        .post("/api/v1/suno/recovery", json!({"callBackUrl": cb}))
        .await;
    assert_eq!(v["code"], 400, "{v}");
    let v = emu
        .get("/api/v1/suno/recovery/record-info?task_id=nope")
        .await;
    assert_eq!(v["code"], 404, "{v}");

    let (old, _) = finished(&emu, "Fails").await;
    let inbox = rand_name();
    let task = id(&emu
        .post(
            "/api/v1/suno/recovery",
            json!({"sunoTaskId": old, "callBackUrl": format!("{}?emulate:failed", emu.inbox_url(&inbox))}),
        )
        .await);
    emu.advance(STAGE).await;
    let v = emu
        .get(&format!("/api/v1/suno/recovery/record-info?task_id={task}"))
        .await;
    assert_eq!(v["code"], 500, "{v}");
    assert!(v["data"]
        .as_array()
        .unwrap()
        .iter()
        .all(|t| t["status"] == "failed"));
    let cb = emu.inbox_wait(&inbox, 1).await;
    assert_ne!(cb[0]["body"]["code"], 200);
    assert_eq!(cb[0]["body"]["data"]["recovery_data"], Value::Null);
    assert_eq!(classified(&cb[0]["body"]), (TaskFamily::Recovery, false));
    assert_eq!(cb[0]["body"]["data"]["task_id"], task.as_str());
}

async fn validation(emu: &Emu, task: &str) -> Value {
    let v = emu
        .get(&format!("/api/v1/voice/validate-info?taskId={task}"))
        .await;
    assert_eq!(v["code"], 200, "{v}");
    v["data"].clone()
}

async fn voice(emu: &Emu, task: &str) -> Value {
    let v = emu
        .get(&format!("/api/v1/voice/record-info?taskId={task}"))
        .await;
    assert_eq!(v["code"], 200, "{v}");
    v["data"].clone()
}

#[tokio::test]
async fn the_voice_flow_runs_in_its_documented_order() {
    let emu = Emu::start(&PACED).await;
    let recording = upload(&emu, &wav(12.0), "singer.wav").await;
    let inbox = rand_name();
    let first = id(&emu
        .post(
            "/api/v1/voice/validate",
            json!({"voiceUrl": recording, "vocalStartS": 1.0, "vocalEndS": 10.0, "language": "fr",
                   "callBackUrl": emu.inbox_url(&inbox)}),
        )
        .await);
    let v = validation(&emu, &first).await;
    assert_eq!(v["status"], "wait_processing");
    assert_eq!(v["validateInfo"], Value::Null);
    assert_eq!(v["taskId"], first.as_str());
    // No voice before the phrase is ready.
    let early = emu
        .post(
            "/api/v1/voice/generate",
            json!({"taskId": first, "verifyUrl": recording}),
        )
        .await;
    assert_eq!(early["code"], 400, "{early}");
    assert!(
        early["msg"].as_str().unwrap().contains("not ready"),
        "{early}"
    );
    emu.advance(STAGE).await;
    assert_eq!(
        validation(&emu, &first).await["status"],
        "processing_validate"
    );
    emu.advance(STAGE).await;
    let ready = validation(&emu, &first).await;
    assert_eq!(ready["status"], "wait_validating", "{ready}");
    assert_eq!(ready["errorCode"], Value::Null);
    let phrase = ready["validateInfo"].as_str().unwrap().to_owned();
    let french = [
        "lune", "rivière", "vent", "étoile", "jardin", "chanson", "matin", "ciel",
    ];
    assert!(phrase.split(' ').all(|w| french.contains(&w)), "{phrase}");
    // The same request gives the same phrase.
    assert_eq!(
        validation(&emu, &first).await["validateInfo"],
        phrase.as_str()
    );
    let cb = emu.inbox_wait(&inbox, 1).await;
    let body = &cb[0]["body"];
    assert_eq!(body["code"], 200);
    assert_eq!(body["data"]["taskId"], first.as_str());
    assert_eq!(body["data"]["validateInfo"], phrase.as_str());
    assert_eq!(body["data"]["status"], "wait_validating");
    assert!(body["data"].get("voiceId").is_none(), "{body}");
    assert_eq!(classified(body), (TaskFamily::VoiceValidation, true));

    // A new phrase, with the documented `calBackUrl` spelling; the old validation is superseded.
    let inbox2 = rand_name();
    let second = id(&emu
        .post(
            "/api/v1/voice/regenerate",
            json!({"taskId": first, "calBackUrl": emu.inbox_url(&inbox2)}),
        )
        .await);
    assert_ne!(second, first);
    emu.advance(2 * STAGE).await;
    let regenerated = validation(&emu, &second).await;
    assert_eq!(regenerated["status"], "wait_validating");
    let new_phrase = regenerated["validateInfo"].as_str().unwrap();
    assert_ne!(new_phrase, phrase);
    assert!(
        new_phrase.split(' ').all(|w| french.contains(&w)),
        "same language"
    );
    assert_eq!(
        emu.inbox_wait(&inbox2, 1).await[0]["body"]["data"]["validateInfo"],
        new_phrase
    );
    let verify = upload(&emu, &wav(4.0), "phrase.wav").await;
    let old = emu
        .post(
            "/api/v1/voice/generate",
            json!({"taskId": first, "verifyUrl": verify}),
        )
        .await;
    assert_eq!(old["code"], 400, "{old}");
    assert!(
        old["msg"].as_str().unwrap().contains(&second),
        "names the new task: {old}"
    );

    let inbox3 = rand_name();
    let made = id(&emu
        .post(
            "/api/v1/voice/generate",
            json!({"taskId": second, "verifyUrl": verify, "voiceName": "Me", "description": "warm alto",
                   "style": "folk", "singerSkillLevel": "intermediate", "callBackUrl": emu.inbox_url(&inbox3)}),
        )
        .await);
    let v = voice(&emu, &made).await;
    assert_eq!(v["status"], "wait_processing");
    assert_eq!(v["voiceId"], Value::Null);
    let check = emu
        .post("/api/v1/voice/check-voice", json!({"task_id": made}))
        .await;
    assert_eq!(check["data"]["isAvailable"], false, "{check}");
    // Not usable yet.
    let early = emu
        .post(
            "/api/v1/generate",
            custom(json!({"personaId": "x", "personaModel": "voice_persona"})),
        )
        .await;
    assert_eq!(early["code"], 400);
    emu.advance(STAGE).await;
    assert_eq!(voice(&emu, &made).await["status"], "processing_validate");
    emu.advance(STAGE).await;
    let v = voice(&emu, &made).await;
    assert_eq!(v["status"], "success", "{v}");
    let voice_id = v["voiceId"].as_str().unwrap().to_owned();
    let check = emu
        .post("/api/v1/voice/check-voice", json!({"task_id": made}))
        .await;
    assert_eq!(check["code"], 200, "{check}");
    assert_eq!(check["data"]["isAvailable"], true);
    let cb = emu.inbox_wait(&inbox3, 1).await;
    let body = &cb[0]["body"];
    assert_eq!(body["data"]["voiceId"], voice_id.as_str());
    assert_eq!(body["data"]["status"], "success");
    assert!(body["data"].get("validateInfo").is_none(), "{body}");
    assert_eq!(classified(body), (TaskFamily::Voice, true));

    // The voice sings as a persona.
    id(&emu
        .post(
            "/api/v1/generate",
            custom(json!({"personaId": voice_id, "personaModel": "voice_persona"})),
        )
        .await);
    // As a style persona it is unknown.
    let v = emu
        .post("/api/v1/generate", custom(json!({"personaId": voice_id})))
        .await;
    assert_eq!(v["code"], 400, "{v}");
}

#[tokio::test]
async fn the_voice_flow_refuses_or_fails_what_it_cannot_use() {
    let emu = Emu::start(&PACED).await;
    let recording = upload(&emu, &wav(6.0), "short.wav").await;
    let text = upload(&emu, b"just some words, not a song\n", "notes.txt").await;
    let validate =
        |url: &str, end: f64| json!({"voiceUrl": url, "vocalStartS": 0.5, "vocalEndS": end});

    // Past the recording's end, and an end before the start.
    let v = emu
        .post("/api/v1/voice/validate", validate(&recording, 9.0))
        .await;
    assert_eq!(v["code"], 400, "{v}");
    assert!(v["msg"].as_str().unwrap().contains("vocalEndS"), "{v}");
    let v = emu
        .post("/api/v1/voice/validate", validate(&recording, 0.2))
        .await;
    assert_eq!(v["code"], 400, "{v}");
    // Not audio, and not an upload of this emulator: the task fails.
    let not_audio = id(&emu
        .post("/api/v1/voice/validate", validate(&text, 5.0))
        .await);
    let elsewhere = id(&emu
        .post(
            "/api/v1/voice/validate",
            validate("https://example.com/me.wav", 5.0),
        )
        .await);
    let inbox = rand_name();
    let failing = id(&emu
        .post(
            "/api/v1/voice/validate",
            json!({"voiceUrl": recording, "vocalStartS": 0.5, "vocalEndS": 5.0,
                   "callBackUrl": format!("{}?emulate:failed", emu.inbox_url(&inbox))}),
        )
        .await);
    emu.advance(2 * STAGE).await;
    for (task, why) in [
        (&not_audio, "not audio"),
        (&elsewhere, "upload host"),
        (&failing, ""),
    ] {
        let v = validation(&emu, task).await;
        assert_eq!(v["status"], "processing_validate_fail", "{v}");
        assert_eq!(v["validateInfo"], Value::Null);
        assert!(v["errorCode"].is_i64(), "{v}");
        assert!(v["errorMessage"].as_str().unwrap().contains(why), "{v}");
        let create = emu
            .post(
                "/api/v1/voice/generate",
                json!({"taskId": task, "verifyUrl": recording}),
            )
            .await;
        assert_eq!(create["code"], 400, "{create}");
    }
    let cb = emu.inbox_wait(&inbox, 1).await;
    assert_eq!(cb[0]["body"]["data"]["status"], "processing_validate_fail");
    assert_eq!(cb[0]["body"]["data"]["validateInfo"], Value::Null);
    assert_eq!(
        classified(&cb[0]["body"]),
        (TaskFamily::VoiceValidation, false)
    );

    // Unknown tasks everywhere.
    for path in [
        "/api/v1/voice/validate-info?taskId=nope",
        "/api/v1/voice/record-info?taskId=nope",
    ] {
        assert_eq!(emu.get(path).await["code"], 404, "{path}");
    }
    let v = emu
        .post("/api/v1/voice/check-voice", json!({"task_id": "nope"}))
        .await;
    assert_eq!(v["code"], 404, "{v}");
    let v = emu
        .post(
            "/api/v1/voice/regenerate",
            json!({"taskId": "nope", "calBackUrl": "https://example.com/cb"}),
        )
        .await;
    assert_eq!(v["code"], 404, "{v}");
    let v = emu
        .post(
            "/api/v1/voice/generate",
            json!({"taskId": "nope", "verifyUrl": recording}),
        )
        .await;
    assert_eq!(v["code"], 404, "{v}");
    // regenerate needs its misspelt field.
    let v = emu
        .post(
            "/api/v1/voice/regenerate",
            json!({"taskId": failing, "callBackUrl": "https://example.com/cb"}),
        )
        .await;
    assert_eq!(v["code"], 400, "{v}");
    assert!(v["msg"].as_str().unwrap().contains("calBackUrl"), "{v}");

    // A ready phrase, but the recording of it is not audio; then a voice that fails.
    let ok = id(&emu
        .post("/api/v1/voice/validate", validate(&recording, 5.0))
        .await);
    emu.advance(2 * STAGE).await;
    let v = emu
        .post(
            "/api/v1/voice/generate",
            json!({"taskId": ok, "verifyUrl": text}),
        )
        .await;
    assert_eq!(v["code"], 400, "{v}");
    assert!(v["msg"].as_str().unwrap().contains("verifyUrl"), "{v}");
    let inbox = rand_name();
    let failed = id(&emu
        .post(
            "/api/v1/voice/generate",
            json!({"taskId": ok, "verifyUrl": recording, "voiceName": "emulate:failed",
                   "callBackUrl": emu.inbox_url(&inbox)}),
        )
        .await);
    emu.advance(2 * STAGE).await;
    let v = voice(&emu, &failed).await;
    assert_eq!(v["status"], "fail", "{v}");
    assert_eq!(v["voiceId"], Value::Null);
    let check = emu
        .post("/api/v1/voice/check-voice", json!({"task_id": failed}))
        .await;
    assert_eq!(check["data"]["isAvailable"], false);
    let cb = emu.inbox_wait(&inbox, 1).await;
    assert_eq!(cb[0]["body"]["data"]["voiceId"], Value::Null);
    assert!(cb[0]["body"]["data"].get("validateInfo").is_none());
    assert_ne!(cb[0]["body"]["code"], 200);
    assert_eq!(classified(&cb[0]["body"]), (TaskFamily::Voice, false));
}

#[tokio::test]
async fn recovery_brings_back_tracks_whose_links_expired() {
    let emu = Emu::start(&PACED).await;
    let (old, rec) = finished(&emu, "Long ago").await;
    let t = &tracks(&rec)[0];
    let old_url = t["audioUrl"].as_str().unwrap();
    let original = emu.public(old_url).await.bytes().await.unwrap();
    // Past the 14 days of retention, the old link is gone.
    emu.advance(15 * 24 * 3600 * 1000).await;
    assert_eq!(emu.public(old_url).await.status(), 404);
    let task = id(&emu
        .post(
            "/api/v1/suno/recovery",
            json!({"sunoTaskId": old, "callBackUrl": "https://example.com/cb"}),
        )
        .await);
    emu.advance(STAGE).await;
    let done = emu
        .get(&format!("/api/v1/suno/recovery/record-info?task_id={task}"))
        .await;
    assert_eq!(done["code"], 200, "{done}");
    let fresh = done["data"][0]["audio_url"].as_str().unwrap();
    let got = emu.public(fresh).await;
    assert_eq!(got.status(), 200);
    assert_eq!(
        got.bytes().await.unwrap(),
        original,
        "the same audio, synthesized again"
    );
}
