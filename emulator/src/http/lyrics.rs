//! Handlers of lyrics: create and record-info.

use axum::extract::State;
use axum::response::Response;
use tunesmith_protocol::Op;
use tunesmith_protocol::TaskFamily;

use super::envelope::{ok, ApiError};
use super::extract::{Caller, ValidBody, ValidQuery};
use super::tasks::{create as create_task, draft, queried};
use crate::app::AppState;
use crate::families::lyrics;

pub async fn create(
    State(app): State<AppState>,
    caller: Caller,
    ValidBody(param): ValidBody,
) -> Result<Response, ApiError> {
    let task = draft(&app, &caller, param)?;
    create_task(&app, &caller, task)
}

pub async fn get(
    State(app): State<AppState>,
    ValidQuery(q): ValidQuery,
) -> Result<Response, ApiError> {
    let task = queried(&app, Op::GetLyrics, TaskFamily::Lyrics, &q)?;
    Ok(ok(lyrics::record(&task, app.now_ms())))
}
