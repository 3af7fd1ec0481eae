//! Vocal separation of a track: string `successFlag` PENDING → SUCCESS; real WAV stems
//! (`separate_vocal`: vocal and instrumental; `split_stem`: twelve stems).

use std::collections::HashMap;

use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{Query, State};
use axum::response::Response;
use axum::Extension;
use serde_json::{json, Value};
use tunesmith_protocol::wire::{Envelope, Stems, StemsSnake, VocalCallbackData, VocalRecord};
use tunesmith_protocol::Op;

use super::{complete_time, create_track_job, file_url, task_for_query, text};
use crate::envelope::{ok, ApiError};
use crate::gate::Caller;
use crate::tasks::{callback_status, Kind, Outcome, Task, SUCCESS};
use crate::AppState;

pub const SEPARATE: &[&str] = &["vocal", "instrumental"];
pub const SPLIT: &[&str] = &[
    "vocal",
    "backing_vocals",
    "drums",
    "bass",
    "guitar",
    "keyboard",
    "percussion",
    "strings",
    "synth",
    "fx",
    "brass",
    "woodwinds",
];

/// The stems a separation task yields.
pub fn stem_names(task: &Task) -> &'static [&'static str] {
    if text(&task.param, "type") == Some("split_stem") {
        SPLIT
    } else {
        SEPARATE
    }
}

pub fn stem_file(name: &str) -> String {
    format!("stem-{name}.wav")
}

pub async fn create(
    State(app): State<AppState>,
    Extension(caller): Extension<Caller>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    create_track_job(&app, &caller, Op::SeparateVocals, body)
}

fn stems(app: &AppState, task: &Task) -> Stems {
    let mut s = Stems {
        origin_url: task
            .parent_task
            .as_ref()
            .zip(task.parent_audio.as_ref())
            .map(|(t, a)| file_url(app, t, &format!("{a}.wav"))),
        ..Stems::default()
    };
    for name in stem_names(task) {
        let url = Some(file_url(app, &task.id, &stem_file(name)));
        match *name {
            "vocal" => s.vocal_url = url,
            "instrumental" => s.instrumental_url = url,
            "backing_vocals" => s.backing_vocals_url = url,
            "drums" => s.drums_url = url,
            "bass" => s.bass_url = url,
            "guitar" => s.guitar_url = url,
            "keyboard" => s.keyboard_url = url,
            "percussion" => s.percussion_url = url,
            "strings" => s.strings_url = url,
            "synth" => s.synth_url = url,
            "fx" => s.fx_url = url,
            "brass" => s.brass_url = url,
            _ => s.woodwinds_url = url,
        }
    }
    s
}

pub fn record(app: &AppState, task: &Task, now: i64) -> VocalRecord {
    let Outcome {
        status,
        error_code,
        error_message,
    } = task.outcome(now);
    VocalRecord {
        task_id: task.id.clone(),
        music_id: task.parent_audio.clone().unwrap_or_default(),
        callback_url: task.callback_url.clone().unwrap_or_default(),
        music_index: task.music_index,
        complete_time: complete_time(task, now),
        response: (status == SUCCESS).then(|| stems(app, task)),
        success_flag: status,
        create_time: super::iso(task.created_ms),
        error_code,
        error_message,
    }
}

pub fn callback(app: &AppState, task: &Task, phase: usize) -> Value {
    let (code, msg) = callback_status(&task.phases[phase], "vocal separation completed");
    json!(Envelope {
        code,
        msg,
        data: VocalCallbackData {
            task_id: task.id.clone(),
            vocal_removal_info: (code == 200).then(|| StemsSnake::from(&stems(app, task))),
        },
    })
}

pub async fn get(
    State(app): State<AppState>,
    query: Result<Query<HashMap<String, String>>, QueryRejection>,
) -> Result<Response, ApiError> {
    let task = task_for_query(&app, Op::GetVocalSeparation, Kind::Vocal, query)?;
    Ok(ok(record(&app, &task, app.clock.now_ms())))
}
