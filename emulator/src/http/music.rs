//! Handlers of the music operations: the six that create music tasks, record-info, credits,
//! style boost and timestamped lyrics.

use axum::extract::State;
use axum::response::Response;
use serde_json::Value;
use tunesmith_protocol::waiter::TaskKind;
use tunesmith_protocol::{Family, Op};

use super::envelope::{ok, ApiError};
use super::extract::{Caller, ValidBody, ValidQuery};
use super::tasks::{create as create_task, draft, queried};
use crate::app::AppState;
use crate::core::create::charge;
use crate::families::common::text;
use crate::families::music;
use crate::products::mix_source;

const F: Family = Family::Music;

/// Creates a task of any of the six music operations.
pub async fn create(
    State(app): State<AppState>,
    caller: Caller,
    ValidBody(param): ValidBody,
) -> Result<Response, ApiError> {
    super::persona::check_use(&app, &param)?;
    let mut task = draft(&app, &caller, param)?;
    let parent = if caller.op == Op::Extend {
        let audio_id = text(&task.param, "audioId").unwrap_or_default();
        Some(
            app.tasks
                .music_track(None, Some(audio_id), 0)
                .map_err(|e| ApiError::from_core(F, e))?,
        )
    } else {
        None
    };
    music::prepare(&mut task, parent.as_ref().map(|(t, i)| (&**t, *i)), || {
        app.random_uuid()
    })
    .map_err(|e| ApiError::from_core(F, e))?;
    if let Some(url) = text(&task.param, "uploadUrl").map(str::to_owned) {
        mix_source(&app, &mut task, &url).await;
    }
    create_task(&app, &caller, task)
}

pub async fn get_task(
    State(app): State<AppState>,
    ValidQuery(q): ValidQuery,
) -> Result<Response, ApiError> {
    let task = queried(&app, Op::GetTask, TaskKind::Music, &q)?;
    Ok(ok(music::record(&task, app.now_ms(), app.links())))
}

pub async fn credits(State(app): State<AppState>, caller: Caller) -> Response {
    ok(app.credits.balance(&caller.key))
}

/// Style boost answers at once; it costs 1 credit.
pub async fn boost_style(
    State(app): State<AppState>,
    caller: Caller,
    ValidBody(param): ValidBody,
) -> Result<Response, ApiError> {
    let cost = charge(&app.credits, &caller.key, Op::BoostStyle, &param)
        .map_err(|e| ApiError::from_core(F, e))?;
    let content = text(&param, "content").unwrap_or_default();
    Ok(ok(music::style_boost(
        app.random_id(),
        content,
        cost,
        app.credits.balance(&caller.key),
        app.now_ms(),
    )))
}

/// Timestamped lyrics answer at once: the track's words spread over its duration.
pub async fn timestamped_lyrics(
    State(app): State<AppState>,
    ValidBody(param): ValidBody,
) -> Result<Response, ApiError> {
    let index = param.get("musicIndex").and_then(Value::as_u64).unwrap_or(0) as usize;
    let (task, i) = app
        .tasks
        .music_track(text(&param, "taskId"), text(&param, "audioId"), index)
        .map_err(|e| ApiError::from_core(F, e))?;
    Ok(ok(music::timestamped_lyrics(&task.tracks[i])))
}
