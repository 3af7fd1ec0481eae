//! `cargo xtask demo`: the package and the page served by the emulator, talking to the service
//! through a companion server that holds the key, until Ctrl-C.

use crate::emulator::{self, Emulator, Launch};
use crate::package::{self, Profile};
use crate::signal;
use anyhow::{bail, Context, Result};
use std::ffi::OsString;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

pub const USAGE: &str = "\
usage: cargo xtask demo [--port N] [--upload-port N] [--companion-port N] [-- EMULATOR_FLAGS..]

Builds the package and the emulator, then serves the demo page (www/ + pkg/) on the music host
until Ctrl-C. The page holds no key: it talks to a companion server (tunesmith/server, run by
Node), which adds the key and pushes the service's callbacks to the page; beside it, the demo's
own routes top up the emulator's credits and list the callbacks the companion received.

  --port N            port of the music host, which also serves the page (default 8787)
  --upload-port N     port of the upload host (default 8788)
  --companion-port N  port of the companion server (default 8789)
  -- FLAGS..        more emulator flags, e.g. `-- --credits 500 --stage-delay-ms 3000`;
                    they win over the demo's defaults
  -h, --help        this text

Credits, uploads and tasks are kept in target/demo-data/ across restarts; delete that folder
(or set credits with POST /_emulator/credits) to start afresh.
";

pub struct Options {
    pub port: u16,
    pub upload_port: u16,
    pub companion_port: u16,
    /// Extra emulator flags (after `--`); they win over the demo's defaults.
    pub emulator_args: Vec<String>,
}

pub fn run(opts: &Options) -> Result<()> {
    // Before the slow builds: a taken port would only fail after them.
    if flag_value(&opts.emulator_args, "--music-addr").is_none() {
        port_free(opts.port, "--port")?;
    }
    if flag_value(&opts.emulator_args, "--upload-addr").is_none() {
        port_free(opts.upload_port, "--upload-port")?;
    }
    port_free(opts.companion_port, "--companion-port")?;
    let pkg = package::build(Profile::Release)?;
    pkg.print_sizes()?;
    let bin = emulator::build()?;
    let target = crate::target_dir();
    let site = target.join("demo-site");
    package::stage_site(&site, Some(&pkg))?;
    // How the page finds its companion, and the demo's own routes beside it (www/app.js reads it).
    let companion_url = format!("http://127.0.0.1:{}/ts", opts.companion_port);
    let demo_url = format!("http://127.0.0.1:{}/demo", opts.companion_port);
    std::fs::write(
        site.join("companion.json"),
        format!("{{\"companionUrl\": \"{companion_url}\", \"demoUrl\": \"{demo_url}\"}}\n"),
    )?;
    // Kept between runs, so uploads and tasks survive a restart of the demo.
    let data = target.join("demo-data");
    std::fs::create_dir_all(&data)?;

    let mut args: Vec<OsString> = Vec::new();
    let mut default = |flag: &str, value: OsString| {
        if !opts
            .emulator_args
            .iter()
            .any(|a| a == flag || a.starts_with(&format!("{flag}=")))
        {
            args.push(flag.into());
            args.push(value);
        }
    };
    default("--music-addr", format!("127.0.0.1:{}", opts.port).into());
    default(
        "--upload-addr",
        format!("127.0.0.1:{}", opts.upload_port).into(),
    );
    default("--stage-delay-ms", "1500".into());
    default("--data-dir", data.into());
    let serves_page = emulator::supports(&bin, "--www");
    if serves_page {
        default("--www", site.clone().into());
    }
    args.extend(opts.emulator_args.iter().map(OsString::from));

    signal::catch_interrupts();
    let mut emulator = Emulator::start(
        &bin,
        Launch {
            args,
            echo: true,
            temp_data_dir: false,
        },
    )?;
    // The key is announced on stderr, read by another thread than the ready line: let it catch up.
    std::thread::sleep(Duration::from_millis(200));
    let stderr = emulator.stderr_lines();
    let key = dev_key(emulator.banner.iter().chain(stderr.iter()));
    let service_key = flag_value(&opts.emulator_args, "--api-key").or_else(|| key.clone());
    let mut companion = start_companion(opts, &pkg.dir, &emulator, service_key.as_deref())?;
    println!();
    println!("tunesmith demo");
    if serves_page {
        println!("  open      {}/", emulator.music);
    } else {
        println!(
            "  (this emulator build has no --www yet: the page in {} is not served)",
            site.display()
        );
    }
    println!("  music API {}", emulator.music);
    println!("  uploads   {}", emulator.upload);
    println!("  companion {companion_url} (holds the key; the page has none)");
    match key {
        Some(key) => println!("  key       {key}"),
        None => println!("  key       see the emulator's start-up lines above"),
    }
    println!("Press Ctrl-C to stop.");

    loop {
        if signal::interrupted() {
            println!("\nstopping the companion and the emulator");
            let _ = companion.kill();
            let _ = companion.wait();
            emulator.stop(libc::SIGINT, Duration::from_secs(5));
            return Ok(());
        }
        if let Some(status) = emulator.exited() {
            let _ = companion.kill();
            bail!("the emulator exited ({status}){}", emulator.stderr_report());
        }
        if let Ok(Some(status)) = companion.try_wait() {
            emulator.stop(libc::SIGINT, Duration::from_secs(5));
            bail!("the companion exited ({status})");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The demo's companion (`demo-companion.mjs` in Node), once it printed its ready line.
fn start_companion(
    opts: &Options,
    pkg: &Path,
    emulator: &Emulator,
    key: Option<&str>,
) -> Result<Child> {
    let script = crate::root()
        .join("xtask")
        .join("src")
        .join("demo-companion.mjs");
    let origins = format!(
        "http://127.0.0.1:{port},http://localhost:{port}",
        port = opts.port
    );
    let mut child = Command::new("node")
        .arg(script)
        .env("TUNESMITH_PKG", pkg)
        .env("COMPANION_PORT", opts.companion_port.to_string())
        .env("COMPANION_API_KEY", key.unwrap_or("ts-dev-key"))
        .env("COMPANION_MUSIC_URL", &emulator.music)
        .env("COMPANION_UPLOAD_URL", &emulator.upload)
        .env("COMPANION_PAGE_ORIGINS", origins)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .spawn()
        .context("starting the companion (node xtask/src/demo-companion.mjs)")?;
    let stdout = child.stdout.take().context("the companion's stdout")?;
    let mut line = String::new();
    BufReader::new(stdout).read_line(&mut line)?;
    if !line.starts_with("ready ") {
        let _ = child.kill();
        bail!("the companion did not start: {line:?}");
    }
    Ok(child)
}

/// Fails, naming the port and the switch that changes it, when something already listens there.
fn port_free(port: u16, switch: &str) -> Result<()> {
    match std::net::TcpListener::bind(("127.0.0.1", port)) {
        Ok(_) => Ok(()),
        Err(e) => bail!(
            "port {port} on 127.0.0.1 is taken ({e}): another demo or emulator may be running. \
             Stop it, or pick another port with `{switch} N`, e.g. `cargo xtask demo {switch} {}`",
            port.saturating_add(10)
        ),
    }
}

/// The value of `--flag V` or `--flag=V` among the emulator flags.
fn flag_value(args: &[String], flag: &str) -> Option<String> {
    let prefix = format!("{flag}=");
    args.iter().enumerate().find_map(|(i, a)| {
        if a == flag {
            args.get(i + 1).cloned()
        } else {
            a.strip_prefix(&prefix).map(str::to_owned)
        }
    })
}

/// The key the emulator announces at start-up (`... development key `ts-dev-key``), or the
/// announcing line itself when it quotes no key.
fn dev_key<'a>(lines: impl IntoIterator<Item = &'a String>) -> Option<String> {
    let line = lines
        .into_iter()
        .find(|l| l.to_ascii_lowercase().contains("key"))?;
    let quoted = line
        .split('`')
        .nth(1)
        .filter(|k| !k.is_empty() && !k.contains(' '));
    Some(quoted.unwrap_or(line.trim()).to_string())
}

#[cfg(test)]
mod tests {
    use super::{dev_key, flag_value};

    #[test]
    fn reads_an_emulator_flag_in_both_spellings() {
        let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let spaced = args(&["--credits", "5", "--music-addr", "127.0.0.1:9000"]);
        assert_eq!(
            flag_value(&spaced, "--music-addr").as_deref(),
            Some("127.0.0.1:9000")
        );
        let joined = args(&["--upload-addr=127.0.0.1:9001"]);
        assert_eq!(
            flag_value(&joined, "--upload-addr").as_deref(),
            Some("127.0.0.1:9001")
        );
        assert_eq!(flag_value(&joined, "--music-addr"), None);
    }

    #[test]
    fn finds_the_announced_development_key() {
        let lines = [
            "data directory: /tmp/x".to_string(),
            "no --api-key given: accepting the development key `ts-dev-key`".to_string(),
        ];
        assert_eq!(dev_key(&lines).as_deref(), Some("ts-dev-key"));
        let plain = ["dev key is k1".to_string()];
        assert_eq!(dev_key(&plain).as_deref(), Some("dev key is k1"));
        assert_eq!(dev_key(&["ready".to_string()]), None);
    }
}
