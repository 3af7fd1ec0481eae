//! Audio recovery: fresh links to the tracks of an older music task, answered in recovery's own
//! envelope (`{code, msg, task_id, data}`: 201 while running, 200 done, 500 when every track
//! failed). The links are files of the recovery task, holding the old tracks' very audio.

use serde_json::{json, Value};
use tunesmith_protocol::status::{
    is_failure, RECOVERY_ALL_FAILED, RECOVERY_DONE, RECOVERY_RUNNING,
};
use tunesmith_protocol::wire::RecoveredTrack;

use super::common::Links;
use crate::core::task::{Task, TrackSpec};

/// File name of a recovered track.
pub fn file(spec: &TrackSpec) -> String {
    format!("{}.wav", spec.id)
}

fn tracks(task: &Task, links: Links<'_>, failed: Option<&str>) -> Vec<RecoveredTrack> {
    task.tracks
        .iter()
        .map(|t| RecoveredTrack {
            id: t.id.clone(),
            audio_url: failed.is_none().then(|| links.file(&task.id, &file(t))),
            title: t.title.clone(),
            status: if failed.is_some() {
                "failed"
            } else {
                "success"
            }
            .to_owned(),
            error: failed.map(str::to_owned),
        })
        .collect()
}

/// The status query's whole answer at `now`.
pub fn envelope(task: &Task, now: i64, links: Links<'_>) -> Value {
    let (code, msg, data) = if !task.is_done(now) {
        (RECOVERY_RUNNING, "running".to_owned(), Value::Null)
    } else {
        let status = task.status(now);
        if is_failure(status) {
            let f = task.failure_of(status);
            (
                RECOVERY_ALL_FAILED,
                f.message.clone(),
                json!(tracks(task, links, Some(&f.message))),
            )
        } else {
            (
                RECOVERY_DONE,
                "success".to_owned(),
                json!(tracks(task, links, None)),
            )
        }
    };
    json!({"code": code, "msg": msg, "task_id": task.id, "data": data})
}

pub fn callback(task: &Task, phase: usize, links: Links<'_>) -> Value {
    let label = &task.phases[phase];
    let (code, msg) = task.callback_status(label, "success");
    let data = (!is_failure(label)).then(|| tracks(task, links, None));
    json!({"code": code, "msg": msg, "data": {"task_id": task.id, "recovery_data": data}})
}
