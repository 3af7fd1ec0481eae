//! The documents' own example requests, over real HTTP: every operation of the service's public
//! OpenAPI document (26) and every one more-operations.md adds (11: recovery and its status, the
//! six voice calls, the three upload-host calls) is sent the document's example body, with only
//! its ids and URLs replaced by live ones (a finished task of this emulator, a file uploaded to
//! its upload host, a persona made here, an inbox for callbacks). Each example must pass the
//! client's own validation (`Op::validate`), be accepted by the emulator (code 200; the recovery
//! status 200 or 201 in its own envelope), and answer `data` in the declared wire record.
//!
//! The example values are copied here as literals: the project never reads the documents.
//!
//! Shapes are held with the protocol's strict checker (`schema::check`), against the record's
//! wire fields only: a status record such as `MusicTask` also declares what the client adds
//! (`state`, `stage`, `tracks`), which the service never writes, so those fields are left out of
//! the declaration the answer is held to; every other field is checked strictly, unknown keys
//! included. `getCredits` answers a bare number; the recovery status, whose envelope is its own,
//! is held whole against `RecoveryEnvelope`.
//! Over 400 lines on purpose: the 37 examples are literals, one per operation, read like the
//! documents they are copied from.

mod common;

use std::collections::BTreeSet;
use std::time::Duration;

use base64::Engine;
use common::{rand_name, Emu, KEY};
use serde_json::{json, Value};
use tunesmith_protocol::schema::{self, check, Origin, Record, Ty};
use tunesmith_protocol::{Host, Method, Op};

/// The 26 operations of public-openapi.json.
const OPENAPI: [Op; 26] = [
    Op::Generate,
    Op::GenerateSounds,
    Op::Extend,
    Op::UploadCover,
    Op::UploadExtend,
    Op::GetTask,
    Op::GetCredits,
    Op::GetTimestampedLyrics,
    Op::BoostStyle,
    Op::AddInstrumental,
    Op::AddVocals,
    Op::GenerateLyrics,
    Op::GetLyrics,
    Op::ConvertToWav,
    Op::GetWav,
    Op::ReplaceSection,
    Op::SeparateVocals,
    Op::GetVocalSeparation,
    Op::GenerateMidi,
    Op::GetMidi,
    Op::GenerateVideo,
    Op::GetVideo,
    Op::GenerateCover,
    Op::Mashup,
    Op::GeneratePersona,
    Op::GetCover,
];

/// The 11 of more-operations.md (with the upload host's three).
const MORE: [Op; 11] = [
    Op::UploadFromUrl,
    Op::UploadStream,
    Op::UploadBase64,
    Op::RecoverAudio,
    Op::GetRecovery,
    Op::ValidateVoice,
    Op::GetVoiceValidation,
    Op::RegenerateVoicePhrase,
    Op::CreateVoice,
    Op::GetVoice,
    Op::CheckVoice,
];

/// The record `op`'s answer is held to, restricted to what the service writes.
fn wire_record(op: Op) -> &'static Record {
    let record = op.output();
    assert!(
        record.rust.is_some(),
        "{op:?}: {} has no wire struct",
        record.name
    );
    if record.all_fields().iter().all(|f| f.origin == Origin::Wire) {
        return record;
    }
    let fields: Vec<schema::Field> = record
        .all_fields()
        .into_iter()
        .filter(|f| f.origin == Origin::Wire)
        .copied()
        .collect();
    Box::leak(Box::new(Record {
        name: record.name,
        rust: record.rust,
        twin: record.twin,
        extends: None,
        doc: record.doc,
        fields: Box::leak(fields.into_boxed_slice()),
    }))
}

/// Sends documented examples and records which operations were checked.
struct Examples<'a> {
    emu: &'a Emu,
    done: BTreeSet<String>,
}

impl<'a> Examples<'a> {
    fn new(emu: &'a Emu) -> Self {
        Examples {
            emu,
            done: BTreeSet::new(),
        }
    }

    /// The client accepts `body`, the emulator serves `path` as `op`: then marks `op` checked.
    fn admit(&mut self, op: Op, method: Method, path: &str, body: &Value) {
        let e = op.endpoint();
        assert_eq!(e.method, method, "{op:?}");
        assert_eq!(op.path("suno"), path, "{op:?}: the document's path");
        let fields = body.as_object().expect("an object");
        if let Err(err) = op.validate(fields) {
            panic!("{op:?}: the document's example is refused by our rules: {err:?}\n{body}");
        }
        assert!(self.done.insert(format!("{op:?}")), "{op:?} twice");
    }

    /// Holds a 200 answer's `data` against `op`'s declared record; returns `data`.
    fn holds(&self, op: Op, answer: &Value) -> Value {
        assert_eq!(answer["code"], 200, "{op:?}: {answer}");
        let data = answer["data"].clone();
        let ty = match op {
            Op::GetCredits => Ty::Num,
            _ => Ty::Ref(wire_record(op)),
        };
        if let Err(m) = check(&data, &ty) {
            panic!("{op:?}: answer not in its declared shape: {m}\n{data}");
        }
        data
    }

    /// POSTs the document's example `body` (live ids already in) to the music host.
    async fn post(&mut self, op: Op, path: &str, body: Value) -> Value {
        self.admit(op, Method::Post, path, &body);
        let answer = self.emu.post(path, body).await;
        self.holds(op, &answer)
    }

    /// GETs `path` with the document's query parameters.
    async fn get(&mut self, op: Op, path: &str, query: Value) -> Value {
        self.admit(op, Method::Get, path, &query);
        let q: Vec<String> = query
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| format!("{k}={}", v.as_str().unwrap()))
            .collect();
        let url = if q.is_empty() {
            path.to_owned()
        } else {
            format!("{path}?{}", q.join("&"))
        };
        let answer = self.emu.get(&url).await;
        self.holds(op, &answer)
    }

    /// POSTs a JSON body to the upload host.
    async fn upload(&mut self, op: Op, path: &str, body: Value) -> Value {
        assert_eq!(op.endpoint().host, Host::Upload);
        self.admit(op, Method::Post, path, &body);
        let answer: Value = self
            .emu
            .http
            .post(format!("{}{path}", self.emu.upload))
            .bearer_auth(KEY)
            .json(&body)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        self.holds(op, &answer)
    }

    fn finish(self, document: &str, want: &[Op]) -> usize {
        let want: BTreeSet<String> = want.iter().map(|op| format!("{op:?}")).collect();
        assert_eq!(self.done, want, "{document}");
        println!("{document}: {} operations checked", self.done.len());
        self.done.len()
    }
}

fn task_id(data: &Value) -> String {
    data["taskId"].as_str().expect("taskId").to_owned()
}

/// A finished V4_5ALL song whose first track lasts more than `min_s` seconds: its id and track.
async fn long_song(emu: &Emu, min_s: f64) -> (String, Value) {
    for n in 0..40 {
        let v = emu
            .post(
                "/api/v1/generate",
                json!({"customMode": true, "instrumental": false, "model": "V4_5ALL",
                       "callBackUrl": emu.inbox_url("source"), "prompt": "la la la\noh oh",
                       "style": "dream pop", "title": format!("Source {n}")}),
            )
            .await;
        let id = task_id(&v["data"]);
        let rec = music_done(emu, &id).await;
        let track = rec["response"]["sunoData"][0].clone();
        if track["duration"].as_f64().unwrap() > min_s {
            return (id, track);
        }
    }
    panic!("no track longer than {min_s} s");
}

async fn music_done(emu: &Emu, id: &str) -> Value {
    emu.wait_for(
        &format!("/api/v1/generate/record-info?taskId={id}"),
        "status",
        &[json!("SUCCESS")],
    )
    .await
}

/// Stores `url`'s bytes on the upload host (not one of the checked examples): its download URL.
async fn stored(emu: &Emu, url: &str, name: &str) -> String {
    emu.store_url(url, "examples", name).await
}

/// Stores `bytes` on the upload host (not one of the checked examples): its download URL.
async fn base64_upload(emu: &Emu, bytes: &[u8], name: &str) -> String {
    emu.store_bytes(bytes, "examples", name).await["downloadUrl"]
        .as_str()
        .unwrap()
        .to_owned()
}

fn wav(seconds: f64) -> Vec<u8> {
    common::sine_wav(seconds)
}

#[tokio::test]
async fn every_example_of_the_public_openapi_document_is_accepted() {
    let started = std::time::Instant::now();
    let emu = Emu::start(&["--stage-delay-ms", "0"]).await;
    let mut ex = Examples::new(&emu);
    let cb = emu.inbox_url("examples");

    ex.get(Op::GetCredits, "/api/v1/generate/credit", json!({}))
        .await;

    // Live ids: a finished song (the model of the examples) long enough for the persona's 0 to
    // 30 s, and its upload; the extend examples continue at 60 s but generated songs last 20 to
    // 40 s, so upload-cover and upload-extend take an uploaded 61 s recording (mixing a source
    // costs time in proportion to its length: the other operations take the short song).
    let (song, track) = long_song(&emu, 30.5).await;
    let audio = track["id"].as_str().unwrap().to_owned();
    let upload = stored(&emu, track["audioUrl"].as_str().unwrap(), "source").await;
    let long_upload = base64_upload(&emu, &wav(61.0), "long.wav").await;

    // The persona the examples name `persona_123`.
    let persona = ex
        .post(
            Op::GeneratePersona,
            "/api/v1/generate/generate-persona",
            json!({
                "taskId": song, "audioId": audio,
                "name": "Electronic Pop Singer",
                "description": "A modern electronic music style pop singer, skilled in dynamic rhythms and synthesizer tones",
                "vocalStart": 0.0, "vocalEnd": 30.0, "style": "Electronic Pop",
            }),
        )
        .await["personaId"]
        .as_str()
        .unwrap()
        .to_owned();

    let generated = task_id(
        &ex.post(
            Op::Generate,
            "/api/v1/generate",
            json!({
                "prompt": "A calm and relaxing piano track with soft melodies",
                "style": "Classical", "title": "Peaceful Piano Meditation",
                "customMode": true, "instrumental": true,
                "personaId": persona, "personaModel": "style_persona", "model": "V4_5ALL",
                "negativeTags": "Heavy Metal, Upbeat Drums", "vocalGender": "m",
                "styleWeight": 0.65, "weirdnessConstraint": 0.65, "audioWeight": 0.65,
                "callBackUrl": cb,
            }),
        )
        .await,
    );
    music_done(&emu, &generated).await;
    ex.get(
        Op::GetTask,
        "/api/v1/generate/record-info",
        json!({ "taskId": generated }),
    )
    .await;

    ex.post(
        Op::GenerateSounds,
        "/api/v1/generate/sounds",
        json!({
            "prompt": "A soft rain ambience with distant thunder and gentle wind", "model": "V5",
            "soundLoop": false, "soundTempo": 120, "soundKey": "Any", "grabLyrics": false,
            "callBackUrl": cb,
        }),
    )
    .await;
    let covered = task_id(
        &ex.post(
            Op::UploadCover,
            "/api/v1/generate/upload-cover",
            json!({
                "uploadUrl": long_upload,
                "prompt": "A calm and relaxing piano track with soft melodies",
                "style": "Classical", "title": "Peaceful Piano Meditation",
                "customMode": true, "instrumental": true,
                "personaId": persona, "personaModel": "style_persona", "model": "V4_5ALL",
                "negativeTags": "Heavy Metal, Upbeat Drums", "vocalGender": "m",
                "styleWeight": 0.65, "weirdnessConstraint": 0.65, "audioWeight": 0.65,
                "callBackUrl": cb,
            }),
        )
        .await,
    );
    // The extend example's `audioId`: a track over 60 s long, the upload-cover's of 61 s.
    let long = music_done(&emu, &covered).await["response"]["sunoData"][0].clone();
    assert!(long["duration"].as_f64().unwrap() > 60.0, "{long}");
    ex.post(
        Op::Extend,
        "/api/v1/generate/extend",
        json!({
            "defaultParamFlag": true, "audioId": long["id"],
            "prompt": "Extend the music with more relaxing notes", "style": "Classical",
            "title": "Peaceful Piano Extended", "continueAt": 60,
            "personaId": persona, "personaModel": "style_persona", "model": "V4_5ALL",
            "negativeTags": "Relaxing Piano", "vocalGender": "m",
            "styleWeight": 0.65, "weirdnessConstraint": 0.65, "audioWeight": 0.65,
            "callBackUrl": cb,
        }),
    )
    .await;
    ex.post(
        Op::UploadExtend,
        "/api/v1/generate/upload-extend",
        json!({
            "uploadUrl": long_upload, "defaultParamFlag": true, "instrumental": true,
            "prompt": "Extend the music with more relaxing notes", "style": "Classical",
            "title": "Peaceful Piano Extended", "continueAt": 60,
            "personaId": persona, "personaModel": "style_persona", "model": "V4_5ALL",
            "negativeTags": "Relaxing Piano", "vocalGender": "m",
            "styleWeight": 0.65, "weirdnessConstraint": 0.65, "audioWeight": 0.65,
            "callBackUrl": cb,
        }),
    )
    .await;
    ex.post(
        Op::GetTimestampedLyrics,
        "/api/v1/generate/get-timestamped-lyrics",
        json!({ "taskId": song, "audioId": audio }),
    )
    .await;
    ex.post(
        Op::BoostStyle,
        "/api/v1/style/generate",
        json!({ "content": "Pop, Mysterious" }),
    )
    .await;
    ex.post(
        Op::AddInstrumental,
        "/api/v1/generate/add-instrumental",
        json!({
            "uploadUrl": upload, "title": "Relaxing Piano",
            "negativeTags": "Heavy Metal, Aggressive Drums",
            "tags": "Relaxing Piano, Ambient, Peaceful", "callBackUrl": cb,
            "vocalGender": "m", "styleWeight": 0.61, "weirdnessConstraint": 0.72,
            "audioWeight": 0.65, "model": "V4_5PLUS",
        }),
    )
    .await;
    ex.post(
        Op::AddVocals,
        "/api/v1/generate/add-vocals",
        json!({
            "prompt": "A calm and relaxing piano track with soothing vocals",
            "title": "Relaxing Piano with Vocals",
            "negativeTags": "Heavy Metal, Aggressive Vocals", "style": "Jazz",
            "vocalGender": "m", "styleWeight": 0.61, "weirdnessConstraint": 0.72,
            "audioWeight": 0.65, "uploadUrl": upload, "callBackUrl": cb, "model": "V4_5PLUS",
        }),
    )
    .await;

    let lyrics = task_id(
        &ex.post(
            Op::GenerateLyrics,
            "/api/v1/lyrics",
            json!({ "prompt": "A song about peaceful night in the city", "callBackUrl": cb }),
        )
        .await,
    );
    ex.get(
        Op::GetLyrics,
        "/api/v1/lyrics/record-info",
        json!({ "taskId": lyrics }),
    )
    .await;

    let wav_task = task_id(
        &ex.post(
            Op::ConvertToWav,
            "/api/v1/wav/generate",
            json!({ "taskId": song, "audioId": audio, "callBackUrl": cb }),
        )
        .await,
    );
    ex.get(
        Op::GetWav,
        "/api/v1/wav/record-info",
        json!({ "taskId": wav_task }),
    )
    .await;

    // The content-level example of replace-section (its task id `2fac****9f72`).
    ex.post(
        Op::ReplaceSection,
        "/api/v1/generate/replace-section",
        json!({
            "taskId": song, "audioId": audio,
            "prompt": "A calm and relaxing piano track.", "tags": "Jazz",
            "title": "Relaxing Piano", "negativeTags": "Rock",
            "infillStartS": 10.5, "infillEndS": 20.75,
            "fullLyrics": "[Verse 1]\nOriginal lyrics here\n[Chorus]\nModified lyrics for this section\n[Verse 2]\nMore original lyrics",
            "callBackUrl": cb,
        }),
    )
    .await;

    let separation = task_id(
        &ex.post(
            Op::SeparateVocals,
            "/api/v1/vocal-removal/generate",
            json!({ "taskId": song, "audioId": audio, "type": "separate_vocal", "callBackUrl": cb }),
        )
        .await,
    );
    let sep_query = format!("/api/v1/vocal-removal/record-info?taskId={separation}");
    emu.wait_for(&sep_query, "successFlag", &[json!("SUCCESS")])
        .await;
    let sep = ex
        .get(
            Op::GetVocalSeparation,
            "/api/v1/vocal-removal/record-info",
            json!({ "taskId": separation }),
        )
        .await;
    // The example's `audioId` is one stem of the separation, by its originData id.
    let stem = sep["response"]["originData"][0]["id"]
        .as_str()
        .unwrap_or_else(|| panic!("a stem in originData: {sep}"))
        .to_owned();
    let midi = task_id(
        &ex.post(
            Op::GenerateMidi,
            "/api/v1/midi/generate",
            json!({ "taskId": separation, "callBackUrl": cb, "audioId": stem }),
        )
        .await,
    );
    ex.get(
        Op::GetMidi,
        "/api/v1/midi/record-info",
        json!({ "taskId": midi }),
    )
    .await;

    let video = task_id(
        &ex.post(
            Op::GenerateVideo,
            "/api/v1/mp4/generate",
            json!({
                "taskId": song, "audioId": audio, "callBackUrl": cb,
                "author": "Suno Artist", "domainName": "music.example.com",
            }),
        )
        .await,
    );
    ex.get(
        Op::GetVideo,
        "/api/v1/mp4/record-info",
        json!({ "taskId": video }),
    )
    .await;

    let cover = task_id(
        &ex.post(
            Op::GenerateCover,
            "/api/v1/suno/cover/generate",
            json!({ "taskId": song, "callBackUrl": cb }),
        )
        .await,
    );
    ex.get(
        Op::GetCover,
        "/api/v1/suno/cover/record-info",
        json!({ "taskId": cover }),
    )
    .await;

    // Two uploaded files, as the example lists two.
    let other = emu.finished("Second source").await;
    let second = stored(
        &emu,
        other["response"]["sunoData"][0]["audioUrl"]
            .as_str()
            .unwrap(),
        "second",
    )
    .await;
    ex.post(
        Op::Mashup,
        "/api/v1/generate/mashup",
        json!({
            "uploadUrlList": [upload, second], "customMode": true,
            "prompt": "A calm and relaxing piano track with soft melodies",
            "style": "Classical", "title": "Peaceful Piano Meditation", "instrumental": true,
            "model": "V4_5ALL", "vocalGender": "m", "styleWeight": 0.65,
            "weirdnessConstraint": 0.65, "audioWeight": 0.65, "callBackUrl": cb,
        }),
    )
    .await;

    assert_eq!(ex.finish("public-openapi.json", &OPENAPI), 26);
    println!("took {:?}", started.elapsed());
}

#[tokio::test]
async fn every_operation_of_more_operations_md_is_accepted() {
    let started = std::time::Instant::now();
    let emu = Emu::start(&["--stage-delay-ms", "0"]).await;
    let mut ex = Examples::new(&emu);
    let song = emu.finished("Old song").await;
    let song_id = task_id(&song);

    // The upload host's three calls.
    ex.upload(
        Op::UploadFromUrl,
        "/api/file-url-upload",
        json!({
            "fileUrl": song["response"]["sunoData"][0]["audioUrl"],
            "uploadPath": "user-uploads", "fileName": "song.mp3",
        }),
    )
    .await;
    let stream_fields = json!({"uploadPath": "user-uploads", "fileName": "singer-take.wav"});
    ex.admit(
        Op::UploadStream,
        Method::Post,
        "/api/file-stream-upload",
        &stream_fields,
    );
    let form = reqwest::multipart::Form::new()
        .part(
            "file",
            reqwest::multipart::Part::bytes(wav(3.0)).file_name("singer-take.wav"),
        )
        .text("uploadPath", "user-uploads")
        .text("fileName", "singer-take.wav");
    let answer: Value = emu
        .http
        .post(format!("{}/api/file-stream-upload", emu.upload))
        .bearer_auth(KEY)
        .multipart(form)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    ex.holds(Op::UploadStream, &answer);
    let recording = ex
        .upload(
            Op::UploadBase64,
            "/api/file-base64-upload",
            json!({
                "base64Data": format!("data:audio/wav;base64,{}",
                    base64::engine::general_purpose::STANDARD.encode(wav(12.0))),
                "uploadPath": "user-uploads", "fileName": "singer.wav",
            }),
        )
        .await["downloadUrl"]
        .as_str()
        .unwrap()
        .to_owned();

    // Recovery of an old music task, and its status in its own envelope.
    let recovery = task_id(
        &ex.post(
            Op::RecoverAudio,
            "/api/v1/suno/recovery",
            json!({ "sunoTaskId": song_id, "callBackUrl": emu.inbox_url(&rand_name()) }),
        )
        .await,
    );
    let query = json!({ "task_id": recovery });
    ex.admit(
        Op::GetRecovery,
        Method::Get,
        "/api/v1/suno/recovery/record-info",
        &query,
    );
    let envelope = emu
        .get(&format!(
            "/api/v1/suno/recovery/record-info?task_id={recovery}"
        ))
        .await;
    assert!(
        envelope["code"] == 200 || envelope["code"] == 201,
        "{envelope}"
    );
    assert_eq!(envelope["task_id"], recovery.as_str());
    if let Err(m) = check(&envelope, &Ty::Ref(&schema::RECOVERY_ENVELOPE)) {
        panic!("recovery status not in its declared envelope: {m}\n{envelope}");
    }

    // The voice calls in their documented order.
    let validation = task_id(
        &ex.post(
            Op::ValidateVoice,
            "/api/v1/voice/validate",
            json!({
                "voiceUrl": recording, "vocalStartS": 1.0, "vocalEndS": 10.0,
                "language": "en", "callBackUrl": emu.inbox_url(&rand_name()),
            }),
        )
        .await,
    );
    let ready = [json!("wait_validating")];
    emu.wait_for(
        &format!("/api/v1/voice/validate-info?taskId={validation}"),
        "status",
        &ready,
    )
    .await;
    ex.get(
        Op::GetVoiceValidation,
        "/api/v1/voice/validate-info",
        json!({ "taskId": validation }),
    )
    .await;
    // The documented field name is misspelt `calBackUrl`.
    let phrase_task = task_id(
        &ex.post(
            Op::RegenerateVoicePhrase,
            "/api/v1/voice/regenerate",
            json!({ "taskId": validation, "calBackUrl": emu.inbox_url(&rand_name()) }),
        )
        .await,
    );
    emu.wait_for(
        &format!("/api/v1/voice/validate-info?taskId={phrase_task}"),
        "status",
        &ready,
    )
    .await;
    let verify = stored(&emu, &recording, "phrase").await;
    let voice = task_id(
        &ex.post(
            Op::CreateVoice,
            "/api/v1/voice/generate",
            json!({
                "taskId": phrase_task, "verifyUrl": verify, "voiceName": "My voice",
                "description": "A warm alto", "style": "Folk",
                "singerSkillLevel": "intermediate", "callBackUrl": emu.inbox_url(&rand_name()),
            }),
        )
        .await,
    );
    for _ in 0..200 {
        let v = emu
            .get(&format!("/api/v1/voice/record-info?taskId={voice}"))
            .await;
        if v["data"]["status"] == "success" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(15)).await;
    }
    ex.get(
        Op::GetVoice,
        "/api/v1/voice/record-info",
        json!({ "taskId": voice }),
    )
    .await;
    ex.post(
        Op::CheckVoice,
        "/api/v1/voice/check-voice",
        json!({ "task_id": voice }),
    )
    .await;

    assert_eq!(ex.finish("more-operations.md", &MORE), 11);
    println!("took {:?}", started.elapsed());
}

#[test]
fn the_two_documents_name_all_thirty_seven_operations() {
    let mut all: Vec<String> = OPENAPI
        .iter()
        .chain(MORE.iter())
        .map(|op| format!("{op:?}"))
        .collect();
    all.sort();
    all.dedup();
    let mut ours: Vec<String> = Op::ALL.iter().map(|op| format!("{op:?}")).collect();
    ours.sort();
    assert_eq!(all, ours);
    assert_eq!(all.len(), 37);
    println!("{} operations checked in all", all.len());
}
