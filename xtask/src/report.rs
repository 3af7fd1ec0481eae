//! Reading test runners' closing lines, and the summary table that `cargo xtask test` ends with.

use std::time::Duration;

#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct Counts {
    pub passed: u64,
    pub failed: u64,
}

impl Counts {
    pub fn total(self) -> u64 {
        self.passed + self.failed
    }

    /// A failure, or `files` test files of which no test ran, is an error of the stage `what`.
    pub fn check(self, what: &str, files: usize) -> anyhow::Result<()> {
        if self.failed > 0 {
            anyhow::bail!("{} {what} test(s) failed", self.failed);
        }
        if files > 0 && self.total() == 0 {
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

/// The number right before `word` in `text` ("3 passed" → 3).
fn number_before(text: &str, word: &str) -> Option<u64> {
    let mut previous: Option<&str> = None;
    for token in text.split(|c: char| c.is_whitespace() || c == ';' || c == ',') {
        if token == word {
            return previous?.parse().ok();
        }
        if !token.is_empty() {
            previous = Some(token);
        }
    }
    None
}

/// `test result: ok. 3 passed; 0 failed; ...` (cargo's harness and wasm-bindgen-test-runner).
pub fn parse_test_result(line: &str) -> Option<Counts> {
    let rest = line.trim().strip_prefix("test result:")?;
    Some(Counts {
        passed: number_before(rest, "passed")?,
        failed: number_before(rest, "failed")?,
    })
}

/// One test binary's results, named by what cargo said it was running
/// (`tests/node_api.rs`, `unittests src/lib.rs`, `Doc-tests tunesmith`).
#[derive(Debug, PartialEq, Eq)]
pub struct Suite {
    pub name: String,
    pub counts: Counts,
}

/// Every `test result` line of a `cargo test` output (stdout and stderr merged), attributed to
/// the `Running ...` or `Doc-tests ...` line before it.
pub fn parse_cargo_test(output: &str) -> Vec<Suite> {
    let mut suites = Vec::new();
    let mut current = String::new();
    for line in output.lines() {
        let trimmed = line.trim();
        // `Running tests/node_api.rs (target/.../node_api-0123.wasm)`; the parenthesis tells
        // cargo's line from a test's own output that happens to start with "Running".
        if let Some((name, _)) = trimmed
            .strip_prefix("Running ")
            .filter(|r| r.ends_with(')'))
            .and_then(|r| r.split_once(" ("))
        {
            current = name.trim().to_string();
        } else if trimmed.starts_with("Doc-tests ") {
            current = trimmed.to_string();
        } else if let Some(counts) = parse_test_result(trimmed) {
            suites.push(Suite {
                name: std::mem::take(&mut current),
                counts,
            });
        }
    }
    suites
}

/// Node's spec reporter closes with `ℹ pass N`, `ℹ fail N` and `ℹ cancelled N` (the TAP
/// reporter's `#` lines are lost to a file when `--test-force-exit` ends the run); cancelled
/// counts as failed.
pub fn parse_node_test(output: &str) -> Option<Counts> {
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

/// Where tests run; the summary has one row for each, in this order.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Env {
    NativeProtocol,
    NativeEmulator,
    NativeXtask,
    NativeLab,
    WasmNode,
    WasmChromium,
    JsNode,
    E2eChromium,
    Deploy,
    BenchSmoke,
}

impl Env {
    pub const ALL: [Env; 10] = [
        Env::NativeProtocol,
        Env::NativeEmulator,
        Env::NativeXtask,
        Env::NativeLab,
        Env::WasmNode,
        Env::WasmChromium,
        Env::JsNode,
        Env::E2eChromium,
        Env::Deploy,
        Env::BenchSmoke,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Env::NativeProtocol => "native protocol",
            Env::NativeEmulator => "native emulator",
            Env::NativeXtask => "native xtask",
            Env::NativeLab => "native lab",
            Env::WasmNode => "wasm node",
            Env::WasmChromium => "wasm chromium",
            Env::JsNode => "js node",
            Env::E2eChromium => "e2e chromium",
            Env::Deploy => "deploy runtimes",
            Env::BenchSmoke => "bench smoke",
        }
    }
}

pub struct StageRecord {
    pub name: &'static str,
    pub took: Duration,
    pub outcome: Result<(), String>,
}

#[derive(Default)]
pub struct Summary {
    counts: Vec<(Env, Counts)>,
    pub stages: Vec<StageRecord>,
}

impl Summary {
    pub fn add(&mut self, env: Env, counts: Counts) {
        match self.counts.iter_mut().find(|(e, _)| *e == env) {
            Some((_, total)) => *total += counts,
            None => self.counts.push((env, counts)),
        }
    }

    pub fn get(&self, env: Env) -> Option<Counts> {
        self.counts.iter().find(|(e, _)| *e == env).map(|(_, c)| *c)
    }

    pub fn totals(&self) -> Counts {
        let mut total = Counts::default();
        for (_, counts) in &self.counts {
            total += *counts;
        }
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
        println!("\n{:<16} {:>7} {:>7}", "environment", "passed", "failed");
        for env in Env::ALL {
            match self.get(env) {
                Some(c) => println!("{:<16} {:>7} {:>7}", env.label(), c.passed, c.failed),
                None => println!("{:<16} {:>7} {:>7}", env.label(), "-", "-"),
            }
        }
        let total = self.totals();
        println!();
        println!("{} passed, {} failed", total.passed, total.failed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_cargo_and_wasm_runner_result_lines() {
        assert_eq!(
            parse_test_result("test result: ok. 12 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.01s"),
            Some(Counts { passed: 12, failed: 0 })
        );
        assert_eq!(
            parse_test_result("test result: FAILED. 3 passed; 2 failed; 0 ignored; 0 filtered out; finished in 4.20s"),
            Some(Counts { passed: 3, failed: 2 })
        );
        assert_eq!(parse_test_result("test foo ... ok"), None);
    }

    #[test]
    fn attributes_results_to_the_binary_that_ran_them() {
        let output = "\
   Compiling tunesmith v0.1.0
     Running unittests src/lib.rs (target/wasm32-unknown-unknown/debug/deps/tunesmith-1.wasm)
running 0 tests
test result: ok. 0 passed; 0 failed; 0 ignored; 0 filtered out; finished in 0.00s

     Running tests/browser_api.rs (target/wasm32-unknown-unknown/debug/deps/browser_api-2.wasm)
Running headless chrome
test result: FAILED. 4 passed; 1 failed; 0 ignored; 0 filtered out; finished in 3.00s

     Running tests/node_api.rs (target/wasm32-unknown-unknown/debug/deps/node_api-3.wasm)
test result: ok. 7 passed; 0 failed; 0 ignored; 0 filtered out; finished in 1.00s
   Doc-tests tunesmith
test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.10s
";
        let suites = parse_cargo_test(output);
        let names: Vec<&str> = suites.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "unittests src/lib.rs",
                "tests/browser_api.rs",
                "tests/node_api.rs",
                "Doc-tests tunesmith"
            ]
        );
        assert_eq!(
            suites[1].counts,
            Counts {
                passed: 4,
                failed: 1
            }
        );
        assert_eq!(
            suites[2].counts,
            Counts {
                passed: 7,
                failed: 0
            }
        );
    }

    #[test]
    fn reads_node_test_totals() {
        let spec = "✔ a (1ms)\n✖ b (2ms)\nℹ tests 3\nℹ suites 0\nℹ pass 2\nℹ fail 1\nℹ cancelled 0\nℹ skipped 0\n";
        assert_eq!(
            parse_node_test(spec),
            Some(Counts {
                passed: 2,
                failed: 1
            })
        );
        assert_eq!(parse_node_test("no totals here"), None);
    }

    #[test]
    fn summary_totals_every_environment() {
        let mut summary = Summary::default();
        summary.add(
            Env::WasmNode,
            Counts {
                passed: 2,
                failed: 0,
            },
        );
        summary.add(
            Env::WasmNode,
            Counts {
                passed: 1,
                failed: 1,
            },
        );
        summary.add(
            Env::JsNode,
            Counts {
                passed: 4,
                failed: 0,
            },
        );
        assert_eq!(
            summary.get(Env::WasmNode),
            Some(Counts {
                passed: 3,
                failed: 1
            })
        );
        assert_eq!(
            summary.totals(),
            Counts {
                passed: 7,
                failed: 1
            }
        );
        assert!(!summary.ok());
    }
}
