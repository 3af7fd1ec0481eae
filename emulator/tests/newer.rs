//! The fourteen newer operations over real HTTP: each succeeds with the public document's own
//! example request (live ids and URLs put in), fails the documented way, charges what the README
//! says, and its audio or notes are what was asked for.

mod common;

use std::f32::consts::TAU;

use common::Emu;
use serde_json::{json, Value};

const RATE: f32 = 22_050.0;

async fn credits(emu: &Emu) -> i64 {
    emu.get("/api/v1/generate/credit").await["data"]
        .as_i64()
        .unwrap()
}

async fn download(emu: &Emu, url: &str) -> Vec<u8> {
    let res = emu.public(url).await;
    assert_eq!(res.status(), 200, "{url}");
    res.bytes().await.unwrap().to_vec()
}

fn samples(wav: &[u8]) -> Vec<f32> {
    let mut r = hound::WavReader::new(std::io::Cursor::new(wav)).expect("a WAV");
    r.samples::<i16>()
        .map(|s| f32::from(s.unwrap()) / 32768.0)
        .collect()
}

fn raw(wav: &[u8]) -> Vec<i16> {
    let mut r = hound::WavReader::new(std::io::Cursor::new(wav)).expect("a WAV");
    r.samples::<i16>().map(|s| s.unwrap()).collect()
}

/// Power at `freq` (Goertzel over a Hann window).
fn power(x: &[f32], freq: f32) -> f32 {
    let n = x.len() as f32;
    let k = 2.0 * (TAU * freq / RATE).cos();
    let (mut s1, mut s2) = (0.0f32, 0.0f32);
    for (i, v) in x.iter().enumerate() {
        let s = v * (0.5 - 0.5 * (TAU * i as f32 / n).cos()) + k * s1 - s2;
        s2 = s1;
        s1 = s;
    }
    s1 * s1 + s2 * s2 - k * s1 * s2
}

fn dominant_pitch(x: &[f32]) -> i64 {
    let hz = |m: i64| 440.0 * 2f32.powf((m as f32 - 69.0) / 12.0);
    (24..=108)
        .max_by(|a, b| power(x, hz(*a)).total_cmp(&power(x, hz(*b))))
        .unwrap()
}

/// Normalized correlation of two signals over their common length.
fn correlation(a: &[f32], b: &[f32]) -> f32 {
    let n = a.len().min(b.len());
    let (mut ab, mut aa, mut bb) = (0.0f64, 0.0f64, 0.0f64);
    for i in 0..n {
        let (x, y) = (f64::from(a[i]), f64::from(b[i]));
        ab += x * y;
        aa += x * x;
        bb += y * y;
    }
    (ab / (aa * bb).sqrt().max(1e-12)) as f32
}

/// A finished song whose first track lasts at least `min_s` seconds (the callback URL is fixed so
/// that the track lengths depend on the title alone).
async fn song(emu: &Emu, min_s: f64) -> (String, Value) {
    for n in 0..20 {
        let v = emu
            .post(
                "/api/v1/generate",
                json!({"customMode": true, "instrumental": false, "model": "V5",
                       "callBackUrl": "https://example.com/cb", "prompt": "la la la\noh oh",
                       "style": "dream pop", "title": format!("Source {n}")}),
            )
            .await;
        let id = v["data"]["taskId"].as_str().unwrap().to_owned();
        let rec = emu
            .wait_for(
                &format!("/api/v1/generate/record-info?taskId={id}"),
                "status",
                &[json!("SUCCESS")],
            )
            .await;
        let track = rec["response"]["sunoData"][0].clone();
        if track["duration"].as_f64().unwrap() >= min_s {
            return (id, track);
        }
    }
    panic!("no track of {min_s} s");
}

/// Stores `url`'s bytes on the upload host: the `uploadUrl` the audio operations take.
async fn upload(emu: &Emu, url: &str, name: &str) -> String {
    emu.store_url(url, "newer", name).await
}

async fn music_done(emu: &Emu, id: &str) -> Value {
    emu.wait_for(
        &format!("/api/v1/generate/record-info?taskId={id}"),
        "status",
        &[json!("SUCCESS")],
    )
    .await
}

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
        (json!({"prompt": "p", "model": "V6"}), "model"),
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
        (10.0, 14.0, "6 to 60"),
        (0.0, 61.0, "6 to 60"),
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
    let mut body = request(2.0, 9.0);
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
    // Two different songs (different titles give different music).
    let a = emu.finished("Mash A").await["response"]["sunoData"][0].clone();
    let b = emu.finished("Mash B").await["response"]["sunoData"][0].clone();
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
    let (sa, sb) = (
        samples(&download(&emu, a["audioUrl"].as_str().unwrap()).await),
        samples(&download(&emu, b["audioUrl"].as_str().unwrap()).await),
    );
    assert_eq!(mixed.len(), sa.len().max(sb.len()));
    assert!(correlation(&sa, &sb).abs() < 0.3, "the two uploads differ");
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
    assert_eq!(e["code"], 400, "{e}");
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

/// A finished separation of a long enough song's first track.
async fn separation(emu: &Emu, kind: &str, extra: Value) -> Value {
    let (task_id, track) = song(emu, 0.0).await;
    let mut body = json!({"taskId": task_id, "audioId": track["id"], "type": kind,
                          "callBackUrl": emu.inbox_url("sep")});
    for (k, v) in extra.as_object().unwrap() {
        body[k] = v.clone();
    }
    let v = emu.post("/api/v1/vocal-removal/generate", body).await;
    assert_eq!(v["code"], 200, "{v}");
    emu.wait_for(
        &format!(
            "/api/v1/vocal-removal/record-info?taskId={}",
            v["data"]["taskId"].as_str().unwrap()
        ),
        "successFlag",
        &[json!("SUCCESS")],
    )
    .await
}

#[tokio::test]
async fn midi_lists_the_notes_each_stem_plays() {
    let emu = Emu::start(&["--stage-delay-ms", "0"]).await;
    let sep = separation(&emu, "split_stem", json!({})).await;
    let origin = sep["response"]["originData"].as_array().unwrap().clone();
    let names: Vec<&str> = origin
        .iter()
        .map(|o| o["stem_type_group_name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "Vocals",
            "Drums",
            "Bass",
            "Keyboard",
            "Percussion",
            "Strings"
        ]
    );
    let before = credits(&emu).await;
    // The document's example: one stem, by its originData id.
    for stem in &origin {
        let v = emu
            .post(
                "/api/v1/midi/generate",
                json!({"taskId": sep["taskId"], "callBackUrl": emu.inbox_url("midi"), "audioId": stem["id"]}),
            )
            .await;
        assert_eq!(v["code"], 200, "{v}");
        let rec = emu
            .wait_for(
                &format!(
                    "/api/v1/midi/record-info?taskId={}",
                    v["data"]["taskId"].as_str().unwrap()
                ),
                "successFlag",
                &[json!(1)],
            )
            .await;
        assert!(
            rec["createTime"].is_i64() && rec["completeTime"].is_i64(),
            "{rec}"
        );
        assert_eq!(rec["audioId"], stem["id"]);
        let instruments = rec["midiData"]["instruments"].as_array().unwrap();
        assert_eq!(instruments.len(), 1);
        assert_eq!(instruments[0]["name"], stem["stem_type_group_name"]);
        let notes = instruments[0]["notes"].as_array().unwrap();
        assert!(
            !notes.is_empty(),
            "{} plays notes",
            stem["stem_type_group_name"]
        );
        let tonal =
            ["Vocals", "Bass", "Keyboard"].contains(&instruments[0]["name"].as_str().unwrap());
        if !tonal {
            continue;
        }
        // The MIDI held against the stem's audio: at each long note's middle, its pitch sounds.
        let audio = samples(&download(&emu, stem["audio_url"].as_str().unwrap()).await);
        let (mut heard, mut checked) = (0, 0);
        for n in notes.iter().step_by(3) {
            let (s, e) = (n["start"].as_f64().unwrap(), n["end"].as_f64().unwrap());
            let a = ((s * 0.75 + e * 0.25) * 22_050.0) as usize;
            let b = (((s * 0.25 + e * 0.75) * 22_050.0) as usize).min(a + 4096);
            if b < a + 512 {
                continue;
            }
            checked += 1;
            if dominant_pitch(&audio[a..b]) == n["pitch"].as_i64().unwrap() {
                heard += 1;
            }
        }
        println!(
            "{}: {heard} of {checked} notes heard at their pitch",
            instruments[0]["name"]
        );
        assert!(
            checked > 3 && heard * 10 >= checked * 9,
            "{heard}/{checked}"
        );
    }
    assert_eq!(credits(&emu).await, before - 5 * origin.len() as i64);
    let items = emu.inbox_wait("midi", origin.len()).await;
    assert!(items[0]["body"]["data"]["midiData"]["instruments"].is_array());
    assert!(items[0]["body"]["data"]["task_id"].is_string());

    // Every stem when audioId is omitted.
    let v = emu
        .post(
            "/api/v1/midi/generate",
            json!({"taskId": sep["taskId"], "callBackUrl": emu.inbox_url("midi-all")}),
        )
        .await;
    let rec = emu
        .get(&format!(
            "/api/v1/midi/record-info?taskId={}",
            v["data"]["taskId"].as_str().unwrap()
        ))
        .await;
    assert_eq!(
        rec["data"]["midiData"]["instruments"]
            .as_array()
            .unwrap()
            .len(),
        origin.len()
    );
    assert_eq!(rec["data"]["audioId"], Value::Null);

    // Not a vocal separation: 404; a stem that is not the separation's: 404.
    let music = song(&emu, 0.0).await.0;
    let e = emu
        .post(
            "/api/v1/midi/generate",
            json!({"taskId": music, "callBackUrl": emu.inbox_url("x")}),
        )
        .await;
    assert_eq!(e["code"], 404, "{e}");
    assert!(
        e["msg"].as_str().unwrap().contains("vocal separation"),
        "{e}"
    );
    let e = emu
        .post("/api/v1/midi/generate", json!({"taskId": sep["taskId"], "audioId": "8ca376e7-0000", "callBackUrl": emu.inbox_url("x")}))
        .await;
    assert_eq!(e["code"], 404, "{e}");
}

#[tokio::test]
async fn midi_of_a_separation_still_running_is_refused() {
    let emu = Emu::start(&["--stage-delay-ms", "300", "--manual-clock"]).await;
    let id = emu.generate("slow-midi", "Slow").await;
    emu.advance(1000).await;
    let rec = emu
        .get(&format!("/api/v1/generate/record-info?taskId={id}"))
        .await;
    let audio_id = rec["data"]["response"]["sunoData"][0]["id"].clone();
    let v = emu
        .post(
            "/api/v1/vocal-removal/generate",
            json!({"taskId": id, "audioId": audio_id, "type": "separate_vocal", "callBackUrl": emu.inbox_url("sep")}),
        )
        .await;
    let sep = v["data"]["taskId"].as_str().unwrap().to_owned();
    let before = credits(&emu).await;
    let e = emu
        .post(
            "/api/v1/midi/generate",
            json!({"taskId": sep, "callBackUrl": emu.inbox_url("x")}),
        )
        .await;
    assert_eq!(e["code"], 400, "{e}");
    assert!(e["msg"].as_str().unwrap().contains("not finished"), "{e}");
    assert_eq!(credits(&emu).await, before);
    emu.advance(400).await;
    let v = emu
        .post(
            "/api/v1/midi/generate",
            json!({"taskId": sep, "callBackUrl": emu.inbox_url("x")}),
        )
        .await;
    assert_eq!(v["code"], 200, "{v}");
    let q = format!(
        "/api/v1/midi/record-info?taskId={}",
        v["data"]["taskId"].as_str().unwrap()
    );
    let pending = emu.get(&q).await["data"].clone();
    assert_eq!(pending["successFlag"], 0);
    assert_eq!(pending["midiData"], Value::Null);
    assert_eq!(pending["completeTime"], Value::Null);
    emu.advance(400).await;
    assert_eq!(emu.get(&q).await["data"]["successFlag"], 1);
}

#[tokio::test]
async fn an_advanced_separation_isolates_the_named_instrument() {
    let emu = Emu::start(&["--stage-delay-ms", "0"]).await;
    let before = credits(&emu).await;
    let sep = separation(&emu, "split_stem_advanced", json!({"stemName": "Piano"})).await;
    assert_eq!(
        credits(&emu).await,
        before - 10 - 10,
        "the song and the separation"
    );
    let origin = sep["response"]["originData"].as_array().unwrap();
    assert_eq!(origin.len(), 1);
    assert_eq!(origin[0]["stem_type_group_name"], "Piano");
    assert!(sep["response"]["keyboardUrl"].is_string(), "{sep}");
    let audio = samples(&download(&emu, origin[0]["audio_url"].as_str().unwrap()).await);
    assert!(audio.iter().any(|s| s.abs() > 0.02), "the piano is heard");
    // The document's separation example writes `stemName: null` beside separate_vocal.
    let sep = separation(&emu, "separate_vocal", json!({"stemName": null})).await;
    let names: Vec<&str> = sep["response"]["originData"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["stem_type_group_name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Vocals", "Instrumental"]);
}

#[tokio::test]
async fn recovery_answers_its_own_envelope_with_fresh_links() {
    let emu = Emu::start(&["--stage-delay-ms", "300", "--manual-clock"]).await;
    let id = emu.generate("old", "Old Song").await;
    emu.advance(1000).await;
    let old = emu
        .get(&format!("/api/v1/generate/record-info?taskId={id}"))
        .await["data"]
        .clone();
    assert_eq!(old["status"], "SUCCESS");
    // Long after the old links expired, a recovery brings the tracks back.
    emu.advance(20 * 24 * 3600 * 1000).await;
    let old_link = old["response"]["sunoData"][0]["audioUrl"].as_str().unwrap();
    assert_eq!(
        emu.public(old_link).await.status(),
        404,
        "the old link has expired"
    );
    let before = credits(&emu).await;
    let v = emu
        .post(
            "/api/v1/suno/recovery",
            json!({"sunoTaskId": id, "callBackUrl": emu.inbox_url("rec")}),
        )
        .await;
    assert_eq!(v["code"], 200, "{v}");
    assert_eq!(credits(&emu).await, before - 1);
    let rid = v["data"]["taskId"].as_str().unwrap().to_owned();
    let q = format!("/api/v1/suno/recovery/record-info?task_id={rid}");
    let running = emu.get(&q).await;
    assert_eq!(running["code"], 201, "{running}");
    assert_eq!(running["task_id"], rid.as_str());
    assert_eq!(running["data"], Value::Null);
    emu.advance(400).await;
    let done = emu.get(&q).await;
    assert_eq!(done["code"], 200, "{done}");
    let tracks = done["data"].as_array().unwrap();
    assert_eq!(tracks.len(), 2);
    for (t, o) in tracks
        .iter()
        .zip(old["response"]["sunoData"].as_array().unwrap())
    {
        assert_eq!(t["id"], o["id"]);
        assert_eq!(t["title"], "Old Song");
        assert_eq!(t["status"], "success");
        assert_eq!(t["error"], Value::Null);
        let wav = download(&emu, t["audio_url"].as_str().unwrap()).await;
        assert!(
            (samples(&wav).len() as f64 / 22_050.0 - o["duration"].as_f64().unwrap()).abs() < 0.01
        );
    }
    let items = emu.inbox_wait("rec", 1).await;
    let body = &items[0]["body"];
    assert_eq!(body["code"], 200);
    assert_eq!(body["data"]["task_id"], rid.as_str());
    assert_eq!(body["data"]["recovery_data"].as_array().unwrap().len(), 2);

    let e = emu
        .post(
            "/api/v1/suno/recovery",
            json!({"sunoTaskId": "no-such-task", "callBackUrl": emu.inbox_url("rec")}),
        )
        .await;
    assert_eq!(e["code"], 404, "{e}");
    let e = emu
        .get("/api/v1/suno/recovery/record-info?task_id=nope")
        .await;
    assert_eq!(e["code"], 404, "{e}");
    let e = emu
        .get(&format!("/api/v1/suno/recovery/record-info?taskId={rid}"))
        .await;
    assert_eq!(e["code"], 400, "the parameter is task_id: {e}");
}

#[tokio::test]
async fn failures_read_in_each_familys_own_words() {
    let emu = Emu::start(&["--stage-delay-ms", "0"]).await;
    let (task_id, track) = song(&emu, 0.0).await;
    let failed = |name: &str| format!("{}?emulate:failed", emu.inbox_url(name));
    // MIDI: successFlag 3, no notes, a string errorCode; its callback carries null midiData.
    let sep = separation(&emu, "separate_vocal", json!({})).await;
    let v = emu
        .post(
            "/api/v1/midi/generate",
            json!({"taskId": sep["taskId"], "callBackUrl": failed("midi-failed")}),
        )
        .await;
    let rec = emu
        .get(&format!(
            "/api/v1/midi/record-info?taskId={}",
            v["data"]["taskId"].as_str().unwrap()
        ))
        .await["data"]
        .clone();
    assert_eq!(rec["successFlag"], 3, "{rec}");
    assert_eq!(rec["midiData"], Value::Null);
    assert!(rec["errorCode"].is_string(), "{rec}");
    let cb = emu.inbox_wait("midi-failed", 1).await;
    assert_ne!(cb[0]["body"]["code"], 200);
    assert_eq!(cb[0]["body"]["data"]["midiData"], Value::Null);
    // Recovery: 500, every track failed with its reason.
    let v = emu
        .post(
            "/api/v1/suno/recovery",
            json!({"sunoTaskId": task_id, "callBackUrl": failed("rec-failed")}),
        )
        .await;
    let env = emu
        .get(&format!(
            "/api/v1/suno/recovery/record-info?task_id={}",
            v["data"]["taskId"].as_str().unwrap()
        ))
        .await;
    assert_eq!(env["code"], 500, "{env}");
    for t in env["data"].as_array().unwrap() {
        assert_eq!(t["status"], "failed");
        assert_eq!(t["audio_url"], Value::Null);
        assert!(t["error"].is_string());
    }
    // Voice validation: the lower-case failure, no phrase.
    let recording = upload(&emu, track["audioUrl"].as_str().unwrap(), "failing-singer").await;
    let v = emu
        .post(
            "/api/v1/voice/validate",
            json!({"voiceUrl": recording, "vocalStartS": 0, "vocalEndS": 5, "callBackUrl": failed("voice-failed")}),
        )
        .await;
    let rec = emu
        .get(&format!(
            "/api/v1/voice/validate-info?taskId={}",
            v["data"]["taskId"].as_str().unwrap()
        ))
        .await["data"]
        .clone();
    assert_eq!(rec["status"], "processing_validate_fail", "{rec}");
    assert_eq!(rec["validateInfo"], Value::Null);
    let cb = emu.inbox_wait("voice-failed", 1).await;
    assert_eq!(cb[0]["body"]["data"]["validateInfo"], Value::Null);
    assert_eq!(cb[0]["body"]["data"]["status"], "processing_validate_fail");
}
