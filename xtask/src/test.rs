//! `cargo xtask test`: toolchain, lint, native tests, then wasm, JS and browser tests against one
//! live emulator; stops at the first failing stage and always prints the summary.
//! Over 400 lines on purpose: every stage in one place, with its order, the tools it installs, what
//! it runs and how its tests are counted.

use crate::emulator::{self, Emulator, Launch, SPARE_KEY, TEST_KEY};
use crate::package::{self, Package, Profile};
use crate::proc;
use crate::report::{self, Counts, StageRecord, Summary};
use crate::toolchain::{self, WASM_TARGET};
use anyhow::{bail, Context, Result};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

pub struct Options {
    pub skip_lint: bool,
    pub only: Option<Vec<String>>,
}

/// The stages, in the order they run; `--only` names them.
const STAGES: [&str; 9] = [
    "lint", "native", "wasm", "js", "e2e", "deploy", "users", "parity", "bench",
];

/// Passed to every JS-level test and benchmark script (the wasm tests get the first four at
/// compile time).
pub const ENV_MUSIC_URL: &str = "TUNESMITH_TEST_MUSIC_URL";
pub const ENV_UPLOAD_URL: &str = "TUNESMITH_TEST_UPLOAD_URL";
pub const ENV_API_KEY: &str = "TUNESMITH_TEST_API_KEY";
pub const ENV_SPARE_KEY: &str = "TUNESMITH_TEST_SPARE_KEY";
/// Set to `1` by the `bench` stage: the bench scripts run once at a small size (bench/_lib.mjs).
pub const ENV_BENCH_SMOKE: &str = "TUNESMITH_BENCH_SMOKE";
/// The emulator's time between task stages, for the bench scripts that compute when a task ends.
pub const ENV_STAGE_DELAY_MS: &str = "TUNESMITH_BENCH_STAGE_DELAY_MS";

/// The cargo feature of the typed Rust API: off in the npm build, on for its lint and for the
/// suites, which run each behaviour through both faces (tests/suite/faces.rs).
const RUST_API: &str = "rust-api";

/// Reads a runner's closing lines into counts.
type CountParser = fn(&str) -> Option<Counts>;

const NODE_TESTS_TIMEOUT: Duration = Duration::from_secs(30 * 60);

pub fn run(opts: &Options) -> Result<bool> {
    let stages = select(opts)?;
    let mut ctx = Ctx::default();
    let mut ok = ctx.step("toolchain", |_| install_tools(&stages));
    for &stage in &stages {
        // Every stage but these two runs against the live emulator.
        if ok && !matches!(stage, "lint" | "native") && ctx.emulator.is_none() {
            ok = ctx.step("emulator", Ctx::start_emulator);
        }
        if !ok {
            break;
        }
        ok = ctx.step(stage, |ctx| ctx.run_stage(stage));
    }
    // The keys the suites ran with must appear in nothing they printed.
    if ok && !ctx.outputs.is_empty() && ctx.summary.ok() {
        ctx.step("secrets", |ctx| {
            let emulator_err = ctx.emulator.as_ref().map(|e| e.server.stderr_report());
            key_scan(&ctx.outputs, emulator_err.as_deref())
        });
    }
    // Stop the emulator before the summary, so the closing line is the last thing printed.
    drop(ctx.emulator.take());
    drop(ctx.redis.take());
    ctx.summary.print();
    Ok(ctx.summary.ok())
}

fn select(opts: &Options) -> Result<Vec<&'static str>> {
    let mut stages = crate::flags::pick(&STAGES, opts.only.as_deref(), "stage")?;
    stages.retain(|s| !(opts.skip_lint && *s == "lint"));
    Ok(stages)
}

/// Installs up front what the selected stages need, so a missing tool fails in seconds.
fn install_tools(stages: &[&str]) -> Result<()> {
    let any = |wanted: &[&str]| stages.iter().any(|s| wanted.contains(s));
    if any(&[
        "lint", "wasm", "js", "e2e", "deploy", "users", "parity", "bench",
    ]) {
        toolchain::wasm_target()?;
    }
    if any(&["wasm", "js", "e2e", "deploy", "users", "parity", "bench"]) {
        toolchain::wasm_bindgen()?;
    }
    if any(&["js", "e2e", "deploy", "users", "parity", "bench"]) {
        // Every suite's npm tools, a real Redis for the companion's, tmux for the CLI's terminal.
        toolchain::js_tools()?;
        toolchain::redis_server()?;
        toolchain::tmux()?;
    }
    if any(&["js"]) {
        // The MCP conformance suite, on the Node 22 it needs.
        toolchain::mcp_conformance()?;
    }
    if any(&["js", "users"]) {
        // The users' projects' runners (Vitest, Jest, MSW): the `users` stage runs them, and the
        // `js` stage type-checks the README's snippets in them against their own types.
        for entry in std::fs::read_dir(crate::root().join("tests").join("emulator-npm"))? {
            let dir = entry?.path();
            if dir.is_dir() {
                toolchain::npm_project(&dir)?;
            }
        }
    }
    if any(&["wasm", "e2e", "parity", "bench"]) {
        toolchain::chromium()?;
    }
    if any(&["bench"]) {
        toolchain::wrk()?;
    }
    Ok(())
}

fn lint() -> Result<()> {
    // Drift first: a stale generated file would make every later failure confusing.
    crate::codegen::run(true)?;
    proc::run(proc::cargo().args(["fmt", "--all", "--", "--check"]))?;
    let clippy = ["--", "-D", "warnings"];
    proc::run(
        proc::cargo()
            .args(["clippy", "--workspace", "--all-targets"])
            .args(clippy),
    )?;
    proc::run(
        proc::cargo()
            .args(["clippy", "-p", "tunesmith", "--target", WASM_TARGET])
            .args(["--all-targets", "--features", RUST_API])
            .args(clippy),
    )?;
    // The browser entry's module, built without the default features (xtask/src/package.rs).
    proc::run(
        proc::cargo()
            .args(["clippy", "-p", "tunesmith", "--target", WASM_TARGET])
            .arg("--no-default-features")
            .args(clippy),
    )
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
    pkg: Option<Package>,
    /// The companion suites' Redis, started with the first JS-level stage.
    redis: Option<crate::redis::RedisServer>,
    summary: Summary,
}

impl Ctx {
    /// Runs one step under its banner and records its time and outcome (a panic in xtask itself
    /// is a failed step too, so the summary still gets printed); false when it failed.
    fn step(&mut self, name: &'static str, f: impl FnOnce(&mut Ctx) -> Result<()>) -> bool {
        println!("\n==== {name} ====");
        let started = Instant::now();
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(self)))
            .unwrap_or_else(|_| Err(anyhow::anyhow!("xtask panicked")))
            .map_err(|e| format!("{e:#}"));
        if let Err(e) = &outcome {
            eprintln!("\nxtask: {name} failed: {e}");
            if let Some(emulator) = &self.emulator {
                eprintln!("(emulator){}", emulator.server.stderr_report());
            }
        }
        let ok = outcome.is_ok();
        let took = started.elapsed();
        self.summary.stages.push(StageRecord {
            name,
            took,
            outcome,
        });
        ok
    }

    fn run_stage(&mut self, stage: &str) -> Result<()> {
        let root = crate::root();
        let tests = root.join("tests");
        match stage {
            "lint" => lint(),
            "native" => self.native(),
            "wasm" => self.wasm(),
            "js" => {
                let files = test_files(&tests.join("js"), "", ".test.mjs")?;
                self.node_tests(&files, &[], "js node")
            }
            "e2e" => self.node_tests(&node_scripts(&tests.join("e2e"))?, &[], "e2e chromium"),
            // The example projects of tests/deploy/ (Workers, Express, Next.js, Deno, Bun,
            // `require`): each installs its framework from npm and serves the companion or a client.
            "deploy" => {
                let files = test_files(&tests.join("deploy"), "", ".test.mjs")?;
                self.node_tests(&files, &[], "deploy runtimes")
            }
            // Users' projects of tests/emulator-npm/ (node --test, Vitest, Jest, MSW): each installs
            // its test runner from npm and the package from its tarball, and tests against
            // `tunesmith/emulator` in-process.
            "users" => self.users(),
            // The emulator's HTTP-level suites again, against its wasm build as
            // `npx tunesmith emulator` runs it from the packed package (crate::emulator_wasm).
            "parity" => self.parity(),
            // Every bench script once, small (`cargo lab bench` runs them at full size), so that a
            // benchmark that broke fails here, not at release: `bench/*.mjs` and each section's
            // `bench/<section>/*.mjs`; each file is one test of node's runner.
            "bench" => {
                let bench = root.join("bench");
                let mut files = node_scripts(&bench)?;
                for entry in std::fs::read_dir(&bench)? {
                    files.extend(node_scripts(&entry?.path())?);
                }
                let smoke = [
                    (ENV_BENCH_SMOKE, "1".into()),
                    (ENV_STAGE_DELAY_MS, emulator::SUITE_STAGE_DELAY_MS.into()),
                ];
                self.node_tests(&files, &smoke, "bench smoke")
            }
            other => bail!("no stage `{other}`"),
        }
    }

    fn start_emulator(&mut self) -> Result<()> {
        let bin = emulator::build()?;
        let mut args = emulator::suite_args(TEST_KEY, SPARE_KEY);
        package::stage_site(&test_site(), None)?;
        args.extend(["--www".into(), test_site().into()]);
        let launch = Launch {
            args,
            echo: false,
            temp_data_dir: true,
        };
        let emulator = Emulator::start(&bin, launch)?;
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

    /// Runs `cmd`, echoing its output, and counts its tests with `parse` in the row `env` (a run
    /// that failed with no failed test counts as one); fails on a failure, or when `files` test
    /// files ran no test (a suite configured for another environment is skipped, not failed:
    /// TOOLCHAIN.md). Returns what it printed.
    fn count_run(
        &mut self,
        cmd: Command,
        env: &'static str,
        files: usize,
        parse: fn(&str) -> Option<Counts>,
    ) -> Result<String> {
        // Node's suites get a deadline (one hung script must not eat CI's time); cargo's compile first.
        let node = matches!(cmd.get_program().to_str(), Some("node" | "npm"));
        let limit = node.then_some(NODE_TESTS_TIMEOUT);
        let (status, output) = proc::run_tee_with_deadline(cmd, limit)?;
        let mut counts = parse(&output).unwrap_or_default();
        if !status.success() && counts.failed == 0 {
            counts.failed = 1;
        }
        self.summary.add(env, counts);
        counts.check(env, files)?;
        Ok(output)
    }

    /// Each crate's own tests under cargo's harness, built in one go so cargo can compile them in
    /// parallel, then run one crate at a time to count them apart.
    fn native(&mut self) -> Result<()> {
        let packages = [
            ("tunesmith-protocol", "native protocol"),
            ("tunesmith-emulator", "native emulator"),
            ("xtask", "native xtask"),
            ("lab", "native lab"),
        ];
        let each = packages.iter().flat_map(|(name, _)| ["-p", name]);
        proc::run(proc::cargo().args(["test", "--no-run"]).args(each))?;
        let runs = packages.map(|(name, env)| {
            let mut cmd = proc::cargo();
            cmd.args(["test", "--no-fail-fast", "-p", name]);
            let run = self.count_run(cmd, env, 1, report::cargo_counts);
            run.map(drop).with_context(|| name.to_owned())
        });
        every_ok(runs)
    }

    /// The client's wasm suites under wasm-bindgen's runner: `tests/node_*.rs` (with the crate's
    /// own unit tests) in Node, then `tests/browser_*.rs` in headless Chromium, each run counted
    /// in its own row.
    fn wasm(&mut self) -> Result<()> {
        let (node, browser) = wasm_suites()?;
        let emulator = self.emulator()?;
        let urls = (emulator.music.clone(), emulator.upload.clone());
        // The crate's own unit tests run in Node.
        let runs = [
            (node, "wasm node", &["--lib"][..]),
            (browser, "wasm chromium", &[]),
        ];
        let runs = runs.map(|(files, env, own)| self.wasm_run(&files, own, &urls, env));
        every_ok(runs)
    }

    /// One run of wasm suites `files` (and `own`, cargo's other target switches) against the
    /// emulator at `urls` (music, upload), which the suites read at compile time
    /// (tests/suite/common.rs): another emulator's URLs recompile the suites, not the crate.
    fn wasm_run(
        &mut self,
        files: &[PathBuf],
        own: &[&str],
        (music, upload): &(String, String),
        env: &'static str,
    ) -> Result<()> {
        let mut cmd = proc::cargo();
        cmd.args(["test", "-p", "tunesmith", "--target", WASM_TARGET])
            .args(["--features", RUST_API, "--no-fail-fast"])
            .env(ENV_MUSIC_URL, music)
            .env(ENV_UPLOAD_URL, upload)
            .env(ENV_API_KEY, TEST_KEY)
            .env(ENV_SPARE_KEY, SPARE_KEY)
            .env("CHROMEDRIVER", toolchain::CHROMEDRIVER)
            .env("WASM_BINDGEN_TEST_TIMEOUT", "120")
            .env("WASM_BINDGEN_TEST_DRIVER_TIMEOUT", "60");
        cmd.args(own);
        for name in files.iter().filter_map(|f| f.file_stem()) {
            cmd.arg("--test").arg(name);
        }
        let output = self.count_run(cmd, env, files.len(), report::cargo_counts)?;
        self.outputs.push(output);
        Ok(())
    }

    /// Builds the package once (as `cargo xtask build`) and puts it on the served site.
    fn package(&mut self) -> Result<&Package> {
        if self.pkg.is_none() {
            let pkg = package::build(Profile::Release)?;
            pkg.print_sizes()?;
            pkg.check_size_budget()?;
            package::copy_tree(&pkg.dir, &test_site().join("pkg"))?;
            self.pkg = Some(pkg);
        }
        self.pkg.as_ref().context("the package was not built")
    }

    /// The projects of tests/emulator-npm/ as their users run them: their own dependencies from
    /// their lockfiles, the package from `npm pack` (as from the registry, never the folder), then
    /// `npm test`, each project's tests counted in a row of their own.
    fn users(&mut self) -> Result<()> {
        let projects = crate::root().join("tests").join("emulator-npm");
        let runs: [(&str, &'static str, CountParser); 4] = [
            ("node", "users node --test", report::node_counts),
            ("vitest", "users vitest", runner_counts),
            ("jest", "users jest", runner_counts),
            ("msw", "users msw", report::node_counts),
        ];
        for entry in std::fs::read_dir(&projects)? {
            let name = entry?.file_name().to_string_lossy().into_owned();
            if !runs.iter().any(|(project, ..)| *project == name) {
                bail!("tests/emulator-npm/{name}: a project no stage runs");
            }
        }
        let pkg_dir = self.package()?.dir.clone();
        let tarball = pack(&pkg_dir)?;
        let runs = runs.map(|(name, env, parse)| {
            let dir = projects.join(name);
            toolchain::npm_project(&dir)?;
            install_packed(&dir, &tarball)?;
            let mut cmd = Command::new("npm");
            cmd.arg("test").current_dir(&dir).env("NO_COLOR", "1");
            let output = self.count_run(cmd, env, 1, parse)?;
            self.outputs.push(output);
            Ok(())
        });
        every_ok(runs)
    }

    /// Both emulator builds against the same tests, the wasm one as `npx tunesmith emulator` runs
    /// it: the package from `npm pack` installed into a project of its own
    /// (crate::emulator_wasm::npx_project). First the emulator's HTTP-level suites
    /// (`emulator/tests/*.rs`), each test's emulator started as `node …/tunesmith/cli/tunesmith.js
    /// emulator` (TUNESMITH_EMULATOR_CMD), the tests that only the native build can pass counted
    /// and listed with their reasons; then the client's suites that talk to a live emulator, run
    /// against one npx emulator started with the suites' flags (`client_on_npx`).
    fn parity(&mut self) -> Result<()> {
        let pkg_dir = self.package()?.dir.clone();
        let project = crate::emulator_wasm::npx_project(&pack(&pkg_dir)?)?;
        let http = self.emulator_http_on_npx(&project);
        let client = self.client_on_npx(&project);
        every_ok([http, client])
    }

    fn emulator_http_on_npx(&mut self, project: &Path) -> Result<()> {
        let log = crate::target_dir().join("parity-native-only.tsv");
        let _ = std::fs::remove_file(&log);
        let mut cmd = proc::cargo();
        cmd.args([
            "test",
            "--no-fail-fast",
            "-p",
            "tunesmith-emulator",
            "--test",
            "*",
        ])
        .env(
            crate::emulator_wasm::ENV_EMULATOR_CMD,
            crate::emulator_wasm::npx_command(project),
        )
        .env("TUNESMITH_EMULATOR_NATIVE_ONLY_LOG", &log);
        let output = self.count_run(cmd, "emulator wasm (npx)", 1, report::cargo_counts)?;
        self.outputs.push(output);
        let passed_over = std::fs::read_to_string(&log).unwrap_or_default();
        println!(
            "native-only: {} test(s) passed over on the wasm build",
            passed_over.lines().count()
        );
        for line in passed_over.lines() {
            println!("  {}", line.replace('\t', ": "));
        }
        Ok(())
    }

    /// The client's suites again, against an npx emulator of their own (a fresh data folder,
    /// the suites' flags; the native one's `--www` site is the binary's only, and no suite run
    /// here reads it): the wasm suites in Node and in Chromium (`tests/node_*.rs`,
    /// `tests/browser_*.rs`, recompiled with its URLs), and the JS suites that talk to the
    /// emulator (`npx_js_suites`: the client's, the companion's, the MCP server's and the CLI's),
    /// each counted in a row of its own. A suite that starts an emulator of its own (a slow one,
    /// `slowEmulator`) starts the wasm build too: TUNESMITH_EMULATOR_CMD names it.
    fn client_on_npx(&mut self, project: &Path) -> Result<()> {
        let launch = Launch {
            args: emulator::suite_args(TEST_KEY, SPARE_KEY),
            echo: false,
            temp_data_dir: true,
        };
        let npx = Emulator::start_npx(project, launch)?;
        println!(
            "npx emulator ready: music={} upload={}",
            npx.music, npx.upload
        );
        let (node, browser) = wasm_suites()?;
        let urls = (npx.music.clone(), npx.upload.clone());
        let wasm = self.wasm_run(&node, &[], &urls, "wasm node (npx emulator)");
        // In Chromium, every call is a cross-origin one: the CORS answers of Node's `http` too.
        let browser = self.wasm_run(&browser, &[], &urls, "wasm chromium (npx emulator)");
        let (run, left) = npx_js_suites(&crate::root().join("tests").join("js"))?;
        println!(
            "js on the npx emulator: {} file(s); not run again: {}",
            run.len(),
            left.iter()
                .filter_map(|f| f.file_name())
                .map(|f| f.to_string_lossy())
                .collect::<Vec<_>>()
                .join(", ")
        );
        let cmd = [(
            crate::emulator_wasm::ENV_EMULATOR_CMD,
            crate::emulator_wasm::npx_command(project).into(),
        )];
        let js = self.node_tests_on(&npx, &run, &cmd, "js node (npx emulator)");
        // Its stderr goes through the key scan with the suites' output.
        self.outputs.push(npx.server.stderr_report());
        if let Err(e) = wasm.as_ref().and(browser.as_ref()).and(js.as_ref()) {
            eprintln!("(npx emulator: {e:#}){}", npx.server.stderr_report());
        }
        every_ok([wasm, browser, js])
    }

    /// Runs `files` under node's test runner, one file at a time (the browser suites each start
    /// Chromium and servers of their own), with the scripts' environment and `extra`, counted in
    /// the row `env`.
    fn node_tests(
        &mut self,
        files: &[PathBuf],
        extra: &[(&'static str, OsString)],
        env: &'static str,
    ) -> Result<()> {
        let emulator = self
            .emulator
            .take()
            .context("the emulator is not running")?;
        let run = self.node_tests_on(&emulator, files, extra, env);
        self.emulator = Some(emulator);
        run
    }

    /// `node_tests` against `emulator`.
    fn node_tests_on(
        &mut self,
        emulator: &Emulator,
        files: &[PathBuf],
        extra: &[(&'static str, OsString)],
        env: &'static str,
    ) -> Result<()> {
        let pkg_dir = self.package()?.dir.clone();
        if self.redis.is_none() {
            self.redis = Some(crate::redis::RedisServer::start()?);
        }
        let mut vars = script_env(emulator, &pkg_dir);
        if let Some(redis) = &self.redis {
            vars.push((crate::redis::ENV_REDIS_URL, redis.url.clone().into()));
        }
        vars.extend(extra.iter().cloned());
        let mut cmd = Command::new("node");
        cmd.current_dir(crate::root())
            .args(["--test", "--test-concurrency=1", "--test-force-exit"])
            .args(["--test-timeout=600000", "--test-reporter=spec"])
            .args(files)
            .envs(vars);
        let output = self.count_run(cmd, env, files.len(), report::node_counts)?;
        self.outputs.push(output);
        Ok(())
    }
}

/// Fails naming every failure of `runs`, which all ran.
fn every_ok<const N: usize>(runs: [Result<()>; N]) -> Result<()> {
    let failures: Vec<String> = runs
        .into_iter()
        .filter_map(|r| r.err())
        .map(|e| format!("{e:#}"))
        .collect();
    if !failures.is_empty() {
        bail!("{}", failures.join("; "));
    }
    Ok(())
}

/// The folder the test emulator serves at `/`: www/, and the package as pkg/ once it is built.
fn test_site() -> PathBuf {
    crate::target_dir().join("test-site")
}

/// What a test or benchmark script gets to find the emulator, the package and the browser.
pub fn script_env(emulator: &Emulator, pkg_dir: &Path) -> Vec<(&'static str, OsString)> {
    vec![
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
    ]
}

/// `npm pack` of the package into a folder of its own; the tarball's path.
pub fn pack(pkg_dir: &Path) -> Result<PathBuf> {
    let dest = crate::target_dir().join("users-pack");
    let _ = std::fs::remove_dir_all(&dest);
    std::fs::create_dir_all(&dest)?;
    proc::run(
        Command::new("npm")
            .args(["pack", "--pack-destination"])
            .arg(&dest)
            .current_dir(pkg_dir),
    )?;
    for entry in std::fs::read_dir(&dest)? {
        let path = entry?.path();
        if path.extension().is_some_and(|e| e == "tgz") {
            return Ok(path);
        }
    }
    bail!("npm pack wrote no tarball in {}", dest.display())
}

/// Installs the packed package `tarball` into the npm project `dir` (left out of its
/// package.json), as a user's `npm install` of the published package does.
pub fn install_packed(dir: &Path, tarball: &Path) -> Result<()> {
    proc::run(
        Command::new("npm")
            .args([
                "install",
                "--no-save",
                "--no-audit",
                "--no-fund",
                "--prefer-offline",
            ])
            .arg(tarball)
            .current_dir(dir),
    )
}

/// Vitest's and Jest's closing line, `Tests  1 failed | 2 passed (3)` and
/// `Tests:       1 failed, 2 passed, 3 total`: the last one's counts; None without one.
fn runner_counts(output: &str) -> Option<Counts> {
    let line = output.lines().rev().find_map(|l| {
        let rest = l.trim().strip_prefix("Tests")?;
        (rest.starts_with(':') || rest.starts_with(' ')).then_some(rest)
    })?;
    let words: Vec<&str> = line
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let count = |word: &str| {
        words
            .windows(2)
            .find(|w| w[1] == word)
            .and_then(|w| w[0].parse::<u64>().ok())
    };
    let (passed, failed) = (count("passed"), count("failed"));
    if passed.is_none() && failed.is_none() {
        return None;
    }
    Some(Counts {
        passed: passed.unwrap_or(0),
        failed: failed.unwrap_or(0),
    })
}

/// The client's wasm suites: `tests/node_*.rs` and `tests/browser_*.rs`; an other file of
/// `tests/*.rs` is an error, since no stage would run it.
fn wasm_suites() -> Result<(Vec<PathBuf>, Vec<PathBuf>)> {
    let tests = crate::root().join("tests");
    let node = test_files(&tests, "node_", ".rs")?;
    let browser = test_files(&tests, "browser_", ".rs")?;
    let others = test_files(&tests, "", ".rs")?.len() - node.len() - browser.len();
    if others > 0 {
        bail!(
            "{others} file(s) of tests/*.rs named neither node_* nor browser_*: no stage runs them"
        );
    }
    Ok((node, browser))
}

/// The JS suites of `dir` that the npx pass runs, and those it leaves: a suite runs when it
/// talks to the emulator, itself (it names the emulator's music URL, `MUSIC`, or the variable
/// it comes in) or through the companion suites' harness (`companion/harness.mjs`, whose
/// companions stand in front of it); the companion's, the MCP server's and the CLI's included.
fn npx_js_suites(dir: &Path) -> Result<(Vec<PathBuf>, Vec<PathBuf>)> {
    let mut run = Vec::new();
    let mut left = Vec::new();
    for file in test_files(dir, "", ".test.mjs")? {
        let text = std::fs::read_to_string(&file)?;
        if text.contains("MUSIC") || text.contains("companion/harness.mjs") {
            run.push(file);
        } else {
            left.push(file);
        }
    }
    Ok((run, left))
}

/// Files directly in `dir` named `<prefix>*<suffix>`, sorted.
fn test_files(dir: &Path, prefix: &str, suffix: &str) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    // A missing folder has no test files.
    for entry in std::fs::read_dir(dir).into_iter().flatten() {
        let path = entry?.path();
        let name = path.file_name().unwrap_or_default().to_string_lossy();
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
            .unwrap_or_default()
            .to_string_lossy()
            .starts_with('_')
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
    fn vitest_and_jest_closing_lines_are_counted() {
        let vitest =
            " Test Files  1 passed (1)\n      Tests  1 failed | 2 passed (3)\n   Start at  10:00";
        assert_eq!(
            runner_counts(vitest),
            Some(Counts {
                passed: 2,
                failed: 1
            })
        );
        let jest =
            "Test Suites: 1 passed, 1 total\nTests:       3 passed, 3 total\nSnapshots:   0 total";
        assert_eq!(
            runner_counts(jest),
            Some(Counts {
                passed: 3,
                failed: 0
            })
        );
        assert_eq!(runner_counts("Test Suites: 1 failed, 1 total"), None);
    }

    #[test]
    fn the_npx_pass_runs_every_js_suite_that_talks_to_the_emulator() {
        let dir = emulator::fresh_temp_dir("npx-js-suites").unwrap();
        let files = [
            (
                "client-errors.test.mjs",
                "const MUSIC = process.env.TUNESMITH_TEST_MUSIC_URL;",
            ),
            (
                "follow.test.mjs",
                "import { MUSIC } from './companion/harness.mjs';",
            ),
            ("types-package.test.mjs", "tsc"),
            (
                "companion.test.mjs",
                "import { MUSIC } from './companion/harness.mjs';",
            ),
            ("mcp.test.mjs", "TUNESMITH_BASE_URL: MUSIC"),
            ("cli.test.mjs", "TUNESMITH_BASE_URL: MUSIC"),
            ("cli-hardening.test.mjs", "TUNESMITH_BASE_URL: MUSIC"),
            ("helper.mjs", "MUSIC"),
        ];
        for (name, text) in files {
            std::fs::write(dir.join(name), text).unwrap();
        }
        let names = |files: Vec<PathBuf>| -> Vec<String> {
            let name = |f: &PathBuf| f.file_name().unwrap().to_string_lossy().into_owned();
            files.iter().map(name).collect()
        };
        let (run, left) = npx_js_suites(&dir).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(
            names(run),
            [
                "cli-hardening.test.mjs",
                "cli.test.mjs",
                "client-errors.test.mjs",
                "companion.test.mjs",
                "follow.test.mjs",
                "mcp.test.mjs",
            ]
        );
        assert_eq!(names(left), ["types-package.test.mjs"]);
    }

    #[test]
    fn options_pick_stages_in_their_fixed_order() {
        let pick = |only: Option<&[&str]>, skip_lint| {
            let only = only.map(|names| names.iter().map(|s| s.to_string()).collect());
            select(&Options { skip_lint, only })
        };
        assert_eq!(
            pick(Some(&["e2e", "lint"]), false).ok(),
            Some(vec!["lint", "e2e"])
        );
        assert_eq!(pick(None, true).ok().map(|s| s.len()), Some(8));
        assert!(pick(Some(&["lnt"]), false).is_err());
    }
}
