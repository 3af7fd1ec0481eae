//! Waiters: poll a task until it ends. The decisions (progress, sleeps, the deadline) are
//! `tunesmith_protocol::waiter`'s; this module only queries, sleeps and reports.

use super::client::Client;
use super::envelope;
use super::error::Error;
use super::retries::Policy;
use super::transport;
use serde::de::DeserializeOwned;
use tunesmith_protocol::codes::ErrorKind;
use tunesmith_protocol::rules::RuleKind;
use tunesmith_protocol::schedule::{PollSchedule, DEFAULT_WAIT_TIMEOUT_MS};
use tunesmith_protocol::state::{self, Stage, TaskState};
use tunesmith_protocol::waiter::{Next, Outcome, Waiter};
use tunesmith_protocol::{Observed, TaskFamily};
use tunesmith_protocol::wire::{
    CoverRecord, LyricsRecord, MidiRecord, MusicRecord, RecoveryEnvelope, VideoRecord, VocalRecord,
    VoiceRecord, VoiceValidationRecord, WavRecord,
};

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

/// The status record of a task family: how its own status encoding reads as a [`TaskState`].
pub trait TaskRecord: DeserializeOwned {
    /// The family, hence the status query the waiter sends.
    const KIND: TaskFamily;
    /// The family's own status, as the service wrote it.
    fn status(&self) -> String;
    /// The normalized state and, for music tasks, the stage (`Stage::Pending` for the others).
    fn observed(&self) -> (TaskState, Stage);
    fn error_code(&self) -> Option<i64>;
    fn error_message(&self) -> Option<&str>;

    fn state(&self) -> TaskState {
        self.observed().0
    }
}

impl TaskRecord for MusicRecord {
    const KIND: TaskFamily = TaskFamily::Music;
    fn status(&self) -> String {
        self.status.clone()
    }
    fn observed(&self) -> (TaskState, Stage) {
        state::from_status(&self.status)
    }
    fn error_code(&self) -> Option<i64> {
        self.error_code
    }
    fn error_message(&self) -> Option<&str> {
        self.error_message.as_deref()
    }
}

impl TaskRecord for LyricsRecord {
    const KIND: TaskFamily = TaskFamily::Lyrics;
    fn status(&self) -> String {
        self.status.clone()
    }
    fn observed(&self) -> (TaskState, Stage) {
        (state::from_status(&self.status).0, Stage::Pending)
    }
    fn error_code(&self) -> Option<i64> {
        self.error_code
    }
    fn error_message(&self) -> Option<&str> {
        self.error_message.as_deref()
    }
}

impl TaskRecord for CoverRecord {
    const KIND: TaskFamily = TaskFamily::Cover;
    fn status(&self) -> String {
        self.success_flag.to_string()
    }
    fn observed(&self) -> (TaskState, Stage) {
        (state::from_cover_flag(self.success_flag), Stage::Pending)
    }
    fn error_code(&self) -> Option<i64> {
        self.error_code
    }
    fn error_message(&self) -> Option<&str> {
        Some(self.error_message.as_str())
    }
}

/// WAV, vocal separation and video share the string `successFlag` (PENDING, SUCCESS, ..._FAILED).
macro_rules! string_flag_record {
    ($($record:ty => $kind:expr),* $(,)?) => {$(
        impl TaskRecord for $record {
            const KIND: TaskFamily = $kind;
            fn status(&self) -> String {
                self.success_flag.clone()
            }
            fn observed(&self) -> (TaskState, Stage) {
                (state::from_string_flag(&self.success_flag), Stage::Pending)
            }
            fn error_code(&self) -> Option<i64> {
                self.error_code
            }
            fn error_message(&self) -> Option<&str> {
                self.error_message.as_deref()
            }
        }
    )*};
}

string_flag_record! {
    WavRecord => TaskFamily::Wav,
    VocalRecord => TaskFamily::VocalSeparation,
    VideoRecord => TaskFamily::Video,
}

impl TaskRecord for MidiRecord {
    const KIND: TaskFamily = TaskFamily::Midi;
    fn status(&self) -> String {
        self.success_flag.to_string()
    }
    fn observed(&self) -> (TaskState, Stage) {
        (state::from_midi_flag(self.success_flag), Stage::Pending)
    }
    fn error_code(&self) -> Option<i64> {
        self.error_code
            .as_deref()
            .and_then(tunesmith_protocol::num::parse_int)
    }
    fn error_message(&self) -> Option<&str> {
        self.error_message.as_deref()
    }
}

impl TaskRecord for RecoveryEnvelope {
    const KIND: TaskFamily = TaskFamily::Recovery;
    fn status(&self) -> String {
        self.code.to_string()
    }
    fn observed(&self) -> (TaskState, Stage) {
        (state::from_recovery_code(self.code), Stage::Pending)
    }
    fn error_code(&self) -> Option<i64> {
        (self.code != tunesmith_protocol::status::RECOVERY_DONE
            && self.code != tunesmith_protocol::status::RECOVERY_RUNNING)
            .then_some(self.code)
    }
    fn error_message(&self) -> Option<&str> {
        Some(self.msg.as_str())
    }
}

/// Voice validations and voices share the lower-case `status`.
macro_rules! voice_record {
    ($($record:ty => $kind:expr),* $(,)?) => {$(
        impl TaskRecord for $record {
            const KIND: TaskFamily = $kind;
            fn status(&self) -> String {
                self.status.clone()
            }
            fn observed(&self) -> (TaskState, Stage) {
                (state::from_voice_status(&self.status), Stage::Pending)
            }
            fn error_code(&self) -> Option<i64> {
                self.error_code
            }
            fn error_message(&self) -> Option<&str> {
                self.error_message.as_deref()
            }
        }
    )*};
}

voice_record! {
    VoiceValidationRecord => TaskFamily::VoiceValidation,
    VoiceRecord => TaskFamily::Voice,
}

impl Client {
    /// Polls the task until it ends; calls `on_progress` with each record that shows progress
    /// (each music stage once, in order; each state once for the other families). Resolves with
    /// the final record, or fails with [`Error::TaskFailed`] or [`Error::Timeout`]. Transient
    /// failures (network, 500, rate limits, maintenance) do not end the wait: the schedule slows
    /// down and polls again. Dropping the future stops polling and aborts the query in flight.
    pub async fn wait_for<R: TaskRecord>(
        &self,
        task_id: &str,
        options: WaitOptions,
        mut on_progress: impl FnMut(&R),
    ) -> Result<R, Error> {
        if task_id.trim().is_empty() {
            return Err(Error::Validation {
                field: "taskId".to_owned(),
                rule: RuleKind::Required,
                message: "a waiter takes the task id: a non-empty string".to_owned(),
            });
        }
        let kind = R::KIND;
        let op = kind.query();
        let schedule = PollSchedule::new(options.min_interval_ms, options.max_interval_ms);
        let mut waiter = Waiter::new(kind, schedule, options.timeout_ms);
        let started = js_sys::Date::now();
        let elapsed = || (js_sys::Date::now() - started).max(0.0) as u64;
        // `taskId`, or recovery's `task_id`: the family's query names the task its own way.
        let mut query = serde_json::Map::new();
        query.insert(kind.query_field().to_owned(), task_id.into());
        let mut last_failure: Option<Error> = None;
        let mut last_state = "unknown";
        loop {
            let now = elapsed();
            if !waiter.may_query(now) {
                return Err(timed_out(&waiter, task_id, last_state, last_failure));
            }
            // Retries are the schedule's job (one clock, one deadline, a rate limit slows it
            // down), so each query makes one attempt, cut short at the deadline.
            let policy = Policy {
                max_retries: 0,
                timeout_ms: waiter.attempt_timeout_ms(now, u64::from(self.config.timeout_ms))
                    as u32,
            };
            let answer = match self.execute(op, &query, policy).await {
                Ok(data) => envelope::decode::<R>(op, data),
                Err(e) => Err(e),
            };
            let (outcome, record) = match answer {
                Ok(record) => {
                    let (state, stage) = record.observed();
                    last_state = state.as_str();
                    (Outcome::Record(Observed { state, stage }), Some(record))
                }
                Err(e) if e.retryable() => {
                    let outcome = Outcome::Transient {
                        rate_limited: e.api_kind() == Some(ErrorKind::RateLimited),
                        retry_after_ms: e.retry_after_ms(),
                    };
                    last_failure = Some(e);
                    (outcome, None)
                }
                // Unauthorized, not found, invalid, an answer of the wrong shape: waiting
                // longer cannot help.
                Err(e) => return Err(e),
            };
            let step = waiter.on_outcome(outcome, elapsed(), js_sys::Math::random());
            if step.report {
                if let Some(record) = &record {
                    on_progress(record);
                }
            }
            match (step.next, record) {
                (Next::Succeeded, Some(record)) => return Ok(record),
                (Next::Failed, Some(record)) => return Err(task_failed(task_id, &record)),
                (Next::Sleep(ms), _) => transport::sleep(ms).await,
                _ => return Err(timed_out(&waiter, task_id, last_state, last_failure)),
            }
        }
    }

    /// Waits for a music task (generate, extend, covers and extensions of uploads, add-*).
    pub async fn wait_for_task(
        &self,
        task_id: &str,
        options: WaitOptions,
    ) -> Result<MusicRecord, Error> {
        self.wait_for(task_id, options, |_: &MusicRecord| {}).await
    }

    /// Waits for a MIDI task.
    pub async fn wait_for_midi(
        &self,
        task_id: &str,
        options: WaitOptions,
    ) -> Result<MidiRecord, Error> {
        self.wait_for(task_id, options, |_: &MidiRecord| {}).await
    }

    /// Waits for an audio recovery.
    pub async fn wait_for_recovery(
        &self,
        task_id: &str,
        options: WaitOptions,
    ) -> Result<RecoveryEnvelope, Error> {
        self.wait_for(task_id, options, |_: &RecoveryEnvelope| {})
            .await
    }

    /// Waits for a voice validation's phrase.
    pub async fn wait_for_voice_validation(
        &self,
        task_id: &str,
        options: WaitOptions,
    ) -> Result<VoiceValidationRecord, Error> {
        self.wait_for(task_id, options, |_: &VoiceValidationRecord| {})
            .await
    }

    /// Waits for a custom voice.
    pub async fn wait_for_voice(
        &self,
        task_id: &str,
        options: WaitOptions,
    ) -> Result<VoiceRecord, Error> {
        self.wait_for(task_id, options, |_: &VoiceRecord| {}).await
    }

    /// Waits for a cover task.
    pub async fn wait_for_cover(
        &self,
        task_id: &str,
        options: WaitOptions,
    ) -> Result<CoverRecord, Error> {
        self.wait_for(task_id, options, |_: &CoverRecord| {}).await
    }

    /// Waits for a WAV conversion.
    pub async fn wait_for_wav(
        &self,
        task_id: &str,
        options: WaitOptions,
    ) -> Result<WavRecord, Error> {
        self.wait_for(task_id, options, |_: &WavRecord| {}).await
    }

    /// Waits for a lyrics task.
    pub async fn wait_for_lyrics(
        &self,
        task_id: &str,
        options: WaitOptions,
    ) -> Result<LyricsRecord, Error> {
        self.wait_for(task_id, options, |_: &LyricsRecord| {}).await
    }

    /// Waits for a vocal separation.
    pub async fn wait_for_vocal_separation(
        &self,
        task_id: &str,
        options: WaitOptions,
    ) -> Result<VocalRecord, Error> {
        self.wait_for(task_id, options, |_: &VocalRecord| {}).await
    }

    /// Waits for a music video.
    pub async fn wait_for_video(
        &self,
        task_id: &str,
        options: WaitOptions,
    ) -> Result<VideoRecord, Error> {
        self.wait_for(task_id, options, |_: &VideoRecord| {}).await
    }
}

fn task_failed<R: TaskRecord>(task_id: &str, record: &R) -> Error {
    let status = record.status();
    let error_message = record
        .error_message()
        .filter(|m| !m.is_empty())
        .map(str::to_owned);
    let detail = error_message
        .as_deref()
        .map(|m| format!(": {m}"))
        .unwrap_or_default();
    Error::TaskFailed {
        task_id: task_id.to_owned(),
        message: format!("task {task_id} failed with status {status}{detail}"),
        task_status: status,
        error_code: record.error_code(),
        error_message,
    }
}

fn timed_out(
    waiter: &Waiter,
    task_id: &str,
    last_state: &str,
    last_failure: Option<Error>,
) -> Error {
    let cause = last_failure
        .map(|e| format!("; last failure: {e}"))
        .unwrap_or_default();
    Error::Timeout {
        retryable: false,
        attempts: waiter.queries(),
        message: format!(
            "{} task {task_id} did not finish within {} ms ({} queries; last state: {last_state}){cause}",
            waiter.family().as_str(),
            waiter.timeout_ms(),
            waiter.queries(),
        ),
    }
}
