//! The log of API requests and the counters the admin routes show.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use serde::Serialize;

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
    pub fn record(&self, mut entry: Entry) {
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
