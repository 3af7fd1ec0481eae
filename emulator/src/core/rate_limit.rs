//! Per-key sliding-window rate limit: at most N requests in any 10 seconds, read on the
//! emulator's clock (the caller passes `now`).

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

/// The window, in milliseconds.
pub const WINDOW_MS: i64 = 10_000;

pub struct Limiter {
    per_window: u32,
    seen: Mutex<HashMap<String, VecDeque<i64>>>,
}

impl Limiter {
    /// `per_window` 0 turns the limit off.
    pub fn new(per_window: u32) -> Self {
        Limiter {
            per_window,
            seen: Mutex::new(HashMap::new()),
        }
    }

    /// Counts one request of `key` at `now_ms`; `Err(ms)` when over the limit, with the wait
    /// until a slot frees.
    pub fn check(&self, key: &str, now_ms: i64) -> Result<(), u64> {
        if self.per_window == 0 {
            return Ok(());
        }
        let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        let q = seen.entry(key.to_owned()).or_default();
        while q.front().is_some_and(|t| now_ms - *t >= WINDOW_MS) {
            q.pop_front();
        }
        if q.len() >= self.per_window as usize {
            let oldest = q.front().copied().unwrap_or(now_ms);
            let wait = (WINDOW_MS - (now_ms - oldest)).max(0);
            return Err((wait as u64).max(1));
        }
        q.push_back(now_ms);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn window_slides() {
        let l = Limiter::new(2);
        let t0 = 1_000_000;
        assert!(l.check("k", t0).is_ok());
        assert!(l.check("k", t0 + 1_000).is_ok());
        let wait = l.check("k", t0 + 2_000).unwrap_err();
        assert_eq!(wait, 8000);
        assert!(l.check("other", t0).is_ok());
        assert!(l.check("k", t0 + 10_000).is_ok());
        assert!(Limiter::new(0).check("k", t0).is_ok());
    }
}
