//! Wire shapes of responses, records and callbacks, as the service writes them (serde).
//!
//! Records of status queries are camelCase; generation callbacks are snake_case except
//! `createTime` (beyond.md, "Casing"). Nullable fields are `Option` and serialize as `null`.

use serde::{Deserialize, Serialize};

/// The envelope of every music-host answer and of every callback: `{code, msg, data}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Envelope<T> {
    pub code: i64,
    pub msg: String,
    pub data: T,
}

/// The upload host's envelope: `success` mirrors `code == 200`; `data` only on success.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UploadEnvelope<T> {
    pub success: bool,
    pub code: i64,
    pub msg: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<T>,
}

/// `data` of every creating call.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TaskCreated {
    pub task_id: String,
}

/// Declares a record shape twice, camelCase for status queries and snake_case for callbacks, with
/// the conversion between them: the service writes the same fields in both casings, and one field
/// list keeps the two (and the conversion) from drifting apart.
macro_rules! camel_and_snake {
    (
        $(#[$camel_meta:meta])* camel $camel:ident;
        $(#[$snake_meta:meta])* snake $snake:ident;
        { $($(#[$field_meta:meta])* $field:ident: $ty:ty,)* }
    ) => {
        $(#[$camel_meta])*
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        #[serde(rename_all = "camelCase")]
        pub struct $camel {
            $($(#[$field_meta])* pub $field: $ty,)*
        }

        $(#[$snake_meta])*
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        pub struct $snake {
            $($(#[$field_meta])* pub $field: $ty,)*
        }

        impl From<&$camel> for $snake {
            fn from(v: &$camel) -> Self {
                let v = v.clone();
                $snake { $($field: v.$field,)* }
            }
        }
    };
}

camel_and_snake! {
    /// A generated track as task-detail queries write it (camelCase).
    camel Track;
    /// A generated track as generation callbacks write it: snake_case, but `createTime` stays camelCase.
    snake CallbackTrack;
    {
        id: String,
        audio_url: String,
        source_audio_url: String,
        stream_audio_url: String,
        source_stream_audio_url: String,
        image_url: String,
        source_image_url: String,
        prompt: String,
        model_name: String,
        title: String,
        tags: String,
        /// `YYYY-MM-DD hh:mm:ss`; camelCase in both shapes.
        #[serde(rename = "createTime")]
        create_time: String,
        /// Seconds.
        duration: f64,
    }
}

/// `data` of `generate/record-info` (generate, extend, upload-cover, upload-extend, add-instrumental, add-vocals).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MusicRecord {
    pub task_id: String,
    /// Source track of an extension; empty otherwise.
    pub parent_music_id: String,
    /// The original request, JSON-encoded.
    pub param: String,
    pub response: MusicResponse,
    /// PENDING, TEXT_SUCCESS, FIRST_SUCCESS, SUCCESS or a failure status.
    pub status: String,
    #[serde(rename = "type")]
    pub kind: String,
    pub operation_type: String,
    pub error_code: Option<i64>,
    pub error_message: Option<String>,
    pub create_time: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MusicResponse {
    pub task_id: String,
    pub suno_data: Vec<Track>,
}

/// `data` of a generation callback.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MusicCallbackData {
    #[serde(rename = "callbackType")]
    pub callback_type: String,
    pub task_id: String,
    /// Null on failure.
    pub data: Option<Vec<CallbackTrack>>,
}

/// `data` of `{svc}/cover/record-info`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CoverRecord {
    pub task_id: String,
    pub parent_task_id: String,
    pub callback_url: String,
    pub complete_time: Option<String>,
    /// Present (with images) only when `success_flag` is 1.
    pub response: Option<CoverResponse>,
    /// 0 pending, 1 success, 2 generating, 3 failed.
    pub success_flag: i64,
    pub create_time: String,
    /// 200 success, 500 internal error; null while running.
    pub error_code: Option<i64>,
    pub error_message: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CoverResponse {
    pub images: Vec<String>,
}

/// `data` of a cover callback.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CoverCallbackData {
    pub task_id: String,
    pub images: Option<Vec<String>>,
}

/// `data` of `wav/record-info`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WavRecord {
    pub task_id: String,
    pub music_id: String,
    pub callback_url: String,
    pub complete_time: Option<String>,
    pub response: Option<WavResponse>,
    /// PENDING, SUCCESS, CREATE_TASK_FAILED, GENERATE_WAV_FAILED, CALLBACK_EXCEPTION.
    pub success_flag: String,
    pub create_time: String,
    pub error_code: Option<i64>,
    pub error_message: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WavResponse {
    pub audio_wav_url: String,
}

/// `data` of a WAV callback: `audioWavUrl` camelCase, `task_id` snake_case, as documented.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WavCallbackData {
    #[serde(rename = "audioWavUrl")]
    pub audio_wav_url: Option<String>,
    pub task_id: String,
}

/// One text of a lyrics task.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Lyric {
    pub text: String,
    pub title: String,
    pub status: String,
    pub error_message: String,
}

/// `data` of `lyrics/record-info`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LyricsRecord {
    pub task_id: String,
    pub param: String,
    pub response: Option<LyricsResponse>,
    /// PENDING, SUCCESS, CREATE_TASK_FAILED, GENERATE_LYRICS_FAILED, CALLBACK_EXCEPTION, SENSITIVE_WORD_ERROR.
    pub status: String,
    #[serde(rename = "type")]
    pub kind: String,
    pub error_code: Option<i64>,
    pub error_message: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LyricsResponse {
    pub task_id: String,
    pub lyrics_data: Vec<Lyric>,
}

/// `data` of a lyrics callback.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LyricsCallbackData {
    pub callback_type: String,
    pub task_id: String,
    pub data: Option<Vec<Lyric>>,
}

camel_and_snake! {
    /// Stem URLs of a vocal separation (camelCase in records); absent stems are null.
    #[derive(Default)]
    camel Stems;
    /// The same stems as the vocal-separation callback writes them (snake_case).
    #[derive(Default)]
    snake StemsSnake;
    {
        origin_url: Option<String>,
        instrumental_url: Option<String>,
        vocal_url: Option<String>,
        backing_vocals_url: Option<String>,
        drums_url: Option<String>,
        bass_url: Option<String>,
        guitar_url: Option<String>,
        keyboard_url: Option<String>,
        percussion_url: Option<String>,
        strings_url: Option<String>,
        synth_url: Option<String>,
        fx_url: Option<String>,
        brass_url: Option<String>,
        woodwinds_url: Option<String>,
    }
}

/// `data` of `vocal-removal/record-info`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VocalRecord {
    pub task_id: String,
    pub music_id: String,
    pub callback_url: String,
    pub music_index: i64,
    pub complete_time: Option<String>,
    pub response: Option<Stems>,
    /// PENDING, SUCCESS, CREATE_TASK_FAILED, GENERATE_AUDIO_FAILED, CALLBACK_EXCEPTION.
    pub success_flag: String,
    pub create_time: String,
    pub error_code: Option<i64>,
    pub error_message: Option<String>,
}

/// `data` of a vocal-separation callback.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct VocalCallbackData {
    pub task_id: String,
    pub vocal_removal_info: Option<StemsSnake>,
}

/// `data` of `mp4/record-info`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VideoRecord {
    pub task_id: String,
    pub music_id: String,
    pub callback_url: String,
    pub music_index: i64,
    pub complete_time: Option<String>,
    pub response: Option<VideoResponse>,
    /// PENDING, SUCCESS, CREATE_TASK_FAILED, GENERATE_MP4_FAILED, CALLBACK_EXCEPTION.
    pub success_flag: String,
    pub create_time: String,
    pub error_code: Option<i64>,
    pub error_message: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VideoResponse {
    pub video_url: String,
}

/// `data` of a music-video callback.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct VideoCallbackData {
    pub task_id: String,
    pub video_url: Option<String>,
}

/// `data` of the synchronous style boost.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StyleBoost {
    pub task_id: String,
    pub param: String,
    pub result: String,
    pub credits_consumed: i64,
    pub credits_remaining: i64,
    /// "0" pending, "1" success, "2" failed.
    pub success_flag: String,
    pub error_code: Option<i64>,
    pub error_message: String,
    pub create_time: String,
}

/// One word of timestamped lyrics.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AlignedWord {
    pub word: String,
    pub success: bool,
    pub start_s: f64,
    pub end_s: f64,
    pub palign: f64,
}

/// `data` of the synchronous timestamped-lyrics query.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TimestampedLyrics {
    pub aligned_words: Vec<AlignedWord>,
    pub waveform_data: Vec<f64>,
    pub hoot_cer: f64,
    pub is_streamed: bool,
}

/// `data` of an upload answer: every field of service.md, plus `filePath` and `uploadedAt` (beyond.md).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UploadRecord {
    pub file_id: String,
    pub file_name: String,
    pub original_name: String,
    pub file_size: u64,
    pub mime_type: String,
    pub upload_path: String,
    pub file_url: String,
    pub download_url: String,
    /// ISO 8601.
    pub upload_time: String,
    /// ISO 8601, three days after `upload_time`.
    pub expires_at: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file_path: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uploaded_at: Option<String>,
}

/// The service's own time format for tracks: `YYYY-MM-DD hh:mm:ss` (UTC).
pub fn service_time(epoch_ms: i64) -> String {
    let iso = crate::time::iso_from_epoch_ms(epoch_ms);
    iso.get(..19).unwrap_or(&iso).replacen('T', " ", 1)
}

#[cfg(all(test, feature = "json"))]
mod tests {
    use super::*;

    #[test]
    fn callbacks_keep_their_documented_casing() {
        let track = Track {
            id: "a".into(),
            audio_url: "u".into(),
            source_audio_url: "u".into(),
            stream_audio_url: "s".into(),
            source_stream_audio_url: "s".into(),
            image_url: "i".into(),
            source_image_url: "i".into(),
            prompt: "p".into(),
            model_name: "chirp-v6".into(),
            title: "t".into(),
            tags: "g".into(),
            create_time: service_time(0),
            duration: 1.5,
        };
        let camel = serde_json::to_value(&track).unwrap();
        assert_eq!(camel["streamAudioUrl"], "s");
        assert_eq!(camel["createTime"], "1970-01-01 00:00:00");
        let snake = serde_json::to_value(CallbackTrack::from(&track)).unwrap();
        assert_eq!(snake["stream_audio_url"], "s");
        assert_eq!(snake["createTime"], "1970-01-01 00:00:00");
        let wav = serde_json::to_value(WavCallbackData {
            audio_wav_url: None,
            task_id: "t".into(),
        })
        .unwrap();
        assert_eq!(
            wav,
            serde_json::json!({"audioWavUrl": null, "task_id": "t"})
        );
    }
}
