//! Every Promise the package returns settles, whatever it was given: even after a panic.
//!
//! The crate has no panic path that input can reach (see "Panics" in `lib.rs`); this module is
//! what happens if one is found anyway. A panic in wasm cannot unwind: the instance traps and can
//! run nothing more, so the calls in flight would never settle and later calls would enter a
//! module left half-way through. Instead the panic hook (and the allocator, when memory runs out,
//! which std reports without the hook) tells `js/imports.js` first: it rejects every pending
//! Promise, and every later call throws or rejects at once, with a `TunesmithError` of kind
//! `internal` that says what happened.

use js_sys::Promise;
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
use std::alloc::{GlobalAlloc, Layout};
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

#[wasm_bindgen(module = "/src/js/imports.js")]
extern "C" {
    fn settles(promise: Promise) -> Promise;
    // Takes a `&str`: called while panicking or out of memory, it must not allocate.
    fn panicked(message: &str);
    #[wasm_bindgen(catch)]
    fn guard() -> Result<(), JsValue>;
}

static HOOK_INSTALLED: AtomicBool = AtomicBool::new(false);

/// Throws (as the `Err`) the internal error once the module has stopped; every synchronous entry
/// point calls it first. Installs the panic hook on the first call.
pub fn entered() -> Result<(), JsValue> {
    if !HOOK_INSTALLED.swap(true, Ordering::Relaxed) {
        install_hook();
    }
    guard()
}

/// The Promise of an asynchronous entry point: rejected at once if the module has stopped,
/// otherwise `future`'s, tracked so that a panic rejects it.
pub fn promise(future: impl Future<Output = Result<JsValue, JsValue>> + 'static) -> Promise {
    spawn(Box::pin(future))
}

// One copy of `future_to_promise` for every entry point, not one per future type (wasm size).
#[inline(never)]
fn spawn(future: Pin<Box<dyn Future<Output = Result<JsValue, JsValue>>>>) -> Promise {
    if let Err(stopped) = entered() {
        return Promise::reject(&stopped);
    }
    settles(future_to_promise(future))
}

/// A panic raised by the code of a test binary (a file under `tests/`, e.g. a failed assertion)
/// is that test's failure, not the module's: the runner goes on with the next test, so it must not
/// stop the module for them (one failing test would fail every later one). The hook found
/// installed (the test runner's, which reports the message) handles it instead.
fn raised_by_a_test(file: &str) -> bool {
    file.starts_with("tests/") || file.starts_with("tests\\")
}

fn install_hook() {
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

/// The global allocator, which reports an allocation it cannot make before std aborts the
/// module (std's out-of-memory handler does not call the panic hook).
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
pub struct ReportingAlloc<A>(pub A);

#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
// SAFETY: every method forwards to `A` unchanged; the report only calls into JavaScript.
unsafe impl<A: GlobalAlloc> GlobalAlloc for ReportingAlloc<A> {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        out_of_memory_if_null(self.0.alloc(layout))
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        out_of_memory_if_null(self.0.alloc_zeroed(layout))
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        self.0.dealloc(ptr, layout);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        out_of_memory_if_null(self.0.realloc(ptr, layout, new_size))
    }
}

#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
fn out_of_memory_if_null(ptr: *mut u8) -> *mut u8 {
    if ptr.is_null() {
        panicked("out of memory");
    }
    ptr
}
