//! The one polling loop of both faces' waiters: query a task's status, sleep, query again, until it
//! ends. What to report, how long to sleep and when to give up are `tunesmith_protocol::waiter`'s
//! decisions; this loop only queries, sleeps and hands the records on.

use super::attempts::{Body, Driver};
use super::config::CallOptions;
use super::record;
use super::transport::{Js, Transport};
use crate::errors::Error;
use std::rc::Rc;
use tunesmith_protocol::schedule::PollSchedule;
use tunesmith_protocol::waiter::{Next, Outcome, Waiter};
use tunesmith_protocol::{ClientErrorKind, ErrorKind, Stage, TaskFamily};
use wasm_bindgen::JsValue;
use web_sys::AbortSignal;

/// A record for the caller, as the service sent it.
pub struct Report {
    pub record: JsValue,
    /// Progress to report (`onProgress`, a `watchTask` value); a repeated state is not.
    pub report: bool,
    /// The task succeeded: this is its final record.
    pub done: bool,
}

/// One task being polled: the waiter's state plus what the edge needs to query.
pub struct Poll<T: Transport = Js> {
    driver: Rc<Driver<T>>,
    task_id: String,
    waiter: Waiter,
    signal: Option<AbortSignal>,
    started: f64,
    /// Sleep before the next query, as the last step decided.
    sleep_ms: Option<u64>,
    /// The last transient failure, as the cause of the timeout.
    last_error: Option<Error>,
    last_state: &'static str,
    /// A query's record decided on and not yet handed out, after the stages it passed (`passed`,
    /// each handed out first as a copy of the record at that stage).
    ready: Option<Report>,
    passed: &'static [Stage],
}

impl<T: Transport> Poll<T> {
    pub fn new(
        driver: Rc<Driver<T>>,
        family: TaskFamily,
        task_id: String,
        timeout_ms: u64,
        schedule: PollSchedule,
        signal: Option<AbortSignal>,
    ) -> Poll<T> {
        Poll {
            driver,
            task_id,
            waiter: Waiter::new(family, schedule, timeout_ms),
            signal,
            started: js_sys::Date::now(),
            sleep_ms: None,
            last_error: None,
            last_state: "unknown",
            ready: None,
            passed: &[],
        }
    }

    pub fn family(&self) -> TaskFamily {
        self.waiter.family()
    }

    fn elapsed(&self) -> u64 {
        (js_sys::Date::now() - self.started).max(0.0) as u64
    }

    fn aborted(&self) -> Error {
        let mut e = Error::aborted(self.family().waiter_name());
        e.attempts = self.waiter.queries();
        e
    }

    fn timed_out(&mut self) -> Error {
        let e = Error::wait_timed_out(
            self.family(),
            &self.task_id,
            self.waiter.timeout_ms(),
            self.waiter.queries(),
            self.last_state,
        );
        match self.last_error.take() {
            Some(cause) => e.after(cause),
            None => e,
        }
    }

    /// Queries (and sleeps) until there is a record to hand out, or the wait is over: the task
    /// failed (`task_failed`), the deadline passed, the signal fired, or a query was refused in a
    /// way that waiting longer cannot help (unauthorized, not found).
    pub async fn next(&mut self) -> Result<Report, Error> {
        let family = self.family();
        let op = family.query();
        loop {
            if let Some(ready) = &self.ready {
                if let Some((stage, rest)) = self.passed.split_first() {
                    self.passed = rest;
                    return Ok(Report {
                        record: record::at_stage(family, &ready.record, *stage),
                        report: true,
                        done: false,
                    });
                }
            }
            if let Some(report) = self.ready.take() {
                return Ok(report);
            }
            if let Some(ms) = self.sleep_ms.take() {
                if T::sleep(ms as f64, self.signal.as_ref()).await.is_err() {
                    return Err(self.aborted());
                }
            }
            let elapsed = self.elapsed();
            if !self.waiter.may_query(elapsed) {
                return Err(self.timed_out());
            }
            // Retries are the schedule's job (one clock, one deadline, a rate limit slows it down),
            // so each query makes one attempt, cut short at the deadline.
            let attempt_ms = self
                .waiter
                .attempt_timeout_ms(elapsed, self.driver.config.timeout_ms as u64);
            let opts = CallOptions {
                signal: self.signal.clone(),
                timeout_ms: Some(attempt_ms as f64),
                max_retries: Some(0),
                ..CallOptions::default()
            };
            let query = [(family.query_field(), self.task_id.clone())];
            let answer = self.driver.execute(op, Body::None, &query, &opts).await;
            let (outcome, record) = match answer {
                Ok(record) => {
                    let seen = record::observe(family, &record);
                    self.last_state = seen.state.as_str();
                    (Outcome::Record(seen), record)
                }
                Err(e) if matches!(e.kind, ClientErrorKind::Aborted) => {
                    return Err(self.aborted().after(e))
                }
                Err(e) if e.retryable => {
                    let outcome = Outcome::Transient {
                        rate_limited: matches!(
                            e.kind,
                            ClientErrorKind::Service(ErrorKind::RateLimited)
                        ),
                        retry_after_ms: e.retry_after_ms,
                    };
                    self.last_error = Some(e);
                    (outcome, JsValue::UNDEFINED)
                }
                // Unauthorized, not found, invalid: waiting longer cannot help.
                Err(e) => return Err(e),
            };
            let step = self
                .waiter
                .on_outcome(outcome, self.elapsed(), js_sys::Math::random());
            // The record itself is handed out last, after each stage the task passed on its way.
            let (report, done) = match step.next {
                Next::Succeeded => (step.report, true),
                Next::Failed => return Err(record::task_failed(family, &self.task_id, record)),
                Next::TimedOut => return Err(self.timed_out()),
                Next::Sleep(ms) => {
                    self.sleep_ms = Some(ms);
                    if !step.report {
                        continue;
                    }
                    (true, false)
                }
            };
            self.ready = Some(Report {
                record,
                report,
                done,
            });
            self.passed = step.passed;
        }
    }
}
