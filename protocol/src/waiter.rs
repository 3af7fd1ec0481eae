//! The waiter's decisions, sans clock: what a query's answer means, when to report progress, how
//! long to sleep before the next query, and when to give up.
//!
//! The client feeds each query's outcome and the elapsed time into [`Waiter::on_outcome`] and does
//! what the returned [`Step`] says; the clock, the sleep and the fetch stay at the edge.

use crate::schedule::PollSchedule;
use crate::state::{Stage, TaskState};
use crate::Op;

/// The task families that have a status query, hence a waiter and callbacks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TaskKind {
    Music,
    Cover,
    Wav,
    Lyrics,
    VocalSeparation,
    Video,
    Midi,
    /// Audio recovery: its status query answers its own envelope (201 while running).
    Recovery,
    /// The first step of a custom voice: a phrase for the singer to record.
    VoiceValidation,
    Voice,
}

impl TaskKind {
    pub const ALL: [TaskKind; 10] = [
        TaskKind::Music,
        TaskKind::Cover,
        TaskKind::Wav,
        TaskKind::Lyrics,
        TaskKind::VocalSeparation,
        TaskKind::Video,
        TaskKind::Midi,
        TaskKind::Recovery,
        TaskKind::VoiceValidation,
        TaskKind::Voice,
    ];

    /// The `family` JavaScript sees on callback events.
    pub const fn as_str(self) -> &'static str {
        match self {
            TaskKind::Music => "music",
            TaskKind::Cover => "cover",
            TaskKind::Wav => "wav",
            TaskKind::Lyrics => "lyrics",
            TaskKind::VocalSeparation => "vocal_separation",
            TaskKind::Video => "video",
            TaskKind::Midi => "midi",
            TaskKind::Recovery => "recovery",
            TaskKind::VoiceValidation => "voice_validation",
            TaskKind::Voice => "voice",
        }
    }

    pub fn from_name(name: &str) -> Option<TaskKind> {
        TaskKind::ALL.into_iter().find(|k| k.as_str() == name)
    }

    /// The status query of the family.
    pub const fn query(self) -> Op {
        match self {
            TaskKind::Music => Op::GetTask,
            TaskKind::Cover => Op::GetCover,
            TaskKind::Wav => Op::GetWav,
            TaskKind::Lyrics => Op::GetLyrics,
            TaskKind::VocalSeparation => Op::GetVocalSeparation,
            TaskKind::Video => Op::GetVideo,
            TaskKind::Midi => Op::GetMidi,
            TaskKind::Recovery => Op::GetRecovery,
            TaskKind::VoiceValidation => Op::GetVoiceValidation,
            TaskKind::Voice => Op::GetVoice,
        }
    }

    /// The status query's parameter that names the task (recovery spells it in snake_case).
    pub const fn query_field(self) -> &'static str {
        match self {
            TaskKind::Recovery => "task_id",
            _ => "taskId",
        }
    }

    /// The client's waiter method for the family.
    pub const fn waiter_name(self) -> &'static str {
        match self {
            TaskKind::Music => "waitForTask",
            TaskKind::Cover => "waitForCover",
            TaskKind::Wav => "waitForWav",
            TaskKind::Lyrics => "waitForLyrics",
            TaskKind::VocalSeparation => "waitForVocalSeparation",
            TaskKind::Video => "waitForVideo",
            TaskKind::Midi => "waitForMidi",
            TaskKind::Recovery => "waitForRecovery",
            TaskKind::VoiceValidation => "waitForVoiceValidation",
            TaskKind::Voice => "waitForVoice",
        }
    }

    /// The family of the task a creating operation starts; `None` for operations that start none.
    pub const fn created_by(op: Op) -> Option<TaskKind> {
        Some(match op {
            Op::Generate
            | Op::Extend
            | Op::UploadCover
            | Op::UploadExtend
            | Op::AddInstrumental
            | Op::AddVocals
            | Op::GenerateSounds
            | Op::Mashup
            | Op::ReplaceSection => TaskKind::Music,
            Op::GenerateCover => TaskKind::Cover,
            Op::ConvertToWav => TaskKind::Wav,
            Op::GenerateLyrics => TaskKind::Lyrics,
            Op::SeparateVocals => TaskKind::VocalSeparation,
            Op::GenerateVideo => TaskKind::Video,
            Op::GenerateMidi => TaskKind::Midi,
            Op::RecoverAudio => TaskKind::Recovery,
            Op::ValidateVoice | Op::RegenerateVoicePhrase => TaskKind::VoiceValidation,
            Op::CreateVoice => TaskKind::Voice,
            _ => return None,
        })
    }

    /// The record field holding the family's own status (copied into `TaskFailedError.taskStatus`).
    pub const fn status_field(self) -> &'static str {
        match self {
            TaskKind::Music | TaskKind::Lyrics | TaskKind::VoiceValidation | TaskKind::Voice => {
                "status"
            }
            TaskKind::Recovery => "code",
            _ => "successFlag",
        }
    }

    /// Rank of a state on the way to the end: progress is reported each time the rank rises, so a
    /// record that repeats (or, through some glitch, regresses) is never reported twice.
    /// Music ranks by stage (pending, text, first, complete); the other families by state.
    pub const fn rank(self, state: TaskState, stage: Stage) -> u8 {
        match self {
            TaskKind::Music => match (state, stage) {
                (TaskState::Succeeded, _) | (TaskState::Failed, _) => 3,
                (_, Stage::Text) => 1,
                (_, Stage::First) => 2,
                (_, Stage::Complete | Stage::Error) => 3,
                (_, Stage::Pending) => 0,
            },
            _ => match state {
                TaskState::Pending => 0,
                TaskState::Running => 1,
                TaskState::Succeeded | TaskState::Failed => 2,
            },
        }
    }
}

/// What one status query gave.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Outcome {
    /// A record, with its normalized state and (music) stage; other families pass `Stage::Pending`.
    Record { state: TaskState, stage: Stage },
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
    kind: TaskKind,
    schedule: PollSchedule,
    timeout_ms: u64,
    queries: u32,
    rate_limited_in_a_row: u32,
    reported: Option<u8>,
    last_query_planned: bool,
}

impl Waiter {
    pub fn new(kind: TaskKind, schedule: PollSchedule, timeout_ms: u64) -> Waiter {
        Waiter {
            kind,
            schedule,
            timeout_ms: timeout_ms.max(1),
            queries: 0,
            rate_limited_in_a_row: 0,
            reported: None,
            last_query_planned: false,
        }
    }

    pub fn kind(&self) -> TaskKind {
        self.kind
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
        let (report, retry_after_ms) = match outcome {
            Outcome::Record { state, stage } => {
                self.rate_limited_in_a_row = 0;
                // A failure is not progress: it is delivered as the rejection (TaskFailedError).
                let rank = self.kind.rank(state, stage);
                let report = state != TaskState::Failed && self.reported.is_none_or(|r| rank > r);
                if report {
                    self.reported = Some(rank);
                }
                match state {
                    TaskState::Succeeded => {
                        return Step {
                            report,
                            next: Next::Succeeded,
                        }
                    }
                    TaskState::Failed => {
                        return Step {
                            report: false,
                            next: Next::Failed,
                        }
                    }
                    TaskState::Pending | TaskState::Running => (report, None),
                }
            }
            Outcome::Transient {
                rate_limited,
                retry_after_ms,
            } => {
                if rate_limited {
                    self.rate_limited_in_a_row = self.rate_limited_in_a_row.saturating_add(1);
                }
                (false, retry_after_ms)
            }
        };
        let delay = self.schedule.delay_ms(
            self.queries,
            jitter,
            self.rate_limited_in_a_row,
            retry_after_ms,
        );
        Step {
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
        Outcome::Record { state, stage }
    }

    fn waiter(kind: TaskKind) -> Waiter {
        Waiter::new(kind, PollSchedule::new(Some(1000), Some(4000)), 60_000)
    }

    #[test]
    fn music_reports_each_stage_once_in_order_then_succeeds() {
        let mut w = waiter(TaskKind::Music);
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
                report: true,
                next: Next::Succeeded
            }
        );
        assert_eq!(w.queries(), 7);
    }

    #[test]
    fn skipped_stages_and_other_families() {
        let mut w = waiter(TaskKind::Music);
        assert!(
            w.on_outcome(record(TaskState::Pending, Stage::Pending), 0, 0.5)
                .report
        );
        let end = w.on_outcome(record(TaskState::Succeeded, Stage::Complete), 10, 0.5);
        assert_eq!(
            end,
            Step {
                report: true,
                next: Next::Succeeded
            }
        );

        let mut cover = waiter(TaskKind::Cover);
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
    }

    #[test]
    fn failure_ends_without_a_progress_report() {
        let mut w = waiter(TaskKind::Wav);
        w.on_outcome(record(TaskState::Pending, Stage::Pending), 0, 0.5);
        let end = w.on_outcome(record(TaskState::Failed, Stage::Error), 10, 0.5);
        assert_eq!(
            end,
            Step {
                report: false,
                next: Next::Failed
            }
        );
        let mut first = waiter(TaskKind::Music);
        let end = first.on_outcome(record(TaskState::Failed, Stage::Error), 0, 0.5);
        assert_eq!(end.next, Next::Failed);
        assert!(!end.report);
    }

    #[test]
    fn transient_failures_keep_polling_and_rate_limits_slow_down() {
        let mut w = waiter(TaskKind::Music);
        let server = Outcome::Transient {
            rate_limited: false,
            retry_after_ms: None,
        };
        assert_eq!(
            w.on_outcome(server, 0, 0.5),
            Step {
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
                report: true,
                next: Next::Sleep(4000)
            }
        );
    }

    #[test]
    fn the_last_query_goes_out_just_before_the_deadline() {
        let mut w = Waiter::new(
            TaskKind::Music,
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
        let mut w = Waiter::new(TaskKind::Lyrics, PollSchedule::default(), 500);
        let timeout = Outcome::Transient {
            rate_limited: false,
            retry_after_ms: None,
        };
        assert_eq!(w.on_outcome(timeout, 520, 0.5).next, Next::TimedOut);
        assert!(!w.may_query(520));
    }

    #[test]
    fn kinds_map_to_queries_and_creates() {
        assert_eq!(TaskKind::created_by(Op::AddVocals), Some(TaskKind::Music));
        assert_eq!(
            TaskKind::created_by(Op::SeparateVocals),
            Some(TaskKind::VocalSeparation)
        );
        assert_eq!(TaskKind::created_by(Op::GetTask), None);
        assert_eq!(TaskKind::Video.query(), Op::GetVideo);
        assert_eq!(
            TaskKind::from_name("vocal_separation"),
            Some(TaskKind::VocalSeparation)
        );
        assert_eq!(TaskKind::Cover.status_field(), "successFlag");
    }
}
