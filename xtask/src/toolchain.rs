//! Installs what the commands need when it is missing and skips what is present (TOOLCHAIN.md).

use crate::proc::{self, run};
use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};

pub const WASM_TARGET: &str = "wasm32-unknown-unknown";
pub const CHROMIUM: &str = "/usr/bin/chromium";
pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// Where `cargo install` puts binaries.
fn cargo_bin_dir() -> PathBuf {
    std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| Path::new(&home).join(".cargo")))
        .unwrap_or_else(|| PathBuf::from(".cargo"))
        .join("bin")
}

/// Puts cargo's bin folder first on our PATH, so that children (cargo's wasm test runner
/// `wasm-bindgen-test-runner` above all) find the CLI that we install there.
pub fn put_cargo_bin_on_path() {
    let dir = cargo_bin_dir();
    let old = std::env::var_os("PATH").unwrap_or_default();
    let others = std::env::split_paths(&old).filter(|p| p != &dir);
    if let Ok(path) = std::env::join_paths(std::iter::once(dir.clone()).chain(others)) {
        // Called first thing in main, before any thread exists.
        std::env::set_var("PATH", path);
    }
}

pub fn wasm_target() -> Result<()> {
    if rustup_lists(&["target", "list", "--installed"], WASM_TARGET)? {
        return Ok(());
    }
    run(Command::new("rustup").args(["target", "add", WASM_TARGET]))
}

/// Whether `rustup <args>` (a `list --installed`) succeeds and prints `item` on a line of its own.
fn rustup_lists(args: &[&str], item: &str) -> Result<bool> {
    let listed = Command::new("rustup")
        .args(args)
        .output()
        .context("rustup is needed to install the Rust toolchains and targets")?;
    Ok(listed.status.success()
        && String::from_utf8_lossy(&listed.stdout)
            .lines()
            .any(|l| l.trim() == item))
}

/// The pinned nightly that builds the shipped module (`package::build`): with `-Zbuild-std`, std
/// is compiled for size with the crate instead of shipped prebuilt for speed, which makes the
/// module 1.4 KB gzipped smaller (measured 2026-11-25; the install takes about 10 s, minimal
/// profile). Everything else (tests, lint, the emulator) builds on stable.
pub const NIGHTLY: &str = "nightly-2026-05-19";

/// Installs [`NIGHTLY`] with `rust-src` (what `-Zbuild-std` compiles) if either is missing.
pub fn nightly() -> Result<()> {
    if rustup_lists(
        &["component", "list", "--installed", "--toolchain", NIGHTLY],
        "rust-src",
    )? {
        return Ok(());
    }
    run(Command::new("rustup")
        .args(["toolchain", "install", NIGHTLY])
        .args(["--profile", "minimal", "--component", "rust-src"]))
}

/// The wasm-bindgen CLI (with its test runner) of exactly the version in Cargo.lock: a mismatch
/// fails with "different bindgen format".
pub fn wasm_bindgen() -> Result<PathBuf> {
    let want = proc::cargo_version("wasm-bindgen")?;
    let dir = cargo_bin_dir();
    let bin = dir.join("wasm-bindgen");
    let matches = || {
        let version = Command::new(&bin).arg("--version").output();
        version.is_ok_and(|v| {
            v.status.success()
                && v.stdout
                    .starts_with(format!("wasm-bindgen {want}\n").as_bytes())
        }) && proc::is_executable(&dir.join("wasm-bindgen-test-runner"))
    };
    if !matches() {
        // Without --locked: a dependency locked by the CLI is missing from the registry (TOOLCHAIN.md).
        run(proc::cargo().args(["install", "wasm-bindgen-cli", "--version", &want]))?;
        if !matches() {
            bail!(
                "{} does not report version {want} after installing it",
                bin.display()
            );
        }
    }
    Ok(bin)
}

/// The repository's npm tools (wasm-opt, terser, playwright-core, the suites' tools), installed
/// from the root lockfile (one `npm ci` for every workspace of `package.json`) into the root
/// node_modules, where scripts anywhere in the tree find them. Skipped while the lockfile is the
/// one installed. Returns that node_modules.
pub fn js_tools() -> Result<PathBuf> {
    if let Some(tool) = ["node", "npm"]
        .into_iter()
        .find(|t| proc::which(t).is_none())
    {
        bail!("`{tool}` is not on PATH: Node.js 20 and npm are needed for the JavaScript tools");
    }
    let root = crate::root();
    npm_ci(&root, |modules| proc::is_executable(&wasm_opt_in(modules)))
}

/// `npm ci` in `project` unless its node_modules was installed from the very same lockfile and
/// `complete` finds what matters in it; returns its node_modules.
fn npm_ci(project: &Path, complete: impl Fn(&Path) -> bool) -> Result<PathBuf> {
    let modules = project.join("node_modules");
    let lock = std::fs::read(project.join("package-lock.json"))
        .with_context(|| format!("reading {}", project.join("package-lock.json").display()))?;
    let stamp = modules.join(".installed-lock");
    let up_to_date = std::fs::read(&stamp).is_ok_and(|installed| installed == lock);
    if !up_to_date || !complete(&modules) {
        run(Command::new("npm")
            .args(["ci", "--no-audit", "--no-fund"])
            .current_dir(project))?;
        // A project with no dependencies of its own gets no node_modules from `npm ci`.
        std::fs::create_dir_all(&modules)?;
        std::fs::write(&stamp, &lock)?;
    }
    Ok(modules)
}

/// A project of its own (a user's, in tests/emulator-npm/) installed from its lockfile; returns
/// its node_modules.
pub fn npm_project(project: &Path) -> Result<PathBuf> {
    npm_ci(project, Path::is_dir)
}

/// The MCP conformance suite and the Node 22 it needs (npm's `node` package), in a project of
/// their own (tests/js/conformance) so that Node 22 shadows nothing in the root's node_modules.
pub fn mcp_conformance() -> Result<PathBuf> {
    let project = crate::root().join("tests/js/conformance");
    npm_ci(&project, |modules| {
        proc::is_executable(&modules.join(".bin/node"))
    })
}

fn wasm_opt_in(modules: &Path) -> PathBuf {
    modules.join(".bin/wasm-opt")
}

/// terser, which minifies wasm-bindgen's JS glue: it ships unminified, and is a third of the bytes.
pub fn terser() -> Result<PathBuf> {
    Ok(js_tools()?.join(".bin/terser"))
}

/// rolldown, which bundles the glue and its snippets into one file (xtask/src/glue.rs).
pub fn rolldown() -> Result<PathBuf> {
    Ok(js_tools()?.join(".bin/rolldown"))
}

/// npm binaryen's wasm-opt; never Debian's, which breaks wasm-bindgen's externref table (TOOLCHAIN.md).
pub fn wasm_opt() -> Result<PathBuf> {
    Ok(wasm_opt_in(&js_tools()?))
}

pub fn chromium() -> Result<()> {
    if Path::new(CHROMIUM).exists() && Path::new(CHROMEDRIVER).exists() {
        return Ok(());
    }
    apt_install(&["chromium", "chromium-driver"])
}

/// The load generator of the server benchmarks.
pub fn wrk() -> Result<PathBuf> {
    apt_tool("wrk")
}

/// Debian's `redis-server`, for the companion's several-instances tests.
pub fn redis_server() -> Result<PathBuf> {
    apt_tool("redis-server")
}

/// tmux, in which the CLI's suite runs it as in a real terminal (send-keys, capture-pane).
pub fn tmux() -> Result<PathBuf> {
    apt_tool("tmux")
}

/// The program `name` on PATH, from Debian's package of the same name when it is missing.
fn apt_tool(name: &str) -> Result<PathBuf> {
    if let Some(path) = proc::which(name) {
        return Ok(path);
    }
    apt_install(&[name])?;
    proc::which(name).with_context(|| format!("{name} is not on PATH after installing it"))
}

fn apt_install(packages: &[&str]) -> Result<()> {
    static UPDATED: AtomicBool = AtomicBool::new(false);
    // SAFETY: geteuid has no preconditions.
    let sudo = unsafe { libc::geteuid() } != 0;
    let apt = |args: &[&str]| {
        let mut cmd = Command::new(if sudo { "sudo" } else { "apt-get" });
        cmd.args(sudo.then_some("apt-get")).args(args);
        cmd.env("DEBIAN_FRONTEND", "noninteractive");
        cmd
    };
    if !UPDATED.swap(true, Ordering::SeqCst) {
        run(&mut apt(&["update"]))?;
    }
    run(apt(&["install", "-y", "--no-install-recommends"]).args(packages))
}
