//! The polling schedule of waiters, sans clock: starts near the minimum, backs off towards the maximum.

/// The service recommends polling every 30 seconds.
pub const DEFAULT_MAX_INTERVAL_MS: u64 = 30_000;
pub const DEFAULT_MIN_INTERVAL_MS: u64 = 1_000;
/// Overall deadline of a waiter.
pub const DEFAULT_WAIT_TIMEOUT_MS: u64 = 600_000;
/// Each interval is this much longer than the one before.
pub const GROWTH: f64 = 1.5;
/// Share of an interval that is randomized (±), so that many waiters do not query in step.
pub const JITTER: f64 = 0.1;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PollSchedule {
    pub min_ms: u64,
    pub max_ms: u64,
}

impl Default for PollSchedule {
    fn default() -> Self {
        PollSchedule {
            min_ms: DEFAULT_MIN_INTERVAL_MS,
            max_ms: DEFAULT_MAX_INTERVAL_MS,
        }
    }
}

impl PollSchedule {
    /// A schedule from user options; a maximum below the minimum is raised to it.
    pub fn new(min_ms: Option<u64>, max_ms: Option<u64>) -> Self {
        let min_ms = min_ms.unwrap_or(DEFAULT_MIN_INTERVAL_MS).max(1);
        let max_ms = max_ms
            .unwrap_or(DEFAULT_MAX_INTERVAL_MS.max(min_ms))
            .max(min_ms);
        PollSchedule { min_ms, max_ms }
    }

    /// The interval before query number `n + 1` (`n` queries already made, `n >= 1`), without jitter.
    pub fn nominal_ms(&self, n: u32) -> u64 {
        let grown = self.min_ms as f64 * GROWTH.powi(n.saturating_sub(1).min(64) as i32);
        grown.min(self.max_ms as f64).round() as u64
    }

    /// The interval to sleep: nominal, jittered by ±10% (`jitter` in `[0, 1)`), doubled for each
    /// rate-limit answer in a row (up to the maximum), and never shorter than a `Retry-After`.
    pub fn delay_ms(
        &self,
        n: u32,
        jitter: f64,
        rate_limited_in_a_row: u32,
        retry_after_ms: Option<u64>,
    ) -> u64 {
        let mut base = self.nominal_ms(n) as f64;
        if rate_limited_in_a_row > 0 {
            base = (base * f64::from(1u32 << rate_limited_in_a_row.min(8)))
                .min(self.max_ms as f64)
                .max(base);
        }
        let jittered = base * (1.0 + JITTER * (2.0 * jitter.clamp(0.0, 1.0) - 1.0));
        (jittered.round() as u64)
            .max(retry_after_ms.unwrap_or(0))
            .max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grows_to_the_cap_with_bounded_jitter() {
        let s = PollSchedule::new(Some(1000), Some(5000));
        assert_eq!(s.nominal_ms(1), 1000);
        assert_eq!(s.nominal_ms(2), 1500);
        assert_eq!(s.nominal_ms(3), 2250);
        assert_eq!(s.nominal_ms(20), 5000);
        assert_eq!(s.delay_ms(1, 0.0, 0, None), 900);
        assert_eq!(s.delay_ms(1, 0.5, 0, None), 1000);
        assert!(s.delay_ms(1, 0.999, 0, None) <= 1100);
        assert_eq!(s.delay_ms(1, 0.5, 2, None), 4000);
        assert_eq!(s.delay_ms(1, 0.5, 5, None), 5000);
        assert_eq!(s.delay_ms(1, 0.5, 0, Some(7000)), 7000);
        assert_eq!(PollSchedule::new(Some(50_000), None).max_ms, 50_000);
    }
}
