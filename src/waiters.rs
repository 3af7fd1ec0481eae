//! Waiters: `waitFor*`, `watchTask` and `wait` on creates. The decisions (progress, sleeps, the
//! deadline) are `tunesmith_protocol::waiter`'s; this module only queries, sleeps and reports.

use crate::call::{Body, Inner};
use crate::errors::{Class, Error};
use crate::http;
use crate::js::{get, get_string, set, shallow_copy};
use crate::normalize;
use crate::options::{read_timeout, CallOptions};
use crate::Client;
use js_sys::{Function, Object, Promise};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use tunesmith_protocol::codes::ErrorKind;
use tunesmith_protocol::schedule::{PollSchedule, DEFAULT_WAIT_TIMEOUT_MS};
use tunesmith_protocol::state::{Stage, TaskState};
use tunesmith_protocol::waiter::{Next, Outcome, Waiter};
use tunesmith_protocol::{Observed, TaskFamily};
use tunesmith_protocol::Op;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;
use web_sys::AbortSignal;

#[wasm_bindgen(module = "/src/js/waiters.js")]
extern "C" {
    /// Wraps `step` (a function returning a Promise of `{value, done}`) in an async iterator.
    #[wasm_bindgen(js_name = asyncIterator)]
    fn async_iterator(step: &JsValue, close: &JsValue) -> JsValue;
}

/// Options of a waiter: `{ signal, timeoutMs, minIntervalMs, maxIntervalMs, onProgress }`.
pub struct WaitOptions {
    signal: Option<AbortSignal>,
    timeout_ms: u64,
    schedule: PollSchedule,
    on_progress: Option<Function>,
}

impl WaitOptions {
    pub fn from_js(v: &JsValue) -> Result<WaitOptions, Error> {
        if !v.is_undefined() && !v.is_null() && !v.is_object() {
            return Err(Error::invalid(
                "options",
                "type",
                "waiter options must be an object like { timeoutMs, onProgress, signal }",
            ));
        }
        // The signal is read (and checked) the same way as for any call.
        let signal = CallOptions::from_js(&signal_only(v))?.signal;
        let ms = |field| read_timeout(v, field).map(|o| o.map(|ms| ms.round().max(1.0) as u64));
        let on_progress = match get(v, "onProgress") {
            f if f.is_undefined() || f.is_null() => None,
            f => Some(f.dyn_into::<Function>().map_err(|_| {
                Error::invalid(
                    "onProgress",
                    "type",
                    "`onProgress` must be a function taking the record",
                )
            })?),
        };
        Ok(WaitOptions {
            signal,
            timeout_ms: ms("timeoutMs")?.unwrap_or(DEFAULT_WAIT_TIMEOUT_MS),
            schedule: PollSchedule::new(ms("minIntervalMs")?, ms("maxIntervalMs")?),
            on_progress,
        })
    }
}

/// `{ signal }` of `v`, so that `CallOptions` does not misread the waiter's own `timeoutMs`.
fn signal_only(v: &JsValue) -> JsValue {
    let out = Object::new();
    let signal = get(v, "signal");
    if !signal.is_undefined() {
        set(&out, "signal", &signal);
    }
    out.into()
}

/// A task id given as a string or as what a create resolved with (`{ taskId }`).
fn task_id_of(v: &JsValue) -> Result<String, Error> {
    let id = v.as_string().or_else(|| get_string(v, "taskId"));
    match id {
        Some(id) if !id.trim().is_empty() => Ok(id),
        _ => Err(Error::invalid(
            "taskId",
            "required",
            "a waiter takes the task id: a non-empty string, or the `{ taskId }` a create resolved with",
        )),
    }
}

/// What one step of polling produced: a record to report and/or the end of the wait.
struct Update {
    record: JsValue,
    report: bool,
    done: bool,
}

/// One task being polled: the waiter's state plus what the edge needs to query.
struct Poll {
    inner: Rc<Inner>,
    task_id: String,
    waiter: Waiter,
    signal: Option<AbortSignal>,
    started: f64,
    /// Sleep before the next query, as the last step decided.
    sleep_ms: Option<u64>,
    /// The last transient failure, as the cause of a TimeoutError.
    last_error: Option<Error>,
    last_state: &'static str,
}

impl Poll {
    fn new(inner: Rc<Inner>, kind: TaskFamily, task_id: String, opts: &WaitOptions) -> Poll {
        Poll {
            inner,
            task_id,
            waiter: Waiter::new(kind, opts.schedule, opts.timeout_ms),
            signal: opts.signal.clone(),
            started: js_sys::Date::now(),
            sleep_ms: None,
            last_error: None,
            last_state: "unknown",
        }
    }

    fn elapsed(&self) -> u64 {
        (js_sys::Date::now() - self.started).max(0.0) as u64
    }

    fn aborted(&self) -> Error {
        let mut e = Error::aborted(self.waiter.family().waiter_name());
        e.attempts = self.waiter.queries();
        e
    }

    /// Queries (and sleeps) until there is a record to report or the wait is over.
    async fn advance(&mut self) -> Result<Update, Error> {
        let kind = self.waiter.family();
        let op = kind.query();
        loop {
            if let Some(ms) = self.sleep_ms.take() {
                if http::sleep(ms as f64, self.signal.as_ref()).await.is_err() {
                    return Err(self.aborted());
                }
            }
            let elapsed = self.elapsed();
            if !self.waiter.may_query(elapsed) {
                return Err(self.timed_out());
            }
            // Retries are the schedule's job (one clock, one deadline, a rate limit slows it down),
            // so each query makes one attempt, cut short at the deadline.
            let opts = CallOptions {
                signal: self.signal.clone(),
                timeout_ms: Some(
                    self.waiter
                        .attempt_timeout_ms(elapsed, self.inner.config.timeout_ms as u64)
                        as f64,
                ),
                max_retries: Some(0),
                headers: Vec::new(),
                extra_fields: None,
            };
            let answer = self
                .inner
                .execute(
                    op,
                    Body::None,
                    &[(kind.query_field(), self.task_id.clone())],
                    &opts,
                )
                .await;
            let (outcome, record) = match answer {
                Ok(data) => {
                    let record = normalize::output(op, data);
                    let (state, stage) = observed(&record);
                    self.last_state = state.as_str();
                    (Outcome::Record(Observed { state, stage }), record)
                }
                Err(e) if e.class == Class::Abort => {
                    return Err(self.aborted().with_cause(e.into_js()))
                }
                Err(e) if e.retryable => {
                    let outcome = Outcome::Transient {
                        rate_limited: e.kind == Some(ErrorKind::RateLimited),
                        retry_after_ms: e.retry_after_ms,
                    };
                    self.last_error = Some(e);
                    (outcome, JsValue::UNDEFINED)
                }
                // Unauthorized, not found, invalid: waiting longer cannot help.
                Err(e) => return Err(e),
            };
            let step = self
                .waiter
                .on_outcome(outcome, self.elapsed(), js_sys::Math::random());
            match step.next {
                Next::Succeeded => {
                    return Ok(Update {
                        record,
                        report: step.report,
                        done: true,
                    })
                }
                Next::Failed => return Err(task_failed(kind, &self.task_id, record)),
                Next::TimedOut => return Err(self.timed_out()),
                Next::Sleep(ms) => {
                    self.sleep_ms = Some(ms);
                    if step.report {
                        return Ok(Update {
                            record,
                            report: true,
                            done: false,
                        });
                    }
                }
            }
        }
    }

    fn timed_out(&mut self) -> Error {
        let kind = self.waiter.family();
        let mut e = Error::new(
            Class::Timeout,
            format!(
                "{}: task {} did not finish within {} ms ({} queries; last state: {})",
                kind.waiter_name(),
                self.task_id,
                self.waiter.timeout_ms(),
                self.waiter.queries(),
                self.last_state,
            ),
        );
        e.attempts = self.waiter.queries();
        match self.last_error.take() {
            Some(cause) => e.with_cause(cause.into_js()),
            None => e,
        }
    }
}

/// The normalized state (and music stage) `normalize` put on a record.
fn observed(record: &JsValue) -> (TaskState, Stage) {
    let state = get_string(record, "state").unwrap_or_default();
    let state = [
        TaskState::Pending,
        TaskState::Running,
        TaskState::Succeeded,
        TaskState::Failed,
    ]
    .into_iter()
    .find(|s| s.as_str() == state)
    .unwrap_or(TaskState::Running);
    let stage = get_string(record, "stage")
        .and_then(|s| Stage::from_callback_type(&s))
        .unwrap_or(Stage::Pending);
    (state, stage)
}

fn task_failed(kind: TaskFamily, task_id: &str, record: JsValue) -> Error {
    let status = get(&record, kind.status_field());
    let status_text = status
        .as_string()
        .or_else(|| status.as_f64().map(tunesmith_protocol::num::fmt))
        .unwrap_or_default();
    let error_message = get(&record, "errorMessage");
    let detail = error_message
        .as_string()
        .filter(|m| !m.is_empty())
        .map(|m| format!(": {m}"))
        .unwrap_or_default();
    let mut e = Error::new(
        Class::TaskFailed,
        format!("task {task_id} failed with status {status_text}{detail}"),
    );
    e.extra = vec![
        ("taskId", JsValue::from_str(task_id)),
        ("taskStatus", status),
        ("errorCode", null_if_undefined(get(&record, "errorCode"))),
        ("errorMessage", null_if_undefined(error_message)),
        ("record", record),
    ];
    e
}

fn null_if_undefined(v: JsValue) -> JsValue {
    if v.is_undefined() {
        JsValue::NULL
    } else {
        v
    }
}

/// Waits for the task to end: reports each new state to `onProgress`, resolves with the final
/// record. Rejects with what the user's `onProgress` threw, unchanged.
pub async fn wait_for(
    inner: Rc<Inner>,
    kind: TaskFamily,
    task_id: String,
    opts: WaitOptions,
) -> Result<JsValue, JsValue> {
    let mut poll = Poll::new(inner, kind, task_id, &opts);
    loop {
        let update = poll.advance().await.map_err(Error::into_js)?;
        if update.report {
            if let Some(f) = &opts.on_progress {
                f.call1(&JsValue::UNDEFINED, &update.record)?;
            }
        }
        if update.done {
            return Ok(update.record);
        }
    }
}

// Not inlined: six exported methods share one copy instead of carrying one each (wasm size).
#[inline(never)]
fn waiter_promise(
    client: &Client,
    kind: TaskFamily,
    task_id: JsValue,
    options: Option<JsValue>,
) -> Promise {
    let inner = client.inner.clone();
    future_to_promise(async move {
        let opts =
            WaitOptions::from_js(&options.unwrap_or(JsValue::UNDEFINED)).map_err(Error::into_js)?;
        let task_id = task_id_of(&task_id).map_err(Error::into_js)?;
        wait_for(inner, kind, task_id, opts).await
    })
}

/// `{ value, done }` of an async iterator.
fn iter_result(value: &JsValue, done: bool) -> JsValue {
    let out = Object::new();
    set(&out, "value", value);
    set(&out, "done", &JsValue::from_bool(done));
    out.into()
}

/// The iterator of `watchTask`: each `next()` polls until the next change of state.
fn watch(inner: Rc<Inner>, task_id: String, opts: &WaitOptions) -> Result<JsValue, Error> {
    // Closing the iterator (`break`, `return()`) aborts a query or sleep in flight: the watch has
    // its own controller, which the caller's signal also fires.
    let stop = web_sys::AbortController::new().map_err(|e| {
        Error::invalid("signal", "type", "AbortController is unavailable").with_cause(e)
    })?;
    let stop_fn: Function = get(&stop, "abort")
        .dyn_into::<Function>()
        .map_err(|e| {
            Error::invalid("signal", "type", "AbortController is unavailable").with_cause(e)
        })?
        .bind0(&stop);
    if let Some(user) = &opts.signal {
        if user.aborted() {
            stop.abort();
        }
        let _ = user.add_event_listener_with_callback("abort", &stop_fn);
    }
    let own = WaitOptions {
        signal: Some(stop.signal()),
        timeout_ms: opts.timeout_ms,
        schedule: opts.schedule,
        on_progress: None,
    };
    let poll = Rc::new(RefCell::new(Some(Poll::new(
        inner,
        TaskFamily::Music,
        task_id,
        &own,
    ))));
    let closed = Rc::new(Cell::new(false));
    let (step_poll, step_closed) = (poll.clone(), closed.clone());
    // The JS wrapper calls `step` one at a time, so the poll is never borrowed twice.
    let step = Closure::<dyn FnMut() -> Promise>::new(move || {
        let (cell, closed) = (step_poll.clone(), step_closed.clone());
        future_to_promise(async move {
            let taken = cell.borrow_mut().take();
            let Some(mut poll) = taken else {
                return Ok(iter_result(&JsValue::UNDEFINED, true));
            };
            let update = poll.advance().await.map_err(Error::into_js)?;
            // After the final record, the poll (and its client) is dropped: the next call ends.
            if !update.done && !closed.get() {
                *cell.borrow_mut() = Some(poll);
            }
            Ok(if update.report {
                iter_result(&update.record, false)
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

/// `wait` of a create, from the options (second argument) or the request (first), which then
/// loses it so that it is not sent. `None` when no wait was asked for.
pub fn wait_requested(
    op: Op,
    request: &JsValue,
    options: &JsValue,
) -> Result<(Option<WaitOptions>, JsValue), Error> {
    let in_options = get(options, "wait");
    let in_request = get(request, "wait");
    let (wait, request) = if !in_request.is_undefined() && request.is_object() {
        let copy = shallow_copy(request);
        // Deleting from a fresh plain-object copy cannot fail.
        let _ = js_sys::Reflect::delete_property(&copy, &JsValue::from_str("wait"));
        (
            if in_options.is_undefined() {
                in_request
            } else {
                in_options
            },
            copy.into(),
        )
    } else {
        (in_options, request.clone())
    };
    let opts =
        match wait {
            w if w.is_undefined() || w.is_null() || w.as_bool() == Some(false) => {
                return Ok((None, request))
            }
            w if w.as_bool() == Some(true) => WaitOptions::from_js(&signal_only(options))?,
            w if w.is_object() => {
                let mut opts = WaitOptions::from_js(&w)?;
                // The call's signal also cancels the wait, unless the wait has its own.
                if opts.signal.is_none() {
                    opts.signal = WaitOptions::from_js(&signal_only(options))?.signal;
                }
                opts
            }
            _ => return Err(Error::invalid(
                "wait",
                "type",
                "`wait` must be true or the waiter options { timeoutMs, onProgress, signal, ... }",
            )),
        };
    if op.creates().is_none() {
        return Err(Error::invalid(
            "wait",
            "type",
            format!(
                "`wait` is for task-creating methods; {} answers at once",
                op.endpoint().name
            ),
        ));
    }
    Ok((Some(opts), request))
}

/// Waits for the task a create just started (its result is `{ taskId }`).
pub async fn wait_after_create(
    inner: Rc<Inner>,
    op: Op,
    created: JsValue,
    opts: WaitOptions,
) -> Result<JsValue, JsValue> {
    let kind = op
        .creates()
        .ok_or_else(|| Error::configuration("not a task-creating method").into_js())?;
    let task_id = task_id_of(&created).map_err(Error::into_js)?;
    wait_for(inner, kind, task_id, opts).await
}

#[wasm_bindgen]
impl Client {
    /// Waits for a music task (generate, extend, covers and extensions of uploads, add-*) to end.
    #[wasm_bindgen(js_name = waitForTask, skip_typescript)]
    pub fn wait_for_task(&self, task_id: JsValue, options: Option<JsValue>) -> Promise {
        waiter_promise(self, TaskFamily::Music, task_id, options)
    }

    /// Waits for a cover task to end.
    #[wasm_bindgen(js_name = waitForCover, skip_typescript)]
    pub fn wait_for_cover(&self, task_id: JsValue, options: Option<JsValue>) -> Promise {
        waiter_promise(self, TaskFamily::Cover, task_id, options)
    }

    /// Waits for a WAV conversion to end.
    #[wasm_bindgen(js_name = waitForWav, skip_typescript)]
    pub fn wait_for_wav(&self, task_id: JsValue, options: Option<JsValue>) -> Promise {
        waiter_promise(self, TaskFamily::Wav, task_id, options)
    }

    /// Waits for a lyrics task to end.
    #[wasm_bindgen(js_name = waitForLyrics, skip_typescript)]
    pub fn wait_for_lyrics(&self, task_id: JsValue, options: Option<JsValue>) -> Promise {
        waiter_promise(self, TaskFamily::Lyrics, task_id, options)
    }

    /// Waits for a vocal separation to end.
    #[wasm_bindgen(js_name = waitForVocalSeparation, skip_typescript)]
    pub fn wait_for_vocal_separation(&self, task_id: JsValue, options: Option<JsValue>) -> Promise {
        waiter_promise(self, TaskFamily::VocalSeparation, task_id, options)
    }

    /// Waits for a music video to end.
    #[wasm_bindgen(js_name = waitForVideo, skip_typescript)]
    pub fn wait_for_video(&self, task_id: JsValue, options: Option<JsValue>) -> Promise {
        waiter_promise(self, TaskFamily::Video, task_id, options)
    }

    /// Waits for a MIDI task to end.
    #[wasm_bindgen(js_name = waitForMidi, skip_typescript)]
    pub fn wait_for_midi(&self, task_id: JsValue, options: Option<JsValue>) -> Promise {
        waiter_promise(self, TaskFamily::Midi, task_id, options)
    }

    /// Waits for an audio recovery to end.
    #[wasm_bindgen(js_name = waitForRecovery, skip_typescript)]
    pub fn wait_for_recovery(&self, task_id: JsValue, options: Option<JsValue>) -> Promise {
        waiter_promise(self, TaskFamily::Recovery, task_id, options)
    }

    /// Waits for a voice validation's phrase.
    #[wasm_bindgen(js_name = waitForVoiceValidation, skip_typescript)]
    pub fn wait_for_voice_validation(&self, task_id: JsValue, options: Option<JsValue>) -> Promise {
        waiter_promise(self, TaskFamily::VoiceValidation, task_id, options)
    }

    /// Waits for a custom voice to be made.
    #[wasm_bindgen(js_name = waitForVoice, skip_typescript)]
    pub fn wait_for_voice(&self, task_id: JsValue, options: Option<JsValue>) -> Promise {
        waiter_promise(self, TaskFamily::Voice, task_id, options)
    }

    /// The states of a music task as an async iterator, ending at the final one.
    #[wasm_bindgen(js_name = watchTask, skip_typescript)]
    pub fn watch_task(
        &self,
        task_id: JsValue,
        options: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        let opts = WaitOptions::from_js(&options.unwrap_or(JsValue::UNDEFINED))?;
        let task_id = task_id_of(&task_id)?;
        Ok(watch(self.inner.clone(), task_id, &opts)?)
    }
}
