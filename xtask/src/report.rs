//! Counting tests from the standard runners' closing lines (cargo's harness, wasm-bindgen's,
//! `node --test`), and the summary table that `cargo xtask test` ends with.

use std::time::Duration;

#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct Counts {
    pub passed: u64,
    pub failed: u64,
}

impl Counts {
    /// A failure, or `files` test files of which no test ran, is an error of the stage `what`.
    pub fn check(self, what: &str, files: usize) -> anyhow::Result<()> {
        if self.failed > 0 {
            anyhow::bail!("{} {what} test(s) failed", self.failed);
        }
        if files > 0 && self.passed == 0 {
            anyhow::bail!("{files} {what} test file(s) but zero tests ran");
        }
        Ok(())
    }
}

impl std::ops::AddAssign for Counts {
    fn add_assign(&mut self, other: Counts) {
        self.passed += other.passed;
        self.failed += other.failed;
    }
}

/// The sum of every `test result: ok. 3 passed; 0 failed; …` line of a `cargo test` output
/// (cargo's harness and wasm-bindgen-test-runner print one a test binary); None without one.
pub fn cargo_counts(output: &str) -> Option<Counts> {
    let mut total: Option<Counts> = None;
    let results = output
        .lines()
        .filter_map(|l| l.trim().strip_prefix("test result:"));
    for result in results {
        let count = |word: &str| -> Option<u64> {
            let part = result
                .split(';')
                .find_map(|p| p.trim().strip_suffix(word))?;
            part.rsplit(' ').next()?.parse().ok()
        };
        if let (Some(passed), Some(failed)) = (count(" passed"), count(" failed")) {
            *total.get_or_insert_default() += Counts { passed, failed };
        }
    }
    total
}

/// Node's spec reporter closes with `ℹ pass N`, `ℹ fail N` and `ℹ cancelled N` (the TAP
/// reporter's `#` lines are lost to a file when `--test-force-exit` ends the run); cancelled
/// counts as failed.
pub fn node_counts(output: &str) -> Option<Counts> {
    let field = |name: &str| {
        output.lines().rev().find_map(|line| {
            line.trim()
                .strip_prefix('ℹ')?
                .trim()
                .strip_prefix(name)?
                .trim()
                .parse::<u64>()
                .ok()
        })
    };
    Some(Counts {
        passed: field("pass ")?,
        failed: field("fail ")? + field("cancelled ").unwrap_or(0),
    })
}

pub struct StageRecord {
    pub name: &'static str,
    pub took: Duration,
    pub outcome: Result<(), String>,
}

#[derive(Default)]
pub struct Summary {
    /// The tests of each environment (`native protocol`, `wasm chromium`, `js node`...), in the
    /// order they ran.
    counts: Vec<(&'static str, Counts)>,
    pub stages: Vec<StageRecord>,
}

impl Summary {
    pub fn add(&mut self, env: &'static str, counts: Counts) {
        match self.counts.iter_mut().find(|(e, _)| *e == env) {
            Some((_, total)) => *total += counts,
            None => self.counts.push((env, counts)),
        }
    }

    pub fn totals(&self) -> Counts {
        let mut total = Counts::default();
        self.counts.iter().for_each(|(_, counts)| total += *counts);
        total
    }

    pub fn ok(&self) -> bool {
        self.stages.iter().all(|s| s.outcome.is_ok()) && self.totals().failed == 0
    }

    /// The stage table, the environment table, then the plain closing line.
    pub fn print(&self) {
        println!("\n==== summary ====");
        println!("{:<12} {:>9}  result", "stage", "time");
        for stage in &self.stages {
            let result = match &stage.outcome {
                Ok(()) => "ok".to_string(),
                Err(e) => format!("FAILED: {}", e.lines().next().unwrap_or_default()),
            };
            println!(
                "{:<12} {:>8.1}s  {result}",
                stage.name,
                stage.took.as_secs_f64()
            );
        }
        println!("\n{:<30} {:>7} {:>7}", "environment", "passed", "failed");
        for (env, c) in &self.counts {
            println!("{env:<30} {:>7} {:>7}", c.passed, c.failed);
        }
        let total = self.totals();
        println!("\n{} passed, {} failed", total.passed, total.failed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ran(passed: u64, failed: u64) -> Counts {
        Counts { passed, failed }
    }

    #[test]
    fn sums_every_binary_of_a_cargo_run() {
        let output = "\
     Running tests/node_api.rs (target/wasm32-unknown-unknown/debug/deps/node_api-3.wasm)
test result: FAILED. 4 passed; 1 failed; 0 ignored; 0 filtered out; finished in 3.00s
   Doc-tests tunesmith
test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.10s
";
        assert_eq!(cargo_counts(output), Some(ran(6, 1)));
        assert_eq!(cargo_counts("error: could not compile `tunesmith`"), None);
    }

    #[test]
    fn a_failure_or_test_files_that_ran_nothing_fail_the_stage() {
        assert!(ran(2, 0).check("js", 1).is_ok());
        assert!(ran(0, 0).check("js", 0).is_ok());
        assert!(ran(2, 1).check("js", 1).is_err());
        let none = ran(0, 0)
            .check("wasm chromium", 2)
            .err()
            .map(|e| e.to_string());
        assert_eq!(
            none.as_deref(),
            Some("2 wasm chromium test file(s) but zero tests ran")
        );
    }

    #[test]
    fn reads_node_test_totals() {
        let spec = "✔ a (1ms)\n✖ b (2ms)\nℹ tests 3\nℹ suites 0\nℹ pass 2\nℹ fail 1\nℹ cancelled 0\nℹ skipped 0\n";
        assert_eq!(node_counts(spec), Some(ran(2, 1)));
        assert_eq!(node_counts("no totals here"), None);
    }

    #[test]
    fn summary_totals_every_environment_in_the_order_they_ran() {
        let mut summary = Summary::default();
        summary.add("wasm node", ran(2, 0));
        summary.add("js node", ran(4, 0));
        summary.add("wasm node", ran(1, 1));
        assert_eq!(
            summary.counts,
            [("wasm node", ran(3, 1)), ("js node", ran(4, 0))]
        );
        assert_eq!(summary.totals(), ran(7, 1));
        assert!(!summary.ok());
    }
}
