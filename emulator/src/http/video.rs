//! Music videos of a track: string `successFlag` PENDING → SUCCESS, a small MP4 file.

use std::collections::HashMap;

use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{Query, State};
use axum::response::Response;
use axum::Extension;
use serde_json::{json, Value};
use tunesmith_protocol::wire::{Envelope, VideoCallbackData, VideoRecord, VideoResponse};
use tunesmith_protocol::Op;

use super::{complete_time, create_track_job, file_url, task_for_query};
use crate::envelope::{ok, ApiError};
use crate::gate::Caller;
use crate::tasks::{callback_status, Kind, Outcome, Task, SUCCESS};
use crate::AppState;
pub const FILE: &str = "video.mp4";

pub async fn create(
    State(app): State<AppState>,
    Extension(caller): Extension<Caller>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    create_track_job(&app, &caller, Op::GenerateVideo, body)
}

pub fn record(app: &AppState, task: &Task, now: i64) -> VideoRecord {
    let Outcome {
        status,
        error_code,
        error_message,
    } = task.outcome(now);
    VideoRecord {
        task_id: task.id.clone(),
        music_id: task.parent_audio.clone().unwrap_or_default(),
        callback_url: task.callback_url.clone().unwrap_or_default(),
        music_index: task.music_index,
        complete_time: complete_time(task, now),
        response: (status == SUCCESS).then(|| VideoResponse {
            video_url: file_url(app, &task.id, FILE),
        }),
        success_flag: status,
        create_time: super::iso(task.created_ms),
        error_code,
        error_message,
    }
}

pub fn callback(app: &AppState, task: &Task, phase: usize) -> Value {
    let (code, msg) = callback_status(&task.phases[phase], "video generated");
    json!(Envelope {
        code,
        msg,
        data: VideoCallbackData {
            task_id: task.id.clone(),
            video_url: (code == 200).then(|| file_url(app, &task.id, FILE)),
        },
    })
}

pub async fn get(
    State(app): State<AppState>,
    query: Result<Query<HashMap<String, String>>, QueryRejection>,
) -> Result<Response, ApiError> {
    let task = task_for_query(&app, Op::GetVideo, Kind::Video, query)?;
    Ok(ok(record(&app, &task, app.clock.now_ms())))
}
