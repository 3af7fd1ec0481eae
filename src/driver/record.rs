//! What the driver reads of a status record as the service sent it: its state, through its
//! family's own encoding (`TaskFamily::observe`).

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

/// A scalar as text: a word as it is, a number or a boolean written out (a status, a query
/// parameter); `None` for anything else.
pub fn text_of(v: &JsValue) -> Option<String> {
    v.as_string()
        .or_else(|| v.as_f64().map(tunesmith_protocol::num::fmt))
        .or_else(|| {
            v.as_bool()
                .map(|b| if b { "true".into() } else { "false".into() })
        })
}
