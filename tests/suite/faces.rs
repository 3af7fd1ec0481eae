//! The two faces of the client side by side, for the behaviours both must have: the same call
//! through the JavaScript `Client` and the Rust `rust_api::Client`, and what either one reports.

use super::common::*;
use serde_json::json;
use wasm_bindgen::{JsCast, JsValue};

/// A face of the client.
#[derive(Clone, Copy, Debug)]
pub enum Face {
    JavaScript,
    #[cfg(feature = "rust-api")]
    Rust,
}

/// Every face this build has (the Rust one with the `rust-api` feature, as `cargo xtask test` builds).
pub const FACES: &[Face] = &[
    Face::JavaScript,
    #[cfg(feature = "rust-api")]
    Face::Rust,
];

/// A test client of either face: the emulator, the test key, requests tagged `tag`.
pub struct Setup<'a> {
    pub tag: &'a str,
    pub max_retries: u32,
    pub timeout_ms: Option<u32>,
    /// The music host, when not the emulator's.
    pub base_url: Option<&'a str>,
    /// Sent as `X-Emulate-Stage-Delay-Ms`: the stage delay of the tasks this setup creates.
    pub stage_delay_ms: Option<&'a str>,
}

impl<'a> Setup<'a> {
    pub fn new(tag: &'a str) -> Self {
        Setup {
            tag,
            max_retries: 2,
            timeout_ms: None,
            base_url: None,
            stage_delay_ms: None,
        }
    }
}

/// A failure as both faces report it: its kind, and whether and how often it was tried.
#[derive(Debug)]
pub struct Failure {
    pub kind: String,
    pub attempts: u32,
    pub retryable: bool,
    /// The JavaScript class (`ApiError`...); `None` in the Rust face, whose error is one type.
    pub class: Option<String>,
}

/// A music record as a waiter reported it: its stage and the status it carries.
#[derive(Debug, PartialEq)]
pub struct Reported {
    pub stage: String,
    pub status: String,
    pub task_id: String,
}

impl Face {
    fn js_client(s: &Setup<'_>) -> tunesmith::Client {
        let mut extra = json!({ "maxRetries": s.max_retries });
        if let Some(ms) = s.timeout_ms {
            extra["timeoutMs"] = json!(ms);
        }
        if let Some(url) = s.base_url {
            extra["baseUrl"] = json!(url);
        }
        if let Some(ms) = s.stage_delay_ms {
            extra["headers"] = json!({ "X-Emulator-Tag": s.tag, STAGE_DELAY_HEADER: ms });
        }
        client_with(s.tag, extra)
    }

    fn js_failure(e: &JsValue) -> Failure {
        assert!(
            e.is_instance_of::<js_sys::Error>(),
            "not an Error: {}",
            show(e)
        );
        Failure {
            kind: prop_str(e, "kind"),
            attempts: prop(e, "attempts").as_f64().unwrap_or(0.0) as u32,
            retryable: prop(e, "retryable").as_bool().unwrap_or(false),
            class: Some(prop_str(e, "name")),
        }
    }

    /// Creates a music task (`generate`, not custom: `prompt` may hold an `emulate:` token).
    pub async fn generate(self, s: &Setup<'_>, prompt: &str) -> Result<String, Failure> {
        match self {
            Face::JavaScript => {
                let request = js(json!({
                    "customMode": false, "instrumental": true, "model": "V6",
                    "callBackUrl": callback_url(s.tag), "prompt": prompt,
                }));
                let p = Self::js_client(s).generate(request, None);
                match wasm_bindgen_futures::JsFuture::from(p).await {
                    Ok(created) => Ok(prop_str(&created, "taskId")),
                    Err(e) => Err(Self::js_failure(&e)),
                }
            }
            #[cfg(feature = "rust-api")]
            Face::Rust => rust::client_of(s)
                .generate(&rust::generate_request(s.tag, prompt))
                .await
                .map(|created| created.task_id)
                .map_err(|e| rust::failure(&e)),
        }
    }

    /// The credits left: a free query, safe to repeat.
    pub async fn get_credits(self, s: &Setup<'_>) -> Result<f64, Failure> {
        match self {
            Face::JavaScript => {
                let p = Self::js_client(s).get_credits(JsValue::UNDEFINED, None);
                match wasm_bindgen_futures::JsFuture::from(p).await {
                    Ok(credits) => Ok(prop(&credits, "credits").as_f64().unwrap_or(-1.0)),
                    Err(e) => Err(Self::js_failure(&e)),
                }
            }
            #[cfg(feature = "rust-api")]
            Face::Rust => rust::client_of(s)
                .get_credits()
                .await
                .map_err(|e| rust::failure(&e)),
        }
    }

    /// Waits for a music task, querying every `interval_ms`; what `onProgress` was given, in order.
    pub async fn reported(self, s: &Setup<'_>, task_id: &str, interval_ms: u64) -> Vec<Reported> {
        match self {
            Face::JavaScript => {
                let seen = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
                let sink = seen.clone();
                let on_progress =
                    wasm_bindgen::closure::Closure::<dyn FnMut(JsValue)>::new(move |r: JsValue| {
                        sink.borrow_mut().push(r)
                    });
                let opts =
                    js(json!({ "minIntervalMs": interval_ms, "maxIntervalMs": interval_ms }));
                js_sys::Reflect::set(&opts, &"onProgress".into(), on_progress.as_ref()).unwrap();
                let id = JsValue::from_str(task_id);
                ok(Self::js_client(s).wait_for_task(id, Some(opts))).await;
                let seen = seen.borrow();
                seen.iter()
                    .map(|r| Reported {
                        stage: prop_str(r, "stage"),
                        status: prop_str(r, "status"),
                        task_id: prop_str(r, "taskId"),
                    })
                    .collect()
            }
            #[cfg(feature = "rust-api")]
            Face::Rust => {
                use tunesmith::rust_api::{MusicRecord, TaskRecord, WaitOptions};
                let options = WaitOptions {
                    timeout_ms: 30_000,
                    min_interval_ms: Some(interval_ms),
                    max_interval_ms: Some(interval_ms),
                };
                let mut seen = Vec::new();
                rust::client_of(s)
                    .wait_for(task_id, options, |r: &MusicRecord| {
                        seen.push(Reported {
                            stage: r.observed().stage.as_str().to_owned(),
                            status: r.status.clone(),
                            task_id: r.task_id.clone(),
                        })
                    })
                    .await
                    .unwrap();
                seen
            }
        }
    }
}

/// Clients and requests of the Rust face.
#[cfg(feature = "rust-api")]
pub mod rust {
    use super::super::common::{callback_url, KEY, MUSIC, STAGE_DELAY_HEADER, UPLOAD};
    use super::{Failure, Setup};
    use tunesmith::rust_api::{
        Client, ClientConfig, Error, GenerateRequest, MusicRecord, WaitOptions,
    };

    pub fn client_of(s: &Setup<'_>) -> Client {
        let delay = s.stage_delay_ms.map(|ms| (STAGE_DELAY_HEADER, ms));
        let extra: Vec<(&str, &str)> = delay.into_iter().collect();
        let mut config = client_with(s.tag, s.max_retries, &extra).config().clone();
        if let Some(ms) = s.timeout_ms {
            config.timeout_ms = ms;
        }
        if let Some(url) = s.base_url {
            config.base_url = url.to_owned();
        }
        Client::new(config).unwrap()
    }

    pub fn failure(e: &Error) -> Failure {
        Failure {
            kind: e.kind().as_str().to_owned(),
            attempts: e.attempts(),
            retryable: e.retryable(),
            class: None,
        }
    }

    /// A client of the emulator whose requests carry `tag`, with `extra` headers.
    pub fn client_with(tag: &str, max_retries: u32, extra: &[(&str, &str)]) -> Client {
        let mut headers = vec![("X-Emulator-Tag".to_owned(), tag.to_owned())];
        headers.extend(
            extra
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned())),
        );
        Client::new(ClientConfig {
            api_key: Some(KEY.to_owned()),
            base_url: MUSIC.to_owned(),
            upload_url: UPLOAD.to_owned(),
            max_retries,
            headers,
            ..ClientConfig::default()
        })
        .unwrap()
    }

    pub fn client(tag: &str) -> Client {
        client_with(tag, 2, &[])
    }

    pub fn generate_request(tag: &str, prompt: &str) -> GenerateRequest {
        GenerateRequest {
            custom_mode: false,
            instrumental: true,
            model: "V6".into(),
            call_back_url: callback_url(tag),
            prompt: Some(prompt.into()),
            ..GenerateRequest::default()
        }
    }

    /// Polls fast: the emulator runs a stage every 100 ms under `cargo xtask test`.
    pub fn fast() -> WaitOptions {
        WaitOptions {
            timeout_ms: 30_000,
            min_interval_ms: Some(50),
            max_interval_ms: Some(200),
        }
    }

    pub async fn finished_music_task(client: &Client, tag: &str) -> MusicRecord {
        let created = client
            .generate(&generate_request(tag, "a finished song"))
            .await
            .unwrap();
        client
            .wait_for_task(&created.task_id, fast())
            .await
            .unwrap()
    }
}

/// How the Rust face runs in a Rust web app: its futures are plain ones that the app's own
/// wasm-bindgen-futures runs (from a JavaScript Promise, or `spawn_local`), and it sends with
/// gloo-net, not with the npm package's JavaScript `attempt` (src/driver/gloo.rs).
#[cfg(feature = "rust-api")]
mod rust_face_host {
    use super::super::common::{tag, KEY};
    use super::rust::{client, fast, finished_music_task, generate_request};
    use js_sys::{Array, Function, Reflect};
    use wasm_bindgen::JsValue;
    use wasm_bindgen_futures::{future_to_promise, spawn_local, JsFuture};
    use wasm_bindgen_test::wasm_bindgen_test;

    /// A generation and its waiter (requests, backoff sleeps, polling) run inside a JavaScript
    /// Promise made by `future_to_promise`, which the test awaits as JavaScript would.
    #[wasm_bindgen_test]
    async fn a_rust_face_call_is_awaited_from_a_javascript_promise() {
        let t = tag("rs-host-promise");
        let client = client(&t);
        let promise = future_to_promise(async move {
            let created = client
                .generate(&generate_request(&t, "awaited from a promise"))
                .await
                .map_err(|e| JsValue::from_str(&e.to_string()))?;
            let task = client
                .wait_for_task(&created.task_id, fast())
                .await
                .map_err(|e| JsValue::from_str(&e.to_string()))?;
            Ok(JsValue::from_str(&task.status))
        });
        let status = JsFuture::from(promise)
            .await
            .unwrap_or_else(|e| panic!("the Promise rejected: {e:?}"));
        assert_eq!(status.as_string().as_deref(), Some("SUCCESS"));
    }

    /// The same work run by `spawn_local`, its outcome sent back to the test by a oneshot.
    #[wasm_bindgen_test]
    async fn a_rust_face_call_runs_under_spawn_local() {
        let t = tag("rs-host-spawn");
        let (sender, receiver) = futures_channel::oneshot::channel();
        spawn_local(async move {
            let client = client(&t);
            let task = finished_music_task(&client, &t).await;
            let credits = client.get_credits().await;
            let _ = sender.send((task, credits));
        });
        let (task, credits) = receiver.await.expect("the spawned future sent its outcome");
        assert_eq!(task.status, "SUCCESS");
        assert!(!task.response.suno_data.is_empty(), "its tracks: {task:?}");
        assert!(credits.is_ok_and(|c| c > 0.0), "its credits");
    }

    /// Every request of the Rust face reaches the global `fetch` as a `Request` object built by
    /// gloo-net; the npm package's `attempt` passes a URL and an init object. A wrapper of the
    /// global `fetch` (installed before the client is made, so a face that keeps a `fetch` at
    /// construction keeps the wrapper) sees which, for the requests that carry this test's tag.
    #[wasm_bindgen_test]
    async fn the_rust_face_sends_with_gloo_net_not_the_javascript_attempt() {
        let t = tag("rs-host-gloo");
        let global = js_sys::global();
        let fetch = Reflect::get(&global, &"fetch".into()).unwrap();
        let seen = Array::new();
        let wrap = Function::new_with_args(
            "fetch, seen, tag, key",
            "return function (input, init) {
               const isRequest = typeof Request === 'function' && input instanceof Request;
               const headers = isRequest ? input.headers : new Headers(init && init.headers);
               if (headers.get('x-emulator-tag') === tag) {
                 const bearer = headers.get('authorization') === 'Bearer ' + key;
                 seen.push(isRequest ? `Request ${input.method} ${bearer}` : typeof input);
               }
               return fetch.apply(this, arguments);
             };",
        );
        let args = Array::of4(&fetch, &seen, &t.as_str().into(), &KEY.into());
        let wrapper = wrap.apply(&JsValue::UNDEFINED, &args).unwrap();
        Reflect::set(&global, &"fetch".into(), &wrapper).unwrap();
        let client = client(&t);
        let credits = client.get_credits().await;
        Reflect::set(&global, &"fetch".into(), &fetch).unwrap();
        assert!(credits.is_ok(), "the call: {credits:?}");
        let seen: Vec<String> = seen.iter().filter_map(|v| v.as_string()).collect();
        assert_eq!(
            seen,
            ["Request GET true"],
            "one GET, a Request with the key's Authorization header (gloo-net's), not a URL string \
             (the JavaScript attempt's)"
        );
    }
}
