//! tunesmith-emulator: a stateful local emulator of the music-generation service and its upload host.
//!
//! [`start`] binds both hosts and returns a [`Running`] handle; tests start it in-process on port 0.

pub mod auth;
pub mod clock;
pub mod config;
pub mod credits;
pub mod envelope;
pub mod faults;
pub mod gate;
pub mod media;
pub mod rate_limit;
pub mod requests;
pub mod routes;
pub mod store;
pub mod tasks;
pub mod uploads;

use std::collections::{HashMap, HashSet};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::http::Method as HttpMethod;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use tokio::sync::watch;
use tokio::task::JoinHandle;
use tunesmith_protocol::{Method, Op};

pub use config::Config;

/// Everything the handlers share.
pub struct App {
    pub config: Config,
    pub keys: HashSet<String>,
    pub clock: Arc<dyn clock::Clock>,
    pub dirs: store::Dirs,
    /// `http://host:port` of each host, as URLs in records name them.
    pub music_base: String,
    pub upload_base: String,
    pub tasks: tasks::Tasks,
    pub credits: credits::Credits,
    pub uploads: uploads::Uploads,
    pub rate: rate_limit::Limiter,
    pub faults: faults::Faults,
    pub log: requests::RequestLog,
    pub inbox: routes::inbox::Inbox,
    /// Callback deliveries (timeout set per request).
    pub callbacks: reqwest::Client,
    /// Remote downloads of uploads and source audio (30 s timeout).
    pub downloads: reqwest::Client,
    pub shutdown: watch::Receiver<bool>,
    pub openapi: serde_json::Value,
    routes: HashMap<(HttpMethod, String), Op>,
    rng: Mutex<StdRng>,
    request_seq: AtomicU64,
    request_prefix: u32,
    _temp_dir: Option<tempfile::TempDir>,
}

pub type AppState = Arc<App>;

impl App {
    /// The operation served at this method and path, if any.
    pub fn op_of(&self, method: &HttpMethod, path: &str) -> Option<Op> {
        self.routes.get(&(method.clone(), path.to_owned())).copied()
    }

    /// A fresh id of 32 hex digits.
    pub fn random_id(&self) -> String {
        let mut rng = self.rng.lock().unwrap_or_else(|e| e.into_inner());
        format!("{:032x}", rng.random::<u128>())
    }

    /// A UUID-shaped id, as the service's audio ids look.
    pub fn random_uuid(&self) -> String {
        let h = self.random_id();
        format!(
            "{}-{}-{}-{}-{}",
            &h[..8],
            &h[8..12],
            &h[12..16],
            &h[16..20],
            &h[20..]
        )
    }

    pub fn request_id(&self) -> String {
        let n = self.request_seq.fetch_add(1, Ordering::Relaxed);
        format!("{:08x}-{n:08x}", self.request_prefix)
    }
}

/// A running emulator: its two addresses, and the way to stop it.
pub struct Running {
    pub music_addr: SocketAddr,
    pub upload_addr: SocketAddr,
    pub data_dir: PathBuf,
    app: AppState,
    stop: watch::Sender<bool>,
    servers: Vec<JoinHandle<()>>,
}

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

fn base_url(addr: SocketAddr) -> String {
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
pub async fn start(config: Config) -> std::io::Result<Running> {
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
    let dirs = store::Dirs::create(&root)?;
    let clock: Arc<dyn clock::Clock> = if config.manual_clock {
        Arc::new(clock::ManualClock::default())
    } else {
        Arc::new(clock::SystemClock)
    };
    let (stop, shutdown) = watch::channel(false);
    let music_base = base_url(music_addr);
    let upload_base = base_url(upload_addr);
    let mut routes = HashMap::new();
    for op in Op::ALL {
        let e = op.endpoint();
        let method = match e.method {
            Method::Get => HttpMethod::GET,
            Method::Post => HttpMethod::POST,
        };
        routes.insert((method, op.path(&config.service_segment)), op);
    }
    let seed = config.seed;
    let app = Arc::new(App {
        keys: config.keys().into_iter().collect(),
        tasks: tasks::Tasks::load(&dirs)?,
        credits: credits::Credits::load(&dirs, config.credits)?,
        uploads: uploads::Uploads::load(&dirs)?,
        rate: rate_limit::Limiter::new(config.rate_limit),
        faults: faults::Faults::new(config.fault_rate, seed),
        log: requests::RequestLog::default(),
        inbox: routes::inbox::Inbox::default(),
        callbacks: reqwest::Client::builder()
            .connect_timeout(Duration::from_millis(config.callback_timeout_ms))
            .build()
            .map_err(std::io::Error::other)?,
        downloads: reqwest::Client::builder()
            .timeout(Duration::from_millis(
                tunesmith_protocol::upload::URL_DOWNLOAD_TIMEOUT_MS,
            ))
            .build()
            .map_err(std::io::Error::other)?,
        shutdown,
        openapi: routes::openapi::document(&config, &music_base, &upload_base),
        routes,
        rng: Mutex::new(seed.map_or_else(StdRng::from_os_rng, StdRng::seed_from_u64)),
        request_seq: AtomicU64::new(1),
        request_prefix: rand::random(),
        clock,
        dirs,
        music_base,
        upload_base,
        config,
        _temp_dir: temp_dir,
    });

    for id in app.tasks.undelivered() {
        tasks::driver::spawn(app.clone(), id);
    }

    let mut servers = Vec::new();
    for (listener, router) in [
        (music, routes::music_router(app.clone())),
        (upload, routes::upload_router(app.clone())),
    ] {
        let mut stopped = app.shutdown.clone();
        servers.push(tokio::spawn(async move {
            let served = axum::serve(listener, router)
                .with_graceful_shutdown(async move {
                    let _ = stopped.wait_for(|s| *s).await;
                })
                .await;
            if let Err(e) = served {
                eprintln!("server stopped: {e}");
            }
        }));
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
