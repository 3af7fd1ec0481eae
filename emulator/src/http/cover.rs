//! Handlers of cover images: create (409 on a second cover for the same task) and record-info.

use axum::extract::State;
use axum::response::Response;
use tunesmith_protocol::TaskFamily;
use tunesmith_protocol::{CodeTable, Op};

use super::envelope::{ok, ApiError};
use super::extract::{Caller, ValidBody, ValidQuery};
use super::tasks::{create as create_task, draft, queried};
use crate::app::AppState;
use crate::families::common::text;
use crate::families::cover;

pub async fn create(
    State(app): State<AppState>,
    caller: Caller,
    ValidBody(param): ValidBody,
) -> Result<Response, ApiError> {
    let (parent, _) = app
        .tasks
        .music_track(text(&param, "taskId"), None, 0)
        .map_err(|e| ApiError::from_core(CodeTable::Cover, e))?;
    let mut task = draft(&app, &caller, param)?;
    task.parent_task = Some(parent.id.clone());
    create_task(&app, &caller, task)
}

pub async fn get(
    State(app): State<AppState>,
    ValidQuery(q): ValidQuery,
) -> Result<Response, ApiError> {
    let task = queried(&app, Op::GetCover, TaskFamily::Cover, &q)?;
    Ok(ok(cover::record(&task, app.now_ms(), app.links())))
}
