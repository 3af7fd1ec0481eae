//! The waiter's decisions, sans clock: what a query's answer means, when to report progress, how
//! long to sleep before the next query, and when to give up.
//!
//! The client feeds each query's outcome and the elapsed time into [`Waiter::on_outcome`] and does
//! what the returned [`Step`] says; the clock, the sleep and the fetch stay at the edge.

use crate::family::{TaskFamily, MUSIC_STAGES};
use crate::schedule::PollSchedule;
use crate::state::{Observed, Stage, TaskState};

/// What one status query gave.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Outcome {
    /// A record, as `TaskFamily::observe` read it.
    Record(Observed),
    /// A failure worth retrying (network, timeout, 500, rate limit, maintenance): the waiter goes on.
    Transient {
        rate_limited: bool,
        retry_after_ms: Option<u64>,
    },
}

/// What to do after a query.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    Succeeded,
    Failed,
    /// Sleep this long, then query again.
    Sleep(u64),
    /// The deadline has passed (the last query was just before it).
    TimedOut,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// Music stages that the task passed since the last report without a query seeing them (a
    /// poll jumped over them), in order: each is reported before the record, so that a caller
    /// sees every stage once. Empty for the other families, whose states are no stages.
    pub passed: &'static [Stage],
    /// Report the record to `onProgress` (or yield it from `watchTask`).
    pub report: bool,
    pub next: Next,
}

/// The last query goes out this long before the deadline (at most a tenth of the whole wait), so
/// that its answer can still arrive in time.
pub const LAST_QUERY_LEAD_MS: u64 = 1_000;

/// One waiter's state between queries.
#[derive(Clone, Debug)]
pub struct Waiter {
    family: TaskFamily,
    schedule: PollSchedule,
    timeout_ms: u64,
    queries: u32,
    rate_limited_in_a_row: u32,
    reported: Option<u8>,
    last_query_planned: bool,
}

impl Waiter {
    pub fn new(family: TaskFamily, schedule: PollSchedule, timeout_ms: u64) -> Waiter {
        Waiter {
            family,
            schedule,
            timeout_ms: timeout_ms.max(1),
            queries: 0,
            rate_limited_in_a_row: 0,
            reported: None,
            last_query_planned: false,
        }
    }

    pub fn family(&self) -> TaskFamily {
        self.family
    }

    /// The overall deadline, in milliseconds from the start.
    pub fn timeout_ms(&self) -> u64 {
        self.timeout_ms
    }

    /// Queries answered so far (transient failures included).
    pub fn queries(&self) -> u32 {
        self.queries
    }

    /// Whether a query may still go out at `elapsed_ms` (the first one always may).
    pub fn may_query(&self, elapsed_ms: u64) -> bool {
        self.queries == 0 || elapsed_ms < self.timeout_ms
    }

    /// Per-attempt timeout of a query sent at `elapsed_ms`: the client's own, cut so that the
    /// query cannot outlive the waiter's deadline.
    pub fn attempt_timeout_ms(&self, elapsed_ms: u64, configured_ms: u64) -> u64 {
        configured_ms
            .min(self.timeout_ms.saturating_sub(elapsed_ms))
            .max(1)
    }

    /// Digests the outcome of a query answered at `elapsed_ms`; `jitter` in `[0, 1)` from the
    /// caller's random source.
    pub fn on_outcome(&mut self, outcome: Outcome, elapsed_ms: u64, jitter: f64) -> Step {
        self.queries = self.queries.saturating_add(1);
        let (passed, report, retry_after_ms) = match outcome {
            Outcome::Record(seen) => {
                self.rate_limited_in_a_row = 0;
                // A failure is not progress: it is delivered as the rejection (TaskFailedError).
                let rank = self.family.rank(seen);
                let report =
                    seen.state != TaskState::Failed && self.reported.is_none_or(|r| rank > r);
                let passed = match (self.family, self.reported) {
                    // `get`, not indexing: ranks are within the stages, and no panic path is linked.
                    (TaskFamily::Music, Some(last)) if report => MUSIC_STAGES
                        .get(usize::from(last) + 1..usize::from(rank))
                        .unwrap_or(&[]),
                    _ => &[],
                };
                if report {
                    self.reported = Some(rank);
                }
                match seen.state {
                    TaskState::Succeeded => {
                        return Step {
                            passed,
                            report,
                            next: Next::Succeeded,
                        }
                    }
                    TaskState::Failed => {
                        return Step {
                            passed: &[],
                            report: false,
                            next: Next::Failed,
                        }
                    }
                    TaskState::Pending | TaskState::Running => (passed, report, None),
                }
            }
            Outcome::Transient {
                rate_limited,
                retry_after_ms,
            } => {
                if rate_limited {
                    self.rate_limited_in_a_row = self.rate_limited_in_a_row.saturating_add(1);
                }
                (&[][..], false, retry_after_ms)
            }
        };
        let delay = self.schedule.delay_ms(
            self.queries,
            jitter,
            self.rate_limited_in_a_row,
            retry_after_ms,
        );
        Step {
            passed,
            report,
            next: self.plan(elapsed_ms, delay),
        }
    }

    /// Sleeps `delay` unless that would pass the last slot before the deadline: then one last query
    /// goes out in that slot, and the deadline follows it.
    fn plan(&mut self, elapsed_ms: u64, delay: u64) -> Next {
        if self.last_query_planned || elapsed_ms >= self.timeout_ms {
            return Next::TimedOut;
        }
        let lead = LAST_QUERY_LEAD_MS.min(self.timeout_ms / 10);
        let last_slot = self.timeout_ms - lead;
        if elapsed_ms.saturating_add(delay) < last_slot {
            return Next::Sleep(delay);
        }
        self.last_query_planned = true;
        Next::Sleep(last_slot.saturating_sub(elapsed_ms))
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use super::*;

    fn record(state: TaskState, stage: Stage) -> Outcome {
        Outcome::Record(Observed { state, stage })
    }

    fn waiter(family: TaskFamily) -> Waiter {
        Waiter::new(family, PollSchedule::new(Some(1000), Some(4000)), 60_000)
    }

    #[test]
    fn music_reports_each_stage_once_in_order_then_succeeds() {
        let mut w = waiter(TaskFamily::Music);
        let seen = [
            (record(TaskState::Pending, Stage::Pending), true),
            (record(TaskState::Pending, Stage::Pending), false),
            (record(TaskState::Running, Stage::Text), true),
            (record(TaskState::Running, Stage::Text), false),
            (record(TaskState::Running, Stage::First), true),
            // A stale answer (a cache, a replica behind) is not reported as a step back.
            (record(TaskState::Running, Stage::Text), false),
        ];
        for (i, (outcome, report)) in seen.into_iter().enumerate() {
            let step = w.on_outcome(outcome, 100 * i as u64, 0.5);
            assert_eq!(step.report, report, "query {i}");
            assert!(matches!(step.next, Next::Sleep(_)));
        }
        let end = w.on_outcome(record(TaskState::Succeeded, Stage::Complete), 1000, 0.5);
        assert_eq!(
            end,
            Step {
                passed: &[],
                report: true,
                next: Next::Succeeded
            }
        );
        assert_eq!(w.queries(), 7);
    }

    #[test]
    fn stages_a_poll_jumped_over_are_reported_in_order_before_the_record() {
        let mut w = waiter(TaskFamily::Music);
        let first = w.on_outcome(record(TaskState::Pending, Stage::Pending), 0, 0.5);
        // The first record is where the wait starts: nothing before it counts as passed.
        assert_eq!((first.passed, first.report), (&[][..], true));
        let text = w.on_outcome(record(TaskState::Running, Stage::Text), 10, 0.5);
        assert_eq!((text.passed, text.report), (&[][..], true));
        // `first` came and went between two queries.
        let end = w.on_outcome(record(TaskState::Succeeded, Stage::Complete), 20, 0.5);
        assert_eq!(
            end,
            Step {
                passed: &[Stage::First],
                report: true,
                next: Next::Succeeded
            }
        );

        let mut w = waiter(TaskFamily::Music);
        w.on_outcome(record(TaskState::Pending, Stage::Pending), 0, 0.5);
        let end = w.on_outcome(record(TaskState::Succeeded, Stage::Complete), 10, 0.5);
        assert_eq!(end.passed, [Stage::Text, Stage::First]);
        // A task seen first when already done reports only what it is.
        let mut late = waiter(TaskFamily::Music);
        let end = late.on_outcome(record(TaskState::Running, Stage::First), 0, 0.5);
        assert_eq!((end.passed, end.report), (&[][..], true));
        // A failure passes no stage: it is the rejection.
        let mut failed = waiter(TaskFamily::Music);
        failed.on_outcome(record(TaskState::Pending, Stage::Pending), 0, 0.5);
        let end = failed.on_outcome(record(TaskState::Failed, Stage::Error), 10, 0.5);
        assert_eq!((end.passed, end.report), (&[][..], false));
    }

    #[test]
    fn other_families_report_each_state_once_and_pass_no_stage() {
        let mut cover = waiter(TaskFamily::Cover);
        assert!(
            cover
                .on_outcome(record(TaskState::Pending, Stage::Pending), 0, 0.5)
                .report
        );
        assert!(
            cover
                .on_outcome(record(TaskState::Running, Stage::Pending), 10, 0.5)
                .report
        );
        assert!(
            !cover
                .on_outcome(record(TaskState::Running, Stage::Pending), 20, 0.5)
                .report
        );
        assert_eq!(
            cover
                .on_outcome(record(TaskState::Succeeded, Stage::Pending), 30, 0.5)
                .next,
            Next::Succeeded
        );
        let mut wav = waiter(TaskFamily::Wav);
        wav.on_outcome(record(TaskState::Pending, Stage::Pending), 0, 0.5);
        let end = wav.on_outcome(record(TaskState::Succeeded, Stage::Pending), 10, 0.5);
        assert_eq!((end.passed, end.report), (&[][..], true));
    }

    #[test]
    fn failure_ends_without_a_progress_report() {
        let mut w = waiter(TaskFamily::Wav);
        w.on_outcome(record(TaskState::Pending, Stage::Pending), 0, 0.5);
        let end = w.on_outcome(record(TaskState::Failed, Stage::Error), 10, 0.5);
        assert_eq!(
            end,
            Step {
                passed: &[],
                report: false,
                next: Next::Failed
            }
        );
        let mut first = waiter(TaskFamily::Music);
        let end = first.on_outcome(record(TaskState::Failed, Stage::Error), 0, 0.5);
        assert_eq!(end.next, Next::Failed);
        assert!(!end.report);
    }

    #[test]
    fn transient_failures_keep_polling_and_rate_limits_slow_down() {
        let mut w = waiter(TaskFamily::Music);
        let server = Outcome::Transient {
            rate_limited: false,
            retry_after_ms: None,
        };
        assert_eq!(
            w.on_outcome(server, 0, 0.5),
            Step {
                passed: &[],
                report: false,
                next: Next::Sleep(1000)
            }
        );
        let limited = Outcome::Transient {
            rate_limited: true,
            retry_after_ms: None,
        };
        // Second query: nominal 1500, doubled once for the rate limit.
        assert_eq!(w.on_outcome(limited, 1000, 0.5).next, Next::Sleep(3000));
        // Two in a row: capped at the maximum.
        assert_eq!(w.on_outcome(limited, 4000, 0.5).next, Next::Sleep(4000));
        let told = Outcome::Transient {
            rate_limited: true,
            retry_after_ms: Some(9000),
        };
        assert_eq!(w.on_outcome(told, 8000, 0.5).next, Next::Sleep(9000));
        // A record resets the run of rate limits.
        let step = w.on_outcome(record(TaskState::Pending, Stage::Pending), 17_000, 0.5);
        assert_eq!(
            step,
            Step {
                passed: &[],
                report: true,
                next: Next::Sleep(4000)
            }
        );
    }

    #[test]
    fn the_last_query_goes_out_just_before_the_deadline() {
        let mut w = Waiter::new(
            TaskFamily::Music,
            PollSchedule::new(Some(1000), Some(30_000)),
            10_000,
        );
        let pending = record(TaskState::Pending, Stage::Pending);
        let mut t = 0;
        let mut sleeps = Vec::new();
        loop {
            match w.on_outcome(pending, t, 0.5).next {
                Next::Sleep(ms) => {
                    sleeps.push(ms);
                    t += ms;
                }
                Next::TimedOut => break,
                other => panic!("{other:?}"),
            }
        }
        // 0, 1000, 2500, 4750, 8125, and then the last slot at 9000 (lead: a tenth of the wait).
        assert_eq!(sleeps, [1000, 1500, 2250, 3375, 875]);
        assert_eq!(t, 9000);
        assert_eq!(w.queries(), 6);
        assert!(w.may_query(9000));
        assert_eq!(w.attempt_timeout_ms(9000, 60_000), 1000);
        assert_eq!(w.attempt_timeout_ms(0, 500), 500);
    }

    #[test]
    fn a_query_answered_after_the_deadline_times_out_at_once() {
        let mut w = Waiter::new(TaskFamily::Lyrics, PollSchedule::default(), 500);
        let timeout = Outcome::Transient {
            rate_limited: false,
            retry_after_ms: None,
        };
        assert_eq!(w.on_outcome(timeout, 520, 0.5).next, Next::TimedOut);
        assert!(!w.may_query(520));
    }
}
