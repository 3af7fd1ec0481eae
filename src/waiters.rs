//! The JavaScript face's waiters: `waitFor*` and `wait` on creates read their options, follow the
//! task with the driver's polling loop (`driver::Poll`), and hand each record to `onProgress`.

use crate::driver::{CallOptions, Driver, Error, Poll};
use crate::js::{get, get_string, set, shallow_copy};
use crate::normalize;
use crate::options::read_timeout;
use crate::Client;
use js_sys::{Function, Object, Promise};
use std::rc::Rc;
use tunesmith_protocol::schedule::{PollSchedule, DEFAULT_WAIT_TIMEOUT_MS};
use tunesmith_protocol::{Op, TaskFamily};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;
use web_sys::AbortSignal;

/// Options of a waiter: `{ signal, timeoutMs, minIntervalMs, maxIntervalMs, onProgress }`.
pub struct WaitOptions {
    pub(crate) signal: Option<AbortSignal>,
    pub(crate) timeout_ms: u64,
    pub(crate) schedule: PollSchedule,
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
pub fn task_id_of(v: &JsValue) -> Result<String, Error> {
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

// Not inlined: six exported methods share one copy instead of carrying one each (wasm size).
#[inline(never)]
fn waiter_promise(
    client: &Client,
    family: TaskFamily,
    task_id: JsValue,
    options: Option<JsValue>,
) -> Promise {
    let inner = client.inner.clone();
    future_to_promise(async move {
        let opts =
            WaitOptions::from_js(&options.unwrap_or(JsValue::UNDEFINED)).map_err(Error::into_js)?;
        let task_id = task_id_of(&task_id).map_err(Error::into_js)?;
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
    let Some(family) = op.creates() else {
        return Err(Error::invalid(
            "wait",
            "type",
            format!(
                "`wait` is for task-creating methods; {} answers at once",
                op.endpoint().name
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
    let task_id = task_id_of(&created).map_err(Error::into_js)?;
    wait_for(inner, family, task_id, opts).await
}

/// One exported waiter per family (`waitForTask`...), from one line each. Their TypeScript
/// signatures are in `ts/waiters.d.ts`.
macro_rules! waiters {
    ($($(#[$doc:meta])* $name:ident => $js:literal, $family:ident;)*) => {
        #[wasm_bindgen]
        impl Client {
            $(
                $(#[$doc])*
                #[wasm_bindgen(js_name = $js, skip_typescript)]
                pub fn $name(&self, task_id: JsValue, options: Option<JsValue>) -> Promise {
                    waiter_promise(self, TaskFamily::$family, task_id, options)
                }
            )*
        }
    };
}

waiters! {
    /// Waits for a music task (generate, extend, covers and extensions of uploads, add-*) to end.
    wait_for_task => "waitForTask", Music;
    /// Waits for a cover task to end.
    wait_for_cover => "waitForCover", Cover;
    /// Waits for a WAV conversion to end.
    wait_for_wav => "waitForWav", Wav;
    /// Waits for a lyrics task to end.
    wait_for_lyrics => "waitForLyrics", Lyrics;
    /// Waits for a vocal separation to end.
    wait_for_vocal_separation => "waitForVocalSeparation", VocalSeparation;
    /// Waits for a music video to end.
    wait_for_video => "waitForVideo", Video;
    /// Waits for a MIDI task to end.
    wait_for_midi => "waitForMidi", Midi;
    /// Waits for an audio recovery to end.
    wait_for_recovery => "waitForRecovery", Recovery;
    /// Waits for a voice validation's phrase.
    wait_for_voice_validation => "waitForVoiceValidation", VoiceValidation;
    /// Waits for a custom voice to be made.
    wait_for_voice => "waitForVoice", Voice;
}
