//! `watchTask`: each stage of a music task as an async iterator value, ended by the final record;
//! closing the iterator stops the polling and aborts the query in flight.

use super::common::*;
use super::waiting::*;
use js_sys::{Array, Function, Promise, Reflect};
use serde_json::json;
use tunesmith::Client;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::wasm_bindgen_test;

async fn next(iterator: &JsValue) -> Result<JsValue, JsValue> {
    let next: Function = prop(iterator, "next").unchecked_into();
    JsFuture::from(next.call0(iterator).unwrap().unchecked_into::<Promise>()).await
}

#[wasm_bindgen_test]
async fn watch_task_yields_each_stage_then_ends() {
    let t = tag("watch");
    // Every stage seen live by polling, `pending` first: stages longer than any stall.
    let client = slow_client(&t);
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
    // The first step is `pending` only if the first query comes before the first stage.
    let client = slow_client(&t);
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
