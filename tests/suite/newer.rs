//! The fourteen operations of the public document's wider list, against the real emulator: sounds,
//! replace-section and mashup (music tasks), personas, MIDI, audio recovery and the voice flow.
//! Each succeeds with its waiter, fails the documented way, and calls back in a shape
//! `parseCallback` types; the document's stated rules are refused before anything is sent.

use super::common::*;
use super::declared::Js;
use js_sys::{Array, Function, Promise, Uint8Array};
use serde_json::json;
use tunesmith::{parse_callback, Client};
use tunesmith_protocol::schema::{self, Ty};
use tunesmith_protocol::Op;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::wasm_bindgen_test;

fn wait() -> Option<JsValue> {
    Some(js(
        json!({ "wait": { "minIntervalMs": 15, "maxIntervalMs": 40 } }),
    ))
}

fn fast() -> Option<JsValue> {
    Some(js(json!({ "minIntervalMs": 15, "maxIntervalMs": 40 })))
}

/// Declared = returned: the value agrees with the declaration its TypeScript comes from.
fn declared(value: &JsValue, ty: &Ty) {
    if let Err(m) = schema::check(&Js(value.clone()), ty) {
        panic!("not as declared: {m} in {}", show(value));
    }
}

fn declared_output(value: &JsValue, op: Op) {
    declared(value, &Ty::Ref(op.output()));
}

fn tracks(record: &JsValue) -> Array {
    Array::from(&prop(record, "tracks"))
}

/// A finished music task (custom mode, with lyrics): its final record.
async fn song(client: &Client, inbox: &str) -> JsValue {
    let record = ok(client.generate(
        js(json!({
            "customMode": true, "instrumental": false, "model": "V5", "callBackUrl": callback_url(inbox),
            "prompt": "[Verse]\nla la la\n[Chorus]\noh oh", "style": "dream pop", "title": "Source",
        })),
        wait(),
    ))
    .await;
    assert_eq!(prop_str(&record, "state"), "succeeded", "{}", show(&record));
    record
}

/// The bytes at `url` (a track the emulator made: real audio).
async fn bytes_of(url: &str) -> Uint8Array {
    let fetch: Function = prop(&js_sys::global(), "fetch").unchecked_into();
    let resp = JsFuture::from(
        fetch
            .call1(&JsValue::UNDEFINED, &url.into())
            .unwrap()
            .unchecked_into::<Promise>(),
    )
    .await
    .unwrap();
    let array_buffer: Function = prop(&resp, "arrayBuffer").unchecked_into();
    let buffer = JsFuture::from(
        array_buffer
            .call0(&resp)
            .unwrap()
            .unchecked_into::<Promise>(),
    )
    .await
    .unwrap();
    Uint8Array::new(&buffer)
}

/// A track's audio stored on the upload host: what an `uploadUrl` of the audio operations is.
async fn uploaded_audio(client: &Client, track: &JsValue, name: &str) -> String {
    let bytes = bytes_of(&prop_str(track, "audioUrl")).await;
    let file = ok(client.upload_base64(
        bytes.into(),
        Some(js(json!({ "fileName": format!("{name}.wav") }))),
    ))
    .await;
    prop_str(&file, "downloadUrl")
}

/// The callbacks delivered to inbox `name`, once at least `count` arrived, parsed.
async fn events(name: &str, count: u32) -> Vec<JsValue> {
    for _ in 0..200 {
        let items = Array::from(&prop(
            &fetch_json("GET", &format!("{MUSIC}/inbox/{name}"), None, None).await,
            "items",
        ));
        if items.length() >= count {
            return items
                .iter()
                .map(|i| {
                    let body = prop(&i, "body");
                    let event = parse_callback(body.clone())
                        .unwrap_or_else(|e| panic!("{} for {}", message(&e), show(&body)));
                    declared(&event, &Ty::Union(&schema::CALLBACK_EVENT));
                    event
                })
                .collect();
        }
        sleep(50).await;
    }
    panic!("fewer than {count} callbacks arrived in inbox {name}");
}

#[wasm_bindgen_test]
async fn sounds_follow_their_request_and_are_watched_like_music() {
    let t = tag("sounds");
    let client = client(&t);
    let created = ok(client.generate_sounds(
        js(json!({
            "prompt": "a warm rhodes loop", "model": "V5", "soundLoop": true, "soundTempo": 96,
            "soundKey": "Am", "callBackUrl": callback_url(&t),
        })),
        None,
    ))
    .await;
    let task_id = prop_str(&created, "taskId");
    // watchTask works for every music-like family: each stage once, ending with the final one.
    let iterator = client
        .watch_task(JsValue::from_str(&task_id), fast())
        .unwrap();
    let next: Function = prop(&iterator, "next").unchecked_into();
    let mut stages = Vec::new();
    loop {
        let step = ok(next.call0(&iterator).unwrap().unchecked_into()).await;
        if prop(&step, "done").as_bool() == Some(true) {
            break;
        }
        stages.push(prop_str(&prop(&step, "value"), "stage"));
    }
    assert_eq!(
        stages.last().map(String::as_str),
        Some("complete"),
        "{stages:?}"
    );
    let mut sorted = stages.clone();
    sorted.dedup();
    assert_eq!(sorted, stages, "no stage twice");
    let record = ok(client.get_task(js(json!({ "taskId": task_id })), None)).await;
    declared_output(&record, Op::GetTask);
    let sound = tracks(&record).get(0);
    assert!(prop(&sound, "duration").as_f64().is_some_and(|d| d > 0.0));
    let last = events(&t, 1).await;
    assert!(last.iter().all(|e| prop_str(e, "family") == "music"));

    // Sounds take V5 only, and a tempo of 1 to 300.
    for (request, field, rule) in [
        (json!({ "prompt": "p", "model": "V6" }), "model", "one_of"),
        (
            json!({ "prompt": "p", "model": "V5", "soundTempo": 301 }),
            "soundTempo",
            "range",
        ),
        (
            json!({ "prompt": "p".repeat(501), "model": "V5" }),
            "prompt",
            "max_length",
        ),
        (
            json!({ "prompt": "p", "model": "V5", "soundKey": "H" }),
            "soundKey",
            "one_of",
        ),
    ] {
        let e = err(client.generate_sounds(js(request), None)).await;
        assert_class(&e, "ValidationError");
        assert_eq!(
            (
                prop_str(&e, "field").as_str(),
                prop_str(&e, "rule").as_str()
            ),
            (field, rule)
        );
    }
    assert_eq!(
        stats(&t).await.1,
        1,
        "only the valid sounds task was created"
    );
}

#[wasm_bindgen_test]
async fn replace_section_regenerates_a_window_and_refuses_bad_windows_before_sending() {
    let t = tag("replace");
    let client = client(&t);
    let source = song(&client, &t).await;
    let task_id = prop_str(&source, "taskId");
    let audio_id = prop_str(&tracks(&source).get(0), "id");
    let request = |start: f64, end: f64| {
        js(json!({
            "taskId": task_id, "audioId": audio_id, "prompt": "new words here",
            "tags": "dream pop", "title": "Source (edit)", "fullLyrics": "la la la\nnew words here",
            "infillStartS": start, "infillEndS": end, "callBackUrl": callback_url(&t),
        }))
    };
    let before = stats(&t).await;
    for (start, end, field, rule) in [
        (20.0, 10.0, "infillEndS", "range"),
        (10.0, 14.0, "infillEndS", "range"),
        (0.0, 61.0, "infillEndS", "range"),
        (10.0, 20.005, "infillEndS", "step"),
    ] {
        let e = err(client.replace_section(request(start, end), None)).await;
        assert_class(&e, "ValidationError");
        assert_eq!(
            (
                prop_str(&e, "field").as_str(),
                prop_str(&e, "rule").as_str()
            ),
            (field, rule),
            "{}",
            message(&e)
        );
    }
    assert_eq!(stats(&t).await, before, "refused windows reach nothing");

    let record = ok(client.replace_section(request(4.0, 10.5), wait())).await;
    assert_eq!(prop_str(&record, "state"), "succeeded", "{}", show(&record));
    assert!(tracks(&record).length() >= 1);

    // The service's own check: at most half of the track.
    let duration = prop(&tracks(&source).get(0), "duration").as_f64().unwrap();
    let long = (duration * 0.5 + 6.0).clamp(6.0, 60.0);
    if long > duration / 2.0 {
        let e =
            err(client.replace_section(request(0.0, (long * 100.0).round() / 100.0), None)).await;
        assert_class(&e, "ApiError");
        assert_eq!(prop_str(&e, "kind"), "invalid", "{}", message(&e));
    }
}

#[wasm_bindgen_test]
async fn mashup_mixes_two_uploads_and_needs_exactly_two() {
    let t = tag("mashup");
    let client = client(&t);
    let source = song(&client, &t).await;
    let first = uploaded_audio(&client, &tracks(&source).get(0), &format!("{t}-a")).await;
    let second = uploaded_audio(&client, &tracks(&source).get(1), &format!("{t}-b")).await;
    let record = ok(client.mashup(
        js(json!({
            "uploadUrlList": [first, second], "customMode": false, "model": "V5",
            "prompt": "mash them together", "callBackUrl": callback_url(&t),
        })),
        wait(),
    ))
    .await;
    assert_eq!(prop_str(&record, "state"), "succeeded", "{}", show(&record));
    let e = err(client.mashup(
        js(json!({
            "uploadUrlList": [first], "customMode": false, "model": "V5",
            "prompt": "p", "callBackUrl": callback_url(&t),
        })),
        None,
    ))
    .await;
    assert_eq!(prop_str(&e, "field"), "uploadUrlList");
    assert_eq!(prop_str(&e, "rule"), "range");
}

#[wasm_bindgen_test]
async fn a_persona_sings_a_new_song_and_an_unknown_persona_is_refused() {
    let t = tag("persona");
    let client = client(&t);
    let source = song(&client, &t).await;
    // The document's segment, 0 to 30 s, within the track (tracks last 20 to 40 s; a segment
    // that ends after the track is refused with 422).
    let track = tracks(&source).get(0);
    let end = prop(&track, "duration").as_f64().unwrap().min(30.0);
    let persona = ok(client.generate_persona(
        js(json!({
            "taskId": prop_str(&source, "taskId"), "audioId": prop_str(&track, "id"),
            "name": "Electronic Pop Singer", "description": "Modern electronic pop with warm vocals",
            "vocalStart": 0, "vocalEnd": end, "style": "Electronic Pop",
        })),
        None,
    ))
    .await;
    declared_output(&persona, Op::GeneratePersona);
    let persona_id = prop_str(&persona, "personaId");
    assert_eq!(prop_str(&persona, "name"), "Electronic Pop Singer");
    let with = |persona: &str| {
        js(json!({
            "customMode": true, "instrumental": false, "model": "V5", "callBackUrl": callback_url(&t),
            "prompt": "la la", "style": "pop", "title": "With a persona", "personaId": persona,
        }))
    };
    let record = ok(client.generate(with(&persona_id), wait())).await;
    assert_eq!(prop_str(&record, "state"), "succeeded");
    let e = err(client.generate(with("no-such-persona"), None)).await;
    assert_class(&e, "ApiError");
    assert!(message(&e).contains("personaId"), "{}", message(&e));
    // The document: personas only with custom parameters.
    let e = err(client.generate(
        js(json!({
            "customMode": false, "instrumental": false, "model": "V5", "callBackUrl": callback_url(&t),
            "prompt": "a song", "personaId": persona_id,
        })),
        None,
    ))
    .await;
    assert_eq!(prop_str(&e, "rule"), "dependency");
}

#[wasm_bindgen_test]
async fn midi_lists_the_notes_of_a_separation_and_refuses_other_tasks() {
    let t = tag("midi");
    let client = client(&t);
    let source = song(&client, &t).await;
    let task_id = prop_str(&source, "taskId");
    let separation = ok(client.separate_vocals(
        js(json!({
            "taskId": task_id, "audioId": prop_str(&tracks(&source).get(0), "id"),
            "type": "split_stem", "callBackUrl": callback_url(&t),
        })),
        wait(),
    ))
    .await;
    assert_eq!(prop_str(&separation, "state"), "succeeded");
    let stems = Array::from(&prop(&prop(&separation, "response"), "originData"));
    assert!(stems.length() >= 2, "{}", show(&separation));
    let stem_id = prop_str(&stems.get(0), "id");
    let midi = ok(client.generate_midi(
        js(json!({
            "taskId": prop_str(&separation, "taskId"), "audioId": stem_id,
            "callBackUrl": callback_url(&format!("{t}-midi")),
        })),
        wait(),
    ))
    .await;
    assert_eq!(prop_str(&midi, "state"), "succeeded", "{}", show(&midi));
    declared_output(&midi, Op::GetMidi);
    declared_output(&separation, Op::GetVocalSeparation);
    assert_eq!(prop(&midi, "successFlag").as_f64(), Some(1.0));
    let instruments = Array::from(&prop(&prop(&midi, "midiData"), "instruments"));
    assert!(instruments.length() >= 1);
    let notes = Array::from(&prop(&instruments.get(0), "notes"));
    assert!(notes.length() > 0, "{}", show(&midi));
    for note in notes.iter() {
        let pitch = prop(&note, "pitch").as_f64().unwrap();
        let (start, end) = (
            prop(&note, "start").as_f64().unwrap(),
            prop(&note, "end").as_f64().unwrap(),
        );
        assert!((0.0..=127.0).contains(&pitch) && pitch.fract() == 0.0);
        assert!(start < end, "{}", show(&note));
    }
    // ISO 8601 times, whatever the service wrote (epoch milliseconds here).
    assert_eq!(prop_str(&midi, "createTime").as_bytes()[10], b'T');
    let callback = events(&format!("{t}-midi"), 1).await;
    assert_eq!(prop_str(&callback[0], "family"), "midi");
    assert_eq!(prop_str(&callback[0], "stage"), "complete");
    assert!(!prop(&callback[0], "midiData").is_null());

    // MIDI of a task that is not a finished vocal separation: the documented error.
    let e = err(client.generate_midi(
        js(json!({ "taskId": task_id, "callBackUrl": callback_url(&t) })),
        None,
    ))
    .await;
    assert_class(&e, "ApiError");
}

#[wasm_bindgen_test]
async fn recovery_answers_its_own_envelope_until_fresh_links_are_ready() {
    let t = tag("recovery");
    let client = client(&t);
    let source = song(&client, &t).await;
    let created = ok(client.recover_audio(
        js(json!({ "sunoTaskId": prop_str(&source, "taskId"), "callBackUrl": callback_url(&t) })),
        None,
    ))
    .await;
    let task_id = prop_str(&created, "taskId");
    // Right after creation: 201, running, no tracks yet (not an error).
    let first = ok(client.get_recovery(js(json!({ "task_id": task_id })), None)).await;
    assert_eq!(prop_str(&first, "taskId"), task_id);
    declared_output(&first, Op::GetRecovery);
    assert!(["running", "succeeded"].contains(&prop_str(&first, "state").as_str()));
    let record = ok(client.wait_for_recovery(
        JsValue::from_str(&task_id),
        Some(js(json!({ "minIntervalMs": 15, "maxIntervalMs": 40 }))),
    ))
    .await;
    assert_eq!(prop_str(&record, "state"), "succeeded", "{}", show(&record));
    assert_eq!(prop(&record, "code").as_f64(), Some(200.0));
    declared_output(&record, Op::GetRecovery);
    let recovered = tracks(&record);
    assert_eq!(recovered.length(), tracks(&source).length());
    let link = prop_str(&recovered.get(0), "audio_url");
    assert!(
        bytes_of(&link).await.length() > 1000,
        "the fresh link serves audio"
    );
    let callback = events(&t, 3).await;
    assert!(callback.iter().any(|e| prop_str(e, "family") == "recovery"));

    let e = err(client.recover_audio(
        js(json!({ "sunoTaskId": "no-such-task", "callBackUrl": callback_url(&t) })),
        None,
    ))
    .await;
    assert_class(&e, "ApiError");
}

#[wasm_bindgen_test]
async fn the_voice_flow_runs_in_its_documented_order() {
    let t = tag("voice");
    let client = client(&t);
    let source = song(&client, &t).await;
    let recording = uploaded_audio(&client, &tracks(&source).get(0), &format!("{t}-singer")).await;
    let validation = ok(client.validate_voice(
        js(json!({
            "voiceUrl": recording, "vocalStartS": 0, "vocalEndS": 12, "language": "en",
            "callBackUrl": callback_url(&t),
        })),
        wait(),
    ))
    .await;
    assert_eq!(
        prop_str(&validation, "state"),
        "succeeded",
        "{}",
        show(&validation)
    );
    declared_output(&validation, Op::GetVoiceValidation);
    let phrase = prop_str(&validation, "validateInfo");
    assert!(!phrase.is_empty());

    // A new phrase: a new validation task, with the documented `calBackUrl` spelling.
    let again = ok(client.regenerate_voice_phrase(
        js(json!({ "taskId": prop_str(&validation, "taskId"), "calBackUrl": callback_url(&t) })),
        wait(),
    ))
    .await;
    let validation_id = prop_str(&again, "taskId");
    assert_ne!(
        prop_str(&again, "validateInfo"),
        phrase,
        "a different phrase"
    );
    // The usual spelling is not this operation's field: refused, with the right one suggested.
    let e = err(client.regenerate_voice_phrase(
        js(json!({ "taskId": validation_id, "callBackUrl": callback_url(&t) })),
        None,
    ))
    .await;
    assert_eq!(prop_str(&e, "rule"), "required");

    let verify = uploaded_audio(&client, &tracks(&source).get(1), &format!("{t}-phrase")).await;
    let voice = ok(client.create_voice(
        js(json!({
            "taskId": validation_id, "verifyUrl": verify, "voiceName": "Mine",
            "singerSkillLevel": "intermediate", "callBackUrl": callback_url(&t),
        })),
        wait(),
    ))
    .await;
    assert_eq!(prop_str(&voice, "state"), "succeeded", "{}", show(&voice));
    declared_output(&voice, Op::GetVoice);
    let voice_id = prop_str(&voice, "voiceId");
    let available =
        ok(client.check_voice(js(json!({ "task_id": prop_str(&voice, "taskId") })), None)).await;
    assert_eq!(prop(&available, "isAvailable").as_bool(), Some(true));
    declared_output(&available, Op::CheckVoice);

    // The voice sings: personaId with personaModel voice_persona, on V5.
    let song = ok(client.generate(
        js(json!({
            "customMode": true, "instrumental": false, "model": "V5", "callBackUrl": callback_url(&t),
            "prompt": "my own voice", "style": "folk", "title": "Mine", "personaId": voice_id,
            "personaModel": "voice_persona",
        })),
        wait(),
    ))
    .await;
    assert_eq!(prop_str(&song, "state"), "succeeded");

    let families: Vec<String> = events(&t, 4)
        .await
        .iter()
        .map(|e| prop_str(e, "family"))
        .collect();
    assert!(
        families.iter().any(|f| f == "voice_validation"),
        "{families:?}"
    );
}

#[wasm_bindgen_test]
async fn the_public_documents_stated_rules_are_refused_before_anything_is_sent() {
    let t = tag("stated-rules");
    let client = client(&t);
    let cb = callback_url(&t);
    let long = "p".repeat(1200);
    let cases = [
        // Non-custom mode: a prompt is required, at most 500 characters.
        (
            json!({ "customMode": false, "instrumental": false, "model": "V5", "callBackUrl": cb, "prompt": "" }),
            "prompt",
            "required",
        ),
        (
            json!({ "customMode": false, "instrumental": false, "model": "V5", "callBackUrl": cb, "prompt": long }),
            "prompt",
            "max_length",
        ),
        // Custom mode: style and title, and the lyrics unless instrumental.
        (
            json!({ "customMode": true, "instrumental": true, "model": "V5", "callBackUrl": cb }),
            "style",
            "required",
        ),
        (
            json!({ "customMode": true, "instrumental": true, "model": "V5", "callBackUrl": cb, "style": "jazz" }),
            "title",
            "required",
        ),
        (
            json!({ "customMode": true, "instrumental": false, "model": "V5", "callBackUrl": cb, "style": "jazz", "title": "t" }),
            "prompt",
            "required",
        ),
        // The limits depend on the model: V4 titles are at most 80 characters.
        (
            json!({ "customMode": true, "instrumental": true, "model": "V4", "callBackUrl": cb, "style": "jazz", "title": "t".repeat(81) }),
            "title",
            "max_length",
        ),
        (
            json!({ "customMode": true, "instrumental": true, "model": "V4", "callBackUrl": cb, "style": "s".repeat(201), "title": "t" }),
            "style",
            "max_length",
        ),
    ];
    for (request, field, rule) in cases {
        let e = err(client.generate(js(request.clone()), None)).await;
        assert_class(&e, "ValidationError");
        assert_eq!(
            (
                prop_str(&e, "field").as_str(),
                prop_str(&e, "rule").as_str()
            ),
            (field, rule),
            "{request}: {}",
            message(&e)
        );
    }
    let e = err(client.separate_vocals(
        js(json!({ "taskId": "t", "audioId": "a", "callBackUrl": cb, "type": "split_stem_advanced" })),
        None,
    ))
    .await;
    assert_eq!(
        (
            prop_str(&e, "field").as_str(),
            prop_str(&e, "rule").as_str()
        ),
        ("stemName", "required")
    );
    assert_eq!(stats(&t).await, (0, 0), "nothing reached the service");
}
