//! Cover images of a music task: integer `successFlag` 0 → 2 → 1 (or 3), two PNGs in two styles.

use serde_json::{json, Value};
use tunesmith_protocol::status::{
    CALLBACK_SERVER_ERROR, COVER_FAILED, COVER_GENERATING, COVER_PENDING, COVER_SUCCESS, PENDING,
    SUCCESS,
};
use tunesmith_protocol::wire::{CoverCallbackData, CoverRecord, CoverResponse, Envelope};

use super::common::{complete_time, iso, Links};
use crate::core::plan::GENERATING;
use crate::core::task::Task;

/// File names of the two images.
pub const IMAGES: [&str; 2] = ["cover-1.png", "cover-2.png"];

fn images(task: &Task, links: Links<'_>) -> Vec<String> {
    IMAGES.iter().map(|n| links.file(&task.id, n)).collect()
}

pub fn record(task: &Task, now: i64, links: Links<'_>) -> CoverRecord {
    let status = task.status(now);
    let (flag, error_code) = match status {
        SUCCESS => (COVER_SUCCESS, Some(200)),
        GENERATING => (COVER_GENERATING, None),
        PENDING => (COVER_PENDING, None),
        _ => (COVER_FAILED, Some(CALLBACK_SERVER_ERROR)),
    };
    CoverRecord {
        task_id: task.id.clone(),
        parent_task_id: task.parent_task.clone().unwrap_or_default(),
        callback_url: task.callback_url.clone().unwrap_or_default(),
        complete_time: complete_time(task, now),
        response: (flag == COVER_SUCCESS).then(|| CoverResponse {
            images: images(task, links),
        }),
        success_flag: flag,
        create_time: iso(task.created_ms),
        error_code,
        error_message: if flag == COVER_FAILED {
            "Cover generation failed; retry later".into()
        } else {
            String::new()
        },
    }
}

pub fn callback(task: &Task, phase: usize, links: Links<'_>) -> Value {
    let success = task.phases[phase] == SUCCESS;
    json!(Envelope {
        code: if success { 200 } else { CALLBACK_SERVER_ERROR },
        msg: if success {
            "success"
        } else {
            "Cover generation failed"
        }
        .to_owned(),
        data: CoverCallbackData {
            task_id: task.id.clone(),
            images: success.then(|| images(task, links)),
        },
    })
}
