//! One normalized task state for every family's own status encoding.

use crate::status::{is_failure as is_failure_word, COVER_FAILED, COVER_PENDING, COVER_SUCCESS};

/// The normalized state every status record carries as `state`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TaskState {
    Pending,
    Running,
    Succeeded,
    Failed,
}

impl TaskState {
    pub const ALL: [TaskState; 4] = [
        TaskState::Pending,
        TaskState::Running,
        TaskState::Succeeded,
        TaskState::Failed,
    ];

    /// Whether a task in this state is over: no later record changes it.
    pub const fn is_final(self) -> bool {
        matches!(self, TaskState::Succeeded | TaskState::Failed)
    }

    pub const fn as_str(self) -> &'static str {
        match self {
            TaskState::Pending => "pending",
            TaskState::Running => "running",
            TaskState::Succeeded => "succeeded",
            TaskState::Failed => "failed",
        }
    }
}

/// Stage of a music task, as callbacks name it (`callbackType`), plus `pending` before the first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Stage {
    Pending,
    Text,
    First,
    Complete,
    Error,
}

impl Stage {
    pub const ALL: [Stage; 5] = [
        Stage::Pending,
        Stage::Text,
        Stage::First,
        Stage::Complete,
        Stage::Error,
    ];

    pub const fn as_str(self) -> &'static str {
        match self {
            Stage::Pending => "pending",
            Stage::Text => "text",
            Stage::First => "first",
            Stage::Complete => "complete",
            Stage::Error => "error",
        }
    }

    pub fn from_callback_type(s: &str) -> Option<Stage> {
        Some(match s {
            "text" => Stage::Text,
            "first" => Stage::First,
            "complete" => Stage::Complete,
            "error" => Stage::Error,
            _ => return None,
        })
    }

    /// The `status` string of the task-detail query that corresponds to this stage on success.
    pub const fn status(self) -> &'static str {
        match self {
            Stage::Pending => "PENDING",
            Stage::Text => "TEXT_SUCCESS",
            Stage::First => "FIRST_SUCCESS",
            Stage::Complete => "SUCCESS",
            Stage::Error => "GENERATE_AUDIO_FAILED",
        }
    }
}

/// What a status record says once read: its normalized state and, for music tasks, its stage
/// (`Stage::Pending` for the other families).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Observed {
    pub state: TaskState,
    pub stage: Stage,
}

/// A record's own status field as it came: a word, a number, or nothing yet.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Status<'a> {
    Word(&'a str),
    Number(f64),
    Absent,
}

/// Music and lyrics tasks: the string `status` of record-info. Unknown values are taken as still running.
pub fn from_status(status: &str) -> (TaskState, Stage) {
    match status {
        "PENDING" | "" => (TaskState::Pending, Stage::Pending),
        "TEXT_SUCCESS" => (TaskState::Running, Stage::Text),
        "FIRST_SUCCESS" => (TaskState::Running, Stage::First),
        "SUCCESS" => (TaskState::Succeeded, Stage::Complete),
        s if is_failure_word(s) => (TaskState::Failed, Stage::Error),
        _ => (TaskState::Running, Stage::Pending),
    }
}

/// WAV, vocal separation and video: a string `successFlag` with status words
/// (PENDING, SUCCESS, ..._FAILED, CALLBACK_EXCEPTION); digits are read as the cover numbering.
pub fn from_string_flag(flag: &str) -> TaskState {
    match flag {
        "SUCCESS" => TaskState::Succeeded,
        "PENDING" | "" => TaskState::Pending,
        s if is_failure_word(s) => TaskState::Failed,
        s => crate::num::parse_int(s).map_or(TaskState::Running, from_cover_flag),
    }
}

/// Cover tasks: integer `successFlag` 0 pending, 1 success, 2 generating, 3 failed.
pub fn from_cover_flag(flag: i64) -> TaskState {
    match flag {
        COVER_PENDING => TaskState::Pending,
        COVER_SUCCESS => TaskState::Succeeded,
        COVER_FAILED => TaskState::Failed,
        _ => TaskState::Running,
    }
}

/// MIDI tasks: integer `successFlag` 0 pending, 1 success, anything above failed.
pub fn from_midi_flag(flag: i64) -> TaskState {
    match flag {
        crate::status::MIDI_SUCCESS => TaskState::Succeeded,
        f if f > crate::status::MIDI_SUCCESS => TaskState::Failed,
        _ => TaskState::Pending,
    }
}

/// Recovery: the code of its own envelope: 201 running, 200 done, 500 every track failed.
pub fn from_recovery_code(code: i64) -> TaskState {
    match code {
        crate::status::RECOVERY_DONE => TaskState::Succeeded,
        crate::status::RECOVERY_RUNNING => TaskState::Running,
        _ => TaskState::Failed,
    }
}

/// Voice validation and voice tasks: lower-case `status`. A validation is done once its phrase
/// waits for the singer (`wait_validating`); unknown words are taken as still running.
pub fn from_voice_status(status: &str) -> TaskState {
    use crate::status::*;
    match status {
        VOICE_WAIT_PROCESSING | "" => TaskState::Pending,
        VOICE_PHRASE_READY | VOICE_SUCCESS => TaskState::Succeeded,
        s if s == VOICE_FAIL || s.ends_with("_fail") || s.ends_with("failed") => TaskState::Failed,
        _ => TaskState::Running,
    }
}

/// Style boost: string `successFlag` "0" pending, "1" success, "2" failed.
pub fn from_style_flag(flag: &str) -> TaskState {
    match flag {
        "0" => TaskState::Pending,
        "1" => TaskState::Succeeded,
        "2" => TaskState::Failed,
        other => from_string_flag(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_documented_encoding_normalizes() {
        assert_eq!(
            from_status("FIRST_SUCCESS"),
            (TaskState::Running, Stage::First)
        );
        assert_eq!(from_status("SENSITIVE_WORD_ERROR").0, TaskState::Failed);
        assert_eq!(from_status("GENERATE_LYRICS_FAILED").0, TaskState::Failed);
        assert_eq!(
            from_status("SOMETHING_NEW"),
            (TaskState::Running, Stage::Pending)
        );
        assert_eq!(from_string_flag("GENERATE_MP4_FAILED"), TaskState::Failed);
        assert_eq!(from_string_flag("CALLBACK_EXCEPTION"), TaskState::Failed);
        assert_eq!(from_string_flag("SUCCESS"), TaskState::Succeeded);
        assert_eq!(from_string_flag("1"), TaskState::Succeeded);
        assert_eq!(from_cover_flag(2), TaskState::Running);
        assert_eq!(from_cover_flag(3), TaskState::Failed);
        assert_eq!(from_style_flag("2"), TaskState::Failed);
    }
}
