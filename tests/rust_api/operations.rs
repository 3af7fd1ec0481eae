//! Every operation of the Rust API against the emulator: requests serialized from the protocol's
//! structs, answers decoded into its records.

use super::common::{callback_url, stats, tag};
use super::helpers::*;
use tunesmith::rust_api::*;
use wasm_bindgen_test::wasm_bindgen_test;

#[wasm_bindgen_test]
async fn create_and_wait_to_completion_reports_each_stage_once() {
    let t = tag("rs-create-wait");
    let client = client(&t);
    let created = client
        .generate(&generate_request(&t, "a calm piano piece"))
        .await
        .unwrap();
    assert!(!created.task_id.is_empty());
    let mut stages = Vec::new();
    let task = client
        .wait_for(&created.task_id, fast(), |r: &MusicRecord| {
            stages.push(r.observed().stage)
        })
        .await
        .unwrap();
    assert_eq!(task.task_id, created.task_id);
    assert_eq!(task.state(), TaskState::Succeeded);
    assert_eq!(stages.last(), Some(&Stage::Complete));
    assert!(stages.windows(2).all(|w| w[0] < w[1]), "{stages:?}");
    assert_eq!(task.response.suno_data.len(), 2);
    for track in &task.response.suno_data {
        assert!(track.audio_url.starts_with("http"), "{track:?}");
        assert!(track.duration > 0.0);
    }
    let again = client
        .get_task(&TaskQuery {
            task_id: created.task_id.clone(),
        })
        .await
        .unwrap();
    assert_eq!(again, task);
    assert_eq!(stats(&t).await.1, 1, "one task created");
}

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
