//! What the task handlers share: drafting a task from a request, creating it (the core charges
//! and records it, then its callbacks start), and finding the task a query names.

use std::sync::Arc;

use axum::response::Response;
use serde_json::{Map, Value};
use tunesmith_protocol::wire::TaskCreated;
use tunesmith_protocol::Op;
use tunesmith_protocol::TaskFamily;

use super::envelope::{ok, ApiError};
use super::extract::Caller;
use crate::app::AppState;
use crate::callbacks::delivery;
use crate::core::{create, task::Task};
use crate::families::common::text;

/// A new task of the caller's operation for `param`; family fields left to the handler.
pub fn draft(app: &AppState, caller: &Caller, param: Map<String, Value>) -> Result<Task, ApiError> {
    let cx = app.draft_context(caller.tag.as_deref(), caller.stage_delay_ms);
    create::draft(caller.op, param, cx)
        .map_err(|e| ApiError::from_core(caller.op.endpoint().codes, e))
}

/// Charges the caller, records the task and starts its callbacks: `{code: 200, data: {taskId}}`.
pub fn create(app: &AppState, caller: &Caller, task: Task) -> Result<Response, ApiError> {
    let calls_back = task.callback_url.is_some();
    let id = create::create(&app.tasks, &app.credits, &caller.key, caller.op, task)
        .map_err(|e| ApiError::from_core(caller.op.endpoint().codes, e))?;
    app.log.task_created(caller.tag.as_deref());
    if calls_back {
        delivery::spawn(app.clone(), id.clone());
    }
    Ok(ok(TaskCreated { task_id: id }))
}

/// Creates a task that works on one track of a music task (WAV, vocal separation, video): the
/// track is named by `audioId`, else it is the first of `taskId`.
pub fn create_track_job(
    app: &AppState,
    caller: &Caller,
    param: Map<String, Value>,
) -> Result<Response, ApiError> {
    let table = caller.op.endpoint().codes;
    let (parent, i) = app
        .tasks
        .music_track(text(&param, "taskId"), text(&param, "audioId"), 0)
        .map_err(|e| ApiError::from_core(table, e))?;
    let mut task = draft(app, caller, param)?;
    task.parent_task = Some(parent.id.clone());
    task.parent_audio = Some(parent.tracks[i].id.clone());
    task.music_index = i as i64;
    if caller.op == Op::SeparateVocals {
        // Its stems' lengths and notes are the track's: kept with the task, so its records stay
        // pure functions of it.
        task.tracks = vec![parent.tracks[i].clone()];
    }
    create(app, caller, task)
}

/// The task a status query of `op` names, if it is of the family the query serves.
pub fn queried(
    app: &AppState,
    op: Op,
    kind: TaskFamily,
    query: &Map<String, Value>,
) -> Result<Arc<Task>, ApiError> {
    let id = text(query, "taskId").unwrap_or_default();
    app.tasks
        .of_kind(id, kind)
        .map_err(|e| ApiError::from_core(op.endpoint().codes, e))
}
