//! Failures on purpose: the `X-Emulate-Code` header, faults armed through the admin route, and
//! the random retryable failures of `--fault-rate`.

use std::sync::Mutex;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde::Deserialize;
use tunesmith_protocol::codes::classify;
use tunesmith_protocol::CodeTable;

use super::bounds::{at_most, between, Bound};

/// Retry-After of emulated and random answers that call for one.
pub const DEFAULT_RETRY_AFTER_MS: u64 = 1000;

/// The Retry-After an answer of `code` carries by default: only where the table's code means
/// "try later" (a rate limit or maintenance; a music-table 429 is insufficient credits).
pub fn default_retry_after_ms(table: CodeTable, code: i64) -> Option<u64> {
    classify(table, code)
        .is_some_and(|kind| kind.nothing_was_done())
        .then_some(DEFAULT_RETRY_AFTER_MS)
}

/// Body of `POST /_emulator/faults`.
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FaultSpec {
    /// Only requests carrying `X-Emulator-Tag` with this value are affected.
    pub tag: String,
    /// Envelope code to answer with; absent or 0: answer normally after `delay_ms`.
    #[serde(default)]
    pub code: i64,
    /// How many matching requests are affected.
    #[serde(default = "one")]
    pub times: u64,
    #[serde(default)]
    pub retry_after_ms: Option<u64>,
    #[serde(default)]
    pub delay_ms: u64,
    /// Operation names (the client's method names, e.g. `getTask`); all when absent.
    #[serde(default)]
    pub ops: Option<Vec<String>>,
}

fn one() -> u64 {
    1
}

impl FaultSpec {
    /// Refuses values outside the bounds, naming the field.
    pub fn check(&self) -> Result<(), String> {
        if self.code != 0 {
            between("code", self.code, 100, 999)?;
        }
        at_most("times", Some(self.times), Bound::TIMES)?;
        at_most("retryAfterMs", self.retry_after_ms, Bound::RETRY_AFTER_MS)?;
        at_most("delayMs", Some(self.delay_ms), Bound::DELAY_MS)
    }
}

/// What to do with a request instead of (or before) handling it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Action {
    Answer {
        code: i64,
        retry_after_ms: Option<u64>,
    },
    Delay(u64),
}

pub struct Faults {
    rate: f64,
    armed: Mutex<Vec<FaultSpec>>,
    rng: Mutex<StdRng>,
}

impl Faults {
    /// `seed`: `--seed`, else the host's entropy.
    pub fn new(rate: f64, seed: u64) -> Self {
        let rng = StdRng::seed_from_u64(seed ^ 0x5eed);
        Faults {
            rate: rate.clamp(0.0, 1.0),
            armed: Mutex::new(Vec::new()),
            rng: Mutex::new(rng),
        }
    }

    /// Arms a fault whose values [`FaultSpec::check`] accepted; `Err` when too many are armed.
    pub fn arm(&self, spec: FaultSpec) -> Result<(), String> {
        let mut armed = self.lock_armed();
        if armed.len() >= Bound::ARMED_FAULTS {
            return Err(format!(
                "at most {} faults can be armed at once",
                Bound::ARMED_FAULTS
            ));
        }
        if spec.times > 0 {
            armed.push(spec);
        }
        Ok(())
    }

    fn lock_armed(&self) -> std::sync::MutexGuard<'_, Vec<FaultSpec>> {
        self.armed.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Consumes one use of the first armed fault matching this request.
    pub fn take_armed(&self, tag: Option<&str>, op: &str) -> Option<Action> {
        let tag = tag?;
        let mut armed = self.lock_armed();
        let i = armed.iter().position(|f| {
            f.tag == tag && f.ops.as_ref().is_none_or(|ops| ops.iter().any(|o| o == op))
        })?;
        let f = &mut armed[i];
        f.times -= 1;
        let action = if f.code > 0 {
            Action::Answer {
                code: f.code,
                retry_after_ms: f.retry_after_ms,
            }
        } else {
            Action::Delay(f.delay_ms)
        };
        if f.times == 0 {
            armed.remove(i);
        }
        Some(action)
    }

    /// With probability `--fault-rate`, a random retryable failure of the table.
    pub fn random(&self, table: CodeTable) -> Option<Action> {
        if self.rate <= 0.0 {
            return None;
        }
        let mut rng = self.rng.lock().unwrap_or_else(|e| e.into_inner());
        if !rng.random_bool(self.rate) {
            return None;
        }
        let choices: &[i64] = match table {
            CodeTable::Music => &[405, 430, 455, 500],
            CodeTable::Cover | CodeTable::Mashup => &[429, 455, 500],
            CodeTable::Upload => &[429, 500, 503],
        };
        let code = choices[rng.random_range(0..choices.len())];
        Some(Action::Answer {
            code,
            retry_after_ms: default_retry_after_ms(table, code),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(tag: &str, code: i64, times: u64, ops: Option<Vec<String>>) -> FaultSpec {
        FaultSpec {
            tag: tag.into(),
            code,
            times,
            retry_after_ms: None,
            delay_ms: 5,
            ops,
        }
    }

    #[test]
    fn armed_faults_match_tag_and_op_and_run_out() {
        let f = Faults::new(0.0, 1);
        f.arm(spec("t", 500, 2, Some(vec!["getTask".into()])))
            .unwrap();
        assert_eq!(f.take_armed(Some("t"), "generate"), None);
        assert_eq!(f.take_armed(None, "getTask"), None);
        assert!(matches!(
            f.take_armed(Some("t"), "getTask"),
            Some(Action::Answer { code: 500, .. })
        ));
        assert!(f.take_armed(Some("t"), "getTask").is_some());
        assert_eq!(f.take_armed(Some("t"), "getTask"), None);
        f.arm(spec("d", 0, 1, None)).unwrap();
        assert_eq!(f.take_armed(Some("d"), "x"), Some(Action::Delay(5)));
    }

    #[test]
    fn random_faults_follow_the_rate() {
        assert!(Faults::new(0.0, 1).random(CodeTable::Music).is_none());
        let always = Faults::new(1.0, 1);
        for _ in 0..20 {
            match always.random(CodeTable::Music) {
                Some(Action::Answer {
                    code,
                    retry_after_ms,
                }) => {
                    assert!([405, 430, 455, 500].contains(&code));
                    assert_eq!(retry_after_ms.is_some(), code != 500);
                }
                other => panic!("{other:?}"),
            }
        }
    }

    #[test]
    fn retry_after_only_where_the_table_says_try_later() {
        assert!(default_retry_after_ms(CodeTable::Music, 430).is_some());
        assert!(default_retry_after_ms(CodeTable::Music, 405).is_some());
        assert!(default_retry_after_ms(CodeTable::Music, 455).is_some());
        assert!(default_retry_after_ms(CodeTable::Music, 429).is_none());
        assert!(default_retry_after_ms(CodeTable::Cover, 429).is_some());
        assert!(default_retry_after_ms(CodeTable::Cover, 402).is_none());
        assert!(default_retry_after_ms(CodeTable::Upload, 500).is_none());
    }
}
