//! The emulator as a child process: build it, start it, read its ready line, kill it on drop.

use crate::proc::{self, run, Server};
use anyhow::{Context, Result};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// The keys that tests use: the second one exists so that tests can exhaust a key's credits or
/// rate limit without disturbing the others.
pub const TEST_KEY: &str = "ts-test-key";
pub const SPARE_KEY: &str = "ts-test-key-2";

/// Builds the release emulator and returns its binary.
pub fn build() -> Result<PathBuf> {
    run(proc::cargo().args(["build", "-p", "tunesmith-emulator", "--release"]))?;
    Ok(crate::target_dir().join("release/tunesmith-emulator"))
}

/// The test emulator's time between task stages: tasks end in about 0.3 s.
pub const SUITE_STAGE_DELAY_MS: &str = "100";

/// An emulator's switches for a suite, probe or benchmark: free loopback ports, no rate limit,
/// then `more`.
pub fn args(more: &[&str]) -> Vec<OsString> {
    let base = [
        "--music-addr",
        "127.0.0.1:0",
        "--upload-addr",
        "127.0.0.1:0",
    ];
    base.iter()
        .chain(&["--rate-limit", "0"])
        .chain(more)
        .map(OsString::from)
        .collect()
}

/// The switches the suites run the emulator with: quick stages and callback retries, and the two
/// keys the suites (or a probe) use.
pub fn suite_args(key: &str, spare_key: &str) -> Vec<OsString> {
    args(&[
        "--stage-delay-ms",
        SUITE_STAGE_DELAY_MS,
        "--callback-timeout-ms",
        "2000",
        "--callback-retry-delay-ms",
        "100",
        "--api-key",
        key,
        "--api-key",
        spare_key,
    ])
}

/// `ready music=URL upload=URL` → (music, upload).
pub fn parse_ready_line(line: &str) -> Option<(String, String)> {
    let mut words = line.split_whitespace();
    if words.next()? != "ready" {
        return None;
    }
    let words: Vec<&str> = words.collect();
    let url = |key: &str| {
        let url = words.iter().find_map(|w| w.strip_prefix(key))?;
        Some(url.trim_end_matches('/').to_string())
    };
    Some((url("music=")?, url("upload=")?))
}

/// The command that runs the wasm build as `npx tunesmith emulator` does, from the package
/// installed in `project` (crate::emulator_wasm::npx_project); its flags go after it.
pub fn npx(project: &Path) -> Command {
    let mut cmd = Command::new("node");
    cmd.arg(project.join("node_modules/tunesmith/cli/tunesmith.js"))
        .arg("emulator");
    cmd
}

/// A running emulator. Dropping it stops the process and removes its temporary data folder.
pub struct Emulator {
    pub server: Server,
    pub music: String,
    pub upload: String,
    temp_data_dir: Option<PathBuf>,
}

pub struct Launch {
    pub args: Vec<OsString>,
    /// Echo the emulator's output (the demo) instead of keeping only its stderr's tail (tests).
    pub echo: bool,
    /// Pass a fresh temporary `--data-dir`, removed on drop.
    pub temp_data_dir: bool,
}

impl Emulator {
    pub fn start(bin: &Path, launch: Launch) -> Result<Emulator> {
        Emulator::start_command(Command::new(bin), launch)
    }

    /// The wasm build as `npx tunesmith emulator` runs it: the package installed in `project`
    /// (crate::emulator_wasm::npx_project), with the same flags and ready line as the binary.
    pub fn start_npx(project: &Path, launch: Launch) -> Result<Emulator> {
        Emulator::start_command(npx(project), launch)
    }

    /// Starts `cmd` (a program and any leading arguments) with the launch's flags after them.
    pub fn start_command(mut cmd: Command, launch: Launch) -> Result<Emulator> {
        cmd.args(&launch.args);
        let temp_data_dir = if launch.temp_data_dir {
            let dir = fresh_temp_dir("emulator-data")?;
            cmd.arg("--data-dir").arg(&dir);
            Some(dir)
        } else {
            None
        };
        let (server, (music, upload)) = Server::start(cmd, launch.echo, parse_ready_line)?;
        Ok(Emulator {
            server,
            music,
            upload,
            temp_data_dir,
        })
    }
}

impl Drop for Emulator {
    fn drop(&mut self) {
        self.server.stop(libc::SIGTERM, Duration::from_secs(3));
        if let Some(dir) = &self.temp_data_dir {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

/// A new empty folder under the system's temporary folder.
pub fn fresh_temp_dir(what: &str) -> Result<PathBuf> {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let dir = std::env::temp_dir().join(format!("tunesmith-{what}-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    Ok(dir)
}

#[cfg(test)]
mod tests {
    use super::parse_ready_line;

    #[test]
    fn reads_both_urls_from_the_ready_line() {
        assert_eq!(
            parse_ready_line("ready music=http://127.0.0.1:40001 upload=http://127.0.0.1:40002/"),
            Some((
                "http://127.0.0.1:40001".to_string(),
                "http://127.0.0.1:40002".to_string()
            ))
        );
        assert_eq!(
            parse_ready_line("  ready upload=http://[::1]:2 music=http://[::1]:1 extra=x"),
            Some(("http://[::1]:1".to_string(), "http://[::1]:2".to_string()))
        );
    }

    #[test]
    fn ignores_other_lines() {
        assert_eq!(parse_ready_line("dev key: ts-dev"), None);
        assert_eq!(parse_ready_line("ready music=http://127.0.0.1:1"), None);
        assert_eq!(parse_ready_line("already music=a upload=b"), None);
    }
}
