//! Status words of the string encodings (record `status`, string `successFlag`), and the callback
//! code and message that report a failure (service.md, "Callback codes").

use serde::{Deserialize, Serialize};

pub const PENDING: &str = "PENDING";
pub const TEXT_SUCCESS: &str = "TEXT_SUCCESS";
pub const FIRST_SUCCESS: &str = "FIRST_SUCCESS";
pub const SUCCESS: &str = "SUCCESS";
pub const CREATE_TASK_FAILED: &str = "CREATE_TASK_FAILED";
pub const GENERATE_AUDIO_FAILED: &str = "GENERATE_AUDIO_FAILED";
pub const GENERATE_WAV_FAILED: &str = "GENERATE_WAV_FAILED";
pub const GENERATE_LYRICS_FAILED: &str = "GENERATE_LYRICS_FAILED";
pub const GENERATE_MP4_FAILED: &str = "GENERATE_MP4_FAILED";
pub const CALLBACK_EXCEPTION: &str = "CALLBACK_EXCEPTION";
pub const SENSITIVE_WORD_ERROR: &str = "SENSITIVE_WORD_ERROR";

/// Cover records: integer `successFlag` (0 pending, 1 success, 2 generating, 3 failed).
pub const COVER_PENDING: i64 = 0;
pub const COVER_SUCCESS: i64 = 1;
pub const COVER_GENERATING: i64 = 2;
pub const COVER_FAILED: i64 = 3;

/// MIDI records: integer `successFlag` 0 pending, 1 success, 2 creation failed, 3 generation failed.
pub const MIDI_PENDING: i64 = 0;
pub const MIDI_SUCCESS: i64 = 1;
pub const MIDI_CREATE_FAILED: i64 = 2;
pub const MIDI_FAILED: i64 = 3;

/// Recovery's own envelope codes (`{code, msg, task_id, data}`).
pub const RECOVERY_DONE: i64 = 200;
pub const RECOVERY_RUNNING: i64 = 201;
pub const RECOVERY_ALL_FAILED: i64 = 500;

/// Voice statuses (lower case, unlike every other family).
pub const VOICE_WAIT_PROCESSING: &str = "wait_processing";
pub const VOICE_PROCESSING: &str = "processing_validate";
pub const VOICE_VALIDATE_FAIL: &str = "processing_validate_fail";
pub const VOICE_PHRASE_READY: &str = "wait_validating";
pub const VOICE_SUCCESS: &str = "success";
pub const VOICE_FAIL: &str = "fail";

/// Failure statuses end with one of these, whatever the family (GENERATE_MP4_FAILED, CALLBACK_EXCEPTION, ...).
pub fn is_failure(word: &str) -> bool {
    word.ends_with("FAILED") || word.ends_with("ERROR") || word.ends_with("EXCEPTION")
}

/// Callback code of a bad request: parameter error, content violation, unsupported source audio format.
pub const CALLBACK_BAD_REQUEST: i64 = 400;
/// Callback code of related or source files that could not be downloaded.
pub const CALLBACK_SOURCE_UNAVAILABLE: i64 = 451;
/// Callback code of a server error (retry later).
pub const CALLBACK_SERVER_ERROR: i64 = 500;

/// Why a task failed, as its callback (`code`, `msg`) and its record (`errorCode`, `errorMessage`) say.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Failure {
    pub code: i64,
    pub message: String,
}

impl Failure {
    /// A source audio that is not audio at all (text, an image, a PDF).
    pub fn unsupported_source(what: &str) -> Failure {
        Failure {
            code: CALLBACK_BAD_REQUEST,
            message: crate::text!(
                "Unsupported source audio format: the source file is ",
                what,
                ", not audio"
            ),
        }
    }

    /// The failure a status word reports on its own.
    pub fn of_status(word: &str) -> Failure {
        let (code, message) = match word {
            SENSITIVE_WORD_ERROR => (
                CALLBACK_BAD_REQUEST,
                "Content violation: the request contains sensitive words".to_owned(),
            ),
            CALLBACK_EXCEPTION => (CALLBACK_SERVER_ERROR, "Callback exception".to_owned()),
            CREATE_TASK_FAILED => (CALLBACK_SERVER_ERROR, "Task creation failed".to_owned()),
            other => (
                CALLBACK_SERVER_ERROR,
                crate::text!("Generation failed (", other, "); retry later"),
            ),
        };
        Failure { code, message }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failures_have_documented_callback_codes() {
        assert!(is_failure(GENERATE_MP4_FAILED) && is_failure(CALLBACK_EXCEPTION));
        assert!(!is_failure(FIRST_SUCCESS));
        assert_eq!(Failure::of_status(SENSITIVE_WORD_ERROR).code, 400);
        assert_eq!(Failure::of_status(GENERATE_WAV_FAILED).code, 500);
        assert_eq!(Failure::unsupported_source("text").code, 400);
    }
}
