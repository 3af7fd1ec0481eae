//! What the driver reads of a status record as the service sent it: its state, through its
//! family's own encoding (`TaskFamily::observe`), and why it failed.

use crate::errors::{Error, FailedTask};
use crate::js::{get, set, shallow_copy};
use tunesmith_protocol::{Observed, Stage, Status, TaskFamily};
use wasm_bindgen::JsValue;

/// The state (and music stage) of a raw record of `family`.
pub fn observe(family: TaskFamily, raw: &JsValue) -> Observed {
    let status = get(raw, family.status_field());
    let word = status.as_string();
    family.observe(match (&word, status.as_f64()) {
        (Some(w), _) => Status::Word(w),
        (None, Some(n)) => Status::Number(n),
        (None, None) => Status::Absent,
    })
}

/// A copy of a music record that says `stage`, for a stage the task passed between two queries:
/// its status is the stage's own word, so that either face reads the record as that stage.
pub fn at_stage(family: TaskFamily, raw: &JsValue, stage: Stage) -> JsValue {
    let copy = shallow_copy(raw);
    set(
        &copy,
        family.status_field(),
        &JsValue::from_str(stage.status()),
    );
    copy.into()
}

/// The error of a task that ended in its family's failure state, from its last record.
pub fn task_failed(family: TaskFamily, task_id: &str, raw: JsValue) -> Error {
    let status = text_of(&get(&raw, family.status_field())).unwrap_or_default();
    let reason = get(&raw, family.error_fields().1).as_string();
    let task = FailedTask {
        family,
        task_id: task_id.to_owned(),
        record: raw,
    };
    Error::task_failed(task, &status, reason.filter(|m| !m.is_empty()))
}

/// A status as text: a word as it is, a number written out.
pub fn text_of(v: &JsValue) -> Option<String> {
    v.as_string()
        .or_else(|| v.as_f64().map(tunesmith_protocol::num::fmt))
}
