//! A task and its timeline: one phase per stage delay, computed from `now`, so a restarted
//! emulator resumes where the timeline stands.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use tunesmith_protocol::status::{self, Failure, PENDING};
use tunesmith_protocol::Op;
use tunesmith_protocol::TaskFamily;

use super::delivery::{Delivery, Timeline};

const DAY_MS: i64 = 24 * 3600 * 1000;

/// A generated track: everything needed to describe it and to synthesize its audio again.
#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct TrackSpec {
    pub id: String,
    pub seconds: f64,
    pub seed: u64,
    pub title: String,
    pub tags: String,
    pub prompt: String,
}

#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct Task {
    pub id: String,
    #[serde(with = "kind_name")]
    pub kind: TaskFamily,
    /// The operation's name (`generate`, `generateCover`, ...).
    pub op: String,
    /// The request body as received.
    pub param: Map<String, Value>,
    pub created_ms: i64,
    pub delay_ms: u64,
    /// Status labels after PENDING, one per stage delay; the last is final.
    pub phases: Vec<String>,
    pub seed: u64,
    pub callback_url: Option<String>,
    pub model: String,
    /// Music: the generated tracks. Vocal separation, MIDI and recovery: copies of the tracks
    /// they work on (not indexed as tracks of theirs). Other families: empty.
    #[serde(default)]
    pub tracks: Vec<TrackSpec>,
    /// The music task and track this task works on (extend, cover, WAV, separation, video).
    #[serde(default)]
    pub parent_task: Option<String>,
    #[serde(default)]
    pub parent_audio: Option<String>,
    #[serde(default)]
    pub music_index: i64,
    #[serde(default)]
    pub tag: Option<String>,
    #[serde(default)]
    pub delivery: Delivery,
    /// Why the task fails when its failure is not the status word's own (an unsupported source).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<Failure>,
    /// MIDI: the names of the separated stems it transcribes, fixed at creation.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stems: Vec<String>,
}

/// A task's status at a moment, with the error code and message its record carries (null unless
/// the status is a failure).
pub struct Outcome {
    pub status: String,
    pub error_code: Option<i64>,
    pub error_message: Option<String>,
}

impl Task {
    pub fn op(&self) -> Option<Op> {
        Op::ALL.into_iter().find(|o| o.endpoint().name == self.op)
    }

    /// How many phases have been reached at `now`.
    pub fn reached(&self, now: i64) -> usize {
        if self.delay_ms == 0 {
            return self.phases.len();
        }
        (((now - self.created_ms).max(0) as u64 / self.delay_ms) as usize).min(self.phases.len())
    }

    pub fn status(&self, now: i64) -> &str {
        match self.reached(now) {
            0 => PENDING,
            k => &self.phases[k - 1],
        }
    }

    pub fn done_ms(&self) -> i64 {
        self.created_ms + self.phases.len() as i64 * self.delay_ms as i64
    }

    pub fn is_done(&self, now: i64) -> bool {
        self.reached(now) == self.phases.len()
    }

    /// Ends the task at its first stage in status `word`, for `failure`.
    pub fn fail_at_once(&mut self, word: &str, failure: Failure) {
        self.phases = vec![word.to_owned()];
        self.failure = Some(failure);
    }

    /// The code and message a failure phase reports: the task's own reason, else the status word's.
    pub fn failure_of(&self, label: &str) -> Failure {
        match &self.failure {
            Some(f) => f.clone(),
            None => Failure::of_status(label),
        }
    }

    /// Envelope code and message of the callback of phase `label`: the failure's, else 200 and `success`.
    pub fn callback_status(&self, label: &str, success: &str) -> (i64, String) {
        if status::is_failure(label) {
            let f = self.failure_of(label);
            (f.code, f.message)
        } else {
            (tunesmith_protocol::codes::OK, success.to_owned())
        }
    }

    pub fn outcome(&self, now: i64) -> Outcome {
        let status = self.status(now).to_owned();
        let (error_code, error_message) = if status::is_failure(&status) {
            let f = self.failure_of(&status);
            (Some(f.code), Some(f.message))
        } else {
            (None, None)
        };
        Outcome {
            status,
            error_code,
            error_message,
        }
    }

    /// Whether `label` has been reached by `now` (e.g. FIRST_SUCCESS).
    pub fn has_reached(&self, now: i64, label: &str) -> bool {
        self.phases[..self.reached(now)].iter().any(|p| p == label)
    }

    /// Results are kept 15 days for extensions and WAV files, 14 days for everything else.
    pub fn retention_ms(&self) -> i64 {
        match (self.kind, self.op()) {
            (TaskFamily::Wav, _) | (_, Some(Op::Extend | Op::UploadExtend)) => 15 * DAY_MS,
            _ => 14 * DAY_MS,
        }
    }

    pub fn expired(&self, now: i64) -> bool {
        self.is_done(now) && now >= self.done_ms() + self.retention_ms()
    }
}

impl Timeline for Task {
    fn phase_count(&self) -> usize {
        self.phases.len()
    }

    fn due_ms(&self, phase: usize) -> i64 {
        self.created_ms + (phase as i64 + 1) * self.delay_ms as i64
    }

    /// Music tasks call back at every phase; the other families only at the end.
    fn calls_back_at(&self, phase: usize) -> bool {
        self.kind == TaskFamily::Music || phase + 1 == self.phases.len()
    }

    fn has_receiver(&self) -> bool {
        self.callback_url.is_some()
    }
}

/// The kind as records on disk name it: the protocol's names, and `vocal` as older records wrote it.
mod kind_name {
    use serde::{Deserialize, Deserializer, Serializer};
    use tunesmith_protocol::TaskFamily;

    pub fn serialize<S: Serializer>(kind: &TaskFamily, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(kind.as_str())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<TaskFamily, D::Error> {
        let name = String::deserialize(d)?;
        match name.as_str() {
            "vocal" => Some(TaskFamily::VocalSeparation),
            other => TaskFamily::from_name(other),
        }
        .ok_or_else(|| serde::de::Error::custom(format!("unknown task kind `{name}`")))
    }
}
