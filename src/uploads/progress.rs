//! `onProgress` of uploads: `{ loaded, total }` in bytes of the file, increasing, ending at `total`.

use crate::js::set;
use js_sys::{Function, Object};
use std::cell::Cell;
use wasm_bindgen::JsValue;

/// Reports an upload's progress to the caller's callback. Shared by every attempt of one call, so
/// a retry never makes the reported count go backwards: it resumes once it passes what was shown.
pub struct Progress {
    callback: Function,
    total: f64,
    reported: Cell<f64>,
}

impl Progress {
    pub fn new(callback: Function, total: f64) -> Progress {
        Progress {
            callback,
            total,
            reported: Cell::new(0.0),
        }
    }

    /// `sent` of the `body_total` bytes of the request body have gone out. The body is the file
    /// plus a little framing (multipart headers, or the JSON and data-URL prefix around Base64),
    /// so it is scaled to the file's own size, which is what the caller knows and shows.
    pub fn sent(&self, sent: f64, body_total: f64) {
        if body_total > 0.0 && sent.is_finite() {
            self.report((sent / body_total * self.total).floor().min(self.total));
        }
    }

    /// The upload succeeded: the last event, `loaded == total`, unless it was already sent.
    pub fn done(&self) {
        self.report(self.total);
    }

    fn report(&self, loaded: f64) {
        if loaded <= self.reported.get() {
            return;
        }
        self.reported.set(loaded);
        let event = Object::new();
        set(&event, "loaded", &JsValue::from_f64(loaded));
        set(&event, "total", &JsValue::from_f64(self.total));
        // A throwing progress callback is a bug of the page's UI: it must not fail the upload.
        let _ = self.callback.call1(&JsValue::UNDEFINED, &event);
    }
}
