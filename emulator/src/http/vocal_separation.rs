//! Handlers of vocal separation: create and record-info.

use axum::extract::State;
use axum::response::Response;
use tunesmith_protocol::Op;
use tunesmith_protocol::TaskFamily;

use super::envelope::{ok, ApiError};
use super::extract::{Caller, ValidBody, ValidQuery};
use super::tasks::{create_track_job, queried};
use crate::app::AppState;
use crate::families::vocal_separation;

pub async fn create(
    State(app): State<AppState>,
    caller: Caller,
    ValidBody(param): ValidBody,
) -> Result<Response, ApiError> {
    create_track_job(&app, &caller, param)
}

pub async fn get(
    State(app): State<AppState>,
    ValidQuery(q): ValidQuery,
) -> Result<Response, ApiError> {
    let task = queried(
        &app,
        Op::GetVocalSeparation,
        TaskFamily::VocalSeparation,
        &q,
    )?;
    Ok(ok(vocal_separation::record(
        &task,
        app.now_ms(),
        app.links(),
    )))
}
