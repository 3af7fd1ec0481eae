//! The newer operations through the Rust API: a persona, sounds, a separation's MIDI and an audio
//! recovery, with their waiters (MIDI's integer flag, recovery's own envelope) and a refusal each.

use super::common::{callback_url, tag};
use super::helpers::*;
use tunesmith::rust_api::*;
use wasm_bindgen_test::wasm_bindgen_test;

#[wasm_bindgen_test]
async fn personas_sounds_midi_and_recovery_decode_into_their_records() {
    let t = tag("rs-newer");
    let client = client(&t);
    let music = finished_music_task(&client, &t).await;
    let track = &music.response.suno_data[0];
    let cb = callback_url(&t);

    let persona = client
        .generate_persona(&GeneratePersonaRequest {
            task_id: music.task_id.clone(),
            audio_id: track.id.clone(),
            name: "Calm".into(),
            description: "Soft piano".into(),
            vocal_end: Some(track.duration.min(30.0).floor()),
            ..GeneratePersonaRequest::default()
        })
        .await
        .unwrap();
    assert!(!persona.persona_id.is_empty());
    assert_eq!(persona.name, "Calm");

    let sounds = client
        .generate_sounds(&GenerateSoundsRequest {
            prompt: "a drum loop".into(),
            model: "V5".into(),
            sound_loop: Some(true),
            sound_tempo: Some(120),
            sound_key: Some("C".into()),
            ..GenerateSoundsRequest::default()
        })
        .await
        .unwrap();
    let sounds = client.wait_for_task(&sounds.task_id, fast()).await.unwrap();
    assert_eq!(sounds.state(), TaskState::Succeeded);

    let separation = client
        .separate_vocals(&SeparateVocalsRequest {
            task_id: music.task_id.clone(),
            audio_id: track.id.clone(),
            call_back_url: cb.clone(),
            r#type: Some("split_stem".into()),
            stem_name: None,
        })
        .await
        .unwrap();
    let separation = client
        .wait_for_vocal_separation(&separation.task_id, fast())
        .await
        .unwrap();
    let stems = separation.response.unwrap().origin_data.unwrap_or_default();
    assert!(!stems.is_empty());
    let midi = client
        .generate_midi(&GenerateMidiRequest {
            task_id: separation.task_id.clone(),
            call_back_url: cb.clone(),
            audio_id: Some(stems[0].id.clone()),
        })
        .await
        .unwrap();
    let midi = client.wait_for_midi(&midi.task_id, fast()).await.unwrap();
    assert_eq!(midi.success_flag, 1);
    let data = midi.midi_data.unwrap();
    assert!(data.instruments.iter().any(|i| !i.notes.is_empty()));

    let recovery = client
        .recover_audio(&RecoverAudioRequest {
            suno_task_id: music.task_id.clone(),
            call_back_url: cb.clone(),
        })
        .await
        .unwrap();
    let recovered = client
        .wait_for_recovery(&recovery.task_id, fast())
        .await
        .unwrap();
    assert_eq!(recovered.code, 200);
    assert_eq!(recovered.task_id, recovery.task_id);
    assert_eq!(
        recovered.data.unwrap_or_default().len(),
        music.response.suno_data.len()
    );

    // Refused before sending: a MIDI of no task, a sounds model other than V5.
    let refused = client
        .generate_sounds(&GenerateSoundsRequest {
            prompt: "p".into(),
            model: "V6".into(),
            ..GenerateSoundsRequest::default()
        })
        .await
        .unwrap_err();
    assert_eq!(refused.kind(), ClientErrorKind::Validation, "{refused:?}");
    // The service's refusal: a MIDI of a task that is not a vocal separation.
    let not_separation = client
        .generate_midi(&GenerateMidiRequest {
            task_id: music.task_id.clone(),
            call_back_url: cb,
            audio_id: None,
        })
        .await
        .unwrap_err();
    assert!(not_separation.api_kind().is_some(), "{not_separation:?}");
}
