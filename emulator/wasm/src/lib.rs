//! The emulator as a wasm module with a JavaScript host: the same routes, rules, records and
//! media as the native binary (the `tunesmith-emulator` crate without its `native` feature), with
//! storage, timers and outbound HTTP handed in as one JavaScript object (`host.rs`). JavaScript
//! serves it: in-process through a `fetch` function (`tunesmith/emulator`), or behind Node's
//! `http` on two ports (`npx tunesmith emulator`).
#![cfg(target_arch = "wasm32")]

mod host;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use axum::body::Body;
use axum::http::{HeaderName, HeaderValue, Method, Request};
use axum::Router;
use clap::Parser;
use js_sys::{Array, Object, Reflect, Uint8Array};
use tokio::sync::watch;
use tower::ServiceExt;
use tunesmith_emulator::app::AppState;
use tunesmith_emulator::clock::{self, Clock, ManualClock, SystemClock};
use tunesmith_emulator::core::url_rules::Own;
use tunesmith_emulator::http::router::{music_router, upload_router};
use tunesmith_emulator::{build, resume, Bases, Config};
use wasm_bindgen::prelude::*;

pub use host::JsHost;

fn set(obj: &Object, key: &str, value: &JsValue) {
    let _ = Reflect::set(obj, &JsValue::from_str(key), value);
}

/// Reads the emulator's flags as the binary does: `{ok: true, musicAddr, uploadAddr, dataDir,
/// manualClock, ..., maxUploadMb}` or `{ok: false, text, exitCode}` (help and version: 0, errors: 2), `text`
/// being clap's own message.
#[wasm_bindgen(js_name = parseFlags)]
pub fn parse_flags(args: Vec<String>) -> JsValue {
    let out = Object::new();
    let argv = std::iter::once("tunesmith emulator".to_owned()).chain(args);
    match Config::try_parse_from(argv) {
        Ok(c) => {
            set(&out, "ok", &JsValue::TRUE);
            set(&out, "musicAddr", &c.music_addr.to_string().into());
            set(&out, "uploadAddr", &c.upload_addr.to_string().into());
            let dir = c.data_dir.as_ref().map(|d| d.display().to_string());
            set(
                &out,
                "dataDir",
                &dir.map_or(JsValue::UNDEFINED, JsValue::from),
            );
            set(&out, "manualClock", &c.manual_clock.into());
            set(&out, "www", &c.www.is_some().into());
            set(&out, "usesDevKey", &c.api_keys.is_empty().into());
            set(&out, "readTimeoutMs", &(c.read_timeout_ms as f64).into());
            set(&out, "maxConnections", &(c.max_connections as f64).into());
            set(&out, "maxUploadMb", &(c.max_upload_mb as f64).into());
        }
        Err(e) => {
            set(&out, "ok", &JsValue::FALSE);
            set(&out, "text", &e.render().to_string().into());
            set(&out, "exitCode", &e.exit_code().into());
        }
    }
    out.into()
}

fn js_err(e: impl std::fmt::Display) -> JsError {
    JsError::new(&e.to_string())
}

/// One emulator: both hosts' routers over one state.
#[wasm_bindgen]
pub struct Emulator {
    app: AppState,
    music: Router,
    upload: Router,
    stop: watch::Sender<bool>,
}

#[wasm_bindgen]
impl Emulator {
    /// `args`: the binary's flags. `music_url`/`upload_url`: the base URLs records name;
    /// `music_own`/`upload_own`: the addresses (`ip:port`) the URL rules treat as the emulator's
    /// own hosts. `frozen`: a manual clock that stands still at `Date.now()` until advanced.
    /// `root`: the data directory, as the host's storage names it.
    #[wasm_bindgen(constructor)]
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        args: Vec<String>,
        music_url: String,
        upload_url: String,
        music_own: String,
        upload_own: String,
        frozen: bool,
        root: String,
        host: JsHost,
    ) -> Result<Emulator, JsError> {
        let argv = std::iter::once("tunesmith emulator".to_owned()).chain(args);
        let config = Config::try_parse_from(argv).map_err(|e| js_err(e.render()))?;
        if config.www.is_some() {
            return Err(js_err(
                "--www is served by the native binary only (cargo run -p tunesmith-emulator)",
            ));
        }
        let own = Own {
            music: music_own.parse::<SocketAddr>().map_err(js_err)?,
            upload: upload_own.parse::<SocketAddr>().map_err(js_err)?,
        };
        let clock: Arc<dyn Clock> = if frozen {
            Arc::new(ManualClock::frozen(clock::system_ms()))
        } else if config.manual_clock {
            Arc::new(ManualClock::default())
        } else {
            Arc::new(SystemClock)
        };
        let (stop, shutdown) = watch::channel(false);
        let bases = Bases {
            music: music_url.trim_end_matches('/').to_owned(),
            upload: upload_url.trim_end_matches('/').to_owned(),
            own,
        };
        let app = build(
            config,
            clock,
            host::host(host),
            &PathBuf::from(root),
            bases,
            shutdown,
        )
        .map_err(js_err)?;
        resume(&app);
        Ok(Emulator {
            music: music_router(app.clone()),
            upload: upload_router(app.clone()),
            app,
            stop,
        })
    }

    #[wasm_bindgen(js_name = musicUrl, getter)]
    pub fn music_url(&self) -> String {
        self.app.music_base.clone()
    }

    #[wasm_bindgen(js_name = uploadUrl, getter)]
    pub fn upload_url(&self) -> String {
        self.app.upload_base.clone()
    }

    /// Answers one request to `host` (`"music"` or `"upload"`): `headers` as flat name, value
    /// pairs; resolves to `{status, headers, body}` with the headers as `[name, value]` pairs.
    /// `gone`, when given, settles when the client has gone away: the request is then dropped
    /// where it stands, as hyper drops a native handler whose connection closed (an unanswered
    /// request is not logged, a fault's delay not waited out), and this resolves to null.
    pub fn handle(
        &self,
        host: &str,
        method: &str,
        path_and_query: &str,
        headers: Vec<String>,
        body: Vec<u8>,
        gone: Option<js_sys::Promise>,
    ) -> Result<js_sys::Promise, JsError> {
        let router = match host {
            "music" => self.music.clone(),
            "upload" => self.upload.clone(),
            other => return Err(js_err(format!("no host `{other}`"))),
        };
        let mut req = Request::builder()
            .method(Method::from_bytes(method.as_bytes()).map_err(js_err)?)
            .uri(path_and_query);
        for pair in headers.chunks(2) {
            if let [name, value] = pair {
                let name = HeaderName::from_bytes(name.as_bytes()).map_err(js_err)?;
                let value = HeaderValue::from_str(value).map_err(js_err)?;
                req = req.header(name, value);
            }
        }
        let req = req.body(Body::from(body)).map_err(js_err)?;
        let answer = Box::pin(async move {
            let res = router
                .oneshot(req)
                .await
                .map_err(|e| JsValue::from(js_err(e)))?;
            let (parts, body) = res.into_parts();
            let bytes = axum::body::to_bytes(body, usize::MAX)
                .await
                .map_err(|e| JsValue::from(js_err(e)))?;
            let out = Object::new();
            set(&out, "status", &parts.status.as_u16().into());
            let list = Array::new();
            for (name, value) in &parts.headers {
                let pair = Array::of2(
                    &name.as_str().into(),
                    &String::from_utf8_lossy(value.as_bytes()).as_ref().into(),
                );
                list.push(&pair);
            }
            set(&out, "headers", &list);
            set(&out, "body", &Uint8Array::from(bytes.as_ref()));
            Ok(out.into())
        });
        let Some(gone) = gone else {
            return Ok(wasm_bindgen_futures::future_to_promise(answer));
        };
        let mut gone = wasm_bindgen_futures::JsFuture::from(gone);
        let mut answer = answer;
        Ok(wasm_bindgen_futures::future_to_promise(
            std::future::poll_fn(move |cx| {
                use std::future::Future;
                if std::pin::Pin::new(&mut gone).poll(cx).is_ready() {
                    return std::task::Poll::Ready(Ok(JsValue::NULL));
                }
                answer.as_mut().poll(cx)
            }),
        ))
    }

    /// The emulator's now, in milliseconds since the epoch.
    #[wasm_bindgen(js_name = nowMs)]
    pub fn now_ms(&self) -> f64 {
        self.app.now_ms() as f64
    }

    /// Moves a manual clock forward; `false` on the system clock.
    pub fn advance(&self, ms: f64) -> bool {
        self.app.clock.advance(ms.max(0.0) as i64)
    }

    /// Whether every callback that fell due by now has been delivered (or given up).
    pub fn settled(&self) -> bool {
        self.app.activity.settled(self.app.now_ms())
    }

    /// Stops every callback delivery; requests answered after this still work on the records.
    pub fn close(&self) {
        let _ = self.stop.send(true);
    }
}
