//! How the crate's futures run on JavaScript's event loop: each entry point's future is a task
//! whose Promise JavaScript made (`spawn`), and a JavaScript Promise is awaited through [`settled`].
//! Hand-written in place of `wasm-bindgen-futures`, for size and per-call time.
//!
//! `wasm-bindgen-futures` is general: a task queue drained in a microtask, a Rust closure pair
//! built for every Promise awaited (`JsFuture`) and for every Promise returned
//! (`future_to_promise`), each with its own glue. Here a Promise awaited costs one JavaScript
//! `then` with no closure made: its outcome comes back through the module's one `wake` closure,
//! made once, as a key into [`LEAVES`]. A task is polled at once when it starts and when woken,
//! not from a queue: the first `fetch` of a call starts inside the call. On 2026-11-27 this took
//! the module and its glue from 60,767 B to 60,493 B gzipped (wasm 54,662 to 54,386).
//!
//! Keys are `generation * 2^32 + slot` as an `f64`, so that a late outcome for a slot reused since
//! (a Promise that settles after its future was dropped) is told apart and dropped. Generations
//! count modulo 2^21, which keeps every key below 2^53, where an `f64` holds it exactly.
//!
//! The futures here need only that their `Waker` be woken: [`Settled`] works under any executor
//! (the Rust face's callers run it under their own), and a task's waker re-polls the task, or marks
//! it to be polled again when woken while it is being polled.

use js_sys::Promise;
use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/js/imports.js")]
extern "C" {
    /// A new Promise, tracked under `key` until `settleTask` settles it (or a trap rejects it).
    #[wasm_bindgen(js_name = taskPromise)]
    fn task_promise(key: f64) -> Promise;
    /// Resolves (`ok`) or rejects the Promise of the task `key`.
    #[wasm_bindgen(js_name = settleTask)]
    fn settle_task(key: f64, ok: bool, value: JsValue);
    /// Calls the module's `wake(key, ok, value)` once `value` (a Promise, a thenable or a value)
    /// settles, and never before this returns.
    #[wasm_bindgen(js_name = whenSettled)]
    fn when_settled(value: &JsValue, key: f64);
    /// Hands JavaScript the module's `wake`, once.
    #[wasm_bindgen(js_name = setWake)]
    fn set_wake(wake: &JsValue);
}

type Task = Pin<Box<dyn Future<Output = Result<JsValue, JsValue>>>>;

/// A slot of a task: its future (`None` while it is being polled), and whether it was woken then.
struct TaskSlot {
    future: Option<Task>,
    woken: bool,
}

/// A Promise awaited: the waker to call, until `wake` stores its outcome.
enum Leaf {
    Waiting(Waker),
    Done(Result<JsValue, JsValue>),
}

thread_local! {
    static TASKS: RefCell<Slab<TaskSlot>> = const { RefCell::new(Slab::new()) };
    static LEAVES: RefCell<Slab<Leaf>> = const { RefCell::new(Slab::new()) };
    static WAKE_SET: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `future` as a task and returns its Promise: polled now, then each time it is woken.
pub fn spawn(future: Task) -> Promise {
    let key = TASKS.with(|t| {
        t.borrow_mut().insert(TaskSlot {
            future: None,
            woken: false,
        })
    });
    let promise = task_promise(key);
    run(key, future);
    promise
}

/// Polls the task `key` (its future taken out of the slab, so that it may spawn or wake others)
/// until it is pending with no wake left, or done.
fn run(key: f64, mut future: Task) {
    let waker = Waker::from(Arc::new(TaskWaker(key)));
    let outcome = loop {
        if let Poll::Ready(outcome) = future.as_mut().poll(&mut Context::from_waker(&waker)) {
            break outcome;
        }
        // Back in its slot, unless it was woken while polled: then poll it again. A future not put
        // back is dropped here, outside the borrow: dropping it may run JavaScript.
        let mut parked = Some(future);
        let again = TASKS.with(|t| match t.borrow_mut().get_mut(key) {
            Some(slot) if slot.woken => {
                slot.woken = false;
                true
            }
            Some(slot) => {
                slot.future = parked.take();
                false
            }
            None => false,
        });
        match parked {
            Some(f) if again => future = f,
            _ => return,
        }
    };
    TASKS.with(|t| t.borrow_mut().remove(key));
    drop(future);
    let (ok, value) = match outcome {
        Ok(v) => (true, v),
        Err(e) => (false, e),
    };
    settle_task(key, ok, value);
}

/// The waker of a task: polls it again, or marks it if it is being polled.
struct TaskWaker(f64);

impl Wake for TaskWaker {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        let key = self.0;
        let taken = TASKS.with(|t| {
            let mut tasks = t.borrow_mut();
            let slot = tasks.get_mut(key)?;
            let future = slot.future.take();
            if future.is_none() {
                slot.woken = true;
            }
            future
        });
        if let Some(future) = taken {
            run(key, future);
        }
    }
}

/// The outcome of a JavaScript Promise (or thenable, or value), as a future.
pub fn settled(value: JsValue) -> Settled {
    Settled {
        value: Some(value),
        key: None,
    }
}

pub struct Settled {
    value: Option<JsValue>,
    key: Option<f64>,
}

impl Future for Settled {
    type Output = Result<JsValue, JsValue>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let Some(key) = self.key else {
            ensure_wake();
            let key = LEAVES.with(|l| l.borrow_mut().insert(Leaf::Waiting(cx.waker().clone())));
            self.key = Some(key);
            if let Some(value) = self.value.take() {
                when_settled(&value, key);
            }
            return Poll::Pending;
        };
        let done = LEAVES.with(|l| {
            let mut leaves = l.borrow_mut();
            match leaves.get_mut(key) {
                Some(Leaf::Waiting(waker)) => {
                    if !waker.will_wake(cx.waker()) {
                        *waker = cx.waker().clone();
                    }
                    None
                }
                Some(Leaf::Done(_)) => match leaves.remove(key) {
                    Some(Leaf::Done(outcome)) => Some(outcome),
                    _ => None,
                },
                // Not reachable: the slot is removed only here and on drop.
                None => Some(Err(JsValue::UNDEFINED)),
            }
        });
        match done {
            Some(outcome) => {
                self.key = None;
                Poll::Ready(outcome)
            }
            None => Poll::Pending,
        }
    }
}

impl Drop for Settled {
    fn drop(&mut self) {
        if let Some(key) = self.key.take() {
            // Dropped outside the borrow: the outcome may hold JavaScript values.
            let removed = LEAVES.with(|l| l.borrow_mut().remove(key));
            drop(removed);
        }
    }
}

/// Gives JavaScript the module's `wake` on first use: it stores a Promise's outcome in its leaf and
/// wakes the leaf's waker. A key no longer there (its future dropped) is ignored.
fn ensure_wake() {
    if WAKE_SET.with(|s| s.replace(true)) {
        return;
    }
    let wake =
        Closure::<dyn FnMut(f64, bool, JsValue)>::new(|key: f64, ok: bool, value: JsValue| {
            let waker = LEAVES.with(|l| {
                let mut leaves = l.borrow_mut();
                let leaf = leaves.get_mut(key)?;
                let outcome = if ok { Ok(value) } else { Err(value) };
                match std::mem::replace(leaf, Leaf::Done(outcome)) {
                    Leaf::Waiting(waker) => Some(waker),
                    Leaf::Done(_) => None,
                }
            });
            if let Some(waker) = waker {
                waker.wake();
            }
        });
    set_wake(&wake.into_js_value());
}

/// How many generations a slot counts before it wraps: 2^21, so that `generation * 2^32 + slot`
/// stays below 2^53 and is exact as an `f64`.
const GENERATIONS: u32 = 1 << 21;

/// 2^32: a key is `generation * SLOTS + slot`.
const SLOTS: f64 = 4_294_967_296.0;

/// A vector of slots reused through a free list; keys carry the slot's generation.
struct Slab<T> {
    slots: Vec<(u32, Option<T>)>,
    free: Vec<u32>,
}

impl<T> Slab<T> {
    const fn new() -> Slab<T> {
        Slab {
            slots: Vec::new(),
            free: Vec::new(),
        }
    }

    fn insert(&mut self, value: T) -> f64 {
        let index = match self.free.pop() {
            Some(i) => i,
            None => {
                self.slots.push((0, None));
                self.slots.len() as u32 - 1
            }
        };
        let generation = match self.slots.get_mut(index as usize) {
            Some(slot) => {
                slot.1 = Some(value);
                slot.0
            }
            None => 0,
        };
        f64::from(generation) * SLOTS + f64::from(index)
    }

    fn slot(&mut self, key: f64) -> Option<&mut (u32, Option<T>)> {
        let generation = (key / SLOTS) as u32;
        self.slots
            .get_mut(index_of(key) as usize)
            .filter(|slot| slot.0 == generation)
    }

    fn get_mut(&mut self, key: f64) -> Option<&mut T> {
        self.slot(key)?.1.as_mut()
    }

    fn remove(&mut self, key: f64) -> Option<T> {
        let slot = self.slot(key)?;
        let value = slot.1.take()?;
        slot.0 = (slot.0 + 1) % GENERATIONS;
        self.free.push(index_of(key));
        Some(value)
    }
}

/// The slot index of a key.
fn index_of(key: f64) -> u32 {
    (key % SLOTS) as u32
}

#[cfg(test)]
mod tests {
    use super::{Slab, GENERATIONS};
    use wasm_bindgen_test::wasm_bindgen_test;

    /// A slot reused more than 2^21 times (a server's sequential calls, for days) still gives keys
    /// that find it: past 2^53 an `f64` key would round, and the call's outcome would be lost.
    #[wasm_bindgen_test]
    fn a_slot_reused_past_two_to_the_21_still_finds_its_value() {
        let mut slab = Slab::new();
        let held = slab.insert("held");
        for _ in 0..=GENERATIONS {
            let key = slab.insert("reused");
            assert_eq!(slab.remove(key), Some("reused"));
        }
        let key = slab.insert("last");
        assert_eq!(slab.get_mut(key).map(|v| *v), Some("last"));
        assert_eq!(slab.get_mut(held).map(|v| *v), Some("held"));
    }

    /// A key of a removed value finds nothing, even once its slot holds another.
    #[wasm_bindgen_test]
    fn a_stale_key_finds_nothing_in_a_reused_slot() {
        let mut slab = Slab::new();
        let old = slab.insert(1);
        assert_eq!(slab.remove(old), Some(1));
        let new = slab.insert(2);
        assert_ne!(old, new);
        assert_eq!(slab.get_mut(old), None);
        assert_eq!(slab.remove(old), None);
        assert_eq!(slab.get_mut(new).map(|v| *v), Some(2));
    }
}
