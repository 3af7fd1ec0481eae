//! The emulator's wasm build for the package (`pkg/emulator/`): `tunesmith/emulator` and
//! `npx tunesmith emulator`. The crate `emulator/wasm` built for wasm32 in release (the emulator's
//! fast profile, not the client's size-first one), then wasm-bindgen's `web` glue, which the
//! package's `emulator/index.js` instantiates from the file next to it. The package's other
//! entries never import it, so the page's size budget does not see it.

use std::path::Path;
use std::process::Command;

use anyhow::{Context, Result};

use crate::{proc, toolchain};

const WASM_TARGET: &str = "wasm32-unknown-unknown";

/// Builds the module and its glue into `pkg/emulator/` (next to the template's JavaScript).
pub fn build(pkg: &Path) -> Result<()> {
    toolchain::wasm_target()?;
    let wasm_bindgen = toolchain::wasm_bindgen()?;
    proc::run(proc::cargo().args([
        "build",
        "--release",
        "-p",
        "tunesmith-emulator-wasm",
        "--target",
        WASM_TARGET,
    ]))
    .context("building the emulator for wasm32")?;
    let module = crate::target_dir()
        .join(WASM_TARGET)
        .join("release")
        .join("tunesmith_emulator_wasm.wasm");
    let out = pkg.join("emulator");
    std::fs::create_dir_all(&out)?;
    proc::run(
        Command::new(wasm_bindgen)
            .args([
                "--target",
                "web",
                "--out-name",
                "tunesmith_emulator",
                "--out-dir",
            ])
            .arg(&out)
            .arg(&module),
    )
    .context("wasm-bindgen of the emulator")?;
    // The package's own declarations (`emulator/index.d.ts`) are the API; wasm-bindgen's
    // describe the raw module and would only be found by mistake.
    for generated in ["tunesmith_emulator.d.ts", "tunesmith_emulator_bg.wasm.d.ts"] {
        let _ = std::fs::remove_file(out.join(generated));
    }
    let gz = crate::package::gzip_len(&out.join("tunesmith_emulator_bg.wasm"))?;
    println!("emulator wasm: {gz} B gzipped (pkg/emulator/, loaded only by `tunesmith/emulator`)");
    Ok(())
}

/// A project of its own (`target/npx-emulator/`) with the packed package `tarball` installed, as
/// a user's `npx tunesmith emulator` finds it.
pub fn npx_project(tarball: &Path) -> Result<std::path::PathBuf> {
    let dir = crate::target_dir().join("npx-emulator");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir)?;
    std::fs::write(
        dir.join("package.json"),
        "{\"name\": \"npx-emulator\", \"private\": true, \"type\": \"module\"}\n",
    )?;
    crate::test::install_packed(&dir, tarball)
        .context("installing the packed package for `npx tunesmith emulator`")?;
    Ok(dir)
}

/// The variable that names the command starting the emulator under test, for the suites that
/// start emulators of their own (emulator/tests/common/external.rs, tests/js/companion/harness.mjs).
pub const ENV_EMULATOR_CMD: &str = "TUNESMITH_EMULATOR_CMD";

/// The command line that runs the installed package's `tunesmith emulator` (what npx runs), for
/// the suites' harnesses (`ENV_EMULATOR_CMD`).
pub fn npx_command(project: &Path) -> String {
    let cli = project.join("node_modules/tunesmith/cli/tunesmith.js");
    format!("node {} emulator", cli.display())
}
