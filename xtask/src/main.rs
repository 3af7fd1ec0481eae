//! `cargo xtask`: the project's commands to build the package, run every test, serve the demo,
//! benchmark, and probe reliability.

use anyhow::{bail, Result};
use std::process::ExitCode;
use xtask::flags::Flags;
use xtask::package::{self, Profile};
use xtask::{codegen, demo, proc, test};

const USAGE: &str = "\
usage: cargo xtask <command> [flags]

  build [--dev]          build the npm package into pkg/ (--dev: debug wasm, names kept, no wasm-opt)
  test [--skip-lint] [--only STAGE[,STAGE..]]
                         install what is missing, then run every check; stages in order:
                         lint, native, wasm, js, e2e, deploy, users, bench (all but lint and
                         native run against a live emulator; deploy: the examples in
                         tests/deploy/; users: the projects of tests/emulator-npm/)
  demo [--port N] [--upload-port N] [-- EMULATOR_FLAGS..]
                         build the package and the emulator, serve www/ + pkg/ on the music host
  site [--pkg DIR] [--out DIR]
                         write the demo's static site (pkg/site/) again from a built package
  codegen [--check]      write the Rust and TypeScript that protocol/ declares (--check: fail if stale)
  bench | chaos ..       the lab's measurements and probes: `cargo lab` (lab/), run from here too
";

fn main() -> ExitCode {
    xtask::flags::main("xtask", USAGE, run)
}

fn run(command: &str, mut flags: Flags) -> Result<bool> {
    let ok = match command {
        "build" => {
            let dev = flags.switch("--dev");
            flags.finish()?;
            let profile = if dev { Profile::Dev } else { Profile::Release };
            package::build(profile)?.print_sizes()?;
            true
        }
        "test" => {
            let opts = test::Options {
                skip_lint: flags.switch("--skip-lint"),
                only: flags.list("--only")?,
            };
            flags.finish()?;
            test::run(&opts)?
        }
        "demo" if flags.switch("--help") || flags.switch("-h") => {
            print!("{}", demo::USAGE);
            true
        }
        "demo" => {
            let opts = demo::Options {
                port: flags.number("--port")?.unwrap_or(8787),
                upload_port: flags.number("--upload-port")?.unwrap_or(8788),
                companion_port: flags.number("--companion-port")?.unwrap_or(8789),
                emulator_args: flags.trailing(),
            };
            flags.finish()?;
            demo::run(&opts)?;
            true
        }
        // The lab's commands keep their old spelling here; `cargo lab` is the same program.
        "bench" | "chaos" => proc::cargo()
            .args(["run", "--quiet", "--package", "lab", "--"])
            .args(std::env::args().skip(1))
            .status()?
            .success(),
        "site" => {
            let pkg = flags.number::<std::path::PathBuf>("--pkg")?;
            let pkg = pkg.unwrap_or_else(|| xtask::root().join("pkg"));
            let out = flags.number::<std::path::PathBuf>("--out")?;
            let out = out.unwrap_or_else(|| pkg.join("site"));
            flags.finish()?;
            xtask::site::build_into(&pkg, &out)?;
            true
        }
        "codegen" => {
            let check = flags.switch("--check");
            flags.finish()?;
            codegen::run(check)?;
            true
        }
        other => bail!("unknown command `{other}`\n{USAGE}"),
    };
    Ok(ok)
}
