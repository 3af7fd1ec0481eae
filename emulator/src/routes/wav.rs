//! WAV conversion of a track: string `successFlag` PENDING → SUCCESS, a real 44.1 kHz WAV, 409 on a
//! second conversion of the same track.

use std::collections::HashMap;

use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{Query, State};
use axum::response::Response;
use axum::Extension;
use serde_json::{json, Value};
use tunesmith_protocol::wire::{Envelope, WavCallbackData, WavRecord, WavResponse};
use tunesmith_protocol::{Family, Op};

use super::{complete_time, file_url, json_body, music_track, task_for_query, text, validate};
use crate::envelope::{ok, ApiError};
use crate::gate::Caller;
use crate::tasks::{self, failure_of, is_failure, Kind, Task, SUCCESS};
use crate::AppState;

const F: Family = Family::Music;
pub const FILE: &str = "audio.wav";

pub async fn create(
    State(app): State<AppState>,
    Extension(caller): Extension<Caller>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let param = json_body(F, body)?;
    validate(Op::ConvertToWav, &param)?;
    let (parent, i) = music_track(&app, F, text(&param, "taskId"), text(&param, "audioId"), 0)?;
    let mut task = tasks::draft(&app, &caller, param)
        .ok_or_else(|| ApiError::not_found(F, "Not a task operation"))?;
    task.parent_task = Some(parent.id.clone());
    task.parent_audio = Some(parent.tracks[i].id.clone());
    task.music_index = i as i64;
    tasks::create(&app, &caller, task)
}

pub fn record(app: &AppState, task: &Task, now: i64) -> WavRecord {
    let status = task.status(now).to_owned();
    let failure = is_failure(&status).then(|| failure_of(&status));
    WavRecord {
        task_id: task.id.clone(),
        music_id: task.parent_audio.clone().unwrap_or_default(),
        callback_url: task.callback_url.clone().unwrap_or_default(),
        complete_time: complete_time(task, now),
        response: (status == SUCCESS).then(|| WavResponse {
            audio_wav_url: file_url(app, &task.id, FILE),
        }),
        success_flag: status,
        create_time: super::iso(task.created_ms),
        error_code: failure.as_ref().map(|f| f.0),
        error_message: failure.map(|f| f.1),
    }
}

pub fn callback(app: &AppState, task: &Task, phase: usize) -> Value {
    let label = &task.phases[phase];
    let (code, msg) = if is_failure(label) {
        failure_of(label)
    } else {
        (200, "success".to_owned())
    };
    json!(Envelope {
        code,
        msg,
        data: WavCallbackData {
            audio_wav_url: (code == 200).then(|| file_url(app, &task.id, FILE)),
            task_id: task.id.clone(),
        },
    })
}

pub async fn get(
    State(app): State<AppState>,
    query: Result<Query<HashMap<String, String>>, QueryRejection>,
) -> Result<Response, ApiError> {
    let task = task_for_query(&app, Op::GetWav, Kind::Wav, query)?;
    Ok(ok(record(&app, &task, app.clock.now_ms())))
}
