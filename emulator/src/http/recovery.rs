//! Audio recovery: a task that gives an older music task's tracks fresh links, and its status in
//! recovery's own envelope, queried by `task_id`.

use axum::extract::State;
use axum::response::{IntoResponse, Response};
use axum::Json;
use tunesmith_protocol::status::SUCCESS;
use tunesmith_protocol::TaskFamily;
use tunesmith_protocol::{CodeTable, Op};

use super::envelope::{ApiError, Outcome};
use super::extract::{Caller, ValidBody, ValidQuery};
use super::tasks::{create as create_task, draft};
use crate::app::AppState;
use crate::families::common::text;
use crate::families::recovery;

const F: CodeTable = CodeTable::Music;

pub async fn create(
    State(app): State<AppState>,
    caller: Caller,
    ValidBody(param): ValidBody,
) -> Result<Response, ApiError> {
    let id = text(&param, "sunoTaskId").unwrap_or_default().to_owned();
    let old = app
        .tasks
        .get(&id)
        .filter(|t| t.kind == TaskFamily::Music)
        .ok_or_else(|| ApiError::not_found(F, format!("No such music task: sunoTaskId {id}")))?;
    if !old.has_reached(app.now_ms(), SUCCESS) || old.tracks.is_empty() {
        return Err(ApiError::not_found(
            F,
            format!("Music task {id} has no finished tracks to recover"),
        ));
    }
    let mut task = draft(&app, &caller, param)?;
    task.tracks = old.tracks.clone();
    task.parent_task = Some(old.id.clone());
    create_task(&app, &caller, task)
}

pub async fn get(
    State(app): State<AppState>,
    ValidQuery(q): ValidQuery,
) -> Result<Response, ApiError> {
    let id = text(&q, "task_id").unwrap_or_default();
    let task = app
        .tasks
        .of_kind(id, TaskFamily::Recovery)
        .map_err(|e| ApiError::from_core(Op::GetRecovery.endpoint().codes, e))?;
    let body = recovery::envelope(&task, app.now_ms(), app.links());
    let code = body["code"].as_i64().unwrap_or(200);
    let mut res = Json(body).into_response();
    res.extensions_mut().insert(Outcome(code));
    Ok(res)
}
