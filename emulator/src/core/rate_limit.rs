//! Per-key sliding-window rate limit: at most N requests in any 10 seconds.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::time::{Duration, Instant};

pub const WINDOW: Duration = Duration::from_secs(10);

pub struct Limiter {
    per_window: u32,
    seen: Mutex<HashMap<String, VecDeque<Instant>>>,
}

impl Limiter {
    /// `per_window` 0 turns the limit off.
    pub fn new(per_window: u32) -> Self {
        Limiter {
            per_window,
            seen: Mutex::new(HashMap::new()),
        }
    }

    /// Counts one request of `key`; `Err(ms)` when over the limit, with the wait until a slot frees.
    pub fn check(&self, key: &str, now: Instant) -> Result<(), u64> {
        if self.per_window == 0 {
            return Ok(());
        }
        let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        let q = seen.entry(key.to_owned()).or_default();
        while q.front().is_some_and(|t| now.duration_since(*t) >= WINDOW) {
            q.pop_front();
        }
        if q.len() >= self.per_window as usize {
            let oldest = q.front().copied().unwrap_or(now);
            let wait = WINDOW.saturating_sub(now.duration_since(oldest));
            return Err((wait.as_millis() as u64).max(1));
        }
        q.push_back(now);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn window_slides() {
        let l = Limiter::new(2);
        let t0 = Instant::now();
        assert!(l.check("k", t0).is_ok());
        assert!(l.check("k", t0 + Duration::from_secs(1)).is_ok());
        let wait = l.check("k", t0 + Duration::from_secs(2)).unwrap_err();
        assert_eq!(wait, 8000);
        assert!(l.check("other", t0).is_ok());
        assert!(l.check("k", t0 + Duration::from_secs(10)).is_ok());
        assert!(Limiter::new(0).check("k", t0).is_ok());
    }
}
