//! `cargo lab bench`: emulator throughput and memory (`server.rs`), package size and where its
//! bytes are (`size.rs`), browser and Node benchmark scripts (here); each figure beside its
//! baseline or goal, measured in the same run. A missed goal is printed, not failed: timings vary.
//! `cargo xtask test` runs each script once at a small size (its `bench` stage) so that none can
//! break unseen.

mod server;
mod size;

use crate::emulator::{self, Emulator, Launch, TEST_KEY};
use crate::package::{self, Profile};
use crate::proc;
use crate::test::{node_scripts, script_env, ENV_STAGE_DELAY_MS};
use crate::toolchain;
use anyhow::{bail, Context, Result};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

pub struct Options {
    pub only: Option<Vec<String>>,
    pub duration_s: u32,
}

const SECTIONS: [&str; 8] = [
    "throughput",
    "memory",
    "size",
    "browser",
    "companion",
    "calls",
    "bundle",
    "emulator",
];

/// The script of a section that runs one of its own (the `browser` section runs every
/// `bench/*.mjs`).
fn section_script(section: &str) -> PathBuf {
    crate::root()
        .join("bench")
        .join(section)
        .join(format!("{section}.mjs"))
}

const BENCH_KEY: &str = TEST_KEY;

pub fn run(opts: &Options) -> Result<()> {
    let sections = xtask::flags::pick(&SECTIONS, opts.only.as_deref(), "section")?;
    let needs_emulator = sections.iter().any(|s| !matches!(*s, "size" | "bundle"));
    let bin = if needs_emulator {
        Some(emulator::build()?)
    } else {
        None
    };
    let mut failed = Vec::new();
    for section in sections {
        println!("\n==== bench: {section} ====");
        let outcome = match (section, &bin) {
            ("throughput", Some(bin)) => server::throughput(bin, opts.duration_s),
            ("memory", Some(bin)) => server::memory(bin),
            ("size", _) => size::size(),
            ("browser", Some(bin)) => browser(bin),
            ("companion", Some(bin)) => companion(bin),
            ("calls", Some(bin)) => calls(bin),
            ("bundle", _) => bundle(),
            ("emulator", Some(bin)) => emulator_npm(bin),
            _ => Ok(()),
        };
        if let Err(e) = outcome {
            eprintln!("xtask: bench {section} failed: {e:#}");
            failed.push(section);
        }
    }
    if !failed.is_empty() {
        bail!("bench section(s) failed: {}", failed.join(", "));
    }
    Ok(())
}

/// An emulator for a benchmark: free ports, no rate limit, credits enough for any run.
fn start(bin: &std::path::Path, stage_delay_ms: &str, extra: Vec<OsString>) -> Result<Emulator> {
    let mut args = emulator::args(&[
        "--credits",
        "10000000",
        "--stage-delay-ms",
        stage_delay_ms,
        "--api-key",
        BENCH_KEY,
    ]);
    args.extend(extra);
    Emulator::start(
        bin,
        Launch {
            args,
            echo: false,
            temp_data_dir: true,
        },
    )
}

fn verdict(pass: bool) -> &'static str {
    if pass {
        "PASS"
    } else {
        "MISS"
    }
}

fn browser(bin: &std::path::Path) -> Result<()> {
    let scripts = node_scripts(&crate::root().join("bench"))?;
    if scripts.is_empty() {
        println!("no bench/*.mjs scripts yet");
        return Ok(());
    }
    toolchain::js_tools()?;
    toolchain::chromium()?;
    let pkg = package::build(Profile::Release)?;
    let site = crate::target_dir().join("bench-site");
    package::stage_site(&site, Some(&pkg))?;
    let www: Vec<OsString> = vec!["--www".into(), site.into()];
    // Tasks that live a few seconds, so that each waiter of bench/waiters.mjs makes several
    // queries and the schedule (not just its first query) is what gets counted.
    const STAGE_DELAY_MS: &str = "1500";
    let emulator = start(bin, STAGE_DELAY_MS, www)?;
    let mut env = script_env(&emulator, &pkg.dir);
    env.push((ENV_STAGE_DELAY_MS, STAGE_DELAY_MS.into()));
    let mut failed = Vec::new();
    for script in &scripts {
        if let Err(e) = run_script(script, &env) {
            eprintln!("{e:#}");
            failed.push(script.display().to_string());
        }
    }
    if !failed.is_empty() {
        bail!("failing benchmark script(s): {}", failed.join(", "));
    }
    Ok(())
}

/// The companion server: `bench/companion/companion.mjs` against an emulator whose stages are
/// 1.5 s apart, so that a poller makes several queries per task.
fn companion(bin: &std::path::Path) -> Result<()> {
    toolchain::js_tools()?;
    toolchain::wrk()?;
    let pkg = package::build(Profile::Release)?;
    const STAGE_DELAY_MS: &str = "1500";
    let emulator = start(bin, STAGE_DELAY_MS, Vec::new())?;
    let mut env = script_env(&emulator, &pkg.dir);
    env.push((ENV_STAGE_DELAY_MS, STAGE_DELAY_MS.into()));
    // The script reads the emulator's CPU time, to give each side's cost per query.
    env.push((
        "TUNESMITH_BENCH_EMULATOR_PID",
        emulator.server.pid().to_string().into(),
    ));
    run_script(&section_script("companion"), &env)
}

/// The cost of one call: `bench/calls/calls.mjs`, in Node and in Chromium, with CPU profiles.
fn calls(bin: &std::path::Path) -> Result<()> {
    toolchain::js_tools()?;
    toolchain::chromium()?;
    let pkg = package::build(Profile::Release)?;
    let named = named_package(&pkg.dir)?;
    const STAGE_DELAY_MS: &str = "100";
    let emulator = start(bin, STAGE_DELAY_MS, Vec::new())?;
    let mut env = script_env(&emulator, &pkg.dir);
    env.push((ENV_STAGE_DELAY_MS, STAGE_DELAY_MS.into()));
    env.push(("TUNESMITH_NAMED_PKG", named.into()));
    run_script(&section_script("calls"), &env)
}

/// The package with the named module and its unminified glue (their import names match), for
/// profiles that say which function the time goes to; everything else as shipped.
fn named_package(pkg: &Path) -> Result<PathBuf> {
    let named = size::named_module()?;
    let dir = crate::target_dir().join("xtask-calls-named-pkg");
    let _ = std::fs::remove_dir_all(&dir);
    package::copy_tree(pkg, &dir)?;
    let from = named.parent().context("the named module has no folder")?;
    for file in ["tunesmith.js", "tunesmith_bg.wasm"] {
        std::fs::copy(from.join(file), dir.join(file))
            .with_context(|| format!("copying the named {file}"))?;
    }
    // wasm-bindgen's glue, unminified, bundled with its snippets as the shipped one is (the
    // package's files import the error classes from it).
    package::copy_tree(&from.join("snippets"), &dir.join("snippets"))?;
    crate::glue::bundle(&dir)?;
    // The named module is the browser entry's (the build's last); the Node entry loads it too here,
    // under the full module's name: the profiled calls reach nothing the two builds do not share.
    std::fs::copy(from.join("tunesmith_bg.wasm"), dir.join(package::FULL_WASM))
        .context("copying the named module for the Node entry")?;
    Ok(dir)
}

/// The emulator in the npm package against the native one: `bench/emulator/emulator.mjs`
/// (queries per second through `tunesmith emulator`, an in-process getTask, a track's rendering,
/// the start of `createEmulator`, the subpath's size).
fn emulator_npm(bin: &Path) -> Result<()> {
    toolchain::js_tools()?;
    toolchain::wrk()?;
    let pkg = package::build(Profile::Release)?;
    const STAGE_DELAY_MS: &str = "100";
    let emulator = start(bin, STAGE_DELAY_MS, Vec::new())?;
    let mut env = script_env(&emulator, &pkg.dir);
    env.push((ENV_STAGE_DELAY_MS, STAGE_DELAY_MS.into()));
    env.push(("TUNESMITH_BENCH_EMULATOR_BIN", bin.into()));
    run_script(&section_script("emulator"), &env)
}

/// What a bundler user pays: `bench/bundle/bundle.mjs` builds two pages with Vite.
fn bundle() -> Result<()> {
    toolchain::js_tools()?;
    let pkg = package::build(Profile::Release)?;
    run_script(
        &section_script("bundle"),
        &[("TUNESMITH_PKG", OsString::from(&pkg.dir))],
    )
}

fn run_script(script: &Path, env: &[(&'static str, OsString)]) -> Result<()> {
    let mut cmd = Command::new("node");
    cmd.current_dir(crate::root())
        .arg(script)
        .envs(env.iter().cloned());
    let (status, _) = proc::run_tee_with_deadline(cmd, Some(Duration::from_secs(15 * 60)))?;
    if !status.success() {
        bail!("{} failed ({status})", script.display());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::section_script;

    #[test]
    fn every_section_that_runs_a_script_has_it() {
        for section in ["size", "companion", "calls", "bundle", "emulator"] {
            assert!(section_script(section).is_file(), "{section}");
        }
    }
}
