//! The house's build tool as a library: the toolchain, the package build, code generation, the
//! emulator's launch and the test stages, shared by `cargo xtask` (build, test, demo, codegen) and
//! `cargo lab` (chaos and bench, in `lab/`).

pub mod codegen;
pub mod demo;
pub mod emulator;
pub mod emulator_wasm;
pub mod flags;
pub mod glue;
pub mod imports;
pub mod package;
pub mod proc;
pub mod redis;
pub mod report;
pub mod signal;
pub mod site;
pub mod test;
pub mod toolchain;

use std::path::{Path, PathBuf};

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
    match std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from) {
        // A relative one is relative to where cargo runs.
        Some(dir) => std::path::absolute(&dir).unwrap_or(dir),
        None => root().join("target"),
    }
}
