//! Waiters against the real emulator: progress once per state and in order, every failure status,
//! the deadline, abort, transient answers, `watchTask` and `wait` on creates. No timing asserted.

use super::common::*;
use js_sys::{Array, Function, Promise, Reflect};
use serde_json::json;
use std::cell::RefCell;
use std::rc::Rc;
use tunesmith::Client;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::wasm_bindgen_test;

/// Fast waiter options: stages last about 100 ms in the test emulator, so every stage is seen.
fn fast(extra: serde_json::Value) -> JsValue {
    let mut base = json!({ "minIntervalMs": 15, "maxIntervalMs": 30 });
    if let (Some(b), Some(e)) = (base.as_object_mut(), extra.as_object()) {
        b.extend(e.clone());
    }
    js(base)
}

fn with(opts: JsValue, key: &str, value: &JsValue) -> JsValue {
    Reflect::set(&opts, &key.into(), value).unwrap();
    opts
}

type Seen = Rc<RefCell<Vec<JsValue>>>;

/// An `onProgress` that records every record it gets.
fn recorder() -> (Closure<dyn FnMut(JsValue)>, Seen) {
    let seen = Rc::new(RefCell::new(Vec::new()));
    let sink = seen.clone();
    (
        Closure::new(move |record: JsValue| sink.borrow_mut().push(record)),
        seen,
    )
}

fn generate_request(title: &str) -> JsValue {
    js(json!({
        "customMode": true, "instrumental": false, "model": "V6", "callBackUrl": callback_url("waiters"),
        "prompt": "la la la", "style": "dream pop", "title": title,
    }))
}

async fn create_music(client: &Client, title: &str) -> String {
    prop_str(
        &ok(client.generate(generate_request(title), None)).await,
        "taskId",
    )
}

/// A finished music task: its id and its tracks' ids.
pub async fn finished_music(client: &Client, title: &str) -> (String, Vec<String>) {
    let id = create_music(client, title).await;
    let record = ok(client.wait_for_task(JsValue::from_str(&id), Some(fast(json!({}))))).await;
    let tracks = Array::from(&prop(&record, "tracks"))
        .iter()
        .map(|t| prop_str(&t, "id"))
        .collect();
    (id, tracks)
}

async fn get_task_queries(tag: &str) -> usize {
    requests(tag)
        .await
        .iter()
        .filter(|r| prop(r, "op").as_string().as_deref() == Some("getTask"))
        .count()
}

#[wasm_bindgen_test]
async fn progress_arrives_once_per_stage_in_order_with_the_first_track_at_first() {
    let t = tag("wait-progress");
    let client = client(&t);
    let id = create_music(&client, "progress").await;
    let (on_progress, seen) = recorder();
    let opts = with(fast(json!({})), "onProgress", on_progress.as_ref());
    let done = ok(client.wait_for_task(JsValue::from_str(&id), Some(opts))).await;

    let stages: Vec<String> = seen.borrow().iter().map(|r| prop_str(r, "stage")).collect();
    assert_eq!(
        stages,
        ["pending", "text", "first", "complete"],
        "one report per stage, in order"
    );
    // More queries than reports: repeated states were not reported again.
    assert!(get_task_queries(&t).await > stages.len());
    let first = seen.borrow()[2].clone();
    let tracks = Array::from(&prop(&first, "tracks"));
    assert_eq!(tracks.length(), 1, "{}", show(&first));
    assert!(
        !prop_str(&tracks.get(0), "streamAudioUrl").is_empty(),
        "the first track is playable at `first`"
    );
    assert_eq!(prop_str(&done, "state"), "succeeded");
    assert_eq!(prop_str(&done, "taskId"), id);
    assert_eq!(Array::from(&prop(&done, "tracks")).length(), 2);
    assert!(prop_str(&Array::from(&prop(&done, "tracks")).get(1), "audioUrl").starts_with("http"));
}

/// A task whose stages come and go between two queries (`emulate:skip-stages` goes from pending
/// straight to complete): each stage it passed is still reported, once and in order.
#[wasm_bindgen_test]
async fn a_stage_passed_between_two_queries_is_still_reported_in_order() {
    let t = tag("wait-skip");
    let client = client(&t);
    let id = create_music(&client, "emulate:skip-stages").await;
    let (on_progress, seen) = recorder();
    let opts = with(fast(json!({})), "onProgress", on_progress.as_ref());
    let done = ok(client.wait_for_task(JsValue::from_str(&id), Some(opts))).await;
    let seen = seen.borrow();
    let stages: Vec<String> = seen.iter().map(|r| prop_str(r, "stage")).collect();
    assert_eq!(stages, ["pending", "text", "first", "complete"]);
    // A passed stage reads as that stage, from the record that showed it passed.
    assert_eq!(prop_str(&seen[2], "state"), "running");
    assert_eq!(prop_str(&seen[2], "status"), "FIRST_SUCCESS");
    assert_eq!(prop_str(&seen[2], "taskId"), id);
    assert_eq!(prop_str(&done, "stage"), "complete");
}

async fn assert_task_failed(p: Promise, task_id: &str, status: JsValue) -> JsValue {
    let e = err(p).await;
    assert_class(&e, "TaskFailedError");
    assert_eq!(prop_str(&e, "kind"), "task_failed");
    assert_eq!(prop_str(&e, "taskId"), task_id);
    assert_eq!(prop(&e, "taskStatus"), status, "{}", message(&e));
    assert!(
        prop(&e, "errorCode").as_f64().is_some(),
        "errorCode in {}",
        message(&e)
    );
    assert!(!prop(&e, "errorMessage").is_undefined());
    assert_eq!(prop_str(&prop(&e, "record"), "state"), "failed");
    assert!(e.is_instance_of::<js_sys::Error>());
    e
}

#[wasm_bindgen_test]
async fn every_music_failure_status_rejects_with_task_failed() {
    let t = tag("wait-fail-music");
    let client = client(&t);
    for status in [
        "SENSITIVE_WORD_ERROR",
        "GENERATE_AUDIO_FAILED",
        "CALLBACK_EXCEPTION",
        "CREATE_TASK_FAILED",
    ] {
        let id = create_music(&client, &format!("doomed emulate:{status}")).await;
        let (on_progress, seen) = recorder();
        let opts = with(fast(json!({})), "onProgress", on_progress.as_ref());
        let e = assert_task_failed(
            client.wait_for_task(JsValue::from_str(&id), Some(opts)),
            &id,
            status.into(),
        )
        .await;
        assert!(message(&e).contains(status), "{}", message(&e));
        // A failure is the rejection, never a progress report.
        assert!(seen
            .borrow()
            .iter()
            .all(|r| prop_str(r, "state") != "failed"));
    }
}

#[wasm_bindgen_test]
async fn every_other_family_fails_with_its_own_status() {
    let t = tag("wait-fail-others");
    let client = client(&t);
    let (music, tracks) = finished_music(&client, "parent").await;
    let cb = format!("{}?emulate:failed", callback_url(&t));
    let cover =
        ok(client.generate_cover(js(json!({ "taskId": music, "callBackUrl": cb })), None)).await;
    let cover = prop_str(&cover, "taskId");
    assert_task_failed(
        client.wait_for_cover(JsValue::from_str(&cover), Some(fast(json!({})))),
        &cover,
        JsValue::from(3),
    )
    .await;

    let wav = ok(client.convert_to_wav(
        js(json!({ "taskId": music, "audioId": tracks[0], "callBackUrl": cb })),
        None,
    ))
    .await;
    let wav = prop_str(&wav, "taskId");
    assert_task_failed(
        client.wait_for_wav(JsValue::from_str(&wav), Some(fast(json!({})))),
        &wav,
        "GENERATE_WAV_FAILED".into(),
    )
    .await;

    let lyrics = ok(client.generate_lyrics(
        js(json!({ "prompt": "a song emulate:failed", "callBackUrl": cb })),
        None,
    ))
    .await;
    let lyrics = prop_str(&lyrics, "taskId");
    let p = client.wait_for_lyrics(JsValue::from_str(&lyrics), Some(fast(json!({}))));
    assert_task_failed(p, &lyrics, "GENERATE_LYRICS_FAILED".into()).await;

    let vocal = ok(client.separate_vocals(
        js(json!({ "taskId": music, "audioId": tracks[0], "callBackUrl": cb })),
        None,
    ))
    .await;
    let vocal = prop_str(&vocal, "taskId");
    let p = client.wait_for_vocal_separation(JsValue::from_str(&vocal), Some(fast(json!({}))));
    assert_task_failed(p, &vocal, "GENERATE_AUDIO_FAILED".into()).await;

    let video = ok(client.generate_video(
        js(json!({ "taskId": music, "audioId": tracks[0], "callBackUrl": cb })),
        None,
    ))
    .await;
    let video = prop_str(&video, "taskId");
    let p = client.wait_for_video(JsValue::from_str(&video), Some(fast(json!({}))));
    assert_task_failed(p, &video, "GENERATE_MP4_FAILED".into()).await;
}

#[wasm_bindgen_test]
async fn the_deadline_rejects_with_timeout_after_a_last_query() {
    let t = tag("wait-deadline");
    // Every query fails: the task never looks finished, whatever the machine's speed.
    arm_fault(
        &t,
        json!({ "code": 500, "times": 1000, "ops": ["getTask"] }),
    )
    .await;
    let client = client(&t);
    let id = create_music(&client, "slow").await;
    let opts = js(json!({ "timeoutMs": 400, "minIntervalMs": 50, "maxIntervalMs": 100 }));
    let e = err(client.wait_for_task(JsValue::from_str(&id), Some(opts))).await;
    assert_class(&e, "TimeoutError");
    assert_eq!(prop_str(&e, "kind"), "timeout");
    let queries = get_task_queries(&t).await;
    assert!(queries >= 2, "{queries} queries");
    assert_eq!(prop(&e, "attempts").as_f64(), Some(queries as f64));
    // The last failure is the cause.
    assert_class(&prop(&e, "cause"), "ApiError");
}

fn signal_of(controller: &web_sys::AbortController) -> JsValue {
    controller.signal().into()
}

#[wasm_bindgen_test]
async fn abort_mid_wait_rejects_at_once_and_sends_nothing_more() {
    let t = tag("wait-abort");
    let client = client(&t);
    let id = create_music(&client, "aborted").await;
    let controller = abort_controller();
    let opts = with(
        js(json!({ "minIntervalMs": 30, "maxIntervalMs": 30 })),
        "signal",
        &signal_of(&controller),
    );
    let pending = client.wait_for_task(JsValue::from_str(&id), Some(opts));
    sleep(50).await;
    controller.abort();
    let e = err(pending).await;
    assert_class(&e, "AbortError");
    let after_abort = get_task_queries(&t).await;
    assert!(after_abort >= 1);
    // Ten intervals later: still no further query.
    sleep(300).await;
    assert_eq!(
        get_task_queries(&t).await,
        after_abort,
        "a query went out after the abort"
    );
}

#[wasm_bindgen_test]
async fn abort_in_a_long_sleep_and_an_aborted_signal() {
    let t = tag("wait-abort-sleep");
    let client = client(&t);
    let id = create_music(&client, "aborted-sleep").await;
    let controller = abort_controller();
    // Aborting from onProgress: the waiter is between a query and a 20 s sleep.
    let c = controller.clone();
    let abort = Closure::<dyn FnMut(JsValue)>::new(move |_| c.abort());
    let opts = with(
        js(json!({ "minIntervalMs": 20000 })),
        "signal",
        &signal_of(&controller),
    );
    let opts = with(opts, "onProgress", abort.as_ref());
    let e = err(client.wait_for_task(JsValue::from_str(&id), Some(opts))).await;
    assert_class(&e, "AbortError");
    assert_eq!(get_task_queries(&t).await, 1);

    let t = tag("wait-pre-aborted");
    let client = super::common::client(&t);
    let opts = with(js(json!({})), "signal", &signal_of(&controller));
    assert_class(
        &err(client.wait_for_task(JsValue::from_str(&id), Some(opts))).await,
        "AbortError",
    );
    assert_eq!(
        get_task_queries(&t).await,
        0,
        "an aborted signal sends nothing"
    );
}

#[wasm_bindgen_test]
async fn a_waiter_survives_500_430_and_455_answers() {
    let t = tag("wait-transient");
    arm_fault(&t, json!({ "code": 500, "times": 2, "ops": ["getTask"] })).await;
    arm_fault(
        &t,
        json!({ "code": 430, "times": 2, "retryAfterMs": 40, "ops": ["getTask"] }),
    )
    .await;
    arm_fault(&t, json!({ "code": 455, "times": 1, "ops": ["getTask"] })).await;
    let client = client(&t);
    let id = create_music(&client, "bumpy").await;
    let done = ok(client.wait_for_task(JsValue::from_str(&id), Some(fast(json!({}))))).await;
    assert_eq!(prop_str(&done, "state"), "succeeded");
    let codes: Vec<i64> = requests(&t)
        .await
        .iter()
        .filter(|r| prop(r, "op").as_string().as_deref() == Some("getTask"))
        .filter_map(|r| prop(r, "code").as_f64().map(|c| c as i64))
        .collect();
    assert_eq!(&codes[..5], [500, 500, 430, 430, 455], "{codes:?}");
    assert_eq!(codes.last(), Some(&200));
}

#[wasm_bindgen_test]
async fn hopeless_answers_reject_at_once() {
    let t = tag("wait-hopeless");
    let client = client(&t);
    let e =
        err(client.wait_for_task(JsValue::from_str("no-such-task"), Some(fast(json!({}))))).await;
    assert_class(&e, "ApiError");
    assert_eq!(prop_str(&e, "kind"), "not_found");
    assert_eq!(get_task_queries(&t).await, 1);

    for (id, opts, field) in [
        (JsValue::from_str(""), json!({}), "taskId"),
        (JsValue::from(42), json!({}), "taskId"),
        (
            JsValue::from_str("x"),
            json!({ "timeoutMs": -1 }),
            "timeoutMs",
        ),
        (
            JsValue::from_str("x"),
            json!({ "minIntervalMs": "fast" }),
            "minIntervalMs",
        ),
        (
            JsValue::from_str("x"),
            json!({ "onProgress": 3 }),
            "onProgress",
        ),
    ] {
        let e = err(client.wait_for_task(id, Some(js(opts)))).await;
        assert_class(&e, "ValidationError");
        assert_eq!(prop_str(&e, "field"), field);
    }
    // `wait` on a query is refused before anything is sent.
    let e = err(client.get_task(
        js(json!({ "taskId": "x" })),
        Some(js(json!({ "wait": true }))),
    ))
    .await;
    assert_class(&e, "ValidationError");
    assert_eq!(prop_str(&e, "field"), "wait");
    assert_eq!(get_task_queries(&t).await, 1);
}

async fn next(iterator: &JsValue) -> Result<JsValue, JsValue> {
    let next: Function = prop(iterator, "next").unchecked_into();
    JsFuture::from(next.call0(iterator).unwrap().unchecked_into::<Promise>()).await
}

#[wasm_bindgen_test]
async fn watch_task_yields_each_stage_then_ends() {
    let t = tag("watch");
    let client = client(&t);
    let id = create_music(&client, "watched").await;
    let iterator = client
        .watch_task(JsValue::from_str(&id), Some(fast(json!({}))))
        .unwrap();
    // It is its own async iterable, as `for await` needs.
    let get_iter: Function = Reflect::get(&iterator, &js_sys::Symbol::async_iterator().into())
        .unwrap()
        .unchecked_into();
    assert_eq!(get_iter.call0(&iterator).unwrap(), iterator);

    let mut stages = Vec::new();
    loop {
        let step = next(&iterator)
            .await
            .unwrap_or_else(|e| panic!("{}", message(&e)));
        if prop(&step, "done").as_bool() == Some(true) {
            break;
        }
        stages.push(prop_str(&prop(&step, "value"), "stage"));
    }
    assert_eq!(stages, ["pending", "text", "first", "complete"]);
    // Ended for good.
    assert_eq!(
        prop(&next(&iterator).await.unwrap(), "done").as_bool(),
        Some(true)
    );

    let failing = create_music(&client, "emulate:SENSITIVE_WORD_ERROR").await;
    let iterator = client
        .watch_task(JsValue::from_str(&failing), Some(fast(json!({}))))
        .unwrap();
    let mut thrown = None;
    for _ in 0..10 {
        match next(&iterator).await {
            Ok(step) if prop(&step, "done").as_bool() == Some(true) => break,
            Ok(_) => {}
            Err(e) => {
                thrown = Some(e);
                break;
            }
        }
    }
    let e = thrown.expect("a failed task makes the iteration throw");
    assert_class(&e, "TaskFailedError");
    assert_eq!(prop_str(&e, "taskStatus"), "SENSITIVE_WORD_ERROR");
    assert_eq!(
        prop(&next(&iterator).await.unwrap(), "done").as_bool(),
        Some(true)
    );
}

#[wasm_bindgen_test]
async fn watch_task_return_stops_polling() {
    let t = tag("watch-return");
    let client = client(&t);
    let id = create_music(&client, "left early").await;
    let iterator = client
        .watch_task(
            JsValue::from_str(&id),
            Some(js(json!({ "minIntervalMs": 30, "maxIntervalMs": 30 }))),
        )
        .unwrap();
    let first = next(&iterator).await.unwrap();
    assert_eq!(prop_str(&prop(&first, "value"), "stage"), "pending");
    let ret: Function = prop(&iterator, "return").unchecked_into();
    let ended = JsFuture::from(ret.call0(&iterator).unwrap().unchecked_into::<Promise>())
        .await
        .unwrap();
    assert_eq!(prop(&ended, "done").as_bool(), Some(true));
    let queries = get_task_queries(&t).await;
    sleep(200).await;
    assert_eq!(
        get_task_queries(&t).await,
        queries,
        "no query after return()"
    );
}

#[wasm_bindgen_test]
async fn wait_true_on_a_create_resolves_with_the_final_record() {
    let t = tag("wait-create");
    let client = client(&t);
    let record = ok(client.generate(
        generate_request("waited"),
        Some(js(json!({ "wait": true }))),
    ))
    .await;
    assert_eq!(prop_str(&record, "state"), "succeeded");
    assert_eq!(prop_str(&record, "stage"), "complete");
    assert_eq!(Array::from(&prop(&record, "tracks")).length(), 2);

    // `wait` in the request is honoured and not sent.
    let (on_progress, seen) = recorder();
    let request = generate_request("waited in request");
    let wait = with(fast(json!({})), "onProgress", on_progress.as_ref());
    Reflect::set(&request, &"wait".into(), &wait).unwrap();
    let record = ok(client.generate(request.clone(), None)).await;
    assert_eq!(prop_str(&record, "state"), "succeeded");
    assert_eq!(
        seen.borrow()
            .last()
            .map(|r| prop_str(r, "stage"))
            .as_deref(),
        Some("complete")
    );
    let param: serde_json::Value = serde_json::from_str(&prop_str(&record, "param")).unwrap();
    assert!(param.get("wait").is_none(), "`wait` was sent: {param}");
    assert!(
        !prop(&request, "wait").is_undefined(),
        "the caller's object is left alone"
    );
}

#[wasm_bindgen_test]
async fn wait_on_every_family_create_resolves_with_its_record() {
    let t = tag("wait-families");
    let client = client(&t);
    let (music, tracks) = finished_music(&client, "parent").await;
    let cb = callback_url(&t);
    let wait = || {
        Some(js(
            json!({ "wait": { "minIntervalMs": 15, "maxIntervalMs": 30 } }),
        ))
    };
    let cover =
        ok(client.generate_cover(js(json!({ "taskId": music, "callBackUrl": cb })), wait())).await;
    assert_eq!(prop_str(&cover, "state"), "succeeded");
    assert_eq!(
        Array::from(&prop(&cover, "images")).length(),
        2,
        "{}",
        show(&cover)
    );
    let wav = ok(client.convert_to_wav(
        js(json!({ "taskId": music, "audioId": tracks[0], "callBackUrl": cb })),
        wait(),
    ))
    .await;
    assert!(
        prop_str(&prop(&wav, "response"), "audioWavUrl").starts_with("http"),
        "{}",
        show(&wav)
    );
    let lyrics = ok(client.generate_lyrics(
        js(json!({ "prompt": "rain on the roof", "callBackUrl": cb })),
        wait(),
    ))
    .await;
    assert!(
        Array::from(&prop(&lyrics, "lyrics")).length() >= 1,
        "{}",
        show(&lyrics)
    );
    let vocal = ok(client.separate_vocals(
        js(json!({ "taskId": music, "audioId": tracks[0], "callBackUrl": cb })),
        wait(),
    ))
    .await;
    assert!(
        prop_str(&prop(&vocal, "response"), "vocalUrl").starts_with("http"),
        "{}",
        show(&vocal)
    );
    let video = ok(client.generate_video(
        js(json!({ "taskId": music, "audioId": tracks[1], "callBackUrl": cb })),
        wait(),
    ))
    .await;
    assert!(
        prop_str(&prop(&video, "response"), "videoUrl").starts_with("http"),
        "{}",
        show(&video)
    );
    for record in [&cover, &wav, &lyrics, &vocal, &video] {
        assert_eq!(prop_str(record, "state"), "succeeded", "{}", show(record));
    }
    // A failing create with `wait` rejects as the waiter does.
    let e = err(client.generate(generate_request("emulate:GENERATE_AUDIO_FAILED"), wait())).await;
    assert_class(&e, "TaskFailedError");
}

/// A `fetch` option that counts requests in flight and keeps each request's signal.
fn counting_fetch() -> JsValue {
    let make = Function::new_no_args(
        "const state = { inflight: 0, signals: [] };
         const f = (input, init) => {
           state.inflight++;
           state.signals.push(init.signal);
           return fetch(input, init).finally(() => { state.inflight--; });
         };
         f.state = state;
         return f;",
    );
    make.call0(&JsValue::UNDEFINED).unwrap()
}

#[wasm_bindgen_test]
async fn closing_a_watch_aborts_the_query_in_flight() {
    let t = tag("watch-abort");
    let fetch = counting_fetch();
    let opts = options(&t, json!({}));
    Reflect::set(&opts, &"fetch".into(), &fetch).unwrap();
    let client = Client::new(Some(opts.unchecked_into())).unwrap();
    let id = create_music(&client, "closed mid-query").await;
    // The emulator holds the next status query for 3 s.
    arm_fault(
        &t,
        json!({ "delayMs": 3000, "times": 1, "ops": ["getTask"] }),
    )
    .await;
    let iterator = client
        .watch_task(JsValue::from_str(&id), Some(fast(json!({}))))
        .unwrap();
    // Called now (a Rust future would not start until awaited).
    let next_fn: Function = prop(&iterator, "next").unchecked_into();
    let pending = JsFuture::from(
        next_fn
            .call0(&iterator)
            .unwrap()
            .unchecked_into::<Promise>(),
    );
    sleep(300).await;
    let state = prop(&fetch, "state");
    assert_eq!(
        prop(&state, "inflight").as_f64(),
        Some(1.0),
        "the held query"
    );
    let ret: Function = prop(&iterator, "return").unchecked_into();
    JsFuture::from(ret.call0(&iterator).unwrap().unchecked_into::<Promise>())
        .await
        .unwrap();
    // The pending step ends with the abort instead of waiting out the held answer.
    let outcome = pending.await;
    sleep(200).await;
    assert_eq!(
        prop(&state, "inflight").as_f64(),
        Some(0.0),
        "a request is still in flight after return(): {:?}",
        outcome.map(|v| show(&v))
    );
    let signals = Array::from(&prop(&state, "signals"));
    assert!(prop(&signals.get(signals.length() - 1), "aborted")
        .as_bool()
        .unwrap());
    let at_close = get_task_queries(&t).await;
    sleep(500).await;
    assert_eq!(
        get_task_queries(&t).await,
        at_close,
        "no query after return()"
    );
}
