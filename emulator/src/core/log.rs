//! What every answer carries (X-Request-Id, CORP) and the log of API requests the admin routes show.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use axum::extract::{Request, State};
use axum::http::{HeaderValue, Method};
use axum::middleware::Next;
use axum::response::Response;
use serde::Serialize;
use tunesmith_protocol::time::iso_from_epoch_ms;
use tunesmith_protocol::Host;

use crate::envelope::Outcome;
use crate::AppState;

/// Oldest entries are dropped beyond this, so a benchmark cannot exhaust memory.
const MAX_ENTRIES: usize = 100_000;

/// One API request as `GET /_emulator/requests` lists it.
#[derive(Clone, Debug, Serialize)]
pub struct Entry {
    pub seq: u64,
    pub host: &'static str,
    pub method: String,
    pub path: String,
    pub query: String,
    pub op: Option<&'static str>,
    pub code: i64,
    pub tag: Option<String>,
    pub at: String,
}

#[derive(Default, Clone, Copy, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Stats {
    pub requests: u64,
    pub tasks_created: u64,
}

#[derive(Default)]
pub struct RequestLog {
    next_seq: AtomicU64,
    entries: Mutex<VecDeque<Entry>>,
    stats: Mutex<(Stats, HashMap<String, Stats>)>,
}

impl RequestLog {
    fn record(&self, mut entry: Entry) {
        entry.seq = self.next_seq.fetch_add(1, Ordering::Relaxed) + 1;
        {
            let mut stats = self.stats.lock().unwrap_or_else(|e| e.into_inner());
            stats.0.requests += 1;
            if let Some(tag) = &entry.tag {
                stats.1.entry(tag.clone()).or_default().requests += 1;
            }
        }
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        if entries.len() >= MAX_ENTRIES {
            entries.pop_front();
        }
        entries.push_back(entry);
    }

    pub fn task_created(&self, tag: Option<&str>) {
        let mut stats = self.stats.lock().unwrap_or_else(|e| e.into_inner());
        stats.0.tasks_created += 1;
        if let Some(tag) = tag {
            stats.1.entry(tag.to_owned()).or_default().tasks_created += 1;
        }
    }

    /// Entries after `since`, optionally only those with `tag`, oldest first.
    pub fn list(&self, tag: Option<&str>, since: u64) -> Vec<Entry> {
        let entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        entries
            .iter()
            .filter(|e| e.seq > since && tag.is_none_or(|t| e.tag.as_deref() == Some(t)))
            .cloned()
            .collect()
    }

    pub fn stats(&self, tag: Option<&str>) -> Stats {
        let stats = self.stats.lock().unwrap_or_else(|e| e.into_inner());
        match tag {
            None => stats.0,
            Some(t) => stats.1.get(t).copied().unwrap_or_default(),
        }
    }
}

/// The outermost layer of both hosts: request id and CORP on every answer, and the request log.
pub async fn edge(
    State((app, host)): State<(AppState, Host)>,
    req: Request,
    next: Next,
) -> Response {
    let logged = req.method() != Method::OPTIONS && req.uri().path().starts_with("/api/");
    let pending = logged.then(|| {
        let tag = req
            .headers()
            .get("x-emulator-tag")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let path = req.uri().path().to_owned();
        Entry {
            seq: 0,
            host: match host {
                Host::Music => "music",
                Host::Upload => "upload",
            },
            method: req.method().to_string(),
            op: app.op_of(req.method(), &path).map(|op| op.endpoint().name),
            path,
            query: req.uri().query().unwrap_or("").to_owned(),
            code: 0,
            tag,
            at: iso_from_epoch_ms(app.clock.now_ms()),
        }
    });
    let mut res = next.run(req).await;
    if let Some(mut entry) = pending {
        entry.code = res
            .extensions()
            .get::<Outcome>()
            .map_or(i64::from(res.status().as_u16()), |o| o.0);
        app.log.record(entry);
    }
    let id = app.request_id();
    let headers = res.headers_mut();
    if let Ok(v) = HeaderValue::from_str(&id) {
        headers.insert("x-request-id", v);
    }
    headers.insert(
        "cross-origin-resource-policy",
        HeaderValue::from_static("cross-origin"),
    );
    res
}
