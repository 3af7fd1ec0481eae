//! The house's build tool as a library: the toolchain, the package build, code generation, the
//! emulator's launch and the test stages, shared by `cargo xtask` (build, test, demo, codegen) and
//! `cargo lab` (chaos and bench, in `lab/`).

pub mod bench_scripts;
pub mod codegen;
pub mod demo;
pub mod emulator;
pub mod flags;
pub mod imports;
pub mod package;
pub mod proc;
pub mod redis;
pub mod report;
pub mod signal;
pub mod test;
pub mod toolchain;

use anyhow::{bail, Result};
use std::path::{Path, PathBuf};

/// The sections of `bench` or `chaos` to run: all of `all` in their order, or those `--only`
/// names (an unknown name is an error listing the valid ones).
pub fn pick_sections<'a>(all: &[&'a str], only: Option<&[String]>) -> Result<Vec<&'a str>> {
    let Some(names) = only else {
        return Ok(all.to_vec());
    };
    if let Some(bad) = names.iter().find(|n| !all.contains(&n.as_str())) {
        bail!("unknown section `{bad}`; sections: {}", all.join(", "));
    }
    Ok(all
        .iter()
        .copied()
        .filter(|s| names.iter().any(|n| n == s))
        .collect())
}

/// The repository root: the parent of this crate's folder.
pub fn root() -> PathBuf {
    let manifest_dir = std::env::var_os("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")));
    manifest_dir
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or(manifest_dir)
}

/// Cargo's target folder, honouring `CARGO_TARGET_DIR` as cargo does.
pub fn target_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => {
            let dir = PathBuf::from(dir);
            if dir.is_absolute() {
                dir
            } else {
                std::env::current_dir()
                    .map(|cwd| cwd.join(&dir))
                    .unwrap_or(dir)
            }
        }
        None => root().join("target"),
    }
}
