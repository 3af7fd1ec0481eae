//! Wire shapes of responses, records, callbacks and requests, as the service writes them (serde).
//!
//! The envelopes are written here; every record and request struct is generated from the
//! declarations of `schema/` and the endpoint table into `generated.rs` (`cargo xtask codegen`).
//! Records of status queries are camelCase; generation callbacks are snake_case except
//! `createTime` (beyond.md, "Casing"). Nullable fields are `Option` and serialize as `null`.

use serde::{Deserialize, Serialize};

mod generated;
pub use generated::*;

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
