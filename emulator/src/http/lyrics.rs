//! Lyrics tasks: `status` PENDING → SUCCESS, two texts written from the prompt.

use std::collections::HashMap;

use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{Query, State};
use axum::response::Response;
use axum::Extension;
use serde_json::{json, Value};
use tunesmith_protocol::wire::{Envelope, Lyric, LyricsCallbackData, LyricsRecord, LyricsResponse};
use tunesmith_protocol::Op;

use super::music::param_string;
use super::{task_for_query, text, valid_body};
use crate::envelope::{ok, ApiError};
use crate::gate::Caller;
use crate::tasks::{self, failure_of, is_failure, Kind, Outcome, Task, SUCCESS};
use crate::AppState;

pub async fn create(
    State(app): State<AppState>,
    Extension(caller): Extension<Caller>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let param = valid_body(Op::GenerateLyrics, body)?;
    let task = tasks::draft(&app, &caller, param)?;
    tasks::create(&app, &caller, task)
}

fn texts(task: &Task) -> Vec<Lyric> {
    let prompt = text(&task.param, "prompt").unwrap_or("a song");
    let theme: Vec<&str> = prompt.split_whitespace().take(6).collect();
    let theme = theme.join(" ");
    (1..=2)
        .map(|n| Lyric {
            text: format!(
                "[Verse]\nWe walk along {theme}\nThe night is young, the lights are low\n\n[Chorus]\nSing it loud, sing it {n} times more\n{theme}, that's what we're here for"
            ),
            title: format!("{} ({n})", theme.split(' ').take(3).collect::<Vec<_>>().join(" ")),
            status: "complete".into(),
            error_message: String::new(),
        })
        .collect()
}

pub fn record(task: &Task, now: i64) -> LyricsRecord {
    let Outcome {
        status,
        error_code,
        error_message,
    } = task.outcome(now);
    LyricsRecord {
        task_id: task.id.clone(),
        param: param_string(&task.param),
        response: (status == SUCCESS).then(|| LyricsResponse {
            task_id: task.id.clone(),
            lyrics_data: texts(task),
        }),
        status,
        kind: "LYRICS".into(),
        error_code,
        error_message,
    }
}

pub fn callback(task: &Task, phase: usize) -> Value {
    let label = &task.phases[phase];
    let (code, msg, kind, data) = if is_failure(label) {
        let (code, msg) = failure_of(label);
        (code, msg, "error", None)
    } else {
        (
            200,
            "All generated successfully.".to_owned(),
            "complete",
            Some(texts(task)),
        )
    };
    json!(Envelope {
        code,
        msg,
        data: LyricsCallbackData {
            callback_type: kind.into(),
            task_id: task.id.clone(),
            data,
        },
    })
}

pub async fn get(
    State(app): State<AppState>,
    query: Result<Query<HashMap<String, String>>, QueryRejection>,
) -> Result<Response, ApiError> {
    let task = task_for_query(&app, Op::GetLyrics, Kind::Lyrics, query)?;
    Ok(ok(record(&task, app.clock.now_ms())))
}
