//! The flags of `cargo xtask` and `cargo lab`, read with pico-args (`--name value` or
//! `--name=value`); what follows `--` is passed on untouched, and a flag left unread is an error.

use anyhow::{bail, Result};
use std::ffi::OsString;
use std::process::ExitCode;

/// The `main` of `cargo xtask` and of `cargo lab`: cargo's bin folder first on PATH, then `run`
/// with the command and its flags; `usage` for `help` or no command, an error printed under `name`.
pub fn main(name: &str, usage: &'static str, run: fn(&str, Flags) -> Result<bool>) -> ExitCode {
    crate::toolchain::put_cargo_bin_on_path();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let outcome = match args.split_first() {
        Some((command, rest)) if !matches!(command.as_str(), "help" | "--help" | "-h") => {
            run(command, Flags::new(rest, usage))
        }
        _ => {
            print!("{usage}");
            Ok(!args.is_empty())
        }
    };
    match outcome {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("{name}: error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

pub struct Flags {
    args: pico_args::Arguments,
    trailing: Vec<String>,
    /// Printed after an unexpected argument.
    usage: &'static str,
}

impl Flags {
    pub fn new(args: &[String], usage: &'static str) -> Self {
        let split = args.iter().position(|a| a == "--").unwrap_or(args.len());
        let (own, rest) = args.split_at(split);
        Flags {
            args: pico_args::Arguments::from_vec(own.iter().map(OsString::from).collect()),
            trailing: rest.iter().skip(1).cloned().collect(),
            usage,
        }
    }

    pub fn switch(&mut self, name: &'static str) -> bool {
        self.args.contains(name)
    }

    pub fn number<T: std::str::FromStr>(&mut self, name: &'static str) -> Result<Option<T>>
    where
        T::Err: std::fmt::Display,
    {
        Ok(self.args.opt_value_from_str(name)?)
    }

    /// A comma-separated list (`--only wasm,js`).
    pub fn list(&mut self, name: &'static str) -> Result<Option<Vec<String>>> {
        let list: Option<String> = self.args.opt_value_from_str(name)?;
        Ok(list.map(|v| {
            v.split(',')
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
                .collect()
        }))
    }

    pub fn trailing(&mut self) -> Vec<String> {
        std::mem::take(&mut self.trailing)
    }

    pub fn finish(self) -> Result<()> {
        match self.args.finish().first() {
            None => Ok(()),
            Some(a) => bail!(
                "unexpected argument `{}`\n{}",
                a.to_string_lossy(),
                self.usage
            ),
        }
    }
}

/// The names an `--only` list picks from `all` (`what`: stages, sections), in `all`'s order; all
/// of them without the list, and an unknown name is an error listing the valid ones.
pub fn pick<'a>(all: &[&'a str], only: Option<&[String]>, what: &str) -> Result<Vec<&'a str>> {
    if let Some(bad) = only
        .into_iter()
        .flatten()
        .find(|n| !all.contains(&n.as_str()))
    {
        bail!("unknown {what} `{bad}`; {what}s: {}", all.join(", "));
    }
    let picked = |name: &&str| only.is_none_or(|names| names.iter().any(|n| n == name));
    Ok(all.iter().copied().filter(picked).collect())
}

#[cfg(test)]
mod tests {
    use super::Flags;

    fn flags(args: &[&str]) -> Flags {
        Flags::new(
            &args.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
            "usage",
        )
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
        assert!(flags(&["--port"]).number::<u16>("--port").is_err());
        assert!(flags(&["--port", "x"]).number::<u16>("--port").is_err());
    }
}
