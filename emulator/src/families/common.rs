//! What the records and callbacks of every family share: public file URLs, times, the param string.

use serde_json::{Map, Value};

use crate::core::task::Task;

/// Where the music host serves generated files (`http://host:port`).
#[derive(Clone, Copy)]
pub struct Links<'a> {
    pub music_base: &'a str,
}

impl Links<'_> {
    /// Public URL of a generated file.
    pub fn file(&self, task_id: &str, name: &str) -> String {
        format!("{}/files/{task_id}/{name}", self.music_base)
    }
}

pub fn iso(ms: i64) -> String {
    tunesmith_protocol::time::iso_from_epoch_ms(ms)
}

/// Completion time of a finished task, else null.
pub fn complete_time(task: &Task, now: i64) -> Option<String> {
    task.is_done(now).then(|| iso(task.done_ms()))
}

/// Parameters every music and lyrics record keeps as a JSON-encoded string.
pub fn param_string(param: &Map<String, Value>) -> String {
    Value::Object(param.clone()).to_string()
}

pub fn text<'a>(fields: &'a Map<String, Value>, name: &str) -> Option<&'a str> {
    fields
        .get(name)
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
}
