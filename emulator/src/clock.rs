//! The emulator's notion of "now": the system clock, or one that tests can push forward.

use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// Milliseconds since the Unix epoch, as the emulator sees them.
pub trait Clock: Send + Sync {
    fn now_ms(&self) -> i64;
    /// Moves time forward; `false` when this clock cannot be moved.
    fn advance(&self, _ms: i64) -> bool {
        false
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
/// retention (days) can be crossed in an instant.
#[derive(Default)]
pub struct ManualClock {
    offset_ms: AtomicI64,
}

impl Clock for ManualClock {
    fn now_ms(&self) -> i64 {
        system_ms() + self.offset_ms.load(Ordering::Relaxed)
    }

    fn advance(&self, ms: i64) -> bool {
        self.offset_ms.fetch_add(ms.max(0), Ordering::Relaxed);
        true
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
    }
}
