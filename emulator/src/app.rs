//! The one state every handler and every callback delivery shares, and the ids it hands out.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use axum::http::Method as HttpMethod;
use rand::rngs::StdRng;
use rand::Rng;
use tokio::sync::watch;
use tunesmith_protocol::Op;

use crate::clock::{Activity, Clock};
use crate::config::Config;
use crate::core::create::Context;
use crate::core::credits::Credits;
use crate::core::faults::Faults;
use crate::core::host::Host;
use crate::core::inbox::Inbox;
use crate::core::log::RequestLog;
use crate::core::personas::Personas;
use crate::core::rate_limit::Limiter;
use crate::core::registry::Tasks;
use crate::core::store::Dirs;
use crate::core::uploads::Uploads;
use crate::core::url_rules::Own;
use crate::families::common::Links;

pub struct App {
    pub config: Config,
    pub keys: HashSet<String>,
    pub clock: Arc<dyn Clock>,
    pub dirs: Dirs,
    /// `http://host:port` of each host, as URLs in records name them.
    pub music_base: String,
    pub upload_base: String,
    pub tasks: Tasks,
    /// Personas made by generatePersona (created voices are tasks).
    pub personas: Personas,
    pub credits: Credits,
    pub uploads: Uploads,
    pub rate: Limiter,
    pub faults: Faults,
    pub log: RequestLog,
    pub inbox: Inbox,
    /// Storage, timers and tasks, outbound HTTP: what the machine supplies (`host.rs`).
    pub host: Host,
    /// Callback deliveries running and sleeping, for the manual clock's `advance`.
    pub activity: Activity,
    /// Downloads running at once; more wait for a slot.
    pub download_slots: tokio::sync::Semaphore,
    /// The addresses of both hosts, which URL downloads may reach only for files.
    pub own: Own,
    pub shutdown: watch::Receiver<bool>,
    pub openapi: serde_json::Value,
    /// The operations served at each path, by method (looked up without allocating).
    pub routes: HashMap<String, Vec<(HttpMethod, Op)>>,
    /// The one random source: ids, seeded by `--seed`.
    pub rng: Mutex<StdRng>,
    pub request_seq: AtomicU64,
    pub request_prefix: u32,
    /// Kept alive with the emulator: the data directory made when none was given.
    pub temp_dir: Option<Box<dyn std::any::Any + Send + Sync>>,
}

pub type AppState = Arc<App>;

impl App {
    /// The operation served at this method and path, if any.
    pub fn op_of(&self, method: &HttpMethod, path: &str) -> Option<Op> {
        let ops = self.routes.get(path)?;
        ops.iter().find(|(m, _)| m == method).map(|(_, op)| *op)
    }

    pub fn now_ms(&self) -> i64 {
        self.clock.now_ms()
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

    pub fn links(&self) -> Links<'_> {
        Links {
            music_base: &self.music_base,
        }
    }

    /// What a new task takes from the emulator: a fresh id, now, the stage delay (the request's
    /// own, else `--stage-delay-ms`) and the seed.
    pub fn draft_context<'a>(
        &self,
        tag: Option<&'a str>,
        stage_delay_ms: Option<u64>,
    ) -> Context<'a> {
        Context {
            id: self.random_id(),
            now_ms: self.now_ms(),
            stage_delay_ms: stage_delay_ms.unwrap_or(self.config.stage_delay_ms),
            seed: self.config.seed.unwrap_or(0),
            tag,
        }
    }
}
