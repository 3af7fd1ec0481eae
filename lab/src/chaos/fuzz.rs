//! Native fuzzing: the protocol's fuzz test (protocol/tests/fuzz/) run long, optimized but with
//! overflow checks and debug assertions on, so that arithmetic that would wrap is a panic too.

use super::{thousands, Figure, Figures, FUZZ_INPUTS_GOAL};
use crate::proc;
use anyhow::{bail, Context, Result};
use serde_json::Value;

const S: &str = "fuzz";

pub fn run(inputs: u64, seed: u64, figures: &mut Figures) -> Result<()> {
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(2);
    let mut cmd = proc::cargo();
    cmd.args([
        "test",
        "-p",
        "tunesmith-protocol",
        "--profile",
        "chaosfuzz",
        "--test",
        "fuzz",
        "--",
        "--exact",
        "every_decoder_survives_structure_aware_inputs",
        "--nocapture",
    ])
    // A profile of its own (defined here, not in Cargo.toml): release speed, and the checks of
    // a debug build, in a folder that leaves the release artifacts alone.
    .env("CARGO_PROFILE_CHAOSFUZZ_INHERITS", "release")
    .env("CARGO_PROFILE_CHAOSFUZZ_OVERFLOW_CHECKS", "true")
    .env("CARGO_PROFILE_CHAOSFUZZ_DEBUG_ASSERTIONS", "true")
    .env("TUNESMITH_FUZZ_INPUTS", inputs.to_string())
    .env("TUNESMITH_FUZZ_SEED", seed.to_string())
    .env("TUNESMITH_FUZZ_THREADS", threads.to_string());
    let (status, output) = proc::run_tee(cmd)?;
    let report = parse_line(&output).context("the fuzz test printed no `FUZZ {...}` line")?;
    let ran = report["inputs"].as_f64().unwrap_or(0.0);
    let panics = report["panics"].as_u64().unwrap_or(0) as usize;
    let first = match &report["firstPanic"] {
        Value::Object(p) => format!(
            "{} panicked: {} on input {}",
            p.get("target").and_then(Value::as_str).unwrap_or_default(),
            p.get("message").and_then(Value::as_str).unwrap_or_default(),
            p.get("input").and_then(Value::as_str).unwrap_or_default()
        ),
        _ => String::new(),
    };
    figures.push(Figure::at_least(
        S,
        "inputs (structure-aware, every decoder)",
        ran,
        FUZZ_INPUTS_GOAL as f64,
    ));
    figures.push(Figure::none_of(
        S,
        "panics (catch_unwind per input)",
        panics,
        first,
    ));
    figures.push(Figure::info(
        S,
        "inputs/s",
        format!(
            "{} on {} thread(s), {} s",
            thousands(report["perSecond"].as_f64().unwrap_or(0.0)),
            report["threads"],
            report["seconds"]
        ),
    ));
    let targets: Vec<String> = report["targets"]
        .as_object()
        .into_iter()
        .flatten()
        .map(|(name, n)| format!("{name} {}", thousands(n.as_f64().unwrap_or(0.0))))
        .collect();
    figures.push(Figure::info(S, "inputs per decoder", targets.join("; ")));
    if !status.success() && panics == 0 {
        bail!("the fuzz test failed ({status})");
    }
    Ok(())
}

fn parse_line(output: &str) -> Option<Value> {
    output
        .lines()
        .rev()
        .find_map(|l| l.trim().strip_prefix("FUZZ "))
        .and_then(|json| serde_json::from_str(json).ok())
}

#[cfg(test)]
mod tests {
    use super::parse_line;

    #[test]
    fn reads_the_last_fuzz_line() {
        let out = "running 1 test\nFUZZ {\"inputs\":5,\"panics\":0}\ntest x ... ok\n";
        assert_eq!(parse_line(out).map(|v| v["inputs"].clone()), Some(5.into()));
        assert!(parse_line("nothing").is_none());
    }
}
