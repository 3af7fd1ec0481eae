//! Every method against the real emulator: succeeds on a valid request and returns the documented fields.
//! Over 400 lines on purpose: one call per operation, read as a list.

use super::common::*;
use js_sys::Array;
use serde_json::json;
use wasm_bindgen::JsValue;
use wasm_bindgen_test::wasm_bindgen_test;

/// Creates a music task and waits for it to succeed; returns the final record.
async fn finished_music_task(client: &tunesmith::Client, title: &str) -> JsValue {
    let created = ok(client.generate(
        js(json!({
            "customMode": true, "instrumental": false, "model": "V6",
            "callBackUrl": callback_url(title), "prompt": "la la la", "style": "dream pop", "title": title,
        })),
        None,
    ))
    .await;
    let task_id = prop_str(&created, "taskId");
    settle(|| client.get_task(js(json!({ "taskId": task_id })), None)).await
}

#[wasm_bindgen_test]
async fn generate_then_get_task_returns_typed_tracks() {
    let t = tag("generate");
    let client = client(&t);
    let record = finished_music_task(&client, &t).await;
    assert_eq!(prop_str(&record, "state"), "succeeded");
    assert_eq!(prop_str(&record, "stage"), "complete");
    assert_eq!(prop_str(&record, "status"), "SUCCESS");
    let tracks = Array::from(&prop(&record, "tracks"));
    assert_eq!(tracks.length(), 2, "{}", show(&record));
    for track in tracks.iter() {
        for field in [
            "id",
            "audioUrl",
            "streamAudioUrl",
            "imageUrl",
            "title",
            "tags",
            "createTime",
        ] {
            assert!(
                prop(&track, field)
                    .as_string()
                    .is_some_and(|s| !s.is_empty()),
                "{field} in {}",
                show(&track)
            );
        }
        assert!(prop(&track, "duration").as_f64().is_some_and(|d| d > 0.0));
        assert!(
            prop(&track, "audio_url").is_undefined(),
            "snake_case leaked: {}",
            show(&track)
        );
        // ISO 8601 whatever format the service used.
        assert_eq!(prop_str(&track, "createTime").as_bytes()[10], b'T');
    }
    // The raw fields of the service are kept beside the normalized ones.
    assert!(!prop(&prop(&record, "response"), "sunoData").is_undefined());
}

#[wasm_bindgen_test]
async fn every_other_operation_succeeds() {
    let t = tag("every-op");
    let client = client(&t);
    let record = finished_music_task(&client, &t).await;
    let task_id = prop_str(&record, "taskId");
    let audio_id = prop_str(&Array::from(&prop(&record, "tracks")).get(0), "id");
    let cb = callback_url(&t);
    // A real audio file (the emulator fails a task whose source is not audio).
    let upload_url = prop_str(&Array::from(&prop(&record, "tracks")).get(0), "audioUrl");

    for (name, p) in [
        ("extend", client.extend(js(json!({ "defaultParamFlag": false, "audioId": audio_id, "callBackUrl": cb })), None)),
        ("uploadCover", client.upload_cover(js(json!({ "uploadUrl": upload_url, "customMode": false, "instrumental": true, "model": "V6", "callBackUrl": cb, "prompt": "calm" })), None)),
        ("uploadExtend", client.upload_extend(js(json!({ "uploadUrl": upload_url, "defaultParamFlag": true, "continueAt": 5, "model": "V6_MINI", "callBackUrl": cb, "style": "lofi", "title": "Longer", "instrumental": true })), None)),
        ("addInstrumental", client.add_instrumental(js(json!({ "uploadUrl": upload_url, "title": "t", "negativeTags": "metal", "tags": "piano", "callBackUrl": cb, "variety": 2, "styleWeight": 0.57 })), None)),
        ("addVocals", client.add_vocals(js(json!({ "uploadUrl": upload_url, "prompt": "love", "title": "t", "negativeTags": "growl", "style": "soul", "callBackUrl": cb, "vocalGender": "f" })), None)),
    ] {
        let created = ok(p).await;
        let id = prop_str(&created, "taskId");
        let done = settle(|| client.get_task(js(json!({ "taskId": id })), None)).await;
        assert_eq!(prop_str(&done, "state"), "succeeded", "{name}: {}", show(&done));
        assert!(Array::from(&prop(&done, "tracks")).length() >= 1, "{name}");
    }

    let boosted = ok(client.boost_style(
        js(json!({ "content": "warm lo-fi with vinyl crackle" })),
        None,
    ))
    .await;
    assert!(!prop_str(&boosted, "result").is_empty());
    assert_eq!(prop_str(&boosted, "state"), "succeeded");

    let credits = ok(client.get_credits(JsValue::UNDEFINED, None)).await;
    assert!(prop(&credits, "credits").as_f64().is_some_and(|c| c > 0.0));

    let cover =
        ok(client.generate_cover(js(json!({ "taskId": task_id, "callBackUrl": cb })), None)).await;
    let cover_id = prop_str(&cover, "taskId");
    let cover = settle(|| client.get_cover(js(json!({ "taskId": cover_id })), None)).await;
    assert_eq!(prop_str(&cover, "state"), "succeeded");
    assert_eq!(prop(&cover, "successFlag").as_f64(), Some(1.0));
    assert_eq!(Array::from(&prop(&cover, "images")).length(), 2);

    let wav = ok(client.convert_to_wav(
        js(json!({ "taskId": task_id, "audioId": audio_id, "callBackUrl": cb })),
        None,
    ))
    .await;
    let wav_id = prop_str(&wav, "taskId");
    let wav = settle(|| client.get_wav(js(json!({ "taskId": wav_id })), None)).await;
    assert_eq!(prop_str(&wav, "successFlag"), "SUCCESS");
    assert!(prop_str(&prop(&wav, "response"), "audioWavUrl").starts_with("http"));

    let lyrics = ok(client.generate_lyrics(
        js(json!({ "prompt": "a song about the sea", "callBackUrl": cb })),
        None,
    ))
    .await;
    let lyrics_id = prop_str(&lyrics, "taskId");
    let lyrics = settle(|| client.get_lyrics(js(json!({ "taskId": lyrics_id })), None)).await;
    assert_eq!(prop_str(&lyrics, "state"), "succeeded");
    let first = Array::from(&prop(&lyrics, "lyrics")).get(0);
    assert!(!prop_str(&first, "text").is_empty());

    let aligned =
        ok(client.get_timestamped_lyrics(js(json!({ "taskId": task_id, "musicIndex": 0 })), None))
            .await;
    assert!(Array::from(&prop(&aligned, "alignedWords")).length() > 0);
    assert!(Array::is_array(&prop(&aligned, "waveformData")));

    let sep = ok(client.separate_vocals(js(json!({ "taskId": task_id, "audioId": audio_id, "callBackUrl": cb, "type": "separate_vocal" })), None)).await;
    let sep_id = prop_str(&sep, "taskId");
    let sep = settle(|| client.get_vocal_separation(js(json!({ "taskId": sep_id })), None)).await;
    assert_eq!(prop_str(&sep, "state"), "succeeded");
    assert!(prop_str(&prop(&sep, "response"), "vocalUrl").starts_with("http"));
    assert!(prop_str(&prop(&sep, "response"), "instrumentalUrl").starts_with("http"));

    let video = ok(client.generate_video(
        js(json!({ "taskId": task_id, "audioId": audio_id, "callBackUrl": cb, "author": "me" })),
        None,
    ))
    .await;
    let video_id = prop_str(&video, "taskId");
    let video = settle(|| client.get_video(js(json!({ "taskId": video_id })), None)).await;
    assert_eq!(prop_str(&video, "state"), "succeeded");
    assert!(prop_str(&prop(&video, "response"), "videoUrl").starts_with("http"));
}

#[wasm_bindgen_test]
async fn failure_statuses_normalize_to_failed() {
    let t = tag("failed-status");
    let client = client(&t);
    let created = ok(client.generate(
        js(json!({ "customMode": false, "instrumental": true, "model": "V6", "callBackUrl": callback_url(&t), "prompt": "emulate:SENSITIVE_WORD_ERROR" })),
        None,
    ))
    .await;
    let id = prop_str(&created, "taskId");
    let record = settle(|| client.get_task(js(json!({ "taskId": id })), None)).await;
    assert_eq!(prop_str(&record, "state"), "failed");
    assert_eq!(prop_str(&record, "stage"), "error");
    assert_eq!(prop_str(&record, "status"), "SENSITIVE_WORD_ERROR");
}

/// Every operation through the Rust face: requests serialized from the protocol's structs, answers decoded into its records.
#[cfg(feature = "rust-api")]
mod rust_face {
    use crate::suite::common::{callback_url, tag};
    use crate::suite::faces::rust::*;
    use tunesmith::rust_api::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    async fn every_family_creates_waits_and_decodes() {
        let t = tag("rs-families");
        let client = client(&t);
        let music = finished_music_task(&client, &t).await;
        let task_id = music.task_id.clone();
        let audio_id = music.response.suno_data[0].id.clone();
        let cb = callback_url(&t);

        let cover = client
            .generate_cover(&GenerateCoverRequest {
                task_id: task_id.clone(),
                call_back_url: cb.clone(),
            })
            .await
            .unwrap();
        let cover = client.wait_for_cover(&cover.task_id, fast()).await.unwrap();
        assert!(!cover.response.unwrap().images.is_empty());

        let wav = client
            .convert_to_wav(&ConvertToWavRequest {
                audio_id: Some(audio_id.clone()),
                call_back_url: Some(cb.clone()),
                ..ConvertToWavRequest::default()
            })
            .await
            .unwrap();
        let wav = client.wait_for_wav(&wav.task_id, fast()).await.unwrap();
        assert!(wav.response.unwrap().audio_wav_url.starts_with("http"));

        let lyrics = client
            .generate_lyrics(&GenerateLyricsRequest {
                prompt: "the sea at night".into(),
                call_back_url: cb.clone(),
            })
            .await
            .unwrap();
        let lyrics = client
            .wait_for_lyrics(&lyrics.task_id, fast())
            .await
            .unwrap();
        assert!(!lyrics.response.unwrap().lyrics_data.is_empty());

        let stems = client
            .separate_vocals(&SeparateVocalsRequest {
                task_id: task_id.clone(),
                audio_id: audio_id.clone(),
                call_back_url: cb.clone(),
                r#type: Some("separate_vocal".into()),
                stem_name: None,
            })
            .await
            .unwrap();
        let stems = client
            .wait_for_vocal_separation(&stems.task_id, fast())
            .await
            .unwrap();
        assert!(stems.response.unwrap().vocal_url.is_some());

        let video = client
            .generate_video(&GenerateVideoRequest {
                task_id: task_id.clone(),
                audio_id: audio_id.clone(),
                call_back_url: cb.clone(),
                author: Some("me".into()),
                ..GenerateVideoRequest::default()
            })
            .await
            .unwrap();
        let video = client.wait_for_video(&video.task_id, fast()).await.unwrap();
        assert!(video.response.unwrap().video_url.starts_with("http"));

        let aligned = client
            .get_timestamped_lyrics(&TimestampedLyricsRequest {
                task_id: task_id.clone(),
                audio_id: Some(audio_id.clone()),
                ..TimestampedLyricsRequest::default()
            })
            .await
            .unwrap();
        assert!(!aligned.aligned_words.is_empty());

        let boost = client
            .boost_style(&BoostStyleRequest {
                content: "warm lo-fi".into(),
            })
            .await
            .unwrap();
        assert!(!boost.result.is_empty());
        assert!(client.get_credits().await.unwrap() >= 0.0);

        // A real audio file (the emulator fails a task whose source is not audio).
        let upload_url = music.response.suno_data[0].audio_url.clone();
        let extended = client
            .upload_extend(&UploadExtendRequest {
                upload_url: upload_url.clone(),
                default_param_flag: true,
                continue_at: Some(5.0),
                model: "V6_MINI".into(),
                style: Some("lofi".into()),
                title: Some("Longer".into()),
                instrumental: Some(true),
                call_back_url: cb.clone(),
                ..UploadExtendRequest::default()
            })
            .await
            .unwrap();
        assert!(!extended.task_id.is_empty());
    }

    #[wasm_bindgen_test]
    async fn uploads_go_to_the_upload_host() {
        let t = tag("rs-uploads");
        let client = client(&t);
        let stored = client
            .upload_base64(&UploadBase64Request {
                base64_data: "data:text/plain;base64,aGVsbG8=".into(),
                file_name: Some("hello.txt".into()),
                ..UploadBase64Request::default()
            })
            .await
            .unwrap();
        assert_eq!(stored.file_name, "hello.txt");
        assert_eq!(stored.file_size, 5);
        let fetched = client
            .upload_from_url(&UploadFromUrlRequest {
                file_url: stored.download_url.clone(),
                upload_path: Some("copies".into()),
                ..UploadFromUrlRequest::default()
            })
            .await
            .unwrap();
        assert_eq!(fetched.file_size, 5);
        assert_eq!(fetched.upload_path, "copies");
    }

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
                model: Some("V5".into()),
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

        // Refused before sending: a sounds model that is empty (a model name is an open list
        // since V6: an unknown one goes on to the service).
        let refused = client
            .generate_sounds(&GenerateSoundsRequest {
                prompt: "p".into(),
                model: Some(" ".into()),
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
}
