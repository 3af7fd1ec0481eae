//! `watchTask`: the records of a music task as an async iterator, each `next()` running the
//! driver's polling loop until the next change of stage.

use crate::driver::{Driver, Poll};
use crate::errors::Error;
use crate::js::{get, set, Arg};
use crate::normalize;
use crate::waiters::{task_id_of, WaitOptions};
use crate::{settle, Client};
use js_sys::{Function, Object, Promise};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use tunesmith_protocol::TaskFamily;
use wasm_bindgen::prelude::*;
use web_sys::AbortSignal;

#[wasm_bindgen(module = "/src/js/imports.js")]
extern "C" {
    /// Wraps `step` (a function returning a Promise of `{value, done}`) in an async iterator.
    #[wasm_bindgen(js_name = asyncIterator)]
    fn async_iterator(step: &JsValue, close: &JsValue) -> JsValue;
    /// `[signal, stop]` of a new AbortController that `user` also fires; `undefined` if the
    /// runtime has none.
    fn stopper(user: Option<AbortSignal>) -> JsValue;
}

/// `{ value, done }` of an async iterator.
fn iter_result(value: &JsValue, done: bool) -> JsValue {
    let out = Object::new();
    set(&out, "value", value);
    set(&out, "done", &JsValue::from_bool(done));
    out.into()
}

/// The iterator of `watchTask`: each `next()` polls until the next change of state.
fn watch(inner: Rc<Driver>, task_id: String, opts: &WaitOptions) -> Result<JsValue, Error> {
    // Closing the iterator (`break`, `return()`) aborts a query or sleep in flight: the watch has
    // its own controller, which the caller's signal also fires.
    let stop = stopper(opts.signal.clone());
    let (Ok(signal), Ok(stop_fn)) = (
        get(&stop, "0").dyn_into::<AbortSignal>(),
        get(&stop, "1").dyn_into::<Function>(),
    ) else {
        return Err(Error::invalid(
            "signal",
            "type",
            "AbortController is unavailable",
        ));
    };
    let poll = Rc::new(RefCell::new(Some(Poll::new(
        inner,
        TaskFamily::Music,
        task_id,
        opts.timeout_ms,
        opts.schedule,
        Some(signal),
    ))));
    let closed = Rc::new(Cell::new(false));
    let (step_poll, step_closed) = (poll.clone(), closed.clone());
    // The JS wrapper calls `step` one at a time, so the poll is never borrowed twice.
    let step = Closure::<dyn FnMut() -> Promise>::new(move || {
        let (cell, closed) = (step_poll.clone(), step_closed.clone());
        settle::promise(async move {
            let taken = cell.borrow_mut().take();
            let Some(mut poll) = taken else {
                return Ok(iter_result(&JsValue::UNDEFINED, true));
            };
            let next = poll.next().await.map_err(Error::into_js)?;
            // After the final record, the poll (and its client) is dropped: the next call ends.
            if !next.done && !closed.get() {
                *cell.borrow_mut() = Some(poll);
            }
            Ok(if next.report {
                let record = normalize::output(TaskFamily::Music.query(), next.record);
                iter_result(&record, false)
            } else {
                iter_result(&JsValue::UNDEFINED, true)
            })
        })
    });
    let close = Closure::<dyn FnMut()>::new(move || {
        closed.set(true);
        poll.borrow_mut().take();
        let _ = stop_fn.call0(&JsValue::UNDEFINED);
    });
    Ok(async_iterator(
        &step.into_js_value(),
        &close.into_js_value(),
    ))
}

#[wasm_bindgen]
impl Client {
    /// The states of a music task as an async iterator, ending at the final one.
    #[wasm_bindgen(js_name = watchTask, skip_typescript)]
    pub fn watch_task(
        &self,
        task_id: JsValue,
        options: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        settle::entered()?;
        let opts = WaitOptions::from_js(&Arg::optional(options, "options"))?;
        let task_id = task_id_of(&Arg::new(task_id, "taskId"))?;
        Ok(watch(self.inner.clone(), task_id, &opts)?)
    }
}
