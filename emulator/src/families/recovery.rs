//! Audio recovery: fresh links for an old music task's tracks, answered in the recovery's own
//! envelope `{code, msg, task_id, data}` (201 while running, 200 done, 500 every track failed).

use serde_json::{json, Value};
use tunesmith_protocol::status::{
    is_failure, RECOVERY_ALL_FAILED, RECOVERY_DONE, RECOVERY_RUNNING,
};
use tunesmith_protocol::wire::{Envelope, RecoveredTrack, RecoveryCallbackData, RecoveryEnvelope};

use super::common::Links;
use crate::core::task::{Task, TrackSpec};

/// File name of a recovered track under the recovery task.
pub fn file(spec: &TrackSpec) -> String {
    format!("{}.wav", spec.id)
}

fn tracks(task: &Task, links: Links<'_>, failure: Option<&str>) -> Vec<RecoveredTrack> {
    task.tracks
        .iter()
        .map(|t| RecoveredTrack {
            id: t.id.clone(),
            audio_url: failure.is_none().then(|| links.file(&task.id, &file(t))),
            title: t.title.clone(),
            status: if failure.is_none() {
                "success"
            } else {
                "failed"
            }
            .into(),
            error: failure.map(str::to_owned),
        })
        .collect()
}

/// The answer of `recovery/record-info` at `now`.
pub fn envelope(task: &Task, now: i64, links: Links<'_>) -> RecoveryEnvelope {
    let outcome = task.outcome(now);
    let (code, msg, data) = if !task.is_done(now) {
        (RECOVERY_RUNNING, "Recovery in progress".to_owned(), None)
    } else if is_failure(&outcome.status) {
        let why = outcome.error_message.unwrap_or_default();
        let data = tracks(task, links, Some(&why));
        (
            RECOVERY_ALL_FAILED,
            format!("Every track failed: {why}"),
            Some(data),
        )
    } else {
        (
            RECOVERY_DONE,
            "success".to_owned(),
            Some(tracks(task, links, None)),
        )
    };
    RecoveryEnvelope {
        code,
        msg,
        task_id: task.id.clone(),
        data,
    }
}

pub fn callback(task: &Task, phase: usize, links: Links<'_>) -> Value {
    let (code, msg) = task.callback_status(&task.phases[phase], "Audio recovery completed");
    json!(Envelope {
        code,
        msg,
        data: RecoveryCallbackData {
            task_id: task.id.clone(),
            recovery_data: (code == 200).then(|| tracks(task, links, None)),
        },
    })
}
