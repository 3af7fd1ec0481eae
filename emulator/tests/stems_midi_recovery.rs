//! Stems, their MIDI notes and recovered links over real HTTP: the notes each stem plays, an
//! advanced separation's one instrument, recovery's own envelope, and each family's failure in its
//! own words.

mod common;

use common::songs::*;
use common::Emu;
use serde_json::{json, Value};

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
