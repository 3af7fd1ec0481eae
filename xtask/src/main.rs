//! `cargo xtask`: the project's commands to build the package, run every test, serve the demo,
//! benchmark, and probe reliability.

mod bench;
mod chaos;
mod codegen;
mod demo;
mod emulator;
mod http;
mod imports;
mod package;
mod proc;
mod redis;
mod report;
mod signal;
mod test;
mod toolchain;
mod wrk;

use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

const USAGE: &str = "\
usage: cargo xtask <command> [flags]

  build [--dev]          build the npm package into pkg/ (--dev: debug wasm, names kept, no wasm-opt)
  test [--skip-lint] [--only STAGE[,STAGE..]]
                         install what is missing, then run every check; stages in order:
                         lint, native, wasm, js, e2e, deploy (all but lint and native run
                         against a live emulator; deploy: the examples in tests/deploy/)
  demo [--port N] [--upload-port N] [-- EMULATOR_FLAGS..]
                         build the package and the emulator, serve www/ + pkg/ on the music host
  codegen [--check]      write the Rust and TypeScript that protocol/ declares (--check: fail if stale)
  bench [--only SECTION[,SECTION..]] [--duration SECS]
                         sections: throughput, memory, size, browser
  chaos [--only SECTION[,SECTION..]] [--fuzz-inputs N] [--kills N] [--scale F] [--seed N]
                         reliability probes, each figure against its goal (not part of `test`):
                         fuzz, kill, hostile, secrets, node (tests/chaos/*.mjs at CHAOS_SCALE F)
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("xtask: error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &[String]) -> Result<bool> {
    toolchain::put_cargo_bin_on_path();
    let Some((command, rest)) = args.split_first() else {
        print!("{USAGE}");
        return Ok(false);
    };
    let mut flags = Flags::new(rest);
    let ok = match command.as_str() {
        "build" => {
            let dev = flags.switch("--dev");
            flags.finish()?;
            let pkg = package::build(if dev {
                package::Profile::Dev
            } else {
                package::Profile::Release
            })?;
            pkg.print_sizes()?;
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
        "bench" => {
            let opts = bench::Options {
                only: flags.list("--only")?,
                duration_s: flags.number("--duration")?.unwrap_or(10),
            };
            flags.finish()?;
            bench::run(&opts)?;
            true
        }
        "chaos" => {
            let opts = chaos::Options {
                only: flags.list("--only")?,
                fuzz_inputs: flags
                    .number("--fuzz-inputs")?
                    .unwrap_or(chaos::FUZZ_INPUTS_GOAL),
                kills: flags.number("--kills")?.unwrap_or(chaos::KILLS_GOAL),
                scale: flags.number("--scale")?.unwrap_or(1.0),
                seed: flags.number("--seed")?,
            };
            flags.finish()?;
            chaos::run(&opts)?
        }
        "codegen" => {
            let check = flags.switch("--check");
            flags.finish()?;
            codegen::run(check)?
        }
        "help" | "--help" | "-h" => {
            print!("{USAGE}");
            true
        }
        other => bail!("unknown command `{other}`\n{USAGE}"),
    };
    Ok(ok)
}

/// The repository root: the parent of this crate's folder.
/// The sections of `bench` or `chaos` to run: all of `all` in their order, or those `--only`
/// names (an unknown name is an error listing the valid ones).
pub fn pick_sections<'a>(all: &[&'a str], only: Option<&[String]>) -> Result<Vec<&'a str>> {
    let Some(names) = only else {
        return Ok(all.to_vec());
    };
    if let Some(bad) = names.iter().find(|n| !all.contains(&n.as_str())) {
        bail!("unknown section `{bad}`; sections: {}", all.join(", "));
    }
    Ok(all
        .iter()
        .copied()
        .filter(|s| names.iter().any(|n| n == s))
        .collect())
}

pub fn root() -> PathBuf {
    let manifest_dir = std::env::var_os("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")));
    manifest_dir
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or(manifest_dir)
}

/// Cargo's target folder, honouring `CARGO_TARGET_DIR` as cargo does.
pub fn target_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => {
            let dir = PathBuf::from(dir);
            if dir.is_absolute() {
                dir
            } else {
                std::env::current_dir()
                    .map(|cwd| cwd.join(&dir))
                    .unwrap_or(dir)
            }
        }
        None => root().join("target"),
    }
}

/// A tiny flag parser: each accessor removes what it recognises, and `finish` refuses leftovers.
struct Flags {
    args: Vec<String>,
    trailing: Vec<String>,
}

impl Flags {
    fn new(args: &[String]) -> Self {
        let split = args.iter().position(|a| a == "--").unwrap_or(args.len());
        Flags {
            args: args[..split].to_vec(),
            trailing: args.get(split + 1..).unwrap_or_default().to_vec(),
        }
    }

    fn switch(&mut self, name: &str) -> bool {
        let before = self.args.len();
        self.args.retain(|a| a != name);
        self.args.len() != before
    }

    fn value(&mut self, name: &str) -> Result<Option<String>> {
        let prefix = format!("{name}=");
        if let Some(i) = self.args.iter().position(|a| a.starts_with(&prefix)) {
            let arg = self.args.remove(i);
            return Ok(Some(arg[prefix.len()..].to_string()));
        }
        match self.args.iter().position(|a| a == name) {
            None => Ok(None),
            Some(i) if i + 1 < self.args.len() => {
                self.args.remove(i);
                Ok(Some(self.args.remove(i)))
            }
            Some(_) => bail!("{name} needs a value"),
        }
    }

    fn number<T: std::str::FromStr>(&mut self, name: &str) -> Result<Option<T>> {
        self.value(name)?
            .map(|v| {
                v.parse::<T>()
                    .ok()
                    .with_context(|| format!("{name}: `{v}` is not a number"))
            })
            .transpose()
    }

    fn list(&mut self, name: &str) -> Result<Option<Vec<String>>> {
        Ok(self.value(name)?.map(|v| {
            v.split(',')
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
                .collect()
        }))
    }

    fn trailing(&mut self) -> Vec<String> {
        std::mem::take(&mut self.trailing)
    }

    fn finish(self) -> Result<()> {
        match self.args.first() {
            None => Ok(()),
            Some(a) => bail!("unexpected argument `{a}`\n{USAGE}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Flags;

    fn flags(args: &[&str]) -> Flags {
        Flags::new(&args.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn flags_take_values_in_both_spellings_and_refuse_leftovers() {
        let mut f = flags(&[
            "--only",
            "wasm,js",
            "--port=9000",
            "--skip-lint",
            "--",
            "--fault-rate",
            "0.1",
        ]);
        assert!(f.switch("--skip-lint"));
        assert_eq!(
            f.list("--only").ok().flatten(),
            Some(vec!["wasm".to_string(), "js".to_string()])
        );
        assert_eq!(f.number::<u16>("--port").ok().flatten(), Some(9000));
        assert_eq!(
            f.trailing(),
            vec!["--fault-rate".to_string(), "0.1".to_string()]
        );
        assert!(f.finish().is_ok());
        assert!(flags(&["--bogus"]).finish().is_err());
        assert!(flags(&["--port"]).value("--port").is_err());
    }
}
