//! `cargo xtask demo`: the package and the page served by the emulator, until Ctrl-C.

use crate::emulator::{self, Emulator, Launch};
use crate::package::{self, Profile};
use crate::signal;
use anyhow::{bail, Result};
use std::ffi::OsString;
use std::time::Duration;

pub struct Options {
    pub port: u16,
    pub upload_port: u16,
    /// Extra emulator flags (after `--`); they win over the demo's defaults.
    pub emulator_args: Vec<String>,
}

pub fn run(opts: &Options) -> Result<()> {
    let pkg = package::build(Profile::Release)?;
    pkg.print_sizes()?;
    let bin = emulator::build()?;
    let target = crate::target_dir();
    let site = target.join("demo-site");
    package::stage_site(&site, Some(&pkg))?;
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
    let key_line = emulator
        .banner
        .iter()
        .find(|l| l.to_ascii_lowercase().contains("key"))
        .cloned();
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
    match key_line {
        Some(line) => println!("  {}", line.trim()),
        None => println!("  key       see the emulator's start-up lines above"),
    }
    println!("Press Ctrl-C to stop.");

    loop {
        if signal::interrupted() {
            println!("\nstopping the emulator");
            emulator.stop(libc::SIGINT, Duration::from_secs(5));
            return Ok(());
        }
        if let Some(status) = emulator.exited() {
            bail!("the emulator exited ({status}){}", emulator.stderr_report());
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}
