//! Music videos of a track: string `successFlag` PENDING → SUCCESS, one MP4 of the track's cover and sound.

use serde_json::{json, Value};
use tunesmith_protocol::status::SUCCESS;
use tunesmith_protocol::wire::{Envelope, VideoCallbackData, VideoRecord, VideoResponse};

use super::common::{complete_time, iso, Links};
use crate::core::task::{Outcome, Task};

pub const FILE: &str = "video.mp4";

pub fn record(task: &Task, now: i64, links: Links<'_>) -> VideoRecord {
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
            video_url: links.file(&task.id, FILE),
        }),
        success_flag: status,
        create_time: iso(task.created_ms),
        error_code,
        error_message,
    }
}

pub fn callback(task: &Task, phase: usize, links: Links<'_>) -> Value {
    let (code, msg) = task.callback_status(&task.phases[phase], "video generated");
    json!(Envelope {
        code,
        msg,
        data: VideoCallbackData {
            task_id: task.id.clone(),
            video_url: (code == 200).then(|| links.file(&task.id, FILE)),
        },
    })
}
