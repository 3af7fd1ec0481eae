//! Where callback delivery of a task stands, and what it should do next, sans I/O: the caller
//! passes `now`, [`Delivery::poll`] says post, wait until a moment, or stop (like quinn-proto's
//! `poll_timeout`), and the caller reports each attempt back.
//!
//! A delivery counts only if the receiver answers 200 within the callback timeout; after
//! [`MAX_CONSECUTIVE_FAILURES`] failed attempts in a row no more callbacks are sent for the task.
//! The task's outcome never depends on delivery.

use serde::{Deserialize, Serialize};

/// What delivery needs to know of a task's timeline (a task implements it).
pub trait Timeline {
    fn phase_count(&self) -> usize;
    /// When phase `phase` is reached.
    fn due_ms(&self, phase: usize) -> i64;
    /// Whether phase `phase` has a callback.
    fn calls_back_at(&self, phase: usize) -> bool;
    /// Whether the task has a callback URL at all.
    fn has_receiver(&self) -> bool;
}

/// Consecutive failed attempts after which a task's callbacks stop.
pub const MAX_CONSECUTIVE_FAILURES: u32 = 3;

/// The delivery state a task keeps on disk.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
pub struct Delivery {
    /// The next phase to deliver.
    pub next: usize,
    /// Failed attempts in a row.
    pub failures: u32,
    pub stopped: bool,
    /// After a failed attempt: not before this moment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_at_ms: Option<i64>,
}

/// What delivery should do at `now`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Post the callback of this phase now.
    Post(usize),
    /// Nothing is due before this moment (milliseconds of the emulator's clock).
    WaitUntil(i64),
    /// Every callback is delivered, or delivery has stopped.
    Done,
}

impl Delivery {
    /// The next phase with a callback, from `next` on (the other families are silent until the end).
    fn next_callback(&self, task: &(impl Timeline + ?Sized)) -> Option<usize> {
        if self.stopped || !task.has_receiver() {
            return None;
        }
        (self.next..task.phase_count()).find(|p| task.calls_back_at(*p))
    }

    /// When delivery next needs waking; `None` when it has nothing left to do.
    pub fn poll_timeout(&self, task: &(impl Timeline + ?Sized)) -> Option<i64> {
        let phase = self.next_callback(task)?;
        Some(task.due_ms(phase).max(self.retry_at_ms.unwrap_or(i64::MIN)))
    }

    pub fn poll(&self, task: &(impl Timeline + ?Sized), now: i64) -> Step {
        match (self.next_callback(task), self.poll_timeout(task)) {
            (Some(phase), Some(at)) if at <= now => Step::Post(phase),
            (Some(_), Some(at)) => Step::WaitUntil(at),
            _ => Step::Done,
        }
    }

    /// Whether callbacks remain to be sent.
    pub fn pending(&self, task: &(impl Timeline + ?Sized)) -> bool {
        self.next_callback(task).is_some()
    }

    /// The receiver took the callback of `phase`.
    pub fn on_delivered(&mut self, phase: usize) {
        self.next = phase + 1;
        self.failures = 0;
        self.retry_at_ms = None;
    }

    /// An attempt failed at `now`; the next one waits `retry_delay_ms`, unless delivery stops.
    pub fn on_failed(&mut self, now: i64, retry_delay_ms: u64) {
        self.failures += 1;
        self.stopped = self.failures >= MAX_CONSECUTIVE_FAILURES;
        self.retry_at_ms = (!self.stopped).then_some(now + retry_delay_ms as i64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::plan::plan;
    use crate::core::task::Task;
    use serde_json::Map;
    use tunesmith_protocol::TaskFamily;

    fn task(kind: TaskFamily) -> Task {
        Task {
            id: "t".into(),
            kind,
            op: "generate".into(),
            param: Map::new(),
            created_ms: 1_000,
            delay_ms: 100,
            phases: plan(kind, None),
            seed: 1,
            callback_url: Some("http://cb".into()),
            model: "V6".into(),
            tracks: Vec::new(),
            parent_task: None,
            parent_audio: None,
            music_index: 0,
            tag: None,
            delivery: Delivery::default(),
            failure: None,
            stems: Vec::new(),
        }
    }

    #[test]
    fn music_posts_each_stage_when_due_and_retries_on_the_clock() {
        let t = task(TaskFamily::Music);
        let mut d = Delivery::default();
        assert_eq!(d.poll(&t, 1_050), Step::WaitUntil(1_100));
        assert_eq!(d.poll(&t, 1_100), Step::Post(0));
        d.on_failed(1_100, 30);
        assert_eq!(d.poll(&t, 1_110), Step::WaitUntil(1_130));
        assert_eq!(d.poll(&t, 1_130), Step::Post(0));
        d.on_delivered(0);
        assert_eq!(d.failures, 0);
        assert_eq!(d.poll_timeout(&t), Some(1_200));
        d.on_delivered(1);
        d.on_delivered(2);
        assert_eq!(d.poll(&t, 9_999), Step::Done);
    }

    #[test]
    fn three_failures_in_a_row_stop_delivery() {
        let t = task(TaskFamily::Music);
        let mut d = Delivery::default();
        for _ in 0..MAX_CONSECUTIVE_FAILURES {
            d.on_failed(1_100, 30);
        }
        assert!(d.stopped);
        assert_eq!(d.poll(&t, 5_000), Step::Done);
        assert_eq!(d.poll_timeout(&t), None);
    }

    #[test]
    fn other_families_call_back_once_at_the_end() {
        let t = task(TaskFamily::Cover);
        let d = Delivery::default();
        assert_eq!(t.phases.len(), 2);
        assert_eq!(d.poll(&t, 1_100), Step::WaitUntil(1_200));
        assert_eq!(d.poll(&t, 1_200), Step::Post(1));
        let mut silent = t.clone();
        silent.callback_url = None;
        assert_eq!(d.poll(&silent, 1_200), Step::Done);
    }
}
