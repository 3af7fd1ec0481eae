//! Where the bench scripts are: `cargo lab bench` runs them at full size, and the `bench` stage of
//! `cargo xtask test` runs each once at a small size (`ENV_SMOKE`) so that none can break unseen.

use crate::test::node_scripts;
use anyhow::{bail, Result};
use std::path::PathBuf;

/// The sections of `cargo lab bench` that run a node script of their own,
/// `bench/<section>/<section>.mjs`; the `browser` section runs every `bench/*.mjs`.
pub const SCRIPT_SECTIONS: [&str; 4] = ["size", "companion", "calls", "bundle"];

/// Set to `1` by `cargo xtask test`: the scripts run once at a small size (bench/_lib.mjs).
pub const ENV_SMOKE: &str = "TUNESMITH_BENCH_SMOKE";
/// The emulator's time between task stages, for the scripts that compute when a task ends.
pub const ENV_STAGE_DELAY_MS: &str = "TUNESMITH_BENCH_STAGE_DELAY_MS";

/// The script of a section of [`SCRIPT_SECTIONS`].
pub fn section_script(section: &str) -> PathBuf {
    crate::root()
        .join("bench")
        .join(section)
        .join(format!("{section}.mjs"))
}

/// Every bench script: `bench/*.mjs` (the `browser` section) and each section's own.
pub fn scripts() -> Result<Vec<PathBuf>> {
    let mut scripts = node_scripts(&crate::root().join("bench"))?;
    scripts.extend(SCRIPT_SECTIONS.map(section_script));
    if let Some(missing) = scripts.iter().find(|s| !s.is_file()) {
        bail!("no bench script {}", missing.display());
    }
    Ok(scripts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_section_script_and_browser_script_is_listed_and_there() {
        let scripts = scripts().unwrap_or_default();
        for section in SCRIPT_SECTIONS {
            assert!(scripts.contains(&section_script(section)), "{section}");
        }
        assert!(scripts.iter().any(|s| s.ends_with("bench/uploads.mjs")));
        assert!(
            !scripts.iter().any(|s| s.ends_with("bench/_lib.mjs")),
            "helpers are not run"
        );
    }
}
