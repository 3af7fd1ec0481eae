//! Every method against the real emulator: succeeds on a valid request and returns the documented fields.

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
