//! The package's size: gzipped wasm + glue against the budget and the goal, where the bytes are
//! (twiggy on a module with its names), and what each wasm-opt variant would ship.

use super::{run_script, section_script, verdict};
use crate::package::{self, Profile};
use crate::{proc, toolchain};
use anyhow::{bail, Context, Result};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The size the package aims at, gzipped wasm + glue with every operation (the budget that
/// `cargo xtask test` holds it to is `package::SIZE_BUDGET_GZIP_BYTES`).
const SIZE_GOAL_GZIP_BYTES: u64 = 48_000;

pub(super) fn size() -> Result<()> {
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
        "{:<40} {:>10}  {} (with the {} other top-level .js: the Node, Workers, CLI and MCP entries too)",
        "total, every .js of pkg/",
        every,
        kb(every),
        every_js.len() - 1
    );
    let start = loaded_at_start(&pkg.dir, "index.js")?;
    let mut at_start = wasm;
    for file in &start {
        at_start += package::gzip_len(&pkg.dir.join(file))?;
    }
    println!(
        "{:<40} {:>10}  {} (the module and {}, each file gzipped apart: a page that imports the package without a bundler)",
        "what a page loads at start",
        at_start,
        kb(at_start),
        start.join(", ")
    );
    println!(
        "goal <= {} (module + glue): {}   budget of `cargo xtask test` <= {}: {}",
        kb(SIZE_GOAL_GZIP_BYTES),
        verdict(total <= SIZE_GOAL_GZIP_BYTES),
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

/// The package's top-level `.js` files (not the server's folder; the glue's snippets are bundled into
/// `tunesmith.js`).
fn top_level_js(pkg: &Path) -> Result<Vec<PathBuf>> {
    let mut files: Vec<PathBuf> = package::files_under(pkg)?
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "js"))
        .filter(|p| p.strip_prefix(pkg).unwrap_or(p).components().count() == 1)
        .collect();
    files.sort();
    Ok(files)
}

/// The package's files a page fetches before its first call when it imports `entry`: `entry` and
/// every file it imports statically (`import ... from "./x.js"`, `export ... from "./x.js"`),
/// recursively; not the `import("./x.js")` that wait for a use.
fn loaded_at_start(pkg: &Path, entry: &str) -> Result<Vec<String>> {
    let mut seen = vec![entry.to_owned()];
    let mut next = 0;
    while let Some(file) = seen.get(next).cloned() {
        next += 1;
        let text = std::fs::read_to_string(pkg.join(&file))?;
        for quote in ["from \"./", "from\"./", "from './", "from'./"] {
            for (at, _) in text.match_indices(quote) {
                let rest = &text[at + quote.len()..];
                let Some(end) = rest.find(['"', '\'']) else {
                    continue;
                };
                let found = rest[..end].to_owned();
                if !seen.contains(&found) {
                    seen.push(found);
                }
            }
        }
    }
    Ok(seen)
}

/// The browser entry's module as `cargo xtask build` makes it (the last of its two builds, which
/// `package::cargo_output` holds), with its function names kept
/// (`wasm-opt -g`), for twiggy and the profiles: the `name` section is the only difference.
pub(super) fn named_module() -> Result<PathBuf> {
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
