//! The emulator as a command of its own (`TUNESMITH_EMULATOR_CMD`): started with a test's flags on
//! ephemeral ports and a data folder of its own, found by its ready line, stopped with SIGTERM
//! (or killed when the test drops it).

use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use std::io::{BufRead, BufReader};

use tunesmith_emulator::Config;

/// The command line that starts the emulator under test (words split on whitespace).
pub const ENV_CMD: &str = "TUNESMITH_EMULATOR_CMD";
/// A file each native-only test appends its name and reason to, when it is passed over.
pub const ENV_NATIVE_ONLY_LOG: &str = "TUNESMITH_EMULATOR_NATIVE_ONLY_LOG";

pub fn command_line() -> Option<Vec<String>> {
    let cmd = std::env::var(ENV_CMD).ok()?;
    let words: Vec<String> = cmd.split_whitespace().map(str::to_owned).collect();
    (!words.is_empty()).then_some(words)
}

/// `true` (and the test should return) when the emulator under test is not the native build:
/// the test checks something only the native build has. `reason` says what, and is logged to
/// `TUNESMITH_EMULATOR_NATIVE_ONLY_LOG` so that the run can count and list what was passed over.
pub fn native_only(test: &str, reason: &str) -> bool {
    if command_line().is_none() {
        return false;
    }
    println!("native-only: {test}: {reason}");
    if let Ok(path) = std::env::var(ENV_NATIVE_ONLY_LOG) {
        if let Ok(mut f) = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
        {
            let _ = writeln!(f, "{test}\t{reason}");
        }
    }
    true
}

/// A command that starts the emulator under test as its own process (the native binary, or the
/// command of `TUNESMITH_EMULATOR_CMD`); the caller adds the flags.
pub fn emulator_command() -> std::process::Command {
    match command_line() {
        Some(words) => {
            let mut cmd = std::process::Command::new(&words[0]);
            cmd.args(&words[1..]);
            cmd
        }
        None => std::process::Command::new(env!("CARGO_BIN_EXE_tunesmith-emulator")),
    }
}

/// The flags that give the emulator `config` (its addresses made ephemeral). Every field is
/// named, so that a new flag fails to compile here until it is passed on.
pub fn flags_of(config: &Config) -> Vec<String> {
    let Config {
        music_addr: _,
        upload_addr: _,
        api_keys,
        service_segment,
        data_dir,
        stage_delay_ms,
        credits,
        rate_limit,
        fault_rate,
        callback_timeout_ms,
        callback_retry_delay_ms,
        max_upload_mb,
        www,
        seed,
        manual_clock,
        allow_private_url_uploads,
        read_timeout_ms,
        max_connections,
    } = config;
    let mut out: Vec<String> = vec![
        "--music-addr".into(),
        "127.0.0.1:0".into(),
        "--upload-addr".into(),
        "127.0.0.1:0".into(),
    ];
    let mut flag = |name: &str, value: String| {
        out.push(format!("--{name}"));
        out.push(value);
    };
    for key in api_keys {
        flag("api-key", key.clone());
    }
    flag("service-segment", service_segment.clone());
    if let Some(dir) = data_dir {
        flag("data-dir", dir.display().to_string());
    }
    flag("stage-delay-ms", stage_delay_ms.to_string());
    flag("credits", credits.to_string());
    flag("rate-limit", rate_limit.to_string());
    flag("fault-rate", fault_rate.to_string());
    flag("callback-timeout-ms", callback_timeout_ms.to_string());
    flag(
        "callback-retry-delay-ms",
        callback_retry_delay_ms.to_string(),
    );
    flag("max-upload-mb", max_upload_mb.to_string());
    if let Some(dir) = www {
        flag("www", dir.display().to_string());
    }
    if let Some(seed) = seed {
        flag("seed", seed.to_string());
    }
    flag("read-timeout-ms", read_timeout_ms.to_string());
    flag("max-connections", max_connections.to_string());
    if *manual_clock {
        out.push("--manual-clock".into());
    }
    if *allow_private_url_uploads {
        out.push("--allow-private-url-uploads".into());
    }
    out
}

pub fn addr_of(url: &str) -> SocketAddr {
    url.trim_start_matches("http://")
        .parse()
        .unwrap_or_else(|e| panic!("{url}: not an address: {e}"))
}

/// A running emulator process.
pub struct Process {
    child: std::process::Child,
    pub music: String,
    pub upload: String,
    pub data_dir: PathBuf,
    /// The folder made for a test that named none, removed with the process.
    _temp: Option<tempfile::TempDir>,
}

impl Process {
    pub async fn start(words: &[String], config: &Config) -> Process {
        let temp = config
            .data_dir
            .is_none()
            .then(|| tempfile::tempdir().expect("a data folder"));
        let data_dir = config
            .data_dir
            .clone()
            .or_else(|| temp.as_ref().map(|t| t.path().to_path_buf()))
            .expect("a data folder");
        let mut flags = flags_of(config);
        if config.data_dir.is_none() {
            flags.push("--data-dir".into());
            flags.push(data_dir.display().to_string());
        }
        let mut child = std::process::Command::new(&words[0])
            .args(&words[1..])
            .args(&flags)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|e| panic!("{ENV_CMD}={words:?} does not start: {e}"));
        let stdout = child.stdout.take().expect("stdout");
        // Read on a thread of its own, which goes on reading (and dropping) what the process
        // prints later, so that it never blocks on a full pipe.
        let (tx, rx) = tokio::sync::oneshot::channel();
        std::thread::spawn(move || {
            let mut tx = Some(tx);
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if line.starts_with("ready ") {
                    if let Some(tx) = tx.take() {
                        let _ = tx.send(line);
                    }
                }
            }
        });
        let ready = match tokio::time::timeout(Duration::from_secs(60), rx).await {
            Ok(Ok(line)) => line,
            _ => {
                let _ = child.kill();
                panic!("{words:?} {flags:?} printed no ready line");
            }
        };
        let url = |name: &str| {
            ready
                .split_whitespace()
                .find_map(|w| w.strip_prefix(&format!("{name}=")))
                .unwrap_or_else(|| panic!("no {name}= in {ready:?}"))
                .to_owned()
        };
        Process {
            music: url("music"),
            upload: url("upload"),
            child,
            data_dir,
            _temp: temp,
        }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// SIGTERM, then waits for the process to end (killed after 10 s).
    pub async fn stop(mut self) {
        let _ = std::process::Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        for _ in 0..200 {
            if !matches!(self.child.try_wait(), Ok(None)) {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}
