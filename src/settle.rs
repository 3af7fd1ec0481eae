//! Every Promise the package returns settles, whatever it was given: even after a panic.
//!
//! The crate has no panic path that input can reach (see "Panics" in `lib.rs`); this module is
//! what happens if one is found anyway. A panic in wasm cannot unwind: the instance traps and can
//! run nothing more, so the calls in flight would never settle and later calls would enter a
//! module left half-way through. Instead `js/imports.js` is told: it rejects every pending
//! Promise, and every later call throws or rejects at once, with a `TunesmithError` of kind
//! `internal` that says what happened.
//!
//! Who tells it depends on the build. The shipped module is built with `panic=immediate-abort`
//! (xtask/src/package.rs): a panic traps at once, with no hook and none of std's panic machinery
//! (4.3 KB gzipped, the reporting allocator that went with it included), and `guardExports` of
//! `imports.js`, which wraps every export of the module, sees the trap leave it; so does running
//! out of memory, in every build (std aborts without the hook). The other builds (tests, `cargo xtask build --dev`) keep a panic hook that reports
//! first, with the panic's message.

use js_sys::Promise;
use std::future::Future;
use std::pin::Pin;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/js/imports.js")]
extern "C" {
    // Takes a `&str`: called while panicking, it must not allocate.
    fn panicked(message: &str);
    #[wasm_bindgen(catch)]
    fn guard() -> Result<(), JsValue>;
}

/// Throws (as the `Err`) the internal error once the module has stopped; every synchronous entry
/// point calls it first. Installs the panic hook on the first call.
pub fn entered() -> Result<(), JsValue> {
    #[cfg(not(panic = "immediate-abort"))]
    hook::install_once();
    guard()
}

/// The Promise of an asynchronous entry point: rejected at once if the module has stopped,
/// otherwise `future`'s, run as a task (`tasks.rs`) and tracked so that a panic rejects it.
pub fn promise(future: impl Future<Output = Result<JsValue, JsValue>> + 'static) -> Promise {
    spawn(Box::pin(future))
}

// One copy of the spawn for every entry point, not one per future type (wasm size).
#[inline(never)]
fn spawn(future: Pin<Box<dyn Future<Output = Result<JsValue, JsValue>>>>) -> Promise {
    if let Err(stopped) = entered() {
        return Promise::reject(&stopped);
    }
    crate::tasks::spawn(future)
}

/// The panic hook of the builds that have one (all but the shipped module, whose panics trap
/// at once: `guardExports` of `imports.js` sees those).
#[cfg(not(panic = "immediate-abort"))]
mod hook {
    use crate::settle::panicked;
    use std::sync::atomic::{AtomicBool, Ordering};

    static INSTALLED: AtomicBool = AtomicBool::new(false);

    pub fn install_once() {
        if !INSTALLED.swap(true, Ordering::Relaxed) {
            install();
        }
    }

    /// A panic raised by the code of a test binary (a file under `tests/`, e.g. a failed
    /// assertion) is that test's failure, not the module's: the runner goes on with the next test,
    /// so it must not stop the module for them (one failing test would fail every later one). The
    /// hook found installed (the test runner's, which reports the message) handles it instead.
    fn raised_by_a_test(file: &str) -> bool {
        file.starts_with("tests/") || file.starts_with("tests\\")
    }

    fn install() {
        let found = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let payload = info.payload();
            let message = payload
                .downcast_ref::<&str>()
                .copied()
                .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
                .unwrap_or("a panic");
            match info.location() {
                Some(at) if raised_by_a_test(at.file()) => found(info),
                _ => panicked(message),
            }
        }));
    }
}
