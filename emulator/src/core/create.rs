//! A new task: its draft (id, timeline, seed, plan) from the request, then the charge and the
//! record that make it exist. Starting its callbacks is the caller's business.

use serde_json::{Map, Value};
use tunesmith_protocol::Op;

use super::cost::cost;
use super::credits::Credits;
use super::delivery::Delivery;
use super::error::CoreError;
use super::plan::{emulate_token, plan};
use super::registry::{claim_of, Tasks};
use super::store::fnv;
use super::task::Task;

/// What a draft takes from outside the request: the id, the clock and the settings.
pub struct Context<'a> {
    pub id: String,
    pub now_ms: i64,
    pub stage_delay_ms: u64,
    /// `--seed` (0 without): the same request gives the same media under the same seed.
    pub seed: u64,
    pub tag: Option<&'a str>,
}

/// A new task of `op` for `param`: id, timeline and seed set; family fields left to the caller.
pub fn draft(op: Op, param: Map<String, Value>, cx: Context<'_>) -> Result<Task, CoreError> {
    let kind = op.creates().ok_or(CoreError::NotATaskOperation)?;
    let token = emulate_token(&param);
    let name = op.endpoint().name;
    let canonical = serde_json::to_vec(&param).unwrap_or_default();
    let seed = fnv(&[name.as_bytes(), &canonical, &cx.seed.to_le_bytes()]);
    Ok(Task {
        id: cx.id,
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
        created_ms: cx.now_ms,
        delay_ms: cx.stage_delay_ms,
        phases: plan(kind, token.as_deref()),
        seed,
        tracks: Vec::new(),
        parent_task: None,
        parent_audio: None,
        music_index: 0,
        tag: cx.tag.map(str::to_owned),
        delivery: Delivery::default(),
        failure: None,
        stems: Vec::new(),
    })
}

/// Charges `key` what `op` costs and takes `credits`' word for it; the error when it cannot.
pub fn charge(
    credits: &Credits,
    key: &str,
    op: Op,
    param: &Map<String, Value>,
) -> Result<i64, CoreError> {
    let cost = cost(op, param);
    if credits.charge(key, cost)? {
        Ok(cost)
    } else {
        Err(CoreError::InsufficientCredits {
            cost,
            balance: credits.balance(key),
        })
    }
}

/// Charges the caller and records the task (refunding if it cannot be recorded); its id.
pub fn create(
    tasks: &Tasks,
    credits: &Credits,
    key: &str,
    op: Op,
    task: Task,
) -> Result<String, CoreError> {
    if claim_of(&task).is_some_and(|c| tasks.is_claimed(&c)) {
        return Err(CoreError::Conflict);
    }
    let cost = charge(credits, key, op, &task.param)?;
    let id = task.id.clone();
    match tasks.insert(task) {
        Ok(true) => Ok(id),
        Ok(false) => {
            credits.refund(key, cost);
            Err(CoreError::Conflict)
        }
        Err(e) => {
            credits.refund(key, cost);
            Err(CoreError::Storage(e))
        }
    }
}
