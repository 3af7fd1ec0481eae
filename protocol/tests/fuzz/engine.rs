//! The fuzz loop: weighted targets over a seeded RNG, each input under `catch_unwind`, counted
//! per target; the first panic is kept with the input that caused it.

use crate::gen::Gen;
use crate::targets::Target;
use serde_json::{json, Value};
use std::cell::RefCell;
use std::panic::{self, AssertUnwindSafe};
use std::time::{Duration, Instant};

/// Random bytes behind each input: enough for a record with nested tracks; text needs fewer.
const BYTES_PER_JSON_INPUT: usize = 2048;
const BYTES_PER_TEXT_INPUT: usize = 192;
/// How much of a panicking input the report keeps.
const SHOWN_MAX: usize = 4000;
/// One value in `h` goes wrong, for `h` drawn from here (a few wrong values, or many).
const HOSTILITIES: [u32; 5] = [2, 4, 8, 16, 64];

pub struct Panic {
    pub target: &'static str,
    pub seed: u64,
    pub index: u64,
    pub input: String,
    pub message: String,
}

pub struct Report {
    pub seed: u64,
    pub threads: usize,
    pub inputs: u64,
    pub panics: u64,
    pub elapsed: Duration,
    pub per_target: Vec<(&'static str, u64)>,
    pub first_panic: Option<Panic>,
}

impl Report {
    pub fn per_second(&self) -> f64 {
        self.inputs as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// The one line `cargo xtask chaos` reads: `FUZZ {json}`.
    pub fn line(&self) -> String {
        let targets: serde_json::Map<String, Value> = self
            .per_target
            .iter()
            .map(|(name, n)| ((*name).to_owned(), json!(n)))
            .collect();
        let first = self.first_panic.as_ref().map(|p| {
            json!({"target": p.target, "seed": p.seed, "index": p.index, "input": p.input, "message": p.message})
        });
        let report = json!({
            "inputs": self.inputs,
            "panics": self.panics,
            "seconds": (self.elapsed.as_secs_f64() * 100.0).round() / 100.0,
            "perSecond": self.per_second().round(),
            "seed": self.seed,
            "threads": self.threads,
            "targets": targets,
            "firstPanic": first,
        });
        format!("FUZZ {report}")
    }
}

thread_local! {
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Panics are expected here: keep their message for the report instead of printing it.
fn quiet_panics() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        panic::set_hook(Box::new(|info| {
            let message = match info.payload().downcast_ref::<&str>() {
                Some(s) => (*s).to_owned(),
                None => info
                    .payload()
                    .downcast_ref::<String>()
                    .cloned()
                    .unwrap_or_else(|| "a panic without a message".into()),
            };
            let at = info
                .location()
                .map(|l| format!(" at {}:{}", l.file(), l.line()))
                .unwrap_or_default();
            LAST_PANIC.with(|p| *p.borrow_mut() = Some(format!("{message}{at}")));
        }));
    });
}

struct Tally {
    per_target: Vec<u64>,
    panics: u64,
    first_panic: Option<Panic>,
}

fn run_thread(targets: &[Target], inputs: u64, seed: u64) -> Tally {
    let total_weight: u32 = targets.iter().map(|t| t.weight).sum();
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut bytes = vec![0u8; BYTES_PER_JSON_INPUT];
    let mut shown = String::new();
    let mut tally = Tally {
        per_target: vec![0; targets.len()],
        panics: 0,
        first_panic: None,
    };
    for index in 0..inputs {
        let mut pick = rng.u32(..total_weight.max(1));
        let slot = targets
            .iter()
            .position(|t| {
                let hit = pick < t.weight;
                pick = pick.saturating_sub(t.weight);
                hit
            })
            .unwrap_or(0);
        let target = &targets[slot];
        let len = if target.json {
            BYTES_PER_JSON_INPUT
        } else {
            BYTES_PER_TEXT_INPUT
        };
        rng.fill(&mut bytes[..len]);
        let hostility = if target.mutates {
            0
        } else {
            HOSTILITIES[rng.usize(..HOSTILITIES.len())]
        };
        shown.clear();
        let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
            let mut g = Gen::new(&bytes[..len], hostility);
            (target.run)(&mut g, &mut shown);
        }));
        tally.per_target[slot] += 1;
        if outcome.is_err() {
            tally.panics += 1;
            if tally.first_panic.is_none() {
                let mut input = shown.clone();
                if input.len() > SHOWN_MAX {
                    let mut cut = SHOWN_MAX;
                    while !input.is_char_boundary(cut) {
                        cut -= 1;
                    }
                    input.truncate(cut);
                    input.push_str("...");
                }
                tally.first_panic = Some(Panic {
                    target: target.name,
                    seed,
                    index,
                    input,
                    message: LAST_PANIC
                        .with(|p| p.borrow_mut().take())
                        .unwrap_or_default(),
                });
            }
        }
    }
    tally
}

/// Runs `inputs` inputs over `threads` threads, thread `i` seeded with `seed + i`.
pub fn run(targets: &[Target], inputs: u64, seed: u64, threads: usize) -> Report {
    quiet_panics();
    let threads = threads.max(1);
    let started = Instant::now();
    let tallies: Vec<Tally> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|i| {
                let share =
                    inputs / threads as u64 + u64::from((i as u64) < inputs % threads as u64);
                let seed = seed.wrapping_add(i as u64);
                scope.spawn(move || run_thread(targets, share, seed))
            })
            .collect();
        handles.into_iter().filter_map(|h| h.join().ok()).collect()
    });
    let elapsed = started.elapsed();
    let mut per_target: Vec<(&'static str, u64)> = targets.iter().map(|t| (t.name, 0)).collect();
    let mut panics = 0;
    let mut first_panic = None;
    for tally in tallies {
        for (slot, n) in tally.per_target.iter().enumerate() {
            per_target[slot].1 += n;
        }
        panics += tally.panics;
        if first_panic.is_none() {
            first_panic = tally.first_panic;
        }
    }
    Report {
        seed,
        threads,
        inputs: per_target.iter().map(|(_, n)| n).sum(),
        panics,
        elapsed,
        per_target,
        first_panic,
    }
}
