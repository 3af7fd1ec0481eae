//! WAV conversion of a track: string `successFlag` PENDING → SUCCESS, one 44.1 kHz WAV file.

use serde_json::{json, Value};
use tunesmith_protocol::status::SUCCESS;
use tunesmith_protocol::wire::{Envelope, WavCallbackData, WavRecord, WavResponse};

use super::common::{complete_time, iso, Links};
use crate::core::task::{Outcome, Task};

pub const FILE: &str = "audio.wav";

pub fn record(task: &Task, now: i64, links: Links<'_>) -> WavRecord {
    let Outcome {
        status,
        error_code,
        error_message,
    } = task.outcome(now);
    WavRecord {
        task_id: task.id.clone(),
        music_id: task.parent_audio.clone().unwrap_or_default(),
        callback_url: task.callback_url.clone().unwrap_or_default(),
        complete_time: complete_time(task, now),
        response: (status == SUCCESS).then(|| WavResponse {
            audio_wav_url: links.file(&task.id, FILE),
        }),
        success_flag: status,
        create_time: iso(task.created_ms),
        error_code,
        error_message,
    }
}

pub fn callback(task: &Task, phase: usize, links: Links<'_>) -> Value {
    let (code, msg) = task.callback_status(&task.phases[phase], "success");
    json!(Envelope {
        code,
        msg,
        data: WavCallbackData {
            audio_wav_url: (code == 200).then(|| links.file(&task.id, FILE)),
            task_id: task.id.clone(),
        },
    })
}
