//! Secrets: the emulator and a client run (and the Node chaos scripts) with a recognizable key,
//! everything they produce captured (output of every process, the data folder, errors, request
//! log, screenshots), and the key counted in it. The `Authorization` header carries the key;
//! nothing that comes out may.

use super::{node, Figure, Figures};
use crate::package::{self, Profile};
use crate::test::{ENV_API_KEY, ENV_MUSIC_URL, ENV_SPARE_KEY, ENV_UPLOAD_URL};
use crate::{emulator, proc, signal, toolchain};
use anyhow::{bail, Context, Result};
use std::ffi::OsString;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const S: &str = "secrets";
const CLIENT_TIMEOUT: Duration = Duration::from_secs(120);

/// An emulator whose stdout and stderr go to files, all of it kept for the scan.
struct Logged {
    child: Child,
    music: String,
    upload: String,
}

impl Drop for Logged {
    fn drop(&mut self) {
        signal::stop(&mut self.child, libc::SIGTERM, Duration::from_secs(5));
    }
}

fn start_logged(bin: &Path, args: &[OsString], logs: &Path) -> Result<Logged> {
    let out_path = logs.join("emulator.stdout");
    let mut cmd = Command::new(bin);
    cmd.args(args)
        .stdin(Stdio::null())
        .stdout(File::create(&out_path)?)
        .stderr(File::create(logs.join("emulator.stderr"))?);
    signal::die_with_parent(&mut cmd);
    proc::print_command(&cmd);
    let mut child = cmd.spawn().context("cannot start the emulator")?;
    let deadline = Instant::now() + Duration::from_secs(60);
    while Instant::now() < deadline {
        let text = std::fs::read_to_string(&out_path).unwrap_or_default();
        if let Some((music, upload)) = text.lines().find_map(crate::emulator::parse_ready_line) {
            return Ok(Logged {
                child,
                music,
                upload,
            });
        }
        if let Some(status) = child.try_wait()? {
            bail!("the emulator exited ({status}) before its ready line");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.kill();
    bail!("the emulator printed no ready line within 60 s")
}

/// Which Node chaos scripts run, and at what CHAOS_SCALE.
pub struct Scripts {
    pub scale: f64,
    /// The scripts by name (`companion`, `boundaries`), or every one.
    pub only: Option<Vec<&'static str>>,
}

/// How the key is driven: the built package in Node (and the chaos scripts at a CHAOS_SCALE), or
/// raw requests only (the short version, without a wasm build).
pub enum Clients {
    Node {
        scripts: Option<Scripts>,
    },
    #[cfg(test)]
    RawOnly,
}

pub fn run(bin: &Path, sandbox: &Path, clients: Clients, figures: &mut Figures) -> Result<()> {
    let secret = format!("ts-CHAOS-SECRET-{:016x}", fastrand::u64(..));
    let spare = format!("{secret}-spare");
    let (data, logs, artifacts) = (
        sandbox.join("data"),
        sandbox.join("logs"),
        sandbox.join("artifacts"),
    );
    for dir in [&data, &logs, &artifacts] {
        std::fs::create_dir_all(dir)?;
    }
    let mut args = emulator::suite_args(&secret, &spare);
    args.extend(["--data-dir".into(), data.clone().into_os_string()]);
    let pkg = match clients {
        Clients::Node { .. } => {
            toolchain::wasm_target()?;
            toolchain::wasm_bindgen()?;
            Some(package::build(Profile::Release)?)
        }
        #[cfg(test)]
        Clients::RawOnly => None,
    };
    let emulator = start_logged(bin, &args, &logs)?;
    let mut outputs = Vec::new();
    if let (Some(pkg), Clients::Node { scripts }) = (&pkg, &clients) {
        let mut env: Vec<(&'static str, OsString)> = vec![
            (ENV_MUSIC_URL, emulator.music.clone().into()),
            (ENV_UPLOAD_URL, emulator.upload.clone().into()),
            (ENV_API_KEY, secret.clone().into()),
            (ENV_SPARE_KEY, spare.clone().into()),
            ("TUNESMITH_PKG", pkg.dir.clone().into()),
            ("TUNESMITH_CHROMIUM", toolchain::CHROMIUM.into()),
            ("TUNESMITH_ARTIFACTS", artifacts.clone().into()),
        ];
        // tests/chaos/companion.mjs kills a companion instance on Redis.
        let redis = match scripts {
            Some(_) => {
                toolchain::js_tools()?;
                Some(crate::redis::RedisServer::start()?)
            }
            None => None,
        };
        if let Some(redis) = &redis {
            env.push((crate::redis::ENV_REDIS_URL, redis.url.clone().into()));
        }
        let mut client = Command::new("node");
        client
            .current_dir(crate::root())
            .arg(crate::root().join("lab/src/chaos/secrets-client.mjs"))
            .envs(env.iter().cloned());
        let (status, output) = proc::run_tee_with_deadline(client, Some(CLIENT_TIMEOUT))?;
        if !status.success() {
            figures.push(Figure::broken(
                S,
                &format!("the client run exited {status}"),
            ));
        }
        outputs.push(output);
        if let Some(scripts) = scripts {
            outputs.extend(node::run(
                &env,
                scripts.scale,
                scripts.only.as_deref(),
                figures,
            )?);
        }
    }
    outputs.extend(raw_calls(&emulator, &secret));
    drop(emulator);
    let mut scanned = Scan::default();
    for (i, output) in outputs.iter().enumerate() {
        scanned.text(
            &format!("output of run {}", i + 1),
            output.as_bytes(),
            &secret,
        );
    }
    scanned.tree(sandbox, &secret);
    let screenshots = crate::target_dir().join("e2e-screenshots");
    if screenshots.is_dir() {
        scanned.tree(&screenshots, &secret);
    }
    figures.push(Figure::info(
        S,
        "scanned (outputs of every process, data folder, logs, artifacts, screenshots)",
        format!(
            "{} outputs and files, {:.1} MB",
            scanned.items,
            scanned.bytes as f64 / 1e6
        ),
    ));
    figures.push(Figure::none_of(
        S,
        "occurrences of the key",
        scanned.hits,
        scanned.first.unwrap_or_default(),
    ));
    Ok(())
}

/// Requests with the key (good and failing ones), and what the emulator tells anyone who asks.
fn raw_calls(emulator: &Logged, secret: &str) -> Vec<String> {
    let mut outputs = Vec::new();
    let t = Duration::from_secs(10);
    let calls = [
        ("GET", "/api/v1/generate/credit", None),
        (
            "POST",
            "/api/v1/generate",
            Some(
                serde_json::json!({"customMode": false, "prompt": "secret scan", "model": "V6", "instrumental": true, "callBackUrl": format!("{}/inbox/secrets", emulator.music)}),
            ),
        ),
        (
            "POST",
            "/api/v1/generate",
            Some(serde_json::json!({"customMode": "yes"})),
        ),
        ("GET", "/api/v1/generate/record-info?taskId=nope", None),
    ];
    for (method, path, body) in calls {
        if let Ok(reply) = super::net::json(&emulator.music, method, path, secret, body.as_ref(), t)
        {
            outputs.push(String::from_utf8_lossy(&reply.body).into_owned());
        }
    }
    let upload = serde_json::json!({"base64Data": "UklGRiQAAABXQVZF", "fileName": "../s.wav"});
    if let Ok(reply) = super::net::json(
        &emulator.upload,
        "POST",
        "/api/file-base64-upload",
        secret,
        Some(&upload),
        t,
    ) {
        outputs.push(String::from_utf8_lossy(&reply.body).into_owned());
    }
    std::thread::sleep(Duration::from_millis(800));
    for path in ["/_emulator/requests", "/_emulator/stats", "/inbox/secrets"] {
        if let Ok(reply) = super::net::request(&emulator.music, "GET", path, &[], b"", t) {
            outputs.push(String::from_utf8_lossy(&reply.body).into_owned());
        }
    }
    // Wrong keys that contain the real one: an answer must not echo them.
    for auth in [
        format!("Bearer {secret}x"),
        secret.to_string(),
        format!("Basic {secret}"),
    ] {
        if let Ok(reply) = super::net::request(
            &emulator.music,
            "GET",
            "/api/v1/generate/credit",
            &[("Authorization", &auth)],
            b"",
            t,
        ) {
            outputs.push(String::from_utf8_lossy(&reply.body).into_owned());
        }
    }
    outputs
}

#[derive(Default)]
struct Scan {
    items: usize,
    bytes: u64,
    hits: usize,
    first: Option<String>,
}

impl Scan {
    fn text(&mut self, what: &str, bytes: &[u8], secret: &str) {
        self.items += 1;
        self.bytes += bytes.len() as u64;
        let needle = secret.as_bytes();
        let n = bytes.windows(needle.len()).filter(|w| *w == needle).count();
        if n > 0 {
            self.hits += n;
            self.first.get_or_insert_with(|| format!("{n} in {what}"));
        }
    }

    fn tree(&mut self, root: &Path, secret: &str) {
        let mut stack: Vec<PathBuf> = vec![root.to_path_buf()];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
                let path = entry.path();
                if entry.file_type().is_ok_and(|t| t.is_dir()) {
                    stack.push(path);
                } else if let Ok(bytes) = std::fs::read(&path) {
                    self.text(&path.display().to_string(), &bytes, secret);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Scan;

    #[test]
    fn counts_every_occurrence_and_names_the_first_place() {
        let mut scan = Scan::default();
        scan.text("a", b"no key here", "ts-K");
        scan.text("b", b"ts-K and ts-K-spare", "ts-K");
        assert_eq!((scan.items, scan.hits), (2, 2));
        assert_eq!(scan.first.as_deref(), Some("2 in b"));
    }
}
