//! The demo as a static site (`pkg/site/`, issue 40): the demo page (www/, unchanged but for its
//! start, which waits for the service worker), the client the page imports (site/pkg/), the
//! emulator's wasm build (site/emulator.wasm), and at the site's root a service worker (sw.js,
//! from www-site/, bundled with the package's companion and the emulator's glue into one classic
//! script) that serves the emulator's two hosts and the companion under the site's own origin.
//! Static files only: any static file server serves it, and `npx tunesmith demo` does.

use std::hash::{Hash, Hasher};
use std::path::Path;
use std::process::Command;

use anyhow::{bail, Context, Result};

use crate::package::{copy_tree, files_under, gzip_len};

/// What the page is told about its service: every URL relative to the page, so that the site may
/// be served from any folder; the emulator's stage delay is the demo's (`cargo xtask demo`).
const SITE_CONFIG: &str = r#"{
  "companionUrl": "./ts",
  "demoUrl": "./demo",
  "musicUrl": "./music",
  "emulator": { "stageDelayMs": 1500 }
}
"#;

/// Writes `pkg/site/` from www/, www-site/ and the package just built in `pkg`.
pub fn build(pkg: &Path) -> Result<()> {
    build_into(pkg, &pkg.join("site"))
}

/// Writes the site into `out` from www/, www-site/ and the package built in `pkg` (`cargo xtask
/// site` does this alone, after an edit of the page or the worker).
pub fn build_into(pkg: &Path, out: &Path) -> Result<()> {
    let root = crate::root();
    let out = out.to_path_buf();
    if out.exists() {
        std::fs::remove_dir_all(&out).with_context(|| format!("removing {}", out.display()))?;
    }
    std::fs::create_dir_all(&out)?;
    copy_tree(&root.join("www"), &out)?;
    // The page starts through boot.js, which waits for the worker to control it.
    let index = out.join("index.html");
    let html = std::fs::read_to_string(&index)?;
    let entry = r#"src="./app.js""#;
    if !html.contains(entry) {
        bail!("www/index.html no longer loads {entry}: xtask/src/site.rs points it at boot.js");
    }
    std::fs::write(&index, html.replacen(entry, r#"src="./boot.js""#, 1))?;
    std::fs::copy(root.join("www-site/boot.js"), out.join("boot.js"))?;
    std::fs::write(out.join("companion.json"), SITE_CONFIG)?;
    // The client as the page imports it: the package's wasm and every module the page's entries
    // reach (full.js, index.js and their relative imports), none of its server-side code else.
    let client = out.join("pkg");
    for entry in std::fs::read_dir(pkg)? {
        let path = entry?.path();
        if path.extension().is_some_and(|e| e == "wasm") {
            std::fs::create_dir_all(&client)?;
            std::fs::copy(&path, client.join(path.file_name().unwrap_or_default()))?;
        }
    }
    for rel in page_modules(pkg, &["full.js", "index.js"])? {
        let dest = client.join(&rel);
        if let Some(parent) = dest.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::copy(pkg.join(&rel), dest).with_context(|| format!("copying pkg/{rel}"))?;
    }
    std::fs::copy(
        pkg.join("emulator/tunesmith_emulator_bg.wasm"),
        out.join("emulator.wasm"),
    )
    .context("the emulator's wasm build (pkg/emulator/) is needed before the site")?;
    let bundle = crate::target_dir().join("site-sw.js");
    let status = Command::new(crate::toolchain::rolldown()?)
        .arg("-c")
        .arg(root.join("www-site/rolldown.config.mjs"))
        .env("SITE_PKG", pkg)
        .env("SITE_SW_OUT", &bundle)
        .stdout(std::process::Stdio::null())
        .status()
        .context("cannot run rolldown")?;
    if !status.success() {
        bail!("rolldown could not bundle the site's service worker ({status})");
    }
    let worker = std::fs::read_to_string(&bundle)?;
    // The worker caches every file of the site when it installs, under a name that changes with
    // any of them (the worker's own bytes change with it, so browsers install the new one).
    let mut files = vec!["./".to_owned()];
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    worker.hash(&mut hasher);
    for file in files_under(&out)? {
        let rel = file
            .strip_prefix(&out)?
            .to_string_lossy()
            .replace('\\', "/");
        rel.hash(&mut hasher);
        std::fs::read(&file)?.hash(&mut hasher);
        files.push(rel);
    }
    let manifest = format!(
        "self.__SITE_MANIFEST__ = {{ version: \"{:016x}\", files: {} }};\n",
        hasher.finish(),
        json_strings(&files)
    );
    std::fs::write(out.join("sw.js"), manifest + &worker)?;
    let mut gz = 0;
    for file in files_under(&out)? {
        gz += gzip_len(&file)?;
    }
    println!(
        "demo site: {}, {gz} B gzipped in all (`npx tunesmith demo` serves it)",
        out.display()
    );
    Ok(())
}

/// The modules `entries` import, relative to `pkg`, transitively (static and dynamic imports of
/// relative paths, as the package's modules write them).
fn page_modules(pkg: &Path, entries: &[&str]) -> Result<Vec<String>> {
    let mut seen: Vec<String> = Vec::new();
    let mut pending: Vec<String> = entries.iter().map(|e| (*e).to_owned()).collect();
    while let Some(rel) = pending.pop() {
        if seen.contains(&rel) {
            continue;
        }
        let text = std::fs::read_to_string(pkg.join(&rel))
            .with_context(|| format!("reading pkg/{rel}, which the page imports"))?;
        let dir = Path::new(&rel)
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        for quote in ['"', '\''] {
            for (at, _) in text
                .match_indices(&format!("{quote}./"))
                .chain(text.match_indices(&format!("{quote}../")))
            {
                let rest = &text[at + 1..];
                let Some(end) = rest.find(quote) else {
                    continue;
                };
                let spec = &rest[..end];
                let before = text[..at].trim_end();
                let imported = before.ends_with("from")
                    || before.ends_with("import(")
                    || before.ends_with("import");
                if !imported || !spec.ends_with(".js") {
                    continue;
                }
                let mut path = dir.clone();
                for part in spec.split('/') {
                    match part {
                        "." => {}
                        ".." => {
                            path.pop();
                        }
                        p => path.push(p),
                    }
                }
                pending.push(path.to_string_lossy().replace('\\', "/"));
            }
        }
        seen.push(rel);
    }
    seen.sort();
    Ok(seen)
}

fn json_strings(items: &[String]) -> String {
    let quoted: Vec<String> = items
        .iter()
        .map(|s| format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\"")))
        .collect();
    format!("[{}]", quoted.join(", "))
}
