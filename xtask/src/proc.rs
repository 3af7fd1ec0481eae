//! Running child processes: echo the command, check its status, tee its merged output, or keep
//! it running as a server until its ready line and stop it on drop.

use anyhow::{bail, Context, Result};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

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

/// Prints `$ cmd`, as xtask echoes each command it runs, and returns the command's text.
pub fn print_command(cmd: &Command) -> String {
    let mut text = cmd.get_program().to_string_lossy().into_owned();
    for arg in cmd.get_args() {
        text.push(' ');
        text.push_str(&shell_quote(&arg.to_string_lossy()));
    }
    println!("$ {text}");
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
    let text = print_command(cmd);
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
    let text = print_command(&cmd);
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
    for line in BufReader::new(reader).split(b'\n') {
        let line = String::from_utf8_lossy(&line?).into_owned();
        // Stdout is line-buffered: each line shows as it comes.
        writeln!(std::io::stdout(), "{line}")?;
        output.push_str(&line);
        output.push('\n');
    }
    let status = child.wait()?;
    drop(finished);
    Ok((status, output))
}

/// A child server (the emulator, Redis, the demo's companion): the last lines of its stderr kept
/// for error messages, stopped (SIGTERM, then SIGKILL) when dropped and killed with xtask.
pub struct Server {
    child: Child,
    stderr: Arc<Mutex<VecDeque<String>>>,
}

const READY_TIMEOUT: Duration = Duration::from_secs(60);
const STDERR_LINES_KEPT: usize = 200;

impl Server {
    /// Starts `cmd` and waits for the first line of its stdout that `ready` reads; `echo` prints
    /// its output as it comes (the demo), else only its stderr's tail is kept (tests). Its stdout
    /// is drained to the end, so that it never blocks on a full pipe.
    pub fn start<T>(
        mut cmd: Command,
        echo: bool,
        ready: impl Fn(&str) -> Option<T>,
    ) -> Result<(Server, T)> {
        cmd.stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        signal::die_with_parent(&mut cmd);
        let text = print_command(&cmd);
        let mut child = cmd
            .spawn()
            .with_context(|| format!("cannot start `{text}`"))?;
        let stderr = Arc::new(Mutex::new(VecDeque::new()));
        let kept = Arc::clone(&stderr);
        let pipe = child.stderr.take().context("no stderr pipe")?;
        std::thread::spawn(move || {
            for line in BufReader::new(pipe).lines().map_while(Result::ok) {
                if echo {
                    eprintln!("{line}");
                }
                if let Ok(mut kept) = kept.lock() {
                    if kept.len() == STDERR_LINES_KEPT {
                        kept.pop_front();
                    }
                    kept.push_back(line);
                }
            }
        });
        let (tx, rx) = mpsc::channel();
        let pipe = child.stdout.take().context("no stdout pipe")?;
        std::thread::spawn(move || {
            for line in BufReader::new(pipe).lines().map_while(Result::ok) {
                if echo {
                    let _ = writeln!(std::io::stdout(), "{line}");
                }
                let _ = tx.send(line);
            }
        });
        let mut server = Server { child, stderr };
        let deadline = Instant::now() + READY_TIMEOUT;
        while let Ok(line) = rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            if let Some(value) = ready(&line) {
                return Ok((server, value));
            }
        }
        // No ready line: the deadline passed, or the server closed its stdout by exiting.
        if Instant::now() >= deadline {
            let stderr = server.stderr_report();
            bail!("`{text}` printed no ready line within {READY_TIMEOUT:?}{stderr}");
        }
        let status = server.child.wait().map(|s| s.to_string());
        let (status, stderr) = (status.unwrap_or_default(), server.stderr_report());
        bail!("`{text}` exited ({status}) before its ready line{stderr}")
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Whether it has exited (and then how).
    pub fn exited(&mut self) -> Option<ExitStatus> {
        self.child.try_wait().ok().flatten()
    }

    /// The last lines of its stderr, ready to append to an error message.
    pub fn stderr_report(&self) -> String {
        // Give the reader thread a moment to collect what a dying process wrote last.
        std::thread::sleep(Duration::from_millis(200));
        let lines = self.stderr.lock().map(|l| Vec::from(l.clone()));
        match lines.unwrap_or_default() {
            lines if lines.is_empty() => "; its stderr was empty".to_string(),
            lines => format!("; the last lines of its stderr:\n{}", lines.join("\n")),
        }
    }

    /// Stops it: `signal` (SIGTERM, or the user's SIGINT), then SIGKILL after `grace`.
    pub fn stop(&mut self, signal: libc::c_int, grace: Duration) {
        signal::stop(&mut self.child, signal, grace);
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop(libc::SIGTERM, Duration::from_secs(3));
    }
}

/// The first executable called `name` on PATH.
pub fn which(name: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(name))
        .find(|path| is_executable(path))
}

pub fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    let metadata = path.metadata();
    metadata.is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(test)]
mod tests {
    use super::{cargo_version, shell_quote, Server};
    use std::process::Command;

    fn sh(script: &str) -> Command {
        let mut cmd = Command::new("sh");
        cmd.args(["-c", script]);
        cmd
    }

    #[test]
    fn a_server_is_ready_at_the_line_it_waits_for_and_stops_when_dropped() {
        let script = "echo starting >&2; echo warming; echo ready 42; exec sleep 60";
        let ready = |line: &str| line.strip_prefix("ready ")?.parse::<u16>().ok();
        let (mut server, port) = Server::start(sh(script), false, ready).unwrap();
        assert_eq!(port, 42);
        assert!(server.stderr_report().contains("starting"));
        assert!(server.exited().is_none());
        let pid = server.pid();
        drop(server);
        // SAFETY: kill with signal 0 only asks whether the process exists.
        assert_ne!(unsafe { libc::kill(pid as libc::pid_t, 0) }, 0, "reaped");
    }

    #[test]
    fn a_server_that_exits_before_its_ready_line_fails_with_its_stderr() {
        let ready = |line: &str| line.starts_with("ready").then_some(());
        let e = Server::start(sh("echo no such port >&2; exit 3"), false, ready)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(
            e.contains("exit status: 3") && e.contains("no such port"),
            "{e}"
        );
    }

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
