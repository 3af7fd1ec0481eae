//! `cargo xtask test`: toolchain, lint, native tests, then wasm, JS and browser tests against one
//! live emulator; stops at the first failing stage and always prints the summary.

use crate::emulator::{self, Emulator, Launch, SPARE_KEY, TEST_KEY};
use crate::package::{self, Package, Profile};
use crate::proc::{self, run_tee};
use crate::report::{self, Counts, Env, StageRecord, Summary};
use crate::toolchain;
use anyhow::{bail, Context, Result};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

pub struct Options {
    pub skip_lint: bool,
    pub only: Option<Vec<String>>,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Stage {
    Lint,
    Native,
    Wasm,
    Js,
    E2e,
    Deploy,
    /// Each bench script once at a small size: a benchmark that broke fails here, not at release.
    Bench,
}

impl Stage {
    const ALL: [Stage; 7] = [
        Stage::Lint,
        Stage::Native,
        Stage::Wasm,
        Stage::Js,
        Stage::E2e,
        Stage::Deploy,
        Stage::Bench,
    ];

    fn name(self) -> &'static str {
        match self {
            Stage::Lint => "lint",
            Stage::Native => "native",
            Stage::Wasm => "wasm",
            Stage::Js => "js",
            Stage::E2e => "e2e",
            Stage::Deploy => "deploy",
            Stage::Bench => "bench",
        }
    }

    fn needs_emulator(self) -> bool {
        matches!(
            self,
            Stage::Wasm | Stage::Js | Stage::E2e | Stage::Deploy | Stage::Bench
        )
    }
}

/// Passed to every JS-level test and benchmark script (the wasm tests get the first four at
/// compile time).
pub const ENV_MUSIC_URL: &str = "TUNESMITH_TEST_MUSIC_URL";
pub const ENV_UPLOAD_URL: &str = "TUNESMITH_TEST_UPLOAD_URL";
pub const ENV_API_KEY: &str = "TUNESMITH_TEST_API_KEY";
pub const ENV_SPARE_KEY: &str = "TUNESMITH_TEST_SPARE_KEY";

/// The cargo feature of the typed Rust API: off in the npm build, on for its lint and for the
/// suites, which run each behaviour through both faces (tests/suite/faces.rs).
const RUST_API: &str = "rust-api";

const NODE_TESTS_TIMEOUT: Duration = Duration::from_secs(30 * 60);

pub fn run(opts: &Options) -> Result<bool> {
    let stages = select(opts)?;
    let mut ctx = Ctx::default();
    let mut steps: Vec<Step> = vec![Step::Toolchain];
    for stage in &stages {
        if stage.needs_emulator() && !steps.contains(&Step::Emulator) {
            steps.push(Step::Emulator);
        }
        steps.push(Step::Stage(*stage));
    }
    for step in steps {
        let name = step.name();
        println!("\n==== {name} ====");
        let started = Instant::now();
        // A panic in xtask itself is a failed stage too: the summary still gets printed.
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match step {
            Step::Toolchain => toolchain_for(&stages),
            Step::Emulator => ctx.start_emulator(),
            Step::Stage(Stage::Lint) => lint(),
            Step::Stage(Stage::Native) => native(&mut ctx.summary),
            Step::Stage(Stage::Wasm) => ctx.wasm(),
            Step::Stage(Stage::Js) => ctx.js(),
            Step::Stage(Stage::E2e) => ctx.e2e(),
            Step::Stage(Stage::Deploy) => ctx.deploy(),
            Step::Stage(Stage::Bench) => ctx.bench_smoke(),
        }))
        .unwrap_or_else(|_| Err(anyhow::anyhow!("xtask panicked")))
        .map_err(|e| format!("{e:#}"));
        if let Err(e) = &outcome {
            eprintln!("\nxtask: {name} failed: {e}");
            if let Some(emulator) = &ctx.emulator {
                if step.uses_emulator() {
                    eprintln!("(emulator){}", emulator.stderr_report());
                }
            }
        }
        let failed = outcome.is_err();
        ctx.summary.stages.push(StageRecord {
            name,
            took: started.elapsed(),
            outcome,
        });
        if failed {
            break;
        }
    }
    // The keys the suites ran with must appear in nothing they printed.
    if !ctx.outputs.is_empty() && ctx.summary.ok() {
        let started = Instant::now();
        println!("\n==== secrets ====");
        let emulator_err = ctx.emulator.as_ref().map(Emulator::stderr_report);
        let outcome = key_scan(&ctx.outputs, emulator_err.as_deref()).map_err(|e| format!("{e:#}"));
        ctx.summary.stages.push(StageRecord {
            name: "secrets",
            took: started.elapsed(),
            outcome,
        });
    }
    // Stop the emulator before the summary, so the closing line is the last thing printed.
    drop(ctx.emulator.take());
    drop(ctx.redis.take());
    ctx.summary.print();
    Ok(ctx.summary.ok())
}

fn select(opts: &Options) -> Result<Vec<Stage>> {
    let mut stages: Vec<Stage> = match &opts.only {
        None => Stage::ALL.to_vec(),
        Some(names) => {
            let mut picked = Vec::new();
            for name in names {
                match Stage::ALL.iter().find(|s| s.name() == name) {
                    Some(stage) => picked.push(*stage),
                    None => bail!(
                        "unknown stage `{name}`; stages: {}",
                        Stage::ALL.map(Stage::name).join(", ")
                    ),
                }
            }
            Stage::ALL
                .into_iter()
                .filter(|s| picked.contains(s))
                .collect()
        }
    };
    if opts.skip_lint {
        stages.retain(|s| *s != Stage::Lint);
    }
    Ok(stages)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Step {
    Toolchain,
    Emulator,
    Stage(Stage),
}

impl Step {
    fn name(self) -> &'static str {
        match self {
            Step::Toolchain => "toolchain",
            Step::Emulator => "emulator",
            Step::Stage(stage) => stage.name(),
        }
    }

    fn uses_emulator(self) -> bool {
        match self {
            Step::Toolchain => false,
            Step::Emulator => true,
            Step::Stage(stage) => stage.needs_emulator(),
        }
    }
}

/// Installs up front what the selected stages need, so a missing tool fails in seconds.
fn toolchain_for(stages: &[Stage]) -> Result<()> {
    let any = |wanted: &[Stage]| stages.iter().any(|s| wanted.contains(s));
    if any(&[
        Stage::Lint,
        Stage::Wasm,
        Stage::Js,
        Stage::E2e,
        Stage::Deploy,
        Stage::Bench,
    ]) {
        toolchain::wasm_target()?;
    }
    if any(&[
        Stage::Wasm,
        Stage::Js,
        Stage::E2e,
        Stage::Deploy,
        Stage::Bench,
    ]) {
        toolchain::wasm_bindgen()?;
    }
    if any(&[Stage::Js, Stage::E2e, Stage::Deploy, Stage::Bench]) {
        // Every suite's npm tools (node-redis among them), and a real Redis for the companion's.
        toolchain::js_tools()?;
        toolchain::redis_server()?;
        // tmux, for the CLI's terminal test.
        toolchain::tmux()?;
    }
    if any(&[Stage::Js]) {
        // The MCP conformance suite, on the Node 22 it needs.
        toolchain::mcp_conformance()?;
    }
    if any(&[Stage::Lint]) {
        // TypeScript, for the companion's types.
        toolchain::js_tools()?;
    }
    if any(&[Stage::Wasm, Stage::E2e, Stage::Bench]) {
        toolchain::chromium()?;
    }
    if any(&[Stage::Bench]) {
        toolchain::wrk()?;
    }
    Ok(())
}

fn lint() -> Result<()> {
    // Drift first: a stale generated file would make every later failure confusing.
    crate::codegen::run(true)?;
    companion_types()?;
    proc::run(proc::cargo().args(["fmt", "--all", "--", "--check"]))?;
    proc::run(proc::cargo().args([
        "clippy",
        "--workspace",
        "--all-targets",
        "--",
        "-D",
        "warnings",
    ]))?;
    proc::run(proc::cargo().args([
        "clippy",
        "-p",
        "tunesmith",
        "--target",
        toolchain::WASM_TARGET,
        "--all-targets",
        "--features",
        RUST_API,
        "--",
        "-D",
        "warnings",
    ]))
}

/// The companion's JavaScript source checked by tsc (`--checkJs --strict`, its tsconfig), and the
/// declarations the package ships (`pkg-template/server/types/`) the ones tsc writes from it.
fn companion_types() -> Result<()> {
    let config = crate::root()
        .join("tests")
        .join("js")
        .join("companion")
        .join("tsconfig.json");
    let shipped = crate::root()
        .join("pkg-template")
        .join("server")
        .join("types");
    let written = crate::target_dir().join("companion-types");
    let _ = std::fs::remove_dir_all(&written);
    proc::run(
        Command::new("node")
            .arg(
                crate::root()
                    .join("node_modules")
                    .join("typescript")
                    .join("bin")
                    .join("tsc"),
            )
            .arg("-p")
            .arg(&config)
            .arg("--outDir")
            .arg(&written),
    )?;
    let names = |d: &Path| -> Result<Vec<String>> {
        let mut names = Vec::new();
        for entry in std::fs::read_dir(d).with_context(|| format!("reading {}", d.display()))? {
            names.push(entry?.file_name().to_string_lossy().into_owned());
        }
        names.sort();
        Ok(names)
    };
    let expected = names(&written)?;
    let stale = expected != names(&shipped).unwrap_or_default()
        || expected.iter().any(|name| {
            std::fs::read(written.join(name)).ok() != std::fs::read(shipped.join(name)).ok()
        });
    if stale {
        bail!(
            "pkg-template/server/types/ is not what tsc writes from the companion's source: \
             delete it and run `node node_modules/typescript/bin/tsc -p tests/js/companion/tsconfig.json`"
        );
    }
    println!(
        "companion: source checked by tsc --strict, {} declaration files current",
        expected.len()
    );
    Ok(())
}

fn native(summary: &mut Summary) -> Result<()> {
    let packages = [
        ("tunesmith-protocol", Env::NativeProtocol),
        ("tunesmith-emulator", Env::NativeEmulator),
        ("xtask", Env::NativeXtask),
        ("lab", Env::NativeLab),
    ];
    // One build for all, so cargo can compile them in parallel.
    let mut build = proc::cargo();
    build.args(["test", "--no-run"]);
    for (name, _) in packages {
        build.args(["-p", name]);
    }
    proc::run(&mut build)?;
    let mut failures = Vec::new();
    for (name, env) in packages {
        let mut cmd = proc::cargo();
        cmd.args(["test", "--no-fail-fast", "-p", name]);
        let (status, output) = run_tee(cmd)?;
        let mut counts = Counts::default();
        for suite in report::parse_cargo_test(&output) {
            counts += suite.counts;
        }
        summary.add(env, counts);
        if !status.success() || counts.failed > 0 {
            failures.push(format!("{name}: {} failed ({status})", counts.failed));
        }
    }
    if !failures.is_empty() {
        bail!("{}", failures.join("; "));
    }
    Ok(())
}

/// Counts the test keys in what the suites printed (xtask's own `$ command` echo, which launches
/// the emulator with its keys, is not the suites' output) and in the emulator's stderr.
fn key_scan(outputs: &[String], emulator_stderr: Option<&str>) -> Result<()> {
    let mut found = Vec::new();
    let texts = outputs.iter().map(String::as_str).chain(emulator_stderr);
    let mut lines = 0usize;
    for text in texts {
        for line in text.lines().filter(|l| !l.starts_with("$ ")) {
            lines += 1;
            if line.contains(TEST_KEY) || line.contains(SPARE_KEY) {
                found.push(line.chars().take(160).collect::<String>());
            }
        }
    }
    if !found.is_empty() {
        bail!(
            "the API key appears {} time(s) in the suites' output, e.g. {:?}",
            found.len(),
            found[0]
        );
    }
    println!("secrets: 0 occurrences of the test keys in {lines} lines the suites and the emulator printed");
    Ok(())
}

#[derive(Default)]
struct Ctx {
    /// Everything the wasm, JS and e2e suites printed, for the key scan.
    outputs: Vec<String>,
    emulator: Option<Emulator>,
    /// The folder the emulator serves at `/` (www/ + pkg/), when it has `--www`.
    site: Option<PathBuf>,
    pkg: Option<Package>,
    /// The companion suites' Redis, started with the first JS-level stage.
    redis: Option<crate::redis::RedisServer>,
    summary: Summary,
}

impl Ctx {
    fn start_emulator(&mut self) -> Result<()> {
        let bin = emulator::build()?;
        let mut args = emulator::suite_args(TEST_KEY, SPARE_KEY);
        if emulator::supports(&bin, "--www") {
            let site = crate::target_dir().join("test-site");
            package::stage_site(&site, None)?;
            args.push("--www".into());
            args.push(site.clone().into());
            self.site = Some(site);
        }
        let emulator = Emulator::start(
            &bin,
            Launch {
                args,
                echo: false,
                temp_data_dir: true,
            },
        )?;
        println!(
            "emulator ready: music={} upload={}",
            emulator.music, emulator.upload
        );
        self.emulator = Some(emulator);
        Ok(())
    }

    fn emulator(&self) -> Result<&Emulator> {
        self.emulator
            .as_ref()
            .context("the emulator is not running")
    }

    fn wasm(&mut self) -> Result<()> {
        let root = crate::root();
        let node_files = test_files(&root.join("tests"), "node_", ".rs")?;
        let browser_files = test_files(&root.join("tests"), "browser_", ".rs")?;
        let emulator = self.emulator()?;
        let mut cmd = proc::cargo();
        cmd.args([
            "test",
            "-p",
            "tunesmith",
            "--target",
            toolchain::WASM_TARGET,
            "--tests",
            "--features",
            RUST_API,
            "--no-fail-fast",
        ])
        .env(ENV_MUSIC_URL, &emulator.music)
        .env(ENV_UPLOAD_URL, &emulator.upload)
        .env(ENV_API_KEY, TEST_KEY)
        .env(ENV_SPARE_KEY, SPARE_KEY)
        .env("CHROMEDRIVER", toolchain::CHROMEDRIVER)
        .env("WASM_BINDGEN_TEST_TIMEOUT", "120")
        .env("WASM_BINDGEN_TEST_DRIVER_TIMEOUT", "60");
        let (status, output) = run_tee(cmd)?;
        self.outputs.push(output.clone());
        let mut node = Counts::default();
        let mut chromium = Counts::default();
        for suite in report::parse_cargo_test(&output) {
            match wasm_env(&root, &suite.name) {
                Env::WasmChromium => chromium += suite.counts,
                _ => node += suite.counts,
            }
        }
        self.summary.add(Env::WasmNode, node);
        self.summary.add(Env::WasmChromium, chromium);
        let mut problems = zero_runs(node_files.len(), node, browser_files.len(), chromium);
        if !status.success() || node.failed + chromium.failed > 0 {
            let failed = node.failed + chromium.failed;
            problems.insert(0, format!("{failed} wasm test(s) failed ({status})"));
        }
        if !problems.is_empty() {
            bail!("{}", problems.join("; "));
        }
        Ok(())
    }

    /// Builds the package once (as `cargo xtask build`) and puts it on the served site.
    fn package(&mut self) -> Result<&Package> {
        if self.pkg.is_none() {
            let pkg = package::build(Profile::Release)?;
            pkg.print_sizes()?;
            pkg.check_size_budget()?;
            if let Some(site) = &self.site {
                package::copy_tree(&pkg.dir, &site.join("pkg"))?;
            }
            self.pkg = Some(pkg);
        }
        self.pkg.as_ref().context("the package was not built")
    }

    /// The environment of JS-level tests and benchmark scripts.
    fn script_env(&mut self) -> Result<Vec<(&'static str, OsString)>> {
        let pkg_dir = self.package()?.dir.clone();
        if self.redis.is_none() {
            self.redis = Some(crate::redis::RedisServer::start()?);
        }
        let emulator = self.emulator()?;
        let mut env = script_env(emulator, &pkg_dir, self.site.is_some());
        if let Some(redis) = &self.redis {
            env.push((crate::redis::ENV_REDIS_URL, redis.url.clone().into()));
        }
        Ok(env)
    }

    fn js(&mut self) -> Result<()> {
        let files = test_files(&crate::root().join("tests").join("js"), "", ".test.mjs")?;
        let counts = self.node_tests(&files)?;
        self.summary.add(Env::JsNode, counts);
        counts.check("JS", files.len())
    }

    fn e2e(&mut self) -> Result<()> {
        let files = node_scripts(&crate::root().join("tests").join("e2e"))?;
        let counts = self.node_tests(&files)?;
        self.summary.add(Env::E2eChromium, counts);
        counts.check("e2e", files.len())
    }

    /// The example projects of tests/deploy/ (Workers, Express, Next.js, Deno, Bun, `require`):
    /// each installs its framework from npm and serves the companion or a client.
    fn deploy(&mut self) -> Result<()> {
        let files = test_files(&crate::root().join("tests").join("deploy"), "", ".test.mjs")?;
        let counts = self.node_tests(&files)?;
        self.summary.add(Env::Deploy, counts);
        counts.check("deploy", files.len())
    }

    /// Every bench script once, small (`cargo lab bench` runs them at full size); each file is one
    /// test of node's runner.
    fn bench_smoke(&mut self) -> Result<()> {
        let files = crate::bench_scripts::scripts()?;
        let smoke = [
            (crate::bench_scripts::ENV_SMOKE, "1".into()),
            (
                crate::bench_scripts::ENV_STAGE_DELAY_MS,
                emulator::SUITE_STAGE_DELAY_MS.into(),
            ),
        ];
        let counts = self.node_tests_with(&files, &smoke)?;
        self.summary.add(Env::BenchSmoke, counts);
        counts.check("bench", files.len())
    }

    fn node_tests(&mut self, files: &[PathBuf]) -> Result<Counts> {
        self.node_tests_with(files, &[])
    }

    /// Runs `files` under node's test runner, one file at a time (the browser suites each start
    /// Chromium and servers of their own), with `extra` in their environment, and counts its
    /// closing lines.
    fn node_tests_with(
        &mut self,
        files: &[PathBuf],
        extra: &[(&'static str, OsString)],
    ) -> Result<Counts> {
        let mut env = self.script_env()?;
        env.extend(extra.iter().cloned());
        let mut cmd = Command::new("node");
        cmd.current_dir(crate::root())
            .args([
                "--test",
                "--test-concurrency=1",
                "--test-force-exit",
                "--test-timeout=600000",
                "--test-reporter=spec",
            ])
            .args(files)
            .envs(env);
        let (status, output) = proc::run_tee_with_deadline(cmd, Some(NODE_TESTS_TIMEOUT))?;
        let mut counts = report::parse_node_test(&output).unwrap_or_default();
        self.outputs.push(output);
        if !status.success() && counts.failed == 0 {
            counts.failed = 1;
        }
        Ok(counts)
    }
}

/// What a test or benchmark script gets to find the emulator, the package and the browser.
pub fn script_env(
    emulator: &Emulator,
    pkg_dir: &Path,
    site_served: bool,
) -> Vec<(&'static str, OsString)> {
    let mut env: Vec<(&'static str, OsString)> = vec![
        (ENV_MUSIC_URL, emulator.music.clone().into()),
        (ENV_UPLOAD_URL, emulator.upload.clone().into()),
        (ENV_API_KEY, TEST_KEY.into()),
        (ENV_SPARE_KEY, SPARE_KEY.into()),
        ("TUNESMITH_PKG", pkg_dir.into()),
        ("TUNESMITH_CHROMIUM", toolchain::CHROMIUM.into()),
        (
            "TUNESMITH_ARTIFACTS",
            crate::target_dir().join("test-artifacts").into(),
        ),
    ];
    if site_served {
        env.push(("TUNESMITH_SITE_URL", format!("{}/", emulator.music).into()));
    }
    env
}

/// An environment with test files that ran zero tests: a suite configured for the other
/// environment is skipped, not failed (TOOLCHAIN.md), so only the count tells.
fn zero_runs(
    node_files: usize,
    node: Counts,
    browser_files: usize,
    chromium: Counts,
) -> Vec<String> {
    let mut problems = Vec::new();
    if node_files > 0 && node.total() == 0 {
        problems.push(format!(
            "{node_files} tests/node_*.rs file(s) but zero tests ran in Node"
        ));
    }
    if browser_files > 0 && chromium.total() == 0 {
        problems.push(format!(
            "{browser_files} tests/browser_*.rs file(s) but zero tests ran in Chromium"
        ));
    }
    problems
}

/// Which environment ran a wasm test binary: by its file name, else by whether it configures
/// `run_in_browser`.
fn wasm_env(root: &Path, suite: &str) -> Env {
    let file = suite.strip_prefix("unittests ").unwrap_or(suite);
    let base = Path::new(file)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if base.starts_with("browser_") {
        return Env::WasmChromium;
    }
    if base.starts_with("node_") {
        return Env::WasmNode;
    }
    match std::fs::read_to_string(root.join(file)) {
        Ok(source) if source.contains("run_in_browser") => Env::WasmChromium,
        _ => Env::WasmNode,
    }
}

/// Files directly in `dir` named `<prefix>*<suffix>`, sorted.
fn test_files(dir: &Path, prefix: &str, suffix: &str) -> Result<Vec<PathBuf>> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(Vec::new());
    };
    let mut files = Vec::new();
    for entry in entries {
        let path = entry?.path();
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if path.is_file() && name.starts_with(prefix) && name.ends_with(suffix) {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
}

/// The `*.mjs` scripts of `dir`; names starting with `_` are helpers that scripts import.
pub fn node_scripts(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut scripts = test_files(dir, "", ".mjs")?;
    scripts.retain(|p| {
        !p.file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with('_'))
    });
    Ok(scripts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_scan_finds_a_key_in_output_but_not_in_our_command_echo() {
        let echo = format!("$ emulator --api-key {TEST_KEY}\nok");
        assert!(key_scan(&[echo], Some("ready")).is_ok());
        let leak = format!("ApiError: Bearer {SPARE_KEY} refused");
        assert!(key_scan(&["fine".into(), leak], None).is_err());
    }

    #[test]
    fn options_pick_stages_in_their_fixed_order() {
        let only = |names: &[&str], skip_lint| Options {
            skip_lint,
            only: Some(names.iter().map(|s| s.to_string()).collect()),
        };
        assert_eq!(
            select(&only(&["e2e", "lint"], false)).ok(),
            Some(vec![Stage::Lint, Stage::E2e])
        );
        assert_eq!(
            select(&Options {
                skip_lint: true,
                only: None
            })
            .ok()
            .map(|s| s.len()),
            Some(6)
        );
        assert!(select(&only(&["lnt"], false)).is_err());
    }

    #[test]
    fn an_environment_with_files_and_no_tests_run_is_a_problem() {
        let none = Counts::default();
        let some = Counts {
            passed: 2,
            failed: 0,
        };
        assert!(zero_runs(1, some, 1, some).is_empty());
        assert!(zero_runs(0, none, 0, none).is_empty());
        assert_eq!(zero_runs(1, some, 2, none).len(), 1);
        assert_eq!(zero_runs(1, none, 1, none).len(), 2);
    }

    #[test]
    fn wasm_binaries_are_attributed_by_name() {
        let root = Path::new("/nonexistent");
        assert_eq!(wasm_env(root, "tests/browser_upload.rs"), Env::WasmChromium);
        assert_eq!(wasm_env(root, "tests/node_errors.rs"), Env::WasmNode);
        assert_eq!(wasm_env(root, "unittests src/lib.rs"), Env::WasmNode);
    }
}
