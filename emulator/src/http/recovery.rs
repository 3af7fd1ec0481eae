//! Handlers of audio recovery: create (fresh links for a finished music task, expired or not) and
//! its status, answered in the recovery's own envelope with `task_id` as the query parameter.

use axum::extract::State;
use axum::response::{IntoResponse, Response};
use axum::Json;
use tunesmith_protocol::status::SUCCESS;
use tunesmith_protocol::waiter::TaskKind;
use tunesmith_protocol::Family;

use super::envelope::{ApiError, Outcome};
use super::extract::{Caller, ValidBody, ValidQuery};
use super::tasks::{create as create_task, draft};
use crate::app::AppState;
use crate::core::error::CoreError;
use crate::families::common::text;
use crate::families::recovery;

const F: Family = Family::Music;

pub async fn create(
    State(app): State<AppState>,
    caller: Caller,
    ValidBody(param): ValidBody,
) -> Result<Response, ApiError> {
    let id = text(&param, "sunoTaskId").unwrap_or_default();
    let old = app
        .tasks
        .of_kind(id, TaskKind::Music)
        .map_err(|_| ApiError::new(F, 404, format!("No such music task: sunoTaskId {id}")))?;
    let status = old.status(app.now_ms()).to_owned();
    if status != SUCCESS {
        return Err(ApiError::from_core(
            F,
            CoreError::Invalid(format!(
                "Music task {id} has no finished tracks to recover (status {status})"
            )),
        ));
    }
    let mut task = draft(&app, &caller, param)?;
    task.parent_task = Some(old.id.clone());
    task.tracks = old.tracks.clone();
    create_task(&app, &caller, task)
}

/// `{code, msg, task_id, data}`: 201 while running, 200 with fresh links, 500 when all failed.
pub async fn get(
    State(app): State<AppState>,
    ValidQuery(q): ValidQuery,
) -> Result<Response, ApiError> {
    let id = text(&q, "task_id").unwrap_or_default();
    let task = app
        .tasks
        .of_kind(id, TaskKind::Recovery)
        .map_err(|e| ApiError::from_core(F, e))?;
    let envelope = recovery::envelope(&task, app.now_ms(), app.links());
    let code = envelope.code;
    let mut res = Json(envelope).into_response();
    res.extensions_mut().insert(Outcome(code));
    Ok(res)
}
