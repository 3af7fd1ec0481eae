//! `cargo xtask demo`: the package and the page served by the emulator, talking to the service
//! through a companion server that holds the key, until Ctrl-C.

use crate::emulator::{self, Emulator, Launch};
use crate::package::{self, Profile};
use crate::proc::Server;
use crate::signal;
use anyhow::{bail, Result};
use std::ffi::OsString;
use std::path::Path;
use std::process::Command;
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

/// The emulator's development key (`DEV_KEY` in emulator/src/config.rs), which the README's
/// quickstart uses too; `-- --api-key K` replaces it.
const DEMO_KEY: &str = "ts-dev-key";

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
        if flag_value(&opts.emulator_args, flag).is_none() {
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
    default("--www", site.into());
    // The demo names the key itself, so that it can hand the same one to the companion.
    default("--api-key", DEMO_KEY.into());
    let key = flag_value(&opts.emulator_args, "--api-key").unwrap_or_else(|| DEMO_KEY.into());
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
    let mut companion = start_companion(opts, &pkg.dir, &emulator, &key)?;
    let (music, upload) = (&emulator.music, &emulator.upload);
    println!(
        "\ntunesmith demo\n  open      {music}/\n  music API {music}\n  uploads   {upload}\n  \
         companion {companion_url} (holds the key; the page has none)\n  key       {key}\n\
         Press Ctrl-C to stop."
    );

    // Dropping either stops it.
    loop {
        if signal::interrupted() {
            println!("\nstopping the companion and the emulator");
            companion.stop(libc::SIGINT, Duration::from_secs(5));
            emulator.server.stop(libc::SIGINT, Duration::from_secs(5));
            return Ok(());
        }
        for (name, server) in [
            ("emulator", &mut emulator.server),
            ("companion", &mut companion),
        ] {
            if let Some(status) = server.exited() {
                bail!("the {name} exited ({status}){}", server.stderr_report());
            }
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The demo's companion (`demo-companion.mjs` in Node), once it printed its ready line.
fn start_companion(opts: &Options, pkg: &Path, emulator: &Emulator, key: &str) -> Result<Server> {
    let script = crate::root().join("xtask/src/demo-companion.mjs");
    let origins = format!(
        "http://127.0.0.1:{port},http://localhost:{port}",
        port = opts.port
    );
    let mut cmd = Command::new("node");
    cmd.arg(script)
        .env("TUNESMITH_PKG", pkg)
        .env("COMPANION_PORT", opts.companion_port.to_string())
        .env("COMPANION_API_KEY", key)
        .env("COMPANION_MUSIC_URL", &emulator.music)
        .env("COMPANION_UPLOAD_URL", &emulator.upload)
        .env("COMPANION_PAGE_ORIGINS", origins);
    let ready = |line: &str| line.starts_with("ready ").then_some(());
    Ok(Server::start(cmd, true, ready)?.0)
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

#[cfg(test)]
mod tests {
    use super::flag_value;

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
}
