//! Running child processes: echo the command, check its status, or tee its merged output.

use anyhow::{bail, Context, Result};
use std::ffi::OsStr;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus};
use std::sync::mpsc;
use std::time::Duration;

use crate::signal;

/// The cargo that runs us (cargo sets `CARGO`), so child builds use the same toolchain.
pub fn cargo() -> Command {
    let mut cmd = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    cmd.current_dir(crate::root());
    cmd
}

/// The version cargo resolves for the package `spec` (a workspace crate, or one in Cargo.lock),
/// read from `cargo pkgid`: `…#name@1.2.3`, or `…/name#1.2.3` when the folder has the crate's name.
pub fn cargo_version(spec: &str) -> Result<String> {
    let out = cargo().args(["pkgid", spec]).output()?;
    let id = String::from_utf8_lossy(&out.stdout);
    match id.trim().rsplit(['#', '@']).next() {
        Some(version) if out.status.success() && !version.is_empty() => Ok(version.to_string()),
        _ => bail!(
            "`cargo pkgid {spec}` names no version: {}",
            String::from_utf8_lossy(&out.stderr)
        ),
    }
}

pub fn describe(cmd: &Command) -> String {
    let mut text = cmd.get_program().to_string_lossy().into_owned();
    for arg in cmd.get_args() {
        text.push(' ');
        text.push_str(&shell_quote(&arg.to_string_lossy()));
    }
    text
}

/// `arg` as a shell reads it back, so that an echoed command can be pasted into a terminal.
fn shell_quote(arg: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_./:=,@%+".contains(c);
    if !arg.is_empty() && arg.chars().all(plain) {
        arg.to_string()
    } else {
        format!("'{}'", arg.replace('\'', r"'\''"))
    }
}

/// Runs `cmd` with inherited output and fails unless it exits 0.
pub fn run(cmd: &mut Command) -> Result<()> {
    let text = describe(cmd);
    println!("$ {text}");
    let status = cmd
        .status()
        .with_context(|| format!("cannot start `{text}`"))?;
    if !status.success() {
        bail!("`{text}` failed ({status})");
    }
    Ok(())
}

/// Runs `cmd` with stdout and stderr merged into one pipe, so that lines keep their order
/// (cargo's `Running ...` lines go to stderr, the tests' results to stdout), echoing each line
/// as it comes and returning the whole output.
pub fn run_tee(cmd: Command) -> Result<(ExitStatus, String)> {
    run_tee_with_deadline(cmd, None)
}

/// `run_tee`, and past `limit` the child gets SIGTERM, so that one hung script cannot eat CI's
/// 90 minutes.
pub fn run_tee_with_deadline(
    mut cmd: Command,
    limit: Option<Duration>,
) -> Result<(ExitStatus, String)> {
    let text = describe(&cmd);
    println!("$ {text}");
    let (reader, writer) = std::io::pipe()?;
    cmd.stdout(writer.try_clone()?).stderr(writer);
    let mut child = cmd
        .spawn()
        .with_context(|| format!("cannot start `{text}`"))?;
    // The Command keeps the pipe's write ends: drop it, or the read below never sees EOF.
    drop(cmd);
    let (finished, watch) = mpsc::channel::<()>();
    if let Some(limit) = limit {
        let pid = child.id();
        std::thread::spawn(move || {
            if let Err(mpsc::RecvTimeoutError::Timeout) = watch.recv_timeout(limit) {
                eprintln!("xtask: `{text}` ran longer than {limit:?}: stopping it");
                signal::send(pid, libc::SIGTERM);
            }
        });
    }
    let mut output = String::new();
    let stdout = std::io::stdout();
    for line in BufReader::new(reader).split(b'\n') {
        let line = String::from_utf8_lossy(&line?).into_owned();
        let mut out = stdout.lock();
        writeln!(out, "{line}")?;
        out.flush()?;
        output.push_str(&line);
        output.push('\n');
    }
    let status = child.wait()?;
    drop(finished);
    Ok((status, output))
}

/// The first executable called `name` on PATH.
pub fn which(name: impl AsRef<OsStr>) -> Option<PathBuf> {
    let name = name.as_ref();
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(name))
        .find(|path| is_executable(path))
}

pub fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata()
        .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        .unwrap_or(false)
}

/// The first line a program prints for `args` (e.g. `--version`), or None when it cannot run.
pub fn first_line(program: impl AsRef<OsStr>, args: &[&str]) -> Option<String> {
    let out = Command::new(program).args(args).output().ok()?;
    if !out.status.success() {
        return None;
    }
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .next()
        .map(|l| l.trim().to_string())
}

#[cfg(test)]
mod tests {
    use super::{cargo_version, shell_quote};

    #[test]
    fn reads_the_version_cargo_resolves_for_a_crate() {
        let bindgen = cargo_version("wasm-bindgen").unwrap_or_default();
        assert!(bindgen.starts_with("0.2."), "{bindgen}");
        assert!(cargo_version("tunesmith").is_ok_and(|v| !v.contains('#')));
        assert!(cargo_version("no-such-crate").is_err());
    }

    #[test]
    fn quotes_only_what_a_shell_would_split_or_expand() {
        assert_eq!(shell_quote("--target=wasm32"), "--target=wasm32");
        assert_eq!(
            shell_quote("Authorization: Bearer k"),
            "'Authorization: Bearer k'"
        );
        assert_eq!(
            shell_quote("http://h:1/x?taskId=1"),
            "'http://h:1/x?taskId=1'"
        );
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
        assert_eq!(shell_quote(""), "''");
    }
}
