//! The callback receiver's memory: every attempt per inbox name, with the status it was answered,
//! and the shape that decides that status (`status=500&times=3` fails the first 3 posts).

use std::collections::HashMap;
use std::sync::Mutex;

use serde::Serialize;
use serde_json::Value;

#[derive(Clone, Serialize)]
pub struct Item {
    pub at: String,
    /// The HTTP status this attempt was answered with.
    pub status: u16,
    /// The body as JSON when it parses, else as a string.
    pub body: Value,
}

#[derive(Default)]
pub struct Inbox {
    boxes: Mutex<HashMap<String, (Vec<Item>, u32)>>,
}

impl Inbox {
    /// Records one post and returns the status to answer it with: `status` while fewer than
    /// `times` posts have failed (always, without `times`), else 200.
    pub fn receive(
        &self,
        name: String,
        status: Option<u16>,
        times: Option<u32>,
        at: String,
        body: Value,
    ) -> u16 {
        let mut boxes = self.boxes.lock().unwrap_or_else(|e| e.into_inner());
        let (items, failed) = boxes.entry(name).or_default();
        let status = match status {
            Some(s) if times.is_none_or(|t| *failed < t) => s,
            _ => 200,
        };
        if status != 200 {
            *failed += 1;
        }
        items.push(Item { at, status, body });
        status
    }

    pub fn list(&self, name: &str) -> Vec<Item> {
        let boxes = self.boxes.lock().unwrap_or_else(|e| e.into_inner());
        boxes.get(name).map(|(i, _)| i.clone()).unwrap_or_default()
    }
}
