//! Voices: a persona taken from a song sings a new one; a custom voice is validated with the
//! singer's phrase, then made, in the documented order.

use super::common::*;
use super::songs::*;
use serde_json::json;
use tunesmith_protocol::Op;
use wasm_bindgen_test::wasm_bindgen_test;

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
