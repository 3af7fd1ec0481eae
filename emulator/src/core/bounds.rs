//! The largest values the admin routes and the inbox accept: a test asks for a slow answer or a
//! thousand faults, never for a delay of 2^64−1 ms. Refusals name the field and the bound.

/// The bounds, one per kind of value.
pub struct Bound;

impl Bound {
    /// Delays (armed faults, inbox answers): 10 minutes.
    pub const DELAY_MS: u64 = 600_000;
    /// Retry-After of armed faults: one day.
    pub const RETRY_AFTER_MS: u64 = 86_400_000;
    /// Uses of an armed fault, failures of an inbox.
    pub const TIMES: u64 = 1_000_000;
    /// Credits set on a key.
    pub const CREDITS: i64 = 1_000_000_000_000;
    /// One move of the manual clock: ten years.
    pub const ADVANCE_MS: i64 = 10 * 366 * 86_400_000;
    /// Faults armed at once.
    pub const ARMED_FAULTS: usize = 10_000;
}

/// `Err` naming `field` when `value` is above `max`.
pub fn at_most(field: &str, value: Option<u64>, max: u64) -> Result<(), String> {
    match value {
        Some(v) if v > max => Err(format!("`{field}` must be at most {max}; got {v}")),
        _ => Ok(()),
    }
}

/// `Err` naming `field` when `value` is outside `min..=max`.
pub fn between(field: &str, value: i64, min: i64, max: i64) -> Result<(), String> {
    if (min..=max).contains(&value) {
        Ok(())
    } else {
        Err(format!(
            "`{field}` must be at least {min} and at most {max}; got {value}"
        ))
    }
}
