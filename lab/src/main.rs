//! `cargo lab`: the project's measurements and reliability probes, each figure against its goal or
//! a baseline measured in the same run (not part of `cargo xtask test`, which runs their short
//! versions).

mod bench;
mod chaos;
mod http;
mod wrk;

// The moved probes and benchmarks name the house's modules as `crate::…`.
use xtask::{emulator, glue, package, proc, redis, root, signal, target_dir, test, toolchain};

use anyhow::{bail, Result};
use std::process::ExitCode;
use xtask::flags::Flags;

const USAGE: &str = "\
usage: cargo lab <command> [flags]   (or cargo xtask <command>)

  bench [--only SECTION[,SECTION..]] [--duration SECS]
                         sections: throughput, memory, size, browser, companion, calls,
                         bundle, emulator (each figure beside a baseline measured in the same run)
  chaos [--only SECTION[,SECTION..]] [--fuzz-inputs N] [--kills N] [--scale F] [--seed N]
                         reliability probes, each figure against its goal (not part of `test`):
                         fuzz, kill, hostile, secrets, node (tests/chaos/*.mjs at CHAOS_SCALE F),
                         companion, boundaries (one of those scripts each)
";

fn main() -> ExitCode {
    xtask::flags::main("lab", USAGE, run)
}

fn run(command: &str, mut flags: Flags) -> Result<bool> {
    let ok = match command {
        "bench" => {
            let opts = bench::Options {
                only: flags.list("--only")?,
                duration_s: flags.number("--duration")?.unwrap_or(10),
            };
            flags.finish()?;
            bench::run(&opts)?;
            true
        }
        "chaos" => {
            let opts = chaos::Options {
                only: flags.list("--only")?,
                fuzz_inputs: flags
                    .number("--fuzz-inputs")?
                    .unwrap_or(chaos::FUZZ_INPUTS_GOAL),
                kills: flags.number("--kills")?.unwrap_or(chaos::KILLS_GOAL),
                scale: flags.number("--scale")?.unwrap_or(1.0),
                seed: flags.number("--seed")?,
            };
            flags.finish()?;
            chaos::run(&opts)?
        }
        other => bail!("unknown command `{other}`\n{USAGE}"),
    };
    Ok(ok)
}
