//! The JavaScript face's waiters: `waitFor*` and `wait` on creates read their options, follow the
//! task with the driver's polling loop (`driver::Poll`), and hand each record to `onProgress`.

use crate::driver::{Driver, Poll};
use crate::errors::Error;
use crate::js::{shallow_copy, Arg};
use crate::normalize;
use crate::options::{read_signal, read_timeout};
use crate::{settle, Client};
use js_sys::{Function, Promise};
use std::rc::Rc;
use tunesmith_protocol::schedule::{PollSchedule, DEFAULT_WAIT_TIMEOUT_MS};
use tunesmith_protocol::{Op, TaskFamily};
use wasm_bindgen::prelude::*;
use web_sys::AbortSignal;

/// Options of a waiter: `{ signal, timeoutMs, minIntervalMs, maxIntervalMs, onProgress }`.
pub struct WaitOptions {
    pub(crate) signal: Option<AbortSignal>,
    pub(crate) timeout_ms: u64,
    pub(crate) schedule: PollSchedule,
    on_progress: Option<Function>,
}

impl WaitOptions {
    pub fn from_js(v: &Arg) -> Result<WaitOptions, Error> {
        if !v.is_absent() && !v.is_object() {
            return Err(v.invalid(
                "type",
                "waiter options must be an object like { timeoutMs, onProgress, signal }",
            ));
        }
        // The signal is read (and checked) the same way as for any call.
        let signal = read_signal(&v.field("signal")?)?;
        let ms = |field| -> Result<Option<u64>, Error> {
            Ok(read_timeout(&v.field(field)?)?.map(|ms| ms.round().max(1.0) as u64))
        };
        let on_progress = v.field("onProgress")?;
        let on_progress = match on_progress.function() {
            _ if on_progress.is_absent() => None,
            Some(f) => Some(f),
            None => {
                return Err(on_progress
                    .invalid("type", "`onProgress` must be a function taking the record"))
            }
        };
        Ok(WaitOptions {
            signal,
            timeout_ms: ms("timeoutMs")?.unwrap_or(DEFAULT_WAIT_TIMEOUT_MS),
            schedule: PollSchedule::new(ms("minIntervalMs")?, ms("maxIntervalMs")?),
            on_progress,
        })
    }

    /// The defaults, with only the call's `signal`, for `wait: true` (the call's `timeoutMs` is
    /// per attempt, not the wait's deadline).
    fn signal_only(options: &Arg) -> Result<WaitOptions, Error> {
        let mut opts = WaitOptions::from_js(&Arg::new(JsValue::UNDEFINED, "wait"))?;
        opts.signal = read_signal(&options.field("signal")?)?;
        Ok(opts)
    }
}

/// A task id given as a string or as what a create resolved with (`{ taskId }`).
pub fn task_id_of(v: &Arg) -> Result<String, Error> {
    let id = match v.text()? {
        Some(id) => Some(id),
        None => v.field("taskId")?.text()?,
    };
    match id {
        Some(id) if !id.trim().is_empty() => Ok(id),
        _ => Err(Error::invalid(
            "taskId",
            "required",
            "a waiter takes the task id: a non-empty string, or the `{ taskId }` a create resolved with",
        )),
    }
}

/// Waits for the task to end: reports each new state to `onProgress`, resolves with the final
/// record. Rejects with what the user's `onProgress` threw, unchanged.
pub async fn wait_for(
    inner: Rc<Driver>,
    family: TaskFamily,
    task_id: String,
    opts: WaitOptions,
) -> Result<JsValue, JsValue> {
    let mut poll = Poll::new(
        inner,
        family,
        task_id,
        opts.timeout_ms,
        opts.schedule,
        opts.signal.clone(),
    );
    loop {
        let next = poll.next().await.map_err(Error::into_js)?;
        let record = normalize::output(family.query(), next.record);
        if next.report {
            if let Some(f) = &opts.on_progress {
                f.call1(&JsValue::UNDEFINED, &record)?;
            }
        }
        if next.done {
            return Ok(record);
        }
    }
}

/// A waiter's Promise: what `waitForTask`... return, through the module's one entry (`lib.rs`,
/// `Client::call`), and what the Rust callers of the JavaScript face (the suites) await.
pub(crate) fn waiter_promise(
    client: &Client,
    family: TaskFamily,
    task_id: JsValue,
    options: Option<JsValue>,
) -> Promise {
    let inner = client.inner.clone();
    settle::promise(async move {
        let opts =
            WaitOptions::from_js(&Arg::optional(options, "options")).map_err(Error::into_js)?;
        let task_id = task_id_of(&Arg::new(task_id, "taskId")).map_err(Error::into_js)?;
        wait_for(inner, family, task_id, opts).await
    })
}

/// `wait` of a create, from the options (second argument) or the request (first), which then
/// loses it so that it is not sent; with the family of the task the create starts. `None` when
/// no wait was asked for.
pub fn wait_requested(
    op: Op,
    request: &JsValue,
    options: &JsValue,
) -> Result<(Option<(TaskFamily, WaitOptions)>, JsValue), Error> {
    let options = Arg::new(options.clone(), "options");
    let in_options = options.field("wait")?;
    let in_request = Arg::new(request.clone(), "request").field("wait")?;
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
        match wait.boolean() {
            _ if wait.is_absent() => return Ok((None, request)),
            Some(false) => return Ok((None, request)),
            Some(true) => WaitOptions::signal_only(&options)?,
            None if wait.is_object() => {
                let mut opts = WaitOptions::from_js(&wait)?;
                // The call's signal also cancels the wait, unless the wait has its own.
                if opts.signal.is_none() {
                    opts.signal = read_signal(&options.field("signal")?)?;
                }
                opts
            }
            None => return Err(wait.invalid(
                "type",
                "`wait` must be true or the waiter options { timeoutMs, onProgress, signal, ... }",
            )),
        };
    let Some(family) = op.creates() else {
        return Err(Error::invalid(
            "wait",
            "type",
            tunesmith_protocol::text!(
                "`wait` is for task-creating methods; ",
                op.endpoint().name,
                " answers at once"
            ),
        ));
    };
    Ok((Some((family, opts)), request))
}

/// Waits for the task of `family` a create just started (its result is `{ taskId }`).
pub async fn wait_after_create(
    inner: Rc<Driver>,
    family: TaskFamily,
    created: JsValue,
    opts: WaitOptions,
) -> Result<JsValue, JsValue> {
    let task_id = task_id_of(&Arg::new(created, "taskId")).map_err(Error::into_js)?;
    wait_for(inner, family, task_id, opts).await
}

/// One waiter per family (`waitForTask`...), for Rust callers of the JavaScript face (the suites):
/// the same path as JavaScript's named methods, which reach `waiter_promise` through
/// [`Client::call`] with the family's waiter name (`TaskFamily::waiter_name`). Not exported: one
/// export and one glue method per waiter cost the module more than their names in
/// `methods.generated.js`. Their TypeScript signatures are in `ts/waiters.d.ts`.
macro_rules! waiters {
    ($($(#[$doc:meta])* $name:ident => $family:ident;)*) => {
        impl Client {
            $(
                $(#[$doc])*
                pub fn $name(&self, task_id: JsValue, options: Option<JsValue>) -> Promise {
                    waiter_promise(self, TaskFamily::$family, task_id, options)
                }
            )*
        }
    };
}

waiters! {
    /// Waits for a music task (generate, extend, covers and extensions of uploads, add-*) to end.
    wait_for_task => Music;
    /// Waits for a cover task to end.
    wait_for_cover => Cover;
    /// Waits for a WAV conversion to end.
    wait_for_wav => Wav;
    /// Waits for a lyrics task to end.
    wait_for_lyrics => Lyrics;
    /// Waits for a vocal separation to end.
    wait_for_vocal_separation => VocalSeparation;
    /// Waits for a music video to end.
    wait_for_video => Video;
    /// Waits for a MIDI task to end.
    wait_for_midi => Midi;
    /// Waits for an audio recovery to end.
    wait_for_recovery => Recovery;
    /// Waits for a voice validation's phrase.
    wait_for_voice_validation => VoiceValidation;
    /// Waits for a custom voice to be made.
    wait_for_voice => Voice;
}
