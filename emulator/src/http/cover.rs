//! Cover images of a music task: integer `successFlag` 0 → 2 → 1 (or 3), two PNGs in two styles,
//! 409 on a second cover for the same task.

use std::collections::HashMap;

use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{Query, State};
use axum::response::Response;
use axum::Extension;
use serde_json::{json, Value};
use tunesmith_protocol::wire::{CoverCallbackData, CoverRecord, CoverResponse, Envelope};
use tunesmith_protocol::{Family, Op};

use super::{complete_time, file_url, music_track, task_for_query, text, valid_body};
use crate::envelope::{ok, ApiError};
use crate::gate::Caller;
use crate::tasks::{self, Kind, Task, GENERATING, SUCCESS};
use crate::AppState;

const F: Family = Family::Cover;
/// File names of the two images.
pub const IMAGES: [&str; 2] = ["cover-1.png", "cover-2.png"];

pub async fn create(
    State(app): State<AppState>,
    Extension(caller): Extension<Caller>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let param = valid_body(Op::GenerateCover, body)?;
    let (parent, _) = music_track(&app, F, text(&param, "taskId"), None, 0)?;
    let mut task = tasks::draft(&app, &caller, param)?;
    task.parent_task = Some(parent.id.clone());
    tasks::create(&app, &caller, task)
}

fn images(app: &AppState, task: &Task) -> Vec<String> {
    IMAGES.iter().map(|n| file_url(app, &task.id, n)).collect()
}

pub fn record(app: &AppState, task: &Task, now: i64) -> CoverRecord {
    let status = task.status(now);
    let (flag, error_code) = match status {
        SUCCESS => (1, Some(200)),
        GENERATING => (2, None),
        tasks::PENDING => (0, None),
        _ => (3, Some(500)),
    };
    CoverRecord {
        task_id: task.id.clone(),
        parent_task_id: task.parent_task.clone().unwrap_or_default(),
        callback_url: task.callback_url.clone().unwrap_or_default(),
        complete_time: complete_time(task, now),
        response: (flag == 1).then(|| CoverResponse {
            images: images(app, task),
        }),
        success_flag: flag,
        create_time: super::iso(task.created_ms),
        error_code,
        error_message: if flag == 3 {
            "Cover generation failed; retry later".into()
        } else {
            String::new()
        },
    }
}

pub fn callback(app: &AppState, task: &Task, phase: usize) -> Value {
    let success = task.phases[phase] == SUCCESS;
    json!(Envelope {
        code: if success { 200 } else { 500 },
        msg: if success {
            "success"
        } else {
            "Cover generation failed"
        }
        .to_owned(),
        data: CoverCallbackData {
            task_id: task.id.clone(),
            images: success.then(|| images(app, task)),
        },
    })
}

pub async fn get(
    State(app): State<AppState>,
    query: Result<Query<HashMap<String, String>>, QueryRejection>,
) -> Result<Response, ApiError> {
    let task = task_for_query(&app, Op::GetCover, Kind::Cover, query)?;
    Ok(ok(record(&app, &task, app.clock.now_ms())))
}
