//! Tasks of every family: their timeline (one phase per stage delay, computed from the clock, so a
//! restarted emulator resumes where the timeline stands), their creation and their registry.

pub mod driver;

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, MutexGuard};

use axum::response::Response;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use tunesmith_protocol::waiter::TaskKind;
use tunesmith_protocol::wire::TaskCreated;
use tunesmith_protocol::{ErrorKind, Family, Op};

use crate::envelope::{ok, ApiError};
use crate::gate::Caller;
use crate::store::{self, fnv, Dirs};
use crate::AppState;

pub const TEXT: &str = "TEXT_SUCCESS";
pub const FIRST: &str = "FIRST_SUCCESS";
pub const SUCCESS: &str = "SUCCESS";
pub const PENDING: &str = "PENDING";
/// Cover tasks only: successFlag 2.
pub const GENERATING: &str = "GENERATING";

const DAY_MS: i64 = 24 * 3600 * 1000;

#[derive(Serialize, Deserialize, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Music,
    Cover,
    Wav,
    Lyrics,
    Vocal,
    Video,
}

impl Kind {
    /// The kind of task `op` creates, by the protocol's table (the client's waiters read the same).
    pub fn of(op: Op) -> Option<Kind> {
        Some(match TaskKind::created_by(op)? {
            TaskKind::Music => Kind::Music,
            TaskKind::Cover => Kind::Cover,
            TaskKind::Wav => Kind::Wav,
            TaskKind::Lyrics => Kind::Lyrics,
            TaskKind::VocalSeparation => Kind::Vocal,
            TaskKind::Video => Kind::Video,
        })
    }

    /// The status a plain `emulate:failed` ends in.
    fn failure_word(self) -> &'static str {
        match self {
            Kind::Music | Kind::Vocal => "GENERATE_AUDIO_FAILED",
            Kind::Cover => "FAILED",
            Kind::Wav => "GENERATE_WAV_FAILED",
            Kind::Lyrics => "GENERATE_LYRICS_FAILED",
            Kind::Video => "GENERATE_MP4_FAILED",
        }
    }
}

/// Credits an operation costs (documented in `--help` and /openapi.json).
pub fn cost(op: Op, param: &Map<String, Value>) -> i64 {
    match op {
        Op::Generate
        | Op::Extend
        | Op::UploadCover
        | Op::UploadExtend
        | Op::AddInstrumental
        | Op::AddVocals => 10,
        Op::SeparateVocals if param.get("type").and_then(Value::as_str) == Some("split_stem") => 10,
        Op::SeparateVocals | Op::GenerateVideo => 5,
        Op::GenerateCover | Op::ConvertToWav => 2,
        Op::GenerateLyrics | Op::BoostStyle => 1,
        _ => 0,
    }
}

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

/// Where callback delivery stands: the next phase to deliver and the run of failures.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
pub struct Delivery {
    pub next: usize,
    pub failures: u32,
    pub stopped: bool,
}

#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct Task {
    pub id: String,
    pub kind: Kind,
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
    /// Music: the generated tracks. Other families: empty.
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
}

pub fn is_failure(label: &str) -> bool {
    label.ends_with("FAILED") || label.ends_with("ERROR") || label.ends_with("EXCEPTION")
}

/// Envelope code and message of a failure status, as callbacks and records carry them.
pub fn failure_of(label: &str) -> (i64, String) {
    match label {
        "SENSITIVE_WORD_ERROR" => (
            400,
            "Content violation: the request contains sensitive words".into(),
        ),
        "CALLBACK_EXCEPTION" => (500, "Callback exception".into()),
        "CREATE_TASK_FAILED" => (500, "Task creation failed".into()),
        other => (500, format!("Generation failed ({other}); retry later")),
    }
}

/// Envelope code and message of the callback of phase `label`: the failure's, else 200 and `success`.
pub fn callback_status(label: &str, success: &str) -> (i64, String) {
    if is_failure(label) {
        failure_of(label)
    } else {
        (200, success.to_owned())
    }
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

    pub fn due_ms(&self, phase: usize) -> i64 {
        self.created_ms + (phase as i64 + 1) * self.delay_ms as i64
    }

    pub fn done_ms(&self) -> i64 {
        self.created_ms + self.phases.len() as i64 * self.delay_ms as i64
    }

    pub fn is_done(&self, now: i64) -> bool {
        self.reached(now) == self.phases.len()
    }

    pub fn outcome(&self, now: i64) -> Outcome {
        let status = self.status(now).to_owned();
        let (error_code, error_message) = if is_failure(&status) {
            let (code, msg) = failure_of(&status);
            (Some(code), Some(msg))
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
            (Kind::Wav, _) | (_, Some(Op::Extend | Op::UploadExtend)) => 15 * DAY_MS,
            _ => 14 * DAY_MS,
        }
    }

    pub fn expired(&self, now: i64) -> bool {
        self.is_done(now) && now >= self.done_ms() + self.retention_ms()
    }

    /// Music tasks call back at every phase; the other families only at the end.
    pub fn calls_back_at(&self, phase: usize) -> bool {
        self.kind == Kind::Music || phase + 1 == self.phases.len()
    }
}

/// The token of `emulate:TOKEN` in title, prompt or content, else in any other string field.
pub fn emulate_token(param: &Map<String, Value>) -> Option<String> {
    let find = |s: &str| {
        let at = s.find("emulate:")?;
        let token: String = s[at + 8..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
            .collect();
        (!token.is_empty()).then_some(token)
    };
    let preferred = ["title", "prompt", "content"];
    preferred
        .iter()
        .filter_map(|k| param.get(*k).and_then(Value::as_str))
        .chain(
            param
                .iter()
                .filter(|(k, _)| !preferred.contains(&k.as_str()))
                .filter_map(|(_, v)| v.as_str()),
        )
        .find_map(find)
}

/// The phases a task goes through, given its `emulate:` token.
pub fn plan(kind: Kind, token: Option<&str>) -> Vec<String> {
    let token = token.map(str::to_ascii_uppercase);
    let skip = token.as_deref() == Some("SKIP-STAGES");
    let failure = match token.as_deref() {
        Some("FAILED") => Some(kind.failure_word().to_owned()),
        Some(t) if is_failure(t) => Some(t.to_owned()),
        _ => None,
    };
    let v = |xs: &[&str]| xs.iter().map(|s| (*s).to_owned()).collect();
    match (kind, failure) {
        (Kind::Music, None) if skip => v(&[SUCCESS]),
        (Kind::Music, None) => v(&[TEXT, FIRST, SUCCESS]),
        (Kind::Music, Some(f)) => match f.as_str() {
            "SENSITIVE_WORD_ERROR" | "CREATE_TASK_FAILED" => vec![f],
            "CALLBACK_EXCEPTION" => vec![TEXT.into(), FIRST.into(), f],
            _ => vec![TEXT.into(), f],
        },
        (Kind::Cover, None) if skip => v(&[SUCCESS]),
        (Kind::Cover, None) => v(&[GENERATING, SUCCESS]),
        (Kind::Cover, Some(_)) => v(&[GENERATING, "FAILED"]),
        (_, None) => v(&[SUCCESS]),
        (_, Some(f)) => vec![f],
    }
}

#[derive(Default)]
struct Inner {
    tasks: HashMap<String, Arc<Task>>,
    /// audioId → (music task id, track index).
    audio: HashMap<String, (String, usize)>,
    /// Results that exist at most once: `cover:{taskId}`, `wav:{audioId}`.
    claims: HashSet<String>,
}

impl Inner {
    fn index(&mut self, task: &Arc<Task>) {
        for (i, t) in task.tracks.iter().enumerate() {
            self.audio.insert(t.id.clone(), (task.id.clone(), i));
        }
        if let Some(claim) = claim_of(task) {
            self.claims.insert(claim);
        }
        self.tasks.insert(task.id.clone(), task.clone());
    }
}

/// The key under which a second request for the same result is refused with 409.
pub fn claim_of(task: &Task) -> Option<String> {
    match task.kind {
        Kind::Cover => task.parent_task.as_ref().map(|t| format!("cover:{t}")),
        Kind::Wav => task.parent_audio.as_ref().map(|a| format!("wav:{a}")),
        _ => None,
    }
}

/// Every task, in memory and on disk (`tasks/{id}.json`).
pub struct Tasks {
    dirs: Dirs,
    inner: Mutex<Inner>,
}

impl Tasks {
    pub fn load(dirs: &Dirs) -> std::io::Result<Tasks> {
        let mut inner = Inner::default();
        for (_, task) in store::read_all::<Task>(&dirs.tasks)? {
            inner.index(&Arc::new(task));
        }
        Ok(Tasks {
            dirs: dirs.clone(),
            inner: Mutex::new(inner),
        })
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn get(&self, id: &str) -> Option<Arc<Task>> {
        self.lock().tasks.get(id).cloned()
    }

    /// The music task holding track `audio_id`, and the track's index.
    pub fn find_audio(&self, audio_id: &str) -> Option<(Arc<Task>, usize)> {
        let inner = self.lock();
        let (task_id, i) = inner.audio.get(audio_id)?;
        Some((inner.tasks.get(task_id)?.clone(), *i))
    }

    pub fn is_claimed(&self, claim: &str) -> bool {
        self.lock().claims.contains(claim)
    }

    /// Ids of tasks that still have callbacks to deliver.
    pub fn undelivered(&self) -> Vec<String> {
        self.lock()
            .tasks
            .values()
            .filter(|t| {
                t.callback_url.is_some() && !t.delivery.stopped && t.delivery.next < t.phases.len()
            })
            .map(|t| t.id.clone())
            .collect()
    }

    fn path(&self, id: &str) -> std::path::PathBuf {
        self.dirs.tasks.join(format!("{id}.json"))
    }

    /// Records a new task (disk first); `Ok(false)` when its claim is already taken.
    pub fn insert(&self, task: Task) -> std::io::Result<bool> {
        let mut inner = self.lock();
        if claim_of(&task).is_some_and(|c| inner.claims.contains(&c)) {
            return Ok(false);
        }
        self.dirs.write_json(&self.path(&task.id), &task)?;
        inner.index(&Arc::new(task));
        Ok(true)
    }

    pub fn set_delivery(&self, id: &str, delivery: Delivery) -> std::io::Result<()> {
        let mut inner = self.lock();
        let Some(old) = inner.tasks.get(id) else {
            return Ok(());
        };
        let mut task = (**old).clone();
        task.delivery = delivery;
        self.dirs.write_json(&self.path(id), &task)?;
        inner.tasks.insert(id.to_owned(), Arc::new(task));
        Ok(())
    }
}

/// A new task of `caller.op` for `param`: id, timeline and seed set; family fields left to the handler.
/// An operation that makes no task is 404 in its family.
pub fn draft(app: &AppState, caller: &Caller, param: Map<String, Value>) -> Result<Task, ApiError> {
    let kind = Kind::of(caller.op)
        .ok_or_else(|| ApiError::not_found(caller.op.endpoint().family, "Not a task operation"))?;
    let token = emulate_token(&param);
    let name = caller.op.endpoint().name;
    let canonical = serde_json::to_vec(&param).unwrap_or_default();
    let seed = fnv(&[
        name.as_bytes(),
        &canonical,
        &app.config.seed.unwrap_or(0).to_le_bytes(),
    ]);
    Ok(Task {
        id: app.random_id(),
        kind,
        op: name.to_owned(),
        callback_url: param
            .get("callBackUrl")
            .and_then(Value::as_str)
            .map(str::to_owned),
        model: param
            .get("model")
            .and_then(Value::as_str)
            .unwrap_or(tunesmith_protocol::endpoints::DEFAULT_MODEL)
            .to_owned(),
        param,
        created_ms: app.clock.now_ms(),
        delay_ms: app.config.stage_delay_ms,
        phases: plan(kind, token.as_deref()),
        seed,
        tracks: Vec::new(),
        parent_task: None,
        parent_audio: None,
        music_index: 0,
        tag: caller.tag.clone(),
        delivery: Delivery::default(),
    })
}

/// Charges the caller, records the task and starts its callbacks: `{code: 200, data: {taskId}}`.
pub fn create(app: &AppState, caller: &Caller, task: Task) -> Result<Response, ApiError> {
    let family = caller.op.endpoint().family;
    if claim_of(&task).is_some_and(|c| app.tasks.is_claimed(&c)) {
        return Err(conflict(family));
    }
    let cost = cost(caller.op, &task.param);
    match app.credits.charge(&caller.key, cost) {
        Ok(true) => {}
        Ok(false) => {
            return Err(ApiError::kind(
                family,
                ErrorKind::InsufficientCredits,
                format!(
                    "Insufficient credits: this call costs {cost}, the key has {}",
                    app.credits.balance(&caller.key)
                ),
            ))
        }
        Err(e) => return Err(server_error(family, &e)),
    }
    let id = task.id.clone();
    let calls_back = task.callback_url.is_some();
    match app.tasks.insert(task) {
        Ok(true) => {}
        Ok(false) => {
            app.credits.refund(&caller.key, cost);
            return Err(conflict(family));
        }
        Err(e) => {
            app.credits.refund(&caller.key, cost);
            return Err(server_error(family, &e));
        }
    }
    app.log.task_created(caller.tag.as_deref());
    if calls_back {
        driver::spawn(app.clone(), id.clone());
    }
    Ok(ok(TaskCreated { task_id: id }))
}

fn conflict(family: Family) -> ApiError {
    ApiError::kind(
        family,
        ErrorKind::Conflict,
        "Conflict: the record already exists; query it instead",
    )
}

pub fn server_error(family: Family, e: &dyn std::fmt::Display) -> ApiError {
    eprintln!("server error: {e}");
    ApiError::kind(
        family,
        ErrorKind::Server,
        "Server error: could not store the record",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_pick_the_plan() {
        let m = |pairs: &[(&str, &str)]| {
            pairs
                .iter()
                .map(|(k, v)| ((*k).to_owned(), Value::String((*v).to_owned())))
                .collect::<Map<_, _>>()
        };
        assert_eq!(
            emulate_token(&m(&[("title", "x emulate:SENSITIVE_WORD_ERROR y")])).as_deref(),
            Some("SENSITIVE_WORD_ERROR")
        );
        assert_eq!(
            emulate_token(&m(&[("callBackUrl", "http://h/cb?emulate:failed")])).as_deref(),
            Some("failed")
        );
        assert_eq!(emulate_token(&m(&[("title", "plain")])), None);
        assert_eq!(plan(Kind::Music, None), [TEXT, FIRST, SUCCESS]);
        assert_eq!(plan(Kind::Music, Some("skip-stages")), [SUCCESS]);
        assert_eq!(
            plan(Kind::Music, Some("SENSITIVE_WORD_ERROR")),
            ["SENSITIVE_WORD_ERROR"]
        );
        assert_eq!(
            plan(Kind::Music, Some("failed")),
            [TEXT, "GENERATE_AUDIO_FAILED"]
        );
        assert_eq!(plan(Kind::Cover, Some("failed")), [GENERATING, "FAILED"]);
        assert_eq!(plan(Kind::Wav, Some("failed")), ["GENERATE_WAV_FAILED"]);
        assert_eq!(plan(Kind::Lyrics, None), [SUCCESS]);
    }
}
