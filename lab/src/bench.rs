//! `cargo lab bench`: emulator throughput and memory, package size and where its bytes are,
//! browser and Node benchmark scripts; each figure beside its baseline or goal, measured in the
//! same run. A missed goal is printed, not failed: timings vary. `cargo xtask test` runs each
//! script once at a small size (its `bench` stage) so that none can break unseen.

use crate::emulator::{self, Emulator, Launch, TEST_KEY};
use crate::package::{self, Profile};
use crate::proc;
use crate::test::{node_scripts, script_env, ENV_STAGE_DELAY_MS};
use crate::toolchain;
use crate::{http, wrk};
use anyhow::{bail, Context, Result};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

pub struct Options {
    pub only: Option<Vec<String>>,
    pub duration_s: u32,
}

const SECTIONS: [&str; 7] = [
    "throughput",
    "memory",
    "size",
    "browser",
    "companion",
    "calls",
    "bundle",
];

// The targets of the emulator: throughput and memory.
const TARGET_REQUESTS_PER_SEC: f64 = 20_000.0;
const TARGET_P99_MS: f64 = 5.0;
const TARGET_RSS_MB: f64 = 200.0;

/// The script of a section that runs one of its own (the `browser` section runs every
/// `bench/*.mjs`).
fn section_script(section: &str) -> PathBuf {
    crate::root()
        .join("bench")
        .join(section)
        .join(format!("{section}.mjs"))
}

const BENCH_KEY: &str = TEST_KEY;
const TASKS_IN_FLIGHT: u64 = 10_000;
const CREATORS: u64 = 32;
/// The cheapest authenticated JSON route of the same server: same auth, envelope and middleware,
/// so the ratio isolates what record-info itself costs (task lookup, record with its tracks).
const BASELINE_PATH: &str = "/api/v1/generate/credit";

pub fn run(opts: &Options) -> Result<()> {
    let sections = crate::pick_sections(&SECTIONS, opts.only.as_deref())?;
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
            ("throughput", Some(bin)) => throughput(bin, opts.duration_s),
            ("memory", Some(bin)) => memory(bin),
            ("size", _) => size(),
            ("browser", Some(bin)) => browser(bin),
            ("companion", Some(bin)) => companion(bin),
            ("calls", Some(bin)) => calls(bin),
            ("bundle", _) => bundle(),
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

fn start(bin: &std::path::Path, stage_delay_ms: &str, extra: Vec<OsString>) -> Result<Emulator> {
    let mut args: Vec<OsString> = [
        "--music-addr",
        "127.0.0.1:0",
        "--upload-addr",
        "127.0.0.1:0",
        "--rate-limit",
        "0",
        "--credits",
        "10000000",
        "--stage-delay-ms",
        stage_delay_ms,
        "--api-key",
        BENCH_KEY,
    ]
    .iter()
    .map(OsString::from)
    .collect();
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

fn auth_header() -> String {
    format!("Bearer {BENCH_KEY}")
}

/// POST /api/v1/generate → data.taskId.
fn create_task(music: &str, prompt: &str) -> Result<String> {
    let body = serde_json::json!({
        "customMode": false,
        "instrumental": true,
        "model": "V6",
        "callBackUrl": "http://127.0.0.1:9/cb",
        "prompt": prompt,
    })
    .to_string();
    let auth = auth_header();
    let headers = [
        ("Authorization", auth.as_str()),
        ("Content-Type", "application/json"),
    ];
    let response = http::request(music, "POST", "/api/v1/generate", &headers, Some(&body))?;
    let json: serde_json::Value = serde_json::from_str(&response.body).with_context(|| {
        format!(
            "generate answered {} with a body that is not JSON: {}",
            response.status, response.body
        )
    })?;
    match json["data"]["taskId"].as_str() {
        Some(id) if json["code"] == 200 => Ok(id.to_string()),
        _ => bail!("generate answered {}: {}", response.status, response.body),
    }
}

/// GET `path` once and require envelope code 200, so wrk measures real answers, not errors.
fn check_route(music: &str, path: &str) -> Result<serde_json::Value> {
    let auth = auth_header();
    let response = http::request(
        music,
        "GET",
        path,
        &[("Authorization", auth.as_str())],
        None,
    )?;
    let json: serde_json::Value = serde_json::from_str(&response.body).unwrap_or_default();
    if response.status != 200 || json["code"] != 200 {
        bail!("GET {path} answered {}: {}", response.status, response.body);
    }
    Ok(json)
}

fn throughput(bin: &std::path::Path, seconds: u32) -> Result<()> {
    toolchain::wrk()?;
    let emulator = start(bin, "50", Vec::new())?;
    let task = create_task(&emulator.music, "bench")?;
    let record_path = format!("/api/v1/generate/record-info?taskId={task}");
    // Benchmark the finished record (both tracks): what a poller reads most.
    let deadline = Instant::now() + Duration::from_secs(15);
    let mut status = String::new();
    while Instant::now() < deadline {
        let record = check_route(&emulator.music, &record_path)?;
        status = record["data"]["status"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        if status == "SUCCESS" {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    println!("task {task}: {status}");
    check_route(&emulator.music, BASELINE_PATH)?;

    let header = format!("Authorization: {}", auth_header());
    let measure = |path: &str| {
        wrk::run(&wrk::Load {
            url: &format!("{}{path}", emulator.music),
            header: Some(&header),
            threads: 2,
            connections: 64,
            seconds,
        })
    };
    let subject = measure(&record_path)?;
    let baseline = measure(BASELINE_PATH)?;

    let ms = |v: Option<f64>| {
        v.map(|v| format!("{v:.2} ms"))
            .unwrap_or_else(|| "-".into())
    };
    println!("\nwrk -t2 -c64 -d{seconds}s on loopback, same emulator process");
    println!(
        "{:<42} {:>12} {:>10} {:>10} {:>8}",
        "route", "req/s", "p50", "p99", "errors"
    );
    for (name, r) in [
        ("GET generate/record-info", &subject),
        (&*format!("GET {BASELINE_PATH} (baseline)"), &baseline),
    ] {
        println!(
            "{:<42} {:>12.0} {:>10} {:>10} {:>8}",
            name,
            r.requests_per_sec,
            ms(r.p50_ms),
            ms(r.p99_ms),
            r.non_2xx + r.socket_errors
        );
    }
    let ratio = |a: f64, b: f64| {
        if b > 0.0 {
            format!("{:.2}x", a / b)
        } else {
            "-".into()
        }
    };
    let p99_ratio = match (subject.p99_ms, baseline.p99_ms) {
        (Some(a), Some(b)) => ratio(a, b),
        _ => "-".into(),
    };
    println!(
        "{:<42} {:>12} {:>10} {:>10}",
        "record-info / baseline",
        ratio(subject.requests_per_sec, baseline.requests_per_sec),
        "",
        p99_ratio
    );
    println!(
        "target: >= {TARGET_REQUESTS_PER_SEC:.0} req/s: {}   p99 <= {TARGET_P99_MS} ms: {}",
        verdict(subject.requests_per_sec >= TARGET_REQUESTS_PER_SEC),
        verdict(subject.p99_ms.is_some_and(|p| p <= TARGET_P99_MS))
    );
    if subject.non_2xx + subject.socket_errors > 0 {
        println!(
            "note: {} error answers or socket errors during the record-info run",
            subject.non_2xx + subject.socket_errors
        );
    }
    Ok(())
}

fn verdict(pass: bool) -> &'static str {
    if pass {
        "PASS"
    } else {
        "MISS"
    }
}

/// VmRSS of a process, in bytes.
fn rss_bytes(pid: u32) -> Result<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"))?;
    parse_vm_rss(&status).context("no VmRSS in /proc/<pid>/status")
}

fn parse_vm_rss(status: &str) -> Option<u64> {
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

fn memory(bin: &std::path::Path) -> Result<()> {
    // Stages an hour apart: every task stays in flight while we measure.
    let emulator = start(bin, "3600000", Vec::new())?;
    std::thread::sleep(Duration::from_millis(500));
    let before = rss_bytes(emulator.server.pid())?;
    let started = Instant::now();
    let next = AtomicU64::new(0);
    let failures = AtomicU64::new(0);
    let first_error = std::sync::Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..CREATORS {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= TASKS_IN_FLIGHT {
                    break;
                }
                if let Err(e) = create_task(&emulator.music, &format!("bench task {i}")) {
                    failures.fetch_add(1, Ordering::Relaxed);
                    if let Ok(mut first) = first_error.lock() {
                        first.get_or_insert(format!("{e:#}"));
                    }
                }
            });
        }
    });
    let took = started.elapsed();
    let after = rss_bytes(emulator.server.pid())?;
    let failures = failures.into_inner();
    let created = TASKS_IN_FLIGHT - failures;
    let mb = |b: u64| b as f64 / 1e6;
    println!(
        "created {created} tasks in {:.1}s ({:.0}/s, {CREATORS} at a time)",
        took.as_secs_f64(),
        created as f64 / took.as_secs_f64()
    );
    println!("{:<28} {:>10}", "emulator VmRSS", "MB");
    println!("{:<28} {:>10.1}", "idle (baseline)", mb(before));
    println!(
        "{:<28} {:>10.1}",
        format!("{created} tasks in flight"),
        mb(after)
    );
    println!(
        "{:<28} {:>10.2}x",
        "loaded / idle",
        after as f64 / before.max(1) as f64
    );
    if created > 0 {
        println!(
            "{:<28} {:>10.0}",
            "bytes per task",
            after.saturating_sub(before) as f64 / created as f64
        );
    }
    println!(
        "target: <= {TARGET_RSS_MB} MB with {TASKS_IN_FLIGHT} tasks: {}",
        verdict(failures == 0 && mb(after) <= TARGET_RSS_MB)
    );
    if failures > 0 {
        let first = first_error.into_inner().ok().flatten().unwrap_or_default();
        bail!("{failures} task creations failed; the first: {first}");
    }
    Ok(())
}

fn size() -> Result<()> {
    let pkg = package::build(Profile::Release)?;
    let (wasm, js) = pkg.gzipped_sizes()?;
    let total = wasm + js;
    let kb = |b: u64| format!("{:.1} KB", b as f64 / 1000.0);
    println!(
        "\n{:<40} {:>10}",
        "gzipped (shipped: module + glue)", "bytes"
    );
    println!("{:<40} {:>10}", "tunesmith_bg.wasm", wasm);
    println!("{:<40} {:>10}", "tunesmith.js (glue)", js);
    println!("{:<40} {:>10}  {}", "total", total, kb(total));
    let every_js = top_level_js(&pkg.dir)?;
    let mut every = wasm;
    for file in &every_js {
        every += package::gzip_len(file)?;
    }
    println!(
        "{:<40} {:>10}  {} (with the {} other top-level .js and the snippets: the Node, Workers, CLI and MCP entries too)",
        "total, every .js of pkg/",
        every,
        kb(every),
        every_js.len() - 1
    );
    println!(
        "goal <= {} (module + glue): {}   budget of `cargo xtask test` <= {}: {}",
        kb(package::SIZE_GOAL_GZIP_BYTES),
        verdict(total <= package::SIZE_GOAL_GZIP_BYTES),
        kb(package::SIZE_BUDGET_GZIP_BYTES),
        verdict(total <= package::SIZE_BUDGET_GZIP_BYTES)
    );
    let named = named_module()?;
    largest_items(&named)?;
    wasm_opt_variants()?;
    println!("\nthe glue, by part (bench/size/size.mjs):");
    let mut env = vec![("TUNESMITH_PKG", OsString::from(&pkg.dir))];
    env.push(("TUNESMITH_NAMED_WASM", named.into()));
    run_script(&section_script("size"), &env)
}

/// The package's top-level `.js` files and its snippets (not the server's folder).
fn top_level_js(pkg: &Path) -> Result<Vec<PathBuf>> {
    let mut files: Vec<PathBuf> = package::files_under(pkg)?
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "js"))
        .filter(|p| {
            let rel = p.strip_prefix(pkg).unwrap_or(p);
            rel.components().count() == 1 || rel.starts_with("snippets")
        })
        .collect();
    files.sort();
    Ok(files)
}

/// The shipped module as `cargo xtask build` makes it, with its function names kept
/// (`wasm-opt -g`), for twiggy and the profiles: the `name` section is the only difference.
fn named_module() -> Result<PathBuf> {
    let dir = crate::target_dir().join("xtask-size-profile");
    let _ = std::fs::remove_dir_all(&dir);
    proc::run(
        Command::new(toolchain::wasm_bindgen()?)
            .args(["--target", "web", "--out-name", "tunesmith", "--out-dir"])
            .arg(&dir)
            .arg(package::cargo_output(Profile::Release)),
    )?;
    let named = dir.join("tunesmith_bg.wasm");
    proc::run(
        Command::new(toolchain::wasm_opt()?)
            .args(package::WASM_OPT_PASSES)
            .arg("-g")
            .args(package::WASM_OPT_FEATURES)
            .arg(&named)
            .arg("-o")
            .arg(&named),
    )?;
    Ok(named)
}

/// twiggy (installed with cargo when missing): the largest items, and what keeps them (dominators).
fn largest_items(named: &Path) -> Result<()> {
    let twiggy = match proc::which("twiggy") {
        Some(path) => path,
        None => {
            proc::run(proc::cargo().args(["install", "twiggy", "--version", "0.8.0", "--locked"]))?;
            proc::which("twiggy").context("twiggy is not on PATH after installing it")?
        }
    };
    println!(
        "\nlargest items of the module (raw bytes; names kept by `wasm-opt -g`, the `name` section is not shipped):"
    );
    // twiggy may not know every newer wasm feature: its failure is reported, not fatal.
    if let Err(e) = proc::run(Command::new(&twiggy).args(["top", "-n", "25"]).arg(named)) {
        println!("twiggy could not read the module: {e:#}");
        return Ok(());
    }
    println!("\nwhat keeps them (twiggy dominators, four levels):");
    if let Err(e) = proc::run(
        Command::new(&twiggy)
            .args(["dominators", "-d", "4", "-r", "40"])
            .arg(named),
    ) {
        println!("twiggy could not read the module: {e:#}");
    }
    Ok(())
}

/// wasm-opt's passes and flags, each measured on the module `cargo xtask build` hands to wasm-opt:
/// gzipped bytes against the passes the build uses.
fn wasm_opt_variants() -> Result<()> {
    const VARIANTS: &[(&str, &[&str])] = &[
        ("-Os", &["-Os"]),
        ("-O3", &["-O3"]),
        ("-Oz twice", &["-Oz", "-Oz"]),
        ("-Oz --converge", &["-Oz", "--converge"]),
        ("-Oz --gufa -Oz", &["-Oz", "--gufa", "-Oz"]),
        (
            "-Oz --flatten --rereloop -Oz",
            &["-Oz", "--flatten", "--rereloop", "-Oz"],
        ),
        (
            "-Oz --merge-similar-functions",
            &["-Oz", "--merge-similar-functions"],
        ),
        ("-Oz --monomorphize -Oz", &["-Oz", "--monomorphize", "-Oz"]),
        ("-Oz --low-memory-unused", &["--low-memory-unused", "-Oz"]),
        ("-Oz --zero-filled-memory", &["--zero-filled-memory", "-Oz"]),
        (
            "-Oz --ignore-implicit-traps",
            &["--ignore-implicit-traps", "-Oz"],
        ),
        ("-Oz --traps-never-happen", &["--traps-never-happen", "-Oz"]),
        (
            "-Oz --closed-world --type-ssa -Oz",
            &["--closed-world", "-Oz", "--type-ssa", "-Oz"],
        ),
    ];
    let dir = crate::target_dir().join("xtask-size-variants");
    let _ = std::fs::remove_dir_all(&dir);
    proc::run(
        Command::new(toolchain::wasm_bindgen()?)
            .args(["--target", "web", "--out-name", "tunesmith", "--out-dir"])
            .arg(&dir)
            .args(package::WASM_BINDGEN_RELEASE_FLAGS)
            .arg(package::cargo_output(Profile::Release)),
    )?;
    let input = dir.join("tunesmith_bg.wasm");
    let wasm_opt = toolchain::wasm_opt()?;
    let measure = |passes: &[&str]| -> Result<u64> {
        let out = dir.join("variant.wasm");
        let status = Command::new(&wasm_opt)
            .args(passes)
            .args(package::WASM_OPT_FEATURES)
            // A custom section no runtime reads: every variant drops it, as the build does.
            .arg("--strip-target-features")
            .arg(&input)
            .arg("-o")
            .arg(&out)
            .output()
            .context("running wasm-opt")?;
        if !status.status.success() {
            bail!("{}", String::from_utf8_lossy(&status.stderr).trim());
        }
        package::gzip_len(&out)
    };
    let unoptimized = package::gzip_len(&input)?;
    let shipped = measure(&["-Oz"])?;
    println!(
        "\nwasm-opt, gzipped module before the import and export renames (before wasm-opt: \
         {unoptimized} B; -Oz: {shipped} B; the build runs {})",
        package::WASM_OPT_PASSES.join(" ")
    );
    println!("{:<40} {:>10} {:>8}", "passes", "bytes", "vs -Oz");
    for (name, passes) in VARIANTS {
        match measure(passes) {
            Ok(bytes) => println!(
                "{:<40} {:>10} {:>+8}",
                name,
                bytes,
                bytes as i64 - shipped as i64
            ),
            Err(e) => println!("{name:<40} refused: {e}"),
        }
    }
    Ok(())
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
    let named = named_module()?;
    let dir = crate::target_dir().join("xtask-calls-named-pkg");
    let _ = std::fs::remove_dir_all(&dir);
    package::copy_tree(pkg, &dir)?;
    let from = named.parent().context("the named module has no folder")?;
    for file in ["tunesmith.js", "tunesmith_bg.wasm"] {
        std::fs::copy(from.join(file), dir.join(file))
            .with_context(|| format!("copying the named {file}"))?;
    }
    Ok(dir)
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
    use super::{parse_vm_rss, section_script};

    #[test]
    fn every_section_that_runs_a_script_has_it() {
        for section in ["size", "companion", "calls", "bundle"] {
            assert!(section_script(section).is_file(), "{section}");
        }
    }

    #[test]
    fn reads_resident_memory_in_bytes() {
        let status =
            "Name:\ttunesmith-emul\nVmPeak:\t  900000 kB\nVmRSS:\t   20480 kB\nRssAnon:\t 1 kB\n";
        assert_eq!(parse_vm_rss(status), Some(20480 * 1024));
        assert_eq!(parse_vm_rss("Name:\tx\n"), None);
    }
}
