//! Task families: the ten kinds of task that have a status query, a waiter and callbacks, and how
//! each one writes its own status (`observe` reads any of them as one `TaskState`).

use crate::op::Op;
use crate::state::{self, Observed, Stage, Status, TaskState};
use crate::status;

/// The task families that have a status query, hence a waiter and callbacks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TaskFamily {
    Music,
    Cover,
    Wav,
    Lyrics,
    VocalSeparation,
    Video,
    Midi,
    /// Audio recovery: its status query answers its own envelope (201 while running).
    Recovery,
    /// The first step of a custom voice: a phrase for the singer to record.
    VoiceValidation,
    Voice,
}

/// The stages of a music task in order, as the waiter reports them.
pub const MUSIC_STAGES: [Stage; 4] = [Stage::Pending, Stage::Text, Stage::First, Stage::Complete];

impl TaskFamily {
    pub const ALL: [TaskFamily; 10] = [
        TaskFamily::Music,
        TaskFamily::Cover,
        TaskFamily::Wav,
        TaskFamily::Lyrics,
        TaskFamily::VocalSeparation,
        TaskFamily::Video,
        TaskFamily::Midi,
        TaskFamily::Recovery,
        TaskFamily::VoiceValidation,
        TaskFamily::Voice,
    ];

    /// The `family` JavaScript sees on callback events.
    pub const fn as_str(self) -> &'static str {
        match self {
            TaskFamily::Music => "music",
            TaskFamily::Cover => "cover",
            TaskFamily::Wav => "wav",
            TaskFamily::Lyrics => "lyrics",
            TaskFamily::VocalSeparation => "vocal_separation",
            TaskFamily::Video => "video",
            TaskFamily::Midi => "midi",
            TaskFamily::Recovery => "recovery",
            TaskFamily::VoiceValidation => "voice_validation",
            TaskFamily::Voice => "voice",
        }
    }

    pub fn from_name(name: &str) -> Option<TaskFamily> {
        TaskFamily::ALL.into_iter().find(|f| f.as_str() == name)
    }

    /// The status query of the family (whose row in the endpoint table says it back).
    pub const fn query(self) -> Op {
        match self {
            TaskFamily::Music => Op::GetTask,
            TaskFamily::Cover => Op::GetCover,
            TaskFamily::Wav => Op::GetWav,
            TaskFamily::Lyrics => Op::GetLyrics,
            TaskFamily::VocalSeparation => Op::GetVocalSeparation,
            TaskFamily::Video => Op::GetVideo,
            TaskFamily::Midi => Op::GetMidi,
            TaskFamily::Recovery => Op::GetRecovery,
            TaskFamily::VoiceValidation => Op::GetVoiceValidation,
            TaskFamily::Voice => Op::GetVoice,
        }
    }

    /// The status query's parameter that names the task (recovery spells it in snake_case).
    pub const fn query_field(self) -> &'static str {
        match self {
            TaskFamily::Recovery => "task_id",
            _ => "taskId",
        }
    }

    /// The client's waiter method for the family.
    pub const fn waiter_name(self) -> &'static str {
        match self {
            TaskFamily::Music => "waitForTask",
            TaskFamily::Cover => "waitForCover",
            TaskFamily::Wav => "waitForWav",
            TaskFamily::Lyrics => "waitForLyrics",
            TaskFamily::VocalSeparation => "waitForVocalSeparation",
            TaskFamily::Video => "waitForVideo",
            TaskFamily::Midi => "waitForMidi",
            TaskFamily::Recovery => "waitForRecovery",
            TaskFamily::VoiceValidation => "waitForVoiceValidation",
            TaskFamily::Voice => "waitForVoice",
        }
    }

    /// The record field holding the family's own status (copied into `TaskFailedError.taskStatus`).
    pub const fn status_field(self) -> &'static str {
        match self {
            TaskFamily::Music
            | TaskFamily::Lyrics
            | TaskFamily::VoiceValidation
            | TaskFamily::Voice => "status",
            TaskFamily::Recovery => "code",
            TaskFamily::Cover
            | TaskFamily::Wav
            | TaskFamily::VocalSeparation
            | TaskFamily::Video
            | TaskFamily::Midi => "successFlag",
        }
    }

    /// The record fields that say why a task failed: its error code and message. Recovery's own
    /// envelope says it with `code` and `msg`.
    pub const fn error_fields(self) -> (&'static str, &'static str) {
        match self {
            TaskFamily::Recovery => ("code", "msg"),
            _ => ("errorCode", "errorMessage"),
        }
    }

    /// The status a family's generation failure is reported with. Cover records have no status
    /// word (integer `successFlag` 3), so theirs is the plain `FAILED`.
    pub const fn generation_failed(self) -> &'static str {
        match self {
            TaskFamily::Music | TaskFamily::VocalSeparation => status::GENERATE_AUDIO_FAILED,
            TaskFamily::Cover => "FAILED",
            TaskFamily::Wav => status::GENERATE_WAV_FAILED,
            TaskFamily::Lyrics => status::GENERATE_LYRICS_FAILED,
            TaskFamily::Video => status::GENERATE_MP4_FAILED,
            // Integer or lower-case encodings: these words only name the failure in messages.
            TaskFamily::Midi => "MIDI_GENERATION_FAILED",
            TaskFamily::Recovery => "RECOVERY_FAILED",
            TaskFamily::VoiceValidation => status::VOICE_VALIDATE_FAIL,
            TaskFamily::Voice => status::VOICE_FAIL,
        }
    }

    /// What a record's own status (its `status_field`) says, in the one normalized form: every
    /// family's encoding is read here, for both faces of the client and its waiters.
    pub fn observe(self, status: Status<'_>) -> Observed {
        let word = match status {
            Status::Word(w) => w,
            Status::Number(_) | Status::Absent => "",
        };
        let state = match self {
            TaskFamily::Music => {
                let (state, stage) = state::from_status(word);
                return Observed { state, stage };
            }
            TaskFamily::Lyrics => state::from_status(word).0,
            TaskFamily::Cover
            | TaskFamily::Wav
            | TaskFamily::VocalSeparation
            | TaskFamily::Video => match status {
                Status::Number(n) => state::from_cover_flag(n as i64),
                Status::Word(w) => state::from_string_flag(w),
                Status::Absent => TaskState::Pending,
            },
            TaskFamily::Midi => match status {
                Status::Number(n) => state::from_midi_flag(n as i64),
                Status::Word(w) => state::from_midi_flag(crate::num::parse_int(w).unwrap_or(0)),
                Status::Absent => TaskState::Pending,
            },
            // An envelope without a code is no answer of a running task.
            TaskFamily::Recovery => match status {
                Status::Number(code) => state::from_recovery_code(code as i64),
                Status::Word(_) | Status::Absent => TaskState::Failed,
            },
            TaskFamily::VoiceValidation | TaskFamily::Voice => state::from_voice_status(word),
        };
        Observed {
            state,
            stage: Stage::Pending,
        }
    }

    /// Rank of a record on the way to the end: progress is reported each time the rank rises, so
    /// a record that repeats (or, through some glitch, regresses) is never reported twice. Music
    /// ranks by stage (its index in `MUSIC_STAGES`); the other families by state.
    pub const fn rank(self, seen: Observed) -> u8 {
        match self {
            TaskFamily::Music => match (seen.state, seen.stage) {
                (TaskState::Succeeded, _) | (TaskState::Failed, _) => 3,
                (_, Stage::Text) => 1,
                (_, Stage::First) => 2,
                (_, Stage::Complete | Stage::Error) => 3,
                (_, Stage::Pending) => 0,
            },
            _ => match seen.state {
                TaskState::Pending => 0,
                TaskState::Running => 1,
                TaskState::Succeeded | TaskState::Failed => 2,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_family_reads_its_own_encoding() {
        let seen = |f: TaskFamily, s: Status<'_>| f.observe(s).state;
        assert_eq!(
            TaskFamily::Music.observe(Status::Word("FIRST_SUCCESS")),
            Observed {
                state: TaskState::Running,
                stage: Stage::First
            }
        );
        assert_eq!(
            TaskFamily::Lyrics
                .observe(Status::Word("TEXT_SUCCESS"))
                .stage,
            Stage::Pending
        );
        assert_eq!(
            seen(TaskFamily::Cover, Status::Number(3.0)),
            TaskState::Failed
        );
        assert_eq!(
            seen(TaskFamily::Cover, Status::Word("SUCCESS")),
            TaskState::Succeeded
        );
        assert_eq!(
            seen(TaskFamily::Wav, Status::Word("GENERATE_WAV_FAILED")),
            TaskState::Failed
        );
        assert_eq!(seen(TaskFamily::Video, Status::Absent), TaskState::Pending);
        assert_eq!(
            seen(TaskFamily::Midi, Status::Number(1.0)),
            TaskState::Succeeded
        );
        assert_eq!(seen(TaskFamily::Midi, Status::Word("2")), TaskState::Failed);
        assert_eq!(
            seen(TaskFamily::Recovery, Status::Number(201.0)),
            TaskState::Running
        );
        assert_eq!(
            seen(TaskFamily::Recovery, Status::Absent),
            TaskState::Failed
        );
        assert_eq!(
            seen(TaskFamily::VoiceValidation, Status::Word("wait_validating")),
            TaskState::Succeeded
        );
        assert_eq!(seen(TaskFamily::Voice, Status::Absent), TaskState::Pending);
    }

    #[test]
    fn families_map_to_their_queries_and_names() {
        assert_eq!(TaskFamily::Video.query(), Op::GetVideo);
        assert_eq!(Op::GetRecovery.queries(), Some(TaskFamily::Recovery));
        assert_eq!(Op::Generate.queries(), None);
        assert_eq!(
            TaskFamily::from_name("vocal_separation"),
            Some(TaskFamily::VocalSeparation)
        );
        assert_eq!(TaskFamily::Cover.status_field(), "successFlag");
        assert_eq!(
            TaskFamily::Video.generation_failed(),
            status::GENERATE_MP4_FAILED
        );
    }
}
