//! The Rust face's waiters: each record type says which task family it is and where its status
//! is; the driver's polling loop (`driver::Poll`) does the waiting, the same as for JavaScript.

use super::client::{decode, Client};
use crate::driver::{text_of, Poll};
use crate::errors::Error;
use crate::js::get;
use serde::de::DeserializeOwned;
use tunesmith_protocol::rules::RuleKind;
use tunesmith_protocol::schedule::{PollSchedule, DEFAULT_WAIT_TIMEOUT_MS};
use tunesmith_protocol::state::{Observed, Status, TaskState};
use tunesmith_protocol::wire::{
    CoverRecord, LyricsRecord, MidiRecord, MusicRecord, RecoveryEnvelope, VideoRecord, VocalRecord,
    VoiceRecord, VoiceValidationRecord, WavRecord,
};
use tunesmith_protocol::TaskFamily;

/// How long and how often a waiter polls. Defaults: 10 minutes, from 1 s up to 30 s between
/// queries (`tunesmith_protocol::schedule`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WaitOptions {
    /// The overall deadline, from the first query.
    pub timeout_ms: u64,
    pub min_interval_ms: Option<u64>,
    pub max_interval_ms: Option<u64>,
}

impl Default for WaitOptions {
    fn default() -> Self {
        WaitOptions {
            timeout_ms: DEFAULT_WAIT_TIMEOUT_MS,
            min_interval_ms: None,
            max_interval_ms: None,
        }
    }
}

/// The status record of a task family: which family it is, and which of its fields holds the
/// family's own status. What that status means is `TaskFamily::observe`'s, for both faces.
pub trait TaskRecord: DeserializeOwned {
    /// The family, hence the status query the waiter sends.
    const FAMILY: TaskFamily;
    /// The family's own status field, as the service wrote it.
    fn status(&self) -> Status<'_>;

    /// The normalized state and, for music tasks, the stage (`Stage::Pending` for the others).
    fn observed(&self) -> Observed {
        Self::FAMILY.observe(self.status())
    }

    fn state(&self) -> TaskState {
        self.observed().state
    }
}

/// Each record type, its family, and its status field read as a word or a number.
macro_rules! task_records {
    ($($record:ty => $family:ident, |$r:ident| $status:expr;)*) => {$(
        impl TaskRecord for $record {
            const FAMILY: TaskFamily = TaskFamily::$family;
            fn status(&self) -> Status<'_> {
                let $r = self;
                $status
            }
        }
    )*};
}

task_records! {
    MusicRecord => Music, |r| Status::Word(&r.status);
    LyricsRecord => Lyrics, |r| Status::Word(&r.status);
    CoverRecord => Cover, |r| Status::Number(r.success_flag as f64);
    WavRecord => Wav, |r| Status::Word(&r.success_flag);
    VocalRecord => VocalSeparation, |r| Status::Word(&r.success_flag);
    VideoRecord => Video, |r| Status::Word(&r.success_flag);
    MidiRecord => Midi, |r| Status::Number(r.success_flag as f64);
    RecoveryEnvelope => Recovery, |r| Status::Number(r.code as f64);
    VoiceValidationRecord => VoiceValidation, |r| Status::Word(&r.status);
    VoiceRecord => Voice, |r| Status::Word(&r.status);
}

impl Client {
    /// Polls the task until it ends; calls `on_progress` with each record that shows progress
    /// (each music stage once, in order, a stage passed between two queries included; each state
    /// once for the other families). Resolves with the final record, or fails with a
    /// `task_failed` or `timeout` error. Transient failures (network, 500, rate limits,
    /// maintenance) do not end the wait: the schedule slows down and polls again. Dropping the
    /// future stops polling and aborts the query in flight.
    pub async fn wait_for<R: TaskRecord>(
        &self,
        task_id: &str,
        options: WaitOptions,
        mut on_progress: impl FnMut(&R),
    ) -> Result<R, Error> {
        if task_id.trim().is_empty() {
            return Err(Error::invalid(
                "taskId",
                RuleKind::Required.as_str(),
                "a waiter takes the task id: a non-empty string",
            ));
        }
        let schedule = PollSchedule::new(options.min_interval_ms, options.max_interval_ms);
        let mut poll = Poll::new(
            self.driver.clone(),
            R::FAMILY,
            task_id.to_owned(),
            options.timeout_ms,
            schedule,
            None,
        );
        loop {
            let next = poll.next().await?;
            let record: R = decode(R::FAMILY.query(), next.record)?;
            if next.report {
                on_progress(&record);
            }
            if next.done {
                return Ok(record);
            }
        }
    }
}

/// One waiter per family, from one line: its method, and the record it resolves with.
macro_rules! waiters {
    ($($(#[$doc:meta])* $name:ident -> $record:ty;)*) => {
        impl Client {
            $(
                $(#[$doc])*
                pub async fn $name(
                    &self,
                    task_id: &str,
                    options: WaitOptions,
                ) -> Result<$record, Error> {
                    self.wait_for(task_id, options, |_: &$record| {}).await
                }
            )*
        }
    };
}

waiters! {
    /// Waits for a music task (generate, extend, covers and extensions of uploads, add-*).
    wait_for_task -> MusicRecord;
    /// Waits for a MIDI task.
    wait_for_midi -> MidiRecord;
    /// Waits for an audio recovery.
    wait_for_recovery -> RecoveryEnvelope;
    /// Waits for a voice validation's phrase.
    wait_for_voice_validation -> VoiceValidationRecord;
    /// Waits for a custom voice.
    wait_for_voice -> VoiceRecord;
    /// Waits for a cover task.
    wait_for_cover -> CoverRecord;
    /// Waits for a WAV conversion.
    wait_for_wav -> WavRecord;
    /// Waits for a lyrics task.
    wait_for_lyrics -> LyricsRecord;
    /// Waits for a vocal separation.
    wait_for_vocal_separation -> VocalRecord;
    /// Waits for a music video.
    wait_for_video -> VideoRecord;
}

/// What the Rust face reads of a failed task (`task_failed`), from its last record.
impl Error {
    /// A failed task's own status, as the service wrote it (`GENERATE_AUDIO_FAILED`, `3`, ...).
    pub fn task_status(&self) -> Option<String> {
        let task = self.task.as_ref()?;
        text_of(&get(&task.record, task.family.status_field()))
    }

    /// The failed task's `errorCode` (recovery's envelope `code`).
    pub fn task_error_code(&self) -> Option<i64> {
        let task = self.task.as_ref()?;
        let code = get(&task.record, task.family.error_fields().0);
        code.as_f64()
            .map(|c| c as i64)
            .or_else(|| tunesmith_protocol::num::parse_int(&code.as_string()?))
    }

    /// Why the service says the task failed.
    pub fn task_error_message(&self) -> Option<String> {
        let task = self.task.as_ref()?;
        get(&task.record, task.family.error_fields().1).as_string()
    }
}
