//! Lyrics tasks: `status` PENDING → SUCCESS, two texts written from the prompt.

use serde_json::{json, Value};
use tunesmith_protocol::status::{is_failure, SUCCESS};
use tunesmith_protocol::wire::{Envelope, Lyric, LyricsCallbackData, LyricsRecord, LyricsResponse};

use super::common::{param_string, text};
use crate::core::task::{Outcome, Task};

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
        let f = task.failure_of(label);
        (f.code, f.message, "error", None)
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
