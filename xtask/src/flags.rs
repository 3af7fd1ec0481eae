//! The flag parser of `cargo xtask` and `cargo lab`: each accessor removes what it recognises, and
//! `finish` refuses leftovers.

use anyhow::{bail, Context, Result};

pub struct Flags {
    args: Vec<String>,
    trailing: Vec<String>,
    /// Printed after an unexpected argument.
    usage: &'static str,
}

impl Flags {
    pub fn new(args: &[String], usage: &'static str) -> Self {
        let split = args.iter().position(|a| a == "--").unwrap_or(args.len());
        Flags {
            args: args[..split].to_vec(),
            trailing: args.get(split + 1..).unwrap_or_default().to_vec(),
            usage,
        }
    }

    pub fn switch(&mut self, name: &str) -> bool {
        let before = self.args.len();
        self.args.retain(|a| a != name);
        self.args.len() != before
    }

    pub fn value(&mut self, name: &str) -> Result<Option<String>> {
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

    pub fn number<T: std::str::FromStr>(&mut self, name: &str) -> Result<Option<T>> {
        self.value(name)?
            .map(|v| {
                v.parse::<T>()
                    .ok()
                    .with_context(|| format!("{name}: `{v}` is not a number"))
            })
            .transpose()
    }

    pub fn list(&mut self, name: &str) -> Result<Option<Vec<String>>> {
        Ok(self.value(name)?.map(|v| {
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
        match self.args.first() {
            None => Ok(()),
            Some(a) => bail!("unexpected argument `{a}`\n{}", self.usage),
        }
    }
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
        assert!(flags(&["--port"]).value("--port").is_err());
    }
}
