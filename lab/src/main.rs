//! `cargo lab`: the project's measurements and reliability probes, each figure against its goal or
//! a baseline measured in the same run (not part of `cargo xtask test`, which runs their short
//! versions).

mod bench;
mod chaos;
mod http;
mod wrk;

// The moved probes and benchmarks name the house's modules as `crate::…`.
use xtask::{
    emulator, package, pick_sections, proc, redis, root, signal, target_dir, test, toolchain,
};

use anyhow::{bail, Result};
use std::process::ExitCode;
use xtask::flags::Flags;

const USAGE: &str = "\
usage: cargo lab <command> [flags]   (or cargo xtask <command>)

  bench [--only SECTION[,SECTION..]] [--duration SECS]
                         sections: throughput, memory, size, browser, companion, calls,
                         bundle (each figure beside a baseline measured in the same run)
  chaos [--only SECTION[,SECTION..]] [--fuzz-inputs N] [--kills N] [--scale F] [--seed N]
                         reliability probes, each figure against its goal (not part of `test`):
                         fuzz, kill, hostile, secrets, node (tests/chaos/*.mjs at CHAOS_SCALE F)
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("lab: error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &[String]) -> Result<bool> {
    toolchain::put_cargo_bin_on_path();
    let Some((command, rest)) = args.split_first() else {
        print!("{USAGE}");
        return Ok(false);
    };
    let mut flags = Flags::new(rest, USAGE);
    let ok = match command.as_str() {
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
        "help" | "--help" | "-h" => {
            print!("{USAGE}");
            true
        }
        other => bail!("unknown command `{other}`\n{USAGE}"),
    };
    Ok(ok)
}
