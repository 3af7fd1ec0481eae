//! Retry decisions, sans I/O: whether a failed attempt may be repeated, and how long to wait first.

use crate::codes::ErrorKind;

/// Why an attempt failed, as far as retrying is concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The request may or may not have reached the service.
    Network,
    /// No answer within the attempt's timeout: the service may have acted.
    Timeout,
    /// The service answered with an error envelope.
    Api(ErrorKind),
}

/// Defaults shared by the client and its docs.
pub const DEFAULT_MAX_RETRIES: u32 = 2;
pub const BASE_DELAY_MS: u64 = 500;
pub const MAX_DELAY_MS: u64 = 8_000;
/// A `Retry-After` longer than this is not waited for: the error is returned instead.
pub const MAX_RETRY_AFTER_MS: u64 = 60_000;

/// May a call be repeated after this failure?
///
/// Task-creating calls are charged: they are repeated only when the service said that nothing was
/// done (rate limit, maintenance). After a 500, a timeout or a broken connection a task may exist
/// already, and a second one would cost credits twice. Queries and uploads are safe to repeat.
pub fn is_retryable(creates_task: bool, failure: Failure) -> bool {
    match failure {
        Failure::Api(kind) if kind.nothing_was_done() => true,
        _ if creates_task => false,
        Failure::Network | Failure::Timeout | Failure::Api(ErrorKind::Server) => true,
        Failure::Api(_) => false,
    }
}

/// Milliseconds to wait before retry number `retry` (1 for the first retry).
///
/// Honours `retry_after_ms` when the service sent one within [`MAX_RETRY_AFTER_MS`]; otherwise
/// exponential backoff from [`BASE_DELAY_MS`] to [`MAX_DELAY_MS`], less up to 25% jitter
/// (`jitter` in `[0, 1)`, from the caller's random source) so that clients do not retry in step.
pub fn backoff_ms(retry: u32, retry_after_ms: Option<u64>, jitter: f64) -> u64 {
    if let Some(ms) = retry_after_ms {
        if ms <= MAX_RETRY_AFTER_MS {
            return ms;
        }
    }
    let exp = BASE_DELAY_MS.saturating_mul(1u64 << retry.saturating_sub(1).min(16));
    let capped = exp.min(MAX_DELAY_MS) as f64;
    (capped * (1.0 - 0.25 * jitter.clamp(0.0, 1.0))).round() as u64
}

/// Whether a `Retry-After` is too long to wait for within a call (the error is returned instead).
pub fn retry_after_too_long(retry_after_ms: Option<u64>) -> bool {
    retry_after_ms.is_some_and(|ms| ms > MAX_RETRY_AFTER_MS)
}

/// Reads `Retry-After` (whole or fractional seconds) or `retry-after-ms`; HTTP dates are not used by the service.
pub fn parse_retry_after(retry_after: Option<&str>, retry_after_ms: Option<&str>) -> Option<u64> {
    if let Some(ms) = retry_after_ms.and_then(crate::num::parse_decimal) {
        if ms.is_finite() && ms >= 0.0 {
            return Some(ms.round() as u64);
        }
    }
    let secs = crate::num::parse_decimal(retry_after?)?;
    (secs.is_finite() && secs >= 0.0).then(|| (secs * 1000.0).round() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn creates_retry_only_when_nothing_was_done() {
        assert!(is_retryable(true, Failure::Api(ErrorKind::RateLimited)));
        assert!(is_retryable(true, Failure::Api(ErrorKind::Maintenance)));
        assert!(!is_retryable(true, Failure::Api(ErrorKind::Server)));
        assert!(!is_retryable(true, Failure::Timeout));
        assert!(!is_retryable(true, Failure::Network));
        assert!(!is_retryable(
            true,
            Failure::Api(ErrorKind::InsufficientCredits)
        ));
        assert!(is_retryable(false, Failure::Api(ErrorKind::Server)));
        assert!(is_retryable(false, Failure::Timeout));
        assert!(is_retryable(false, Failure::Network));
        assert!(!is_retryable(false, Failure::Api(ErrorKind::Invalid)));
        assert!(!is_retryable(false, Failure::Api(ErrorKind::Unauthorized)));
    }

    #[test]
    fn backoff_grows_caps_and_honours_retry_after() {
        assert_eq!(backoff_ms(1, None, 0.0), 500);
        assert_eq!(backoff_ms(2, None, 0.0), 1000);
        assert_eq!(backoff_ms(10, None, 0.0), MAX_DELAY_MS);
        assert_eq!(backoff_ms(1, None, 0.999), 375);
        assert_eq!(backoff_ms(3, Some(1200), 0.5), 1200);
        assert_eq!(backoff_ms(1, Some(120_000), 0.0), 500);
        assert!(retry_after_too_long(Some(61_000)));
    }

    #[test]
    fn retry_after_headers_parse() {
        assert_eq!(parse_retry_after(Some("2"), None), Some(2000));
        assert_eq!(parse_retry_after(Some("0.25"), None), Some(250));
        assert_eq!(parse_retry_after(Some("2"), Some("150")), Some(150));
        assert_eq!(
            parse_retry_after(Some("Wed, 21 Oct 2015 07:28:00 GMT"), None),
            None
        );
        assert_eq!(parse_retry_after(None, None), None);
    }
}
