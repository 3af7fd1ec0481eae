//! `cargo xtask demo`: the package and the page served by the emulator, talking to the service
//! through a companion server that holds the key, until Ctrl-C.

use crate::emulator::{self, Emulator, Launch};
use crate::package::{self, Package, Profile};
use crate::proc::Server;
use crate::signal;
use anyhow::{bail, Context, Result};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
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

Credits, uploads and tasks are kept across restarts in target/demo-data/MUSIC-UPLOAD-COMPANION/,
one folder per set of ports (two demos side by side share nothing); delete it (or set credits with
POST /_emulator/credits) to start afresh. The package is rebuilt only when its sources changed.
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

/// The three ports of one demo.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ports {
    pub music: u16,
    pub upload: u16,
    pub companion: u16,
}

impl Ports {
    /// The ports with their switches, in the order of the usage text.
    fn switches(self) -> [(u16, &'static str); 3] {
        [
            (self.music, "--port"),
            (self.upload, "--upload-port"),
            (self.companion, "--companion-port"),
        ]
    }

    /// Where this set of ports keeps its credits, uploads, tasks and companion state: two demos
    /// side by side never share (nor overwrite) each other's.
    pub fn data_dir(self, target: &Path) -> PathBuf {
        target
            .join("demo-data")
            .join(format!("{}-{}-{}", self.music, self.upload, self.companion))
    }

    /// The page this set of ports serves (restaging one demo's page never touches another's).
    fn site_dir(self, target: &Path) -> PathBuf {
        target.join(format!("demo-site-{}", self.music))
    }
}

pub fn run(opts: &Options) -> Result<()> {
    let ports = Ports {
        music: opts.port,
        upload: opts.upload_port,
        companion: opts.companion_port,
    };
    // Before the slow builds: a taken port would only fail after them. A port given by an emulator
    // flag instead is the emulator's to check.
    let checked = [
        flag_value(&opts.emulator_args, "--music-addr").is_none(),
        flag_value(&opts.emulator_args, "--upload-addr").is_none(),
        true,
    ];
    ports_free(ports, checked, port_is_free)?;
    let target = crate::target_dir();
    let pkg = fresh_package(&target.join("demo-package.stamp"))?;
    pkg.print_sizes()?;
    let bin = emulator::build()?;
    let site = ports.site_dir(&target);
    package::stage_site(&site, Some(&pkg))?;
    // How the page finds its companion, and the demo's own routes beside it (www/app.js reads it).
    let companion_url = format!("http://127.0.0.1:{}/ts", opts.companion_port);
    let demo_url = format!("http://127.0.0.1:{}/demo", opts.companion_port);
    std::fs::write(
        site.join("companion.json"),
        format!("{{\"companionUrl\": \"{companion_url}\", \"demoUrl\": \"{demo_url}\"}}\n"),
    )?;
    // Kept between runs, so uploads and tasks survive a restart of the demo; `-- --data-dir D`
    // moves the companion's state there too.
    let data = flag_value(&opts.emulator_args, "--data-dir")
        .map(PathBuf::from)
        .unwrap_or_else(|| ports.data_dir(&target));
    std::fs::create_dir_all(&data)?;
    let companion_store = data.join("companion.json");

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
    default("--data-dir", data.clone().into());
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
    let mut companion = start_companion(opts, &pkg.dir, &emulator, &key, &companion_store)?;
    let (music, upload) = (&emulator.music, &emulator.upload);
    println!(
        "\ntunesmith demo\n  open      {music}/\n  music API {music}\n  uploads   {upload}\n  \
         companion {companion_url} (holds the key; the page has none)\n  key       {key}\n  \
         data      {}\n\
         Press Ctrl-C to stop.",
        data.display()
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
fn start_companion(
    opts: &Options,
    pkg: &Path,
    emulator: &Emulator,
    key: &str,
    store: &Path,
) -> Result<Server> {
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
        .env("COMPANION_PAGE_ORIGINS", origins)
        .env("COMPANION_STORE_FILE", store);
    let ready = |line: &str| line.starts_with("ready ").then_some(());
    Ok(Server::start(cmd, true, ready)?.0)
}

fn port_is_free(port: u16) -> bool {
    std::net::TcpListener::bind(("127.0.0.1", port)).is_ok()
}

/// Fails, in one message, when something already listens on any of the `checked` ports: each taken
/// port named with its switch, and a whole set of three free ports to run this demo on instead.
fn ports_free(ports: Ports, checked: [bool; 3], is_free: impl Fn(u16) -> bool) -> Result<()> {
    let taken: Vec<String> = ports
        .switches()
        .iter()
        .zip(checked)
        .filter(|((port, _), checked)| *checked && !is_free(*port))
        .map(|((port, switch), _)| format!("{port} ({switch})"))
        .collect();
    if taken.is_empty() {
        return Ok(());
    }
    let (noun, verb) = if taken.len() == 1 {
        ("port", "is")
    } else {
        ("ports", "are")
    };
    let mut message = format!(
        "{noun} {} on 127.0.0.1 {verb} taken: another demo or emulator may be running. Stop it",
        taken.join(", ")
    );
    match free_ports(ports, is_free) {
        Some(free) => {
            let [(m, _), (u, _), (c, _)] = free.switches();
            message.push_str(&format!(
                ", or run this one on free ports: \
                 `cargo xtask demo --port {m} --upload-port {u} --companion-port {c}`"
            ));
        }
        None => message
            .push_str(", or pick other ports with --port, --upload-port and --companion-port"),
    }
    bail!(message)
}

/// The first set of three free ports at the same distance (10, 20, ...) from `ports`.
fn free_ports(ports: Ports, is_free: impl Fn(u16) -> bool) -> Option<Ports> {
    (1..=100u16).find_map(|step| {
        let shift = |port: u16| port.checked_add(step * 10);
        let next = Ports {
            music: shift(ports.music)?,
            upload: shift(ports.upload)?,
            companion: shift(ports.companion)?,
        };
        next.switches()
            .iter()
            .all(|(port, _)| is_free(*port))
            .then_some(next)
    })
}

/// What the package is built from: the crate and its protocol crate, the entries' template, the
/// build tool (which writes the glue), the manifests, lockfiles and cargo's configuration.
fn package_inputs(root: &Path) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for dir in ["src", "protocol", "pkg-template", "xtask/src", ".cargo"] {
        files.extend(package::files_under(&root.join(dir))?);
    }
    for file in [
        "Cargo.toml",
        "Cargo.lock",
        "xtask/Cargo.toml",
        "package.json",
        "package-lock.json",
        "rust-toolchain.toml",
    ] {
        let path = root.join(file);
        if path.exists() {
            files.push(path);
        }
    }
    Ok(files)
}

/// FNV-1a (64 bits) of each file's path and bytes, in order: the same files with the same bytes
/// give the same text, whatever their times.
fn fingerprint(files: &[PathBuf]) -> Result<String> {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for b in bytes {
            hash ^= u64::from(*b);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    };
    for file in files {
        eat(file.to_string_lossy().as_bytes());
        eat(&[0]);
        eat(&std::fs::read(file).with_context(|| format!("reading {}", file.display()))?);
        eat(&[0]);
    }
    Ok(format!("{hash:016x} {} files", files.len()))
}

/// The stamp of a package in `out` built from `inputs`: both fingerprints.
fn stamp_text(inputs: &[PathBuf], out: &Path) -> Result<String> {
    Ok(format!(
        "inputs {}\npackage {}\n",
        fingerprint(inputs)?,
        fingerprint(&package::files_under(out)?)?
    ))
}

/// Whether the package in `out` is the one the stamp says was built from these very `inputs`
/// (and was not rebuilt or changed since, by another command).
fn is_fresh(stamp: &Path, inputs: &[PathBuf], out: &Path) -> Result<bool> {
    if !out.join("package.json").exists() {
        return Ok(false);
    }
    let Ok(written) = std::fs::read_to_string(stamp) else {
        return Ok(false);
    };
    Ok(written == stamp_text(inputs, out)?)
}

/// The release package, built only when its inputs changed since the demo last built it: the two
/// wasm builds (with and without the default features) rebuild each other's crate every time.
fn fresh_package(stamp: &Path) -> Result<Package> {
    let root = crate::root();
    let dir = root.join("pkg");
    if is_fresh(stamp, &package_inputs(&root)?, &dir)? {
        println!("the package is up to date: nothing changed since the demo built it");
        return Ok(Package { dir });
    }
    let pkg = package::build(Profile::Release)?;
    // Read after the build, which may write generated sources among its inputs.
    std::fs::write(stamp, stamp_text(&package_inputs(&root)?, &pkg.dir)?)?;
    Ok(pkg)
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
    use super::{flag_value, is_fresh, ports_free, stamp_text, Ports};
    use std::path::{Path, PathBuf};

    const DEFAULT: Ports = Ports {
        music: 8787,
        upload: 8788,
        companion: 8789,
    };

    #[test]
    fn taken_ports_are_named_in_one_message_with_three_free_ones() {
        // A demo runs on the defaults but for its upload host; 8799 is taken too.
        let taken = [8787, 8789, 8799];
        let free = |port: u16| !taken.contains(&port);
        let message = ports_free(DEFAULT, [true; 3], free)
            .unwrap_err()
            .to_string();
        assert!(
            message
                .starts_with("ports 8787 (--port), 8789 (--companion-port) on 127.0.0.1 are taken"),
            "{message}"
        );
        assert!(!message.contains("8788"), "{message}");
        assert!(
            message.contains(
                "`cargo xtask demo --port 8807 --upload-port 8808 --companion-port 8809`"
            ),
            "{message}"
        );
        assert_eq!(message.matches("cargo xtask demo").count(), 1, "{message}");
    }

    #[test]
    fn one_taken_port_reads_in_the_singular_and_unchecked_ports_are_left_alone() {
        let free = |port: u16| port != 8788;
        let message = ports_free(DEFAULT, [true; 3], free)
            .unwrap_err()
            .to_string();
        assert!(
            message.starts_with("port 8788 (--upload-port) on 127.0.0.1 is taken"),
            "{message}"
        );
        assert!(
            message.contains("--port 8797 --upload-port 8798 --companion-port 8799"),
            "{message}"
        );
        // `-- --upload-addr A`: the emulator checks that address itself.
        assert!(ports_free(DEFAULT, [true, false, true], free).is_ok());
        assert!(ports_free(DEFAULT, [true; 3], |_| true).is_ok());
    }

    #[test]
    fn each_set_of_ports_has_its_own_data_folder() {
        let target = Path::new("/t");
        assert_eq!(
            DEFAULT.data_dir(target),
            Path::new("/t/demo-data/8787-8788-8789")
        );
        let other = Ports {
            companion: 8799,
            ..DEFAULT
        };
        assert_eq!(
            other.data_dir(target),
            Path::new("/t/demo-data/8787-8788-8799")
        );
        assert_ne!(DEFAULT.data_dir(target), other.data_dir(target));
    }

    /// A fresh folder of its own under the system's temporary folder.
    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("xtask-demo-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("out")).unwrap();
        dir
    }

    #[test]
    fn the_package_is_fresh_only_while_neither_its_inputs_nor_it_changed() {
        let dir = scratch("fresh");
        let input = dir.join("lib.rs");
        std::fs::write(&input, "fn a() {}").unwrap();
        let inputs = vec![input.clone()];
        let out = dir.join("out");
        let stamp = dir.join("stamp");
        // No package yet, then a package without a stamp: built.
        assert!(!is_fresh(&stamp, &inputs, &out).unwrap());
        std::fs::write(out.join("package.json"), "{}").unwrap();
        assert!(!is_fresh(&stamp, &inputs, &out).unwrap());
        std::fs::write(&stamp, stamp_text(&inputs, &out).unwrap()).unwrap();
        assert!(is_fresh(&stamp, &inputs, &out).unwrap(), "nothing changed");
        // The same bytes written again (a new time): still fresh.
        std::fs::write(&input, "fn a() {}").unwrap();
        assert!(is_fresh(&stamp, &inputs, &out).unwrap(), "same bytes");
        // An input edited: stale.
        std::fs::write(&input, "fn b() {}").unwrap();
        assert!(
            !is_fresh(&stamp, &inputs, &out).unwrap(),
            "an input changed"
        );
        std::fs::write(&stamp, stamp_text(&inputs, &out).unwrap()).unwrap();
        assert!(is_fresh(&stamp, &inputs, &out).unwrap());
        // The package rebuilt by another command: stale.
        std::fs::write(out.join("tunesmith_bg.wasm"), [0, 97, 115, 109]).unwrap();
        assert!(
            !is_fresh(&stamp, &inputs, &out).unwrap(),
            "the package changed"
        );
        // An input added: stale.
        std::fs::write(&stamp, stamp_text(&inputs, &out).unwrap()).unwrap();
        let more = dir.join("new.rs");
        std::fs::write(&more, "").unwrap();
        assert!(
            !is_fresh(&stamp, &[input, more], &out).unwrap(),
            "an input added"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

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
