//! The emulator's notion of "now", and sleeping on it: the system clock, or one that tests and
//! the admin route push forward, waking every sleeper whose moment has come.

use std::pin::pin;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Mutex;

use tokio::sync::Notify;

use crate::core::host::Runtime;

/// Milliseconds since the Unix epoch, as the emulator sees them.
pub trait Clock: Send + Sync {
    fn now_ms(&self) -> i64;
    /// Moves time forward; `false` when this clock cannot be moved.
    fn advance(&self, _ms: i64) -> bool {
        false
    }
    /// Notified whenever the clock is moved; `None` for a clock that only follows real time.
    fn moved(&self) -> Option<&Notify> {
        None
    }
}

/// The machine's clock: std's on native targets; `Date.now()` on wasm32, where std's clocks panic.
#[cfg(not(target_arch = "wasm32"))]
pub fn system_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

#[cfg(target_arch = "wasm32")]
pub fn system_ms() -> i64 {
    js_sys::Date::now() as i64
}

pub struct SystemClock;

impl Clock for SystemClock {
    fn now_ms(&self) -> i64 {
        system_ms()
    }
}

/// System time plus an offset that only grows: stages still advance in real time, and
/// retention (days) or a stage delay can be crossed in an instant. A frozen one does not follow
/// real time at all: only [`Clock::advance`] moves it.
#[derive(Default)]
pub struct ManualClock {
    offset_ms: AtomicI64,
    frozen: bool,
    moved: Notify,
}

impl ManualClock {
    /// A clock that stands still at `start_ms` until advanced.
    pub fn frozen(start_ms: i64) -> Self {
        ManualClock {
            offset_ms: AtomicI64::new(start_ms),
            frozen: true,
            moved: Notify::new(),
        }
    }
}

impl Clock for ManualClock {
    fn now_ms(&self) -> i64 {
        let base = if self.frozen { 0 } else { system_ms() };
        base + self.offset_ms.load(Ordering::Relaxed)
    }

    fn advance(&self, ms: i64) -> bool {
        self.offset_ms.fetch_add(ms.max(0), Ordering::Relaxed);
        self.moved.notify_waiters();
        true
    }

    fn moved(&self) -> Option<&Notify> {
        Some(&self.moved)
    }
}

/// Sleeps until `clock` reads `at_ms` or later: in real time, and woken early when the clock is
/// moved past the moment.
pub async fn sleep_until(clock: &dyn Clock, runtime: &dyn Runtime, at_ms: i64) {
    loop {
        let mut moved = pin!(clock.moved().map(Notify::notified));
        // Registers interest before reading the clock, so an advance in between is not missed.
        if let Some(n) = moved.as_mut().as_pin_mut() {
            n.enable();
        }
        let wait = at_ms - clock.now_ms();
        if wait <= 0 {
            return;
        }
        tokio::select! {
            biased;
            () = runtime.sleep(wait as u64) => {}
            () = async {
                match moved.as_pin_mut() {
                    Some(n) => n.await,
                    None => std::future::pending().await,
                }
            } => {}
        }
    }
}

/// The background work of the emulator (callback deliveries) as the manual clock sees it: how
/// many are running, and the moments the others sleep until. Once the clock is moved, the work
/// that fell due has settled when nothing runs and nobody sleeps until a moment already passed;
/// the in-process emulator's `advance` waits for that.
#[derive(Default)]
pub struct Activity {
    inner: Mutex<(usize, Vec<i64>)>,
}

impl Activity {
    fn with<T>(&self, f: impl FnOnce(&mut (usize, Vec<i64>)) -> T) -> T {
        f(&mut self.inner.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// A piece of work starts (before it is spawned, so that no check can miss it).
    pub fn begin(&self) {
        self.with(|(busy, _)| *busy += 1);
    }

    pub fn end(&self) {
        self.with(|(busy, _)| *busy = busy.saturating_sub(1));
    }

    /// Running work goes to sleep until `at_ms`.
    pub fn sleep(&self, at_ms: i64) {
        self.with(|(busy, sleepers)| {
            *busy = busy.saturating_sub(1);
            sleepers.push(at_ms);
        });
    }

    /// Work that slept until `at_ms` runs again (in one step: never seen as neither).
    pub fn wake(&self, at_ms: i64) {
        self.with(|(busy, sleepers)| {
            if let Some(i) = sleepers.iter().position(|s| *s == at_ms) {
                sleepers.swap_remove(i);
            }
            *busy += 1;
        });
    }

    /// Nothing runs, and nothing sleeps until a moment at or before `now_ms`.
    pub fn settled(&self, now_ms: i64) -> bool {
        self.with(|(busy, sleepers)| *busy == 0 && sleepers.iter().all(|s| *s > now_ms))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manual_clock_moves_forward_only() {
        let c = ManualClock::default();
        let before = c.now_ms();
        assert!(c.advance(86_400_000));
        assert!(c.now_ms() >= before + 86_400_000);
        assert!(!SystemClock.advance(1));
        let f = ManualClock::frozen(1_000);
        assert_eq!(f.now_ms(), 1_000);
        f.advance(-5);
        assert_eq!(f.now_ms(), 1_000);
    }
}
