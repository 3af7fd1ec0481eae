//! The emulator's notion of "now", and sleeping on it: the system clock, or one that tests and
//! the admin route push forward, waking every sleeper whose moment has come.

use std::pin::pin;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use tokio::sync::Notify;

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

fn system_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
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
pub async fn sleep_until(clock: &dyn Clock, at_ms: i64) {
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
            () = tokio::time::sleep(Duration::from_millis(wait as u64)) => {}
            () = async {
                match moved.as_pin_mut() {
                    Some(n) => n.await,
                    None => std::future::pending().await,
                }
            } => {}
        }
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

    #[tokio::test]
    async fn advancing_wakes_a_sleeper_whose_moment_has_come() {
        let c = std::sync::Arc::new(ManualClock::frozen(0));
        let sleeper = tokio::spawn({
            let c = c.clone();
            async move { sleep_until(&*c, 60_000).await }
        });
        tokio::task::yield_now().await;
        c.advance(30_000);
        tokio::task::yield_now().await;
        assert!(!sleeper.is_finished());
        c.advance(30_000);
        tokio::time::timeout(Duration::from_secs(5), sleeper)
            .await
            .expect("woken by the advance")
            .expect("no panic");
    }
}
