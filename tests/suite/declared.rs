//! Declared = returned: every record, answer and callback event the client hands back from the real
//! emulator (every operation, success and failure, every family) is held against the declarations
//! the package's TypeScript is generated from. Strict both ways: a missing field, a wrong type or a
//! field nobody declared is a disagreement. Over 400 lines on purpose: one walk through every
//! operation, which a reader follows top to bottom.

use super::common::*;
use js_sys::{Array, Function, Object, Promise, Reflect};
use serde_json::json;
use std::cell::RefCell;
use std::rc::Rc;
use tunesmith::parse_callback;
use tunesmith_protocol::schema::{self, check, Inspect, Shape, Ty};
use tunesmith_protocol::Op;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::wasm_bindgen_test;

pub(super) struct Js(pub(super) JsValue);

impl Inspect for Js {
    fn shape(&self) -> Shape {
        let v = &self.0;
        if v.is_null() {
            Shape::Null
        } else if let Some(s) = v.as_string() {
            Shape::Str(s)
        } else if let Some(n) = v.as_f64() {
            Shape::Num(n)
        } else if let Some(b) = v.as_bool() {
            Shape::Bool(b)
        } else if Array::is_array(v) {
            Shape::List
        } else if v.is_object() && !v.is_function() {
            Shape::Object
        } else {
            Shape::Other
        }
    }

    fn keys(&self) -> Vec<String> {
        Object::keys(&Object::from(self.0.clone()))
            .iter()
            .filter_map(|k| k.as_string())
            .collect()
    }

    fn get(&self, key: &str) -> Option<Self> {
        let has = Reflect::has(&self.0, &JsValue::from_str(key)).unwrap_or(false);
        has.then(|| Js(prop(&self.0, key)))
    }

    fn items(&self) -> Vec<Self> {
        Array::from(&self.0).iter().map(Js).collect()
    }
}

/// What was checked: (type name, what produced it).
#[derive(Default)]
struct Tally {
    checked: Vec<(String, String)>,
    failures: Vec<String>,
}

impl Tally {
    fn hold(&mut self, value: &JsValue, ty: &Ty, what: &str) {
        let name = match ty {
            Ty::Ref(r) => r.name,
            // An event counts as the member its tag names.
            Ty::Union(u) => {
                let tag = prop(value, u.tag).as_string().unwrap_or_default();
                u.members
                    .iter()
                    .find(|m| {
                        m.field(u.tag)
                            .is_some_and(|f| matches!(f.ty, Ty::Lit(l) if l == tag))
                    })
                    .map_or(u.name, |m| m.name)
            }
            _ => "?",
        };
        self.checked.push((name.to_owned(), what.to_owned()));
        if let Err(m) = check(&Js(value.clone()), ty) {
            self.failures
                .push(format!("{what}: {m} in {}", show(value)));
        }
    }

    fn hold_record(&mut self, value: &JsValue, record: &'static schema::Record, what: &str) {
        self.hold(value, &Ty::Ref(record), what);
    }

    fn finish(self, at_least_types: usize) {
        let mut types: Vec<&str> = self.checked.iter().map(|(t, _)| t.as_str()).collect();
        types.sort_unstable();
        types.dedup();
        // The records nested in those (tracks, stems, responses...), checked field by field too.
        let mut nested: Vec<&str> = Vec::new();
        fn visit(ty: &Ty, out: &mut Vec<&'static str>) {
            match ty {
                Ty::Ref(r) if !out.contains(&r.name) => {
                    out.push(r.name);
                    r.all_fields().iter().for_each(|f| visit(&f.ty, out));
                }
                Ty::List(t) | Ty::Null(t) => visit(t, out),
                _ => {}
            }
        }
        for name in &types {
            if let Some(r) = schema::RECORDS.iter().find(|r| r.name == *name) {
                r.all_fields()
                    .iter()
                    .for_each(|f| visit(&f.ty, &mut nested));
            }
        }
        nested.retain(|n| !types.contains(n));
        nested.sort_unstable();
        wasm_bindgen_test::console_log!(
            "declared = returned: {} values of {} returned and event types ({}), holding {} nested record types ({}); {} disagreed",
            self.checked.len(),
            types.len(),
            types.join(", "),
            nested.len(),
            nested.join(", "),
            self.failures.len()
        );
        assert!(self.failures.is_empty(), "{}", self.failures.join("\n"));
        assert!(types.len() >= at_least_types, "only {types:?}");
    }
}

fn quick_wait() -> JsValue {
    js(json!({ "minIntervalMs": 15, "maxIntervalMs": 40 }))
}

/// Calls a method of the client by its JavaScript name, as the package's `Client` does: an
/// operation that takes a request through the module's one entry, `__call`, the others (uploads,
/// waiters) by their own export.
fn call(client: &JsValue, name: &str, args: &[JsValue]) -> js_sys::Promise {
    let own = prop(client, name);
    let (method, args): (Function, Array) = if own.is_function() {
        (own.unchecked_into(), args.iter().collect())
    } else {
        let args = std::iter::once(JsValue::from(name)).chain(args.iter().cloned());
        (prop(client, "__call").unchecked_into(), args.collect())
    };
    method.apply(client, &args).unwrap().unchecked_into()
}

/// Waits with `onProgress` collecting every reported record; returns them and the final outcome.
async fn wait_collecting(
    client: &JsValue,
    waiter: &str,
    task_id: &str,
) -> (Vec<JsValue>, Result<JsValue, JsValue>) {
    let seen = Rc::new(RefCell::new(Vec::new()));
    let sink = seen.clone();
    let on_progress =
        Closure::<dyn FnMut(JsValue)>::new(move |r: JsValue| sink.borrow_mut().push(r));
    let opts = quick_wait();
    Reflect::set(&opts, &"onProgress".into(), on_progress.as_ref()).unwrap();
    let outcome = JsFuture::from(call(client, waiter, &[task_id.into(), opts])).await;
    drop(on_progress);
    let records = seen.borrow().clone();
    (records, outcome)
}

/// Creates with `op`'s method, holds the answer, then waits and holds every record on the way,
/// the final one (success) or the failed one (in `TaskFailedError.record`).
async fn create_and_follow(
    tally: &mut Tally,
    client: &JsValue,
    op: Op,
    request: serde_json::Value,
    expect_failure: bool,
) -> JsValue {
    let e = op.endpoint();
    let created = ok(call(client, e.name, &[js(request)])).await;
    tally.hold_record(&created, op.output(), e.name);
    let family = op.creates().unwrap();
    let record = family.query().output();
    let task_id = prop_str(&created, "taskId");
    // The status query right away (usually still pending).
    let early = ok(call(
        client,
        family.query().endpoint().name,
        &[js(json!({ "taskId": task_id }))],
    ))
    .await;
    tally.hold_record(
        &early,
        record,
        &format!("{} right after {}", family.query().endpoint().name, e.name),
    );
    let (progress, outcome) = wait_collecting(client, family.waiter_name(), &task_id).await;
    for p in &progress {
        tally.hold_record(p, record, &format!("{} onProgress", family.waiter_name()));
    }
    match (outcome, expect_failure) {
        (Ok(done), false) => {
            tally.hold_record(&done, record, &format!("{} final", family.waiter_name()));
            done
        }
        (Err(failed), true) => {
            assert_class(&failed, "TaskFailedError");
            let rec = prop(&failed, "record");
            tally.hold_record(
                &rec,
                record,
                &format!("{} failed record", family.waiter_name()),
            );
            rec
        }
        (Ok(v), true) => panic!("{} should have failed: {}", e.name, show(&v)),
        (Err(err), false) => panic!("{} failed: {}", e.name, message(&err)),
    }
}

async fn inbox_bodies(name: &str) -> Vec<JsValue> {
    let items = Array::from(&prop(
        &fetch_json("GET", &format!("{MUSIC}/inbox/{name}"), None, None).await,
        "items",
    ));
    items.iter().map(|i| prop(&i, "body")).collect()
}

/// One second of a 440 Hz tone, 16-bit mono WAV at 8 kHz: a source every operation accepts.
fn melody() -> js_sys::Uint8Array {
    let samples: Vec<u8> = (0..8000)
        .flat_map(|i| {
            let v = (f64::sin(i as f64 * 440.0 * std::f64::consts::TAU / 8000.0) * 8000.0) as i16;
            v.to_le_bytes()
        })
        .collect();
    let mut wav = Vec::from(&b"RIFF"[..]);
    wav.extend_from_slice(&(36 + samples.len() as u32).to_le_bytes());
    wav.extend_from_slice(b"WAVEfmt ");
    wav.extend_from_slice(&[
        16, 0, 0, 0, 1, 0, 1, 0, 0x40, 0x1F, 0, 0, 0x80, 0x3E, 0, 0, 2, 0, 16, 0,
    ]);
    wav.extend_from_slice(b"data");
    wav.extend_from_slice(&(samples.len() as u32).to_le_bytes());
    wav.extend_from_slice(&samples);
    js_sys::Uint8Array::from(&wav[..])
}

#[wasm_bindgen_test]
async fn every_returned_value_matches_its_declared_type() {
    let t = tag("declared");
    let client = JsValue::from(client(&t));
    let mut tally = Tally::default();
    let inbox = |what: &str, failing: bool| {
        let suffix = if failing { "?emulate:failed" } else { "" };
        format!("{MUSIC}/inbox/{t}-{what}-{failing}{suffix}")
    };

    // Uploads: every route of the upload host.
    let b64 = ok(call(
        &client,
        "uploadBase64",
        &[
            melody().into(),
            js(json!({ "fileName": "melody.wav", "mimeType": "audio/wav" })),
        ],
    ))
    .await;
    tally.hold_record(&b64, Op::UploadBase64.output(), "uploadBase64");
    let from_url = ok(call(
        &client,
        "uploadFromUrl",
        &[JsValue::from_str(&prop_str(&b64, "downloadUrl"))],
    ))
    .await;
    tally.hold_record(&from_url, Op::UploadFromUrl.output(), "uploadFromUrl");
    let blob = web_sys::Blob::new_with_u8_array_sequence(&Array::of1(&melody())).unwrap();
    let streamed = ok(call(
        &client,
        "uploadFile",
        &[blob.into(), js(json!({ "fileName": "s.wav" }))],
    ))
    .await;
    tally.hold_record(&streamed, Op::UploadStream.output(), "uploadFile");

    // Music: success (every stage on the way) and failure.
    let song = json!({
        "customMode": true, "instrumental": false, "model": "V6", "callBackUrl": inbox("music", false),
        "prompt": "la la la", "style": "dream pop", "title": "declared",
    });
    let done = create_and_follow(&mut tally, &client, Op::Generate, song, false).await;
    let tracks = Array::from(&prop(&done, "tracks"));
    let (task_id, audio_id) = (prop_str(&done, "taskId"), prop_str(&tracks.get(0), "id"));
    create_and_follow(
        &mut tally,
        &client,
        Op::Generate,
        json!({ "customMode": false, "instrumental": true, "model": "V6", "callBackUrl": inbox("music", true), "prompt": "doomed emulate:SENSITIVE_WORD_ERROR" }),
        true,
    )
    .await;
    let upload_url = prop_str(&b64, "downloadUrl");
    for (op, request) in [
        (
            Op::Extend,
            json!({ "defaultParamFlag": false, "audioId": audio_id, "callBackUrl": inbox("extend", false) }),
        ),
        (
            Op::UploadCover,
            json!({ "uploadUrl": upload_url, "customMode": false, "instrumental": true, "model": "V6", "callBackUrl": inbox("ucover", false), "prompt": "a cover" }),
        ),
        (
            Op::UploadExtend,
            json!({ "uploadUrl": upload_url, "defaultParamFlag": false, "model": "V6", "callBackUrl": inbox("uextend", false) }),
        ),
        (
            Op::AddInstrumental,
            json!({ "uploadUrl": upload_url, "title": "t", "negativeTags": "n", "tags": "pads", "callBackUrl": inbox("addinst", false) }),
        ),
        (
            Op::AddVocals,
            json!({ "uploadUrl": upload_url, "prompt": "p", "title": "t", "negativeTags": "n", "style": "folk", "callBackUrl": inbox("addvoc", false) }),
        ),
    ] {
        create_and_follow(&mut tally, &client, op, request, false).await;
    }

    // Synchronous answers.
    let boost = ok(call(
        &client,
        "boostStyle",
        &[js(json!({ "content": "warm pads" }))],
    ))
    .await;
    tally.hold_record(&boost, Op::BoostStyle.output(), "boostStyle");
    let credits = ok(call(&client, "getCredits", &[])).await;
    tally.hold_record(&credits, Op::GetCredits.output(), "getCredits");
    let words = ok(call(
        &client,
        "getTimestampedLyrics",
        &[js(json!({ "taskId": task_id, "audioId": audio_id }))],
    ))
    .await;
    tally.hold_record(
        &words,
        Op::GetTimestampedLyrics.output(),
        "getTimestampedLyrics",
    );

    // Every other family, success and failure. A task has one cover record at most, so the
    // failing cover is of another song.
    let other = ok(call(&client, "generate", &[
        js(json!({ "customMode": false, "instrumental": true, "model": "V6", "callBackUrl": inbox("other", false), "prompt": "b side" })),
        js(json!({ "wait": { "minIntervalMs": 15, "maxIntervalMs": 40 } })),
    ]))
    .await;
    for failing in [false, true] {
        let audio = prop_str(&tracks.get(u32::from(failing)), "id");
        let cover_of = if failing {
            prop_str(&other, "taskId")
        } else {
            task_id.clone()
        };
        create_and_follow(
            &mut tally,
            &client,
            Op::GenerateCover,
            json!({ "taskId": cover_of, "callBackUrl": inbox("cover", failing) }),
            failing,
        )
        .await;
        create_and_follow(
            &mut tally,
            &client,
            Op::ConvertToWav,
            json!({ "taskId": task_id, "audioId": audio, "callBackUrl": inbox("wav", failing) }),
            failing,
        )
        .await;
        create_and_follow(
            &mut tally,
            &client,
            Op::GenerateLyrics,
            json!({ "prompt": "night train", "callBackUrl": inbox("lyrics", failing) }),
            failing,
        )
        .await;
        for kind in ["separate_vocal", "split_stem"] {
            create_and_follow(&mut tally, &client, Op::SeparateVocals, json!({ "taskId": task_id, "audioId": audio, "type": kind, "callBackUrl": inbox(&format!("vocal-{kind}"), failing) }), failing).await;
        }
        create_and_follow(
            &mut tally,
            &client,
            Op::GenerateVideo,
            json!({ "taskId": task_id, "audioId": audio, "callBackUrl": inbox("video", failing) }),
            failing,
        )
        .await;
    }

    // Every callback the emulator delivered for these tasks, through parseCallback.
    sleep(300).await;
    let mut events = 0;
    for what in [
        "music",
        "other",
        "extend",
        "ucover",
        "uextend",
        "addinst",
        "addvoc",
        "cover",
        "wav",
        "lyrics",
        "vocal-separate_vocal",
        "vocal-split_stem",
        "video",
    ] {
        for failing in [false, true] {
            for body in inbox_bodies(&format!("{t}-{what}-{failing}")).await {
                let event = parse_callback(body.clone())
                    .unwrap_or_else(|e| panic!("{} for {}", message(&e), show(&body)));
                tally.hold(
                    &event,
                    &Ty::Union(&schema::CALLBACK_EVENT),
                    &format!("parseCallback ({what})"),
                );
                events += 1;
            }
        }
    }
    assert!(events >= 20, "only {events} callbacks arrived");
    tally.finish(17);
}

/// The module exports one entry for every operation and every waiter (`__call`, named by the
/// operation or the waiter; the package's JavaScript defines the named methods over it).
#[wasm_bindgen_test]
async fn every_operation_of_the_table_reaches_the_module() {
    let value = JsValue::from(client(&tag("methods")));
    let call: Function = prop(&value, "__call").dyn_into().unwrap();
    let call = |name: JsValue, request: JsValue| -> Promise {
        call.call3(&value, &name, &request, &JsValue::UNDEFINED)
            .unwrap()
            .into()
    };
    for op in Op::ALL {
        let name = op.endpoint().name;
        // The uploads take their file, Base64 data or URL first, not a request object.
        let first = match op {
            Op::UploadStream => "file",
            Op::UploadBase64 => "data",
            Op::UploadFromUrl => "fileUrl",
            _ => "request",
        };
        // Refused by that operation's own check, before the network.
        let e = err(call(name.into(), 5.into())).await;
        assert_eq!(prop_str(&e, "field"), first, "{name}: {}", message(&e));
        if first == "request" {
            // Its message names the operation.
            assert!(message(&e).starts_with(name), "{name}: {}", message(&e));
        }
    }
    for unknown in [
        JsValue::from("noSuchOperation"),
        5.into(),
        JsValue::UNDEFINED,
    ] {
        let e = err(call(unknown, js(json!({})))).await;
        assert_eq!(prop_str(&e, "name"), "ValidationError", "{}", message(&e));
        assert_eq!(prop_str(&e, "field"), "operation", "{}", message(&e));
    }
    // The waiters come through the same entry (api.js names them): each refuses a task id that is
    // not one, before the network, as its own waiter does.
    for family in tunesmith_protocol::TaskFamily::ALL {
        let name = family.waiter_name();
        let e = err(call(name.into(), 5.into())).await;
        assert_eq!(prop_str(&e, "field"), "taskId", "{name}: {}", message(&e));
        assert!(message(&e).contains("waiter"), "{name}: {}", message(&e));
    }
}

#[wasm_bindgen_test]
async fn fields_the_service_adds_later_travel_through_untouched() {
    let t = tag("later-fields");
    // A `fetch` that answers as a newer service would: one more field in the record.
    let fetch = Function::new_no_args(
        "return async (input, init) => {
           const res = await fetch(input, init);
           const body = await res.json();
           if (body && body.data && typeof body.data === 'object') body.data.moodScore = 0.75;
           return new Response(JSON.stringify(body), { status: res.status, headers: res.headers });
         };",
    )
    .call0(&JsValue::UNDEFINED)
    .unwrap();
    let opts = options(&t, json!({}));
    Reflect::set(&opts, &"fetch".into(), &fetch).unwrap();
    let client = tunesmith::Client::new(Some(opts.unchecked_into())).unwrap();
    let created = ok(client.generate(
        js(json!({ "customMode": false, "instrumental": true, "model": "V6", "prompt": "a song", "callBackUrl": callback_url(&t) })),
        None,
    ))
    .await;
    let record =
        ok(client.get_task(js(json!({ "taskId": prop_str(&created, "taskId") })), None)).await;
    assert_eq!(
        prop(&record, "moodScore").as_f64(),
        Some(0.75),
        "{}",
        show(&record)
    );
    // Everything declared is still there and well-typed; the newcomer is the only extra.
    let err = check(&Js(record), &Ty::Ref(&schema::MUSIC_TASK)).unwrap_err();
    assert_eq!(err.path, "MusicTask.moodScore");
}
