//! The callback receiver's memory: every attempt per inbox name, with the status it was answered,
//! and the shape that decides that status (`status=500&times=3` fails the first 3 posts). Kept on
//! disk as one append-only JSON-lines file per inbox, each line synced before the post is answered,
//! so that what a sender saw acknowledged survives a crash.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Mutex;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::bounds::{at_most, Bound};
use super::store::{fnv, Dirs};

#[derive(Clone, Serialize, Deserialize)]
pub struct Item {
    pub at: String,
    /// The HTTP status this attempt was answered with.
    pub status: u16,
    /// The body as JSON when it parses, else as a string.
    pub body: Value,
}

/// One line of an inbox file.
#[derive(Serialize, Deserialize)]
struct Line {
    name: String,
    #[serde(flatten)]
    item: Item,
}

/// How the receiver answers: the query of `POST /inbox/{name}`.
#[derive(Clone, Copy, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Shape {
    pub status: Option<u64>,
    pub times: Option<u64>,
    pub delay_ms: Option<u64>,
}

impl Shape {
    /// Refuses values outside the bounds, naming the field.
    pub fn check(&self) -> Result<(), String> {
        if let Some(s) = self.status {
            if !(100..=599).contains(&s) {
                return Err(format!(
                    "`status` must be an HTTP status from 100 to 599; got {s}"
                ));
            }
        }
        at_most("times", self.times, Bound::TIMES)?;
        at_most("delayMs", self.delay_ms, Bound::DELAY_MS)
    }
}

pub struct Inbox {
    dirs: Dirs,
    boxes: Mutex<HashMap<String, (Vec<Item>, u64)>>,
}

impl Inbox {
    /// Reads every inbox file of `dirs` (a line cut short by a crash was never acknowledged: skipped).
    pub fn load(dirs: &Dirs) -> std::io::Result<Inbox> {
        let mut boxes: HashMap<String, (Vec<Item>, u64)> = HashMap::new();
        for path in dirs.storage.list(&dirs.inbox)? {
            if path.extension().and_then(|e| e.to_str()) != Some("jsonl") {
                continue;
            }
            let bytes = dirs.storage.read(&path)?.unwrap_or_default();
            for line in bytes.split(|b| *b == b'\n') {
                let Ok(Line { name, item }) = serde_json::from_slice(line) else {
                    continue;
                };
                let (items, failed) = boxes.entry(name).or_default();
                if item.status != 200 {
                    *failed += 1;
                }
                items.push(item);
            }
        }
        Ok(Inbox {
            dirs: dirs.clone(),
            boxes: Mutex::new(boxes),
        })
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dirs
            .inbox
            .join(format!("{:016x}.jsonl", fnv(&[b"inbox", name.as_bytes()])))
    }

    /// Records one post, on disk first, and returns the status to answer it with: `status` while
    /// fewer than `times` posts have failed (always, without `times`), else 200.
    pub fn receive(
        &self,
        name: String,
        shape: Shape,
        at: String,
        body: Value,
    ) -> std::io::Result<u16> {
        let mut boxes = self.boxes.lock().unwrap_or_else(|e| e.into_inner());
        let failed = boxes.get(&name).map_or(0, |(_, f)| *f);
        let status = match shape.status {
            Some(s) if shape.times.is_none_or(|t| failed < t) => s as u16,
            _ => 200,
        };
        let line = Line {
            name,
            item: Item { at, status, body },
        };
        self.append(&line)?;
        let (items, failed) = boxes.entry(line.name).or_default();
        if status != 200 {
            *failed += 1;
        }
        items.push(line.item);
        Ok(status)
    }

    fn append(&self, line: &Line) -> std::io::Result<()> {
        let mut bytes = serde_json::to_vec(line).map_err(std::io::Error::other)?;
        bytes.push(b'\n');
        self.dirs.storage.append(&self.path(&line.name), &bytes)
    }

    pub fn list(&self, name: &str) -> Vec<Item> {
        let boxes = self.boxes.lock().unwrap_or_else(|e| e.into_inner());
        boxes.get(name).map(|(i, _)| i.clone()).unwrap_or_default()
    }
}
