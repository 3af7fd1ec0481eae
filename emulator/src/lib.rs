//! tunesmith-emulator: a stateful local emulator of the music-generation service and its upload host.
//!
//! [`start`] binds both hosts and returns a [`Running`] handle; tests start it in-process on port 0.
//! [`build`] makes the same emulator on any [`core::host::Host`] (the wasm build's, `emulator/wasm`).
//! Layers point one way: `core` (no HTTP) → `families` (records and callbacks) → `callbacks`
//! (delivery) → `http` (routers and handlers); `app` is the state they share.

pub mod app;
pub mod callbacks;
pub mod clock;
pub mod config;
pub mod core;
pub mod families;
pub mod http;
pub mod media;
#[cfg(feature = "native")]
pub mod native;
pub mod products;
pub mod sources;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::Path;
#[cfg(feature = "native")]
use std::path::PathBuf;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex};
#[cfg(feature = "native")]
use std::time::Duration;

use axum::http::Method as HttpMethod;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use tokio::sync::watch;
#[cfg(feature = "native")]
use tokio::task::JoinHandle;
use tunesmith_protocol::{Method, Op};

use crate::app::{App, AppState};
use crate::clock::Clock;
use crate::core::host::Host;
use crate::core::{
    credits, faults, inbox, log, personas, rate_limit, registry, store, uploads, url_rules,
};
pub use config::Config;

/// A running emulator: its two addresses, and the way to stop it.
#[cfg(feature = "native")]
pub struct Running {
    pub music_addr: SocketAddr,
    pub upload_addr: SocketAddr,
    pub data_dir: PathBuf,
    app: AppState,
    stop: watch::Sender<bool>,
    servers: Vec<JoinHandle<()>>,
}

#[cfg(feature = "native")]
impl Running {
    pub fn music_url(&self) -> String {
        self.app.music_base.clone()
    }

    pub fn upload_url(&self) -> String {
        self.app.upload_base.clone()
    }

    /// Stops both hosts and every callback delivery; records on disk stay for the next start.
    pub async fn shutdown(self) {
        let _ = self.stop.send(true);
        for server in self.servers {
            let abort = server.abort_handle();
            if tokio::time::timeout(Duration::from_secs(2), server)
                .await
                .is_err()
            {
                abort.abort();
            }
        }
    }
}

/// `http://host:port` of a bound address (loopback for an unspecified one).
pub fn base_url(addr: SocketAddr) -> String {
    let host = if addr.ip().is_unspecified() {
        "127.0.0.1".to_owned()
    } else {
        addr.ip().to_string()
    };
    match addr {
        SocketAddr::V6(_) if !addr.ip().is_unspecified() => {
            format!("http://[{host}]:{}", addr.port())
        }
        _ => format!("http://{host}:{}", addr.port()),
    }
}

/// Binds both hosts, loads what the data directory holds, resumes callbacks, and serves.
#[cfg(feature = "native")]
pub async fn start(config: Config) -> std::io::Result<Running> {
    let clock: Arc<dyn Clock> = if config.manual_clock {
        Arc::new(clock::ManualClock::default())
    } else {
        Arc::new(clock::SystemClock)
    };
    start_with_clock(config, clock).await
}

/// [`start`] on a clock of the caller's (e.g. a frozen [`clock::ManualClock`] that only the
/// admin route moves).
#[cfg(feature = "native")]
pub async fn start_with_clock(config: Config, clock: Arc<dyn Clock>) -> std::io::Result<Running> {
    let music = tokio::net::TcpListener::bind(config.music_addr).await?;
    let upload = tokio::net::TcpListener::bind(config.upload_addr).await?;
    let (music_addr, upload_addr) = (music.local_addr()?, upload.local_addr()?);

    let (temp_dir, root) = match &config.data_dir {
        Some(dir) => (None, dir.clone()),
        None => {
            let t = tempfile::Builder::new()
                .prefix("tunesmith-emulator-")
                .tempdir()?;
            let p = t.path().to_path_buf();
            (Some(t), p)
        }
    };
    let (stop, shutdown) = watch::channel(false);
    let host = native::host(config.callback_timeout_ms)?;
    let bases = Bases {
        music: base_url(music_addr),
        upload: base_url(upload_addr),
        own: url_rules::Own {
            music: music_addr,
            upload: upload_addr,
        },
    };
    let mut app = build(config, clock, host, &root, bases, shutdown)?;
    if let Some(app) = Arc::get_mut(&mut app) {
        app.temp_dir = temp_dir.map(|t| Box::new(t) as Box<dyn std::any::Any + Send + Sync>);
    }
    resume(&app);

    let limits = http::serve::Limits {
        read_timeout: Duration::from_millis(app.config.read_timeout_ms),
        max_connections: app.config.max_connections,
    };
    let mut servers = Vec::new();
    for (listener, router) in [
        (music, http::router::music_router(app.clone())),
        (upload, http::router::upload_router(app.clone())),
    ] {
        let stopped = app.shutdown.clone();
        servers.push(tokio::spawn(http::serve::serve(
            listener, router, limits, stopped,
        )));
    }
    Ok(Running {
        music_addr,
        upload_addr,
        data_dir: root,
        app,
        stop,
        servers,
    })
}

/// Where the two hosts are reached: the base URLs records name, and the addresses the URL rules
/// treat as the emulator's own.
pub struct Bases {
    pub music: String,
    pub upload: String,
    pub own: url_rules::Own,
}

/// The emulator's state on any host: loads what the data directory (`root`, in the host's
/// storage) holds. Serving and [`resume`] are the caller's.
pub fn build(
    config: Config,
    clock: Arc<dyn Clock>,
    host: Host,
    root: &Path,
    bases: Bases,
    shutdown: watch::Receiver<bool>,
) -> std::io::Result<AppState> {
    let dirs = store::Dirs::create(root, host.storage.clone())?;
    let mut routes = HashMap::new();
    for op in Op::ALL {
        let e = op.endpoint();
        let method = match e.method {
            Method::Get => HttpMethod::GET,
            Method::Post => HttpMethod::POST,
        };
        routes
            .entry(op.path(&config.service_segment))
            .or_insert_with(Vec::new)
            .push((method, op));
    }
    let seed = config.seed;
    let entropy = if seed.is_none() {
        host.runtime.entropy()
    } else {
        0
    };
    let rng = StdRng::seed_from_u64(seed.unwrap_or(entropy));
    // Its own stream, so that ids stay what they were for a seed.
    let request_prefix =
        StdRng::seed_from_u64(seed.map_or(entropy ^ 0x0f0f, |s| s ^ 0x1d5e_ed00)).random();
    let faults_seed = seed.unwrap_or(entropy ^ 0x5eed_f00d);
    Ok(Arc::new(App {
        keys: config.keys().into_iter().collect(),
        tasks: registry::Tasks::load(&dirs)?,
        personas: personas::Personas::load(&dirs)?,
        credits: credits::Credits::load(&dirs, config.credits)?,
        uploads: uploads::Uploads::load(&dirs)?,
        rate: rate_limit::Limiter::new(config.rate_limit),
        faults: faults::Faults::new(config.fault_rate, faults_seed),
        log: log::RequestLog::default(),
        inbox: inbox::Inbox::load(&dirs)?,
        host,
        activity: clock::Activity::default(),
        download_slots: tokio::sync::Semaphore::new(sources::MAX_DOWNLOADS),
        own: bases.own,
        shutdown,
        openapi: http::openapi::document(&config, &bases.music, &bases.upload),
        routes,
        rng: Mutex::new(rng),
        request_seq: AtomicU64::new(1),
        request_prefix,
        clock,
        dirs,
        music_base: bases.music,
        upload_base: bases.upload,
        config,
        temp_dir: None,
    }))
}

/// Resumes the callback deliveries a previous run left unfinished.
pub fn resume(app: &AppState) {
    for id in app.tasks.undelivered() {
        callbacks::delivery::spawn(app.clone(), id);
    }
}
