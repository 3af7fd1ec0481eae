//! Structure-aware fuzzing of every decoder of the protocol, on the stable toolchain.
//!
//! `cargo test` runs a short pass; `cargo xtask chaos` runs the long one (at least 10 million
//! inputs) through the same test with `TUNESMITH_FUZZ_INPUTS`, reading the `FUZZ {json}` line it
//! prints. `TUNESMITH_FUZZ_SEED` replays a run (`TUNESMITH_FUZZ_ONLY` one target of it); `TUNESMITH_FUZZ_THREADS` spreads it over cores.
#![allow(clippy::disallowed_macros)] // tests may format (clippy.toml)
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::string_slice,
    clippy::disallowed_methods
)]

mod engine;
mod gen;
mod targets;

/// A few seconds in a debug build on a shared core.
const SHORT_RUN_INPUTS: u64 = 15_000;

fn env_number(name: &str) -> Option<u64> {
    std::env::var(name).ok()?.trim().parse().ok()
}

#[test]
fn every_decoder_survives_structure_aware_inputs() {
    let inputs = env_number("TUNESMITH_FUZZ_INPUTS").unwrap_or(SHORT_RUN_INPUTS);
    // A fresh seed each run explores new inputs; the line below names it for a replay.
    let seed = env_number("TUNESMITH_FUZZ_SEED").unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(1)
    });
    let threads = env_number("TUNESMITH_FUZZ_THREADS").unwrap_or(1) as usize;
    // `TUNESMITH_FUZZ_ONLY=times` replays one target.
    let only = std::env::var("TUNESMITH_FUZZ_ONLY").ok();
    let chosen: Vec<targets::Target> = targets::TARGETS
        .iter()
        .filter(|t| only.as_deref().is_none_or(|o| t.name == o))
        .cloned()
        .collect();
    assert!(!chosen.is_empty(), "no fuzz target is called {only:?}");
    let report = engine::run(&chosen, inputs, seed, threads);
    println!("{}", report.line());
    if let Some(p) = &report.first_panic {
        panic!(
            "{} of {} inputs panicked; the first ({}, seed {}, input {}): {}\ninput: {}",
            report.panics, report.inputs, p.target, p.seed, p.index, p.message, p.input
        );
    }
    assert!(
        report.inputs >= inputs,
        "ran {} of {inputs} inputs",
        report.inputs
    );
}

#[test]
fn a_panicking_decoder_is_reported_with_its_input() {
    const BOOM: &[targets::Target] = &[targets::Target {
        name: "boom",
        weight: 1,
        mutates: false,
        json: false,
        run: |g, shown| {
            let n = g.below(1000);
            shown.push_str(&format!("n={n}"));
            if n % 2 == 0 {
                panic!("even {n}");
            }
        },
    }];
    let report = engine::run(BOOM, 400, 7, 2);
    assert_eq!(report.inputs, 400);
    assert!(
        report.panics > 50 && report.panics < 400,
        "{}",
        report.panics
    );
    let first = report.first_panic.as_ref().expect("a panic is reported");
    assert_eq!(first.target, "boom");
    let n = first.input.strip_prefix("n=").expect("the input is kept");
    assert!(
        first.message.starts_with(&format!("even {n}")),
        "{}",
        first.message
    );
    assert!(report.line().starts_with("FUZZ {"));
}

#[test]
fn every_target_runs() {
    let report = engine::run(targets::TARGETS, 2_000, 11, 1);
    for (name, n) in &report.per_target {
        assert!(*n > 0, "{name} ran no input");
    }
}
