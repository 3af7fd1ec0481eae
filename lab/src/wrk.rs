//! Running wrk (a load generator that is not our code) and reading its report.

use crate::proc::{self, run_tee};
use anyhow::{bail, Context, Result};
use std::process::Command;

#[derive(Debug, Default, PartialEq)]
pub struct Report {
    pub requests: u64,
    pub requests_per_sec: f64,
    pub p50_ms: Option<f64>,
    pub p99_ms: Option<f64>,
    /// Responses outside 2xx/3xx: a benchmark of error answers measures the wrong thing.
    pub non_2xx: u64,
    pub socket_errors: u64,
}

pub struct Load<'a> {
    pub url: &'a str,
    pub header: Option<&'a str>,
    pub threads: u32,
    pub connections: u32,
    pub seconds: u32,
}

pub fn run(load: &Load) -> Result<Report> {
    let mut cmd = Command::new(proc::which("wrk").context("wrk is not installed")?);
    cmd.arg(format!("-t{}", load.threads))
        .arg(format!("-c{}", load.connections))
        .arg(format!("-d{}s", load.seconds))
        .arg("--latency");
    if let Some(header) = load.header {
        cmd.args(["-H", header]);
    }
    cmd.arg(load.url);
    let (status, output) = run_tee(cmd)?;
    if !status.success() {
        bail!("wrk failed ({status})");
    }
    parse(&output)
}

/// wrk's text report (with `--latency`).
pub fn parse(output: &str) -> Result<Report> {
    let mut report = Report::default();
    let mut seen_rate = false;
    for line in output.lines().map(str::trim) {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["Requests/sec:", rate] => {
                report.requests_per_sec = rate.parse().context("bad Requests/sec")?;
                seen_rate = true;
            }
            ["50%", value] => report.p50_ms = Some(duration_ms(value)?),
            ["99%", value] => report.p99_ms = Some(duration_ms(value)?),
            [count, "requests", "in", ..] => report.requests = count.parse().unwrap_or(0),
            ["Non-2xx", "or", "3xx", "responses:", count] => {
                report.non_2xx = count.parse().unwrap_or(0)
            }
            ["Socket", "errors:", rest @ ..] => {
                report.socket_errors = rest
                    .iter()
                    .filter_map(|w| w.trim_end_matches(',').parse::<u64>().ok())
                    .sum();
            }
            _ => {}
        }
    }
    if !seen_rate {
        bail!("no `Requests/sec:` line in wrk's output");
    }
    Ok(report)
}

/// `812.00us`, `1.23ms`, `2.01s`, `1.50m` → milliseconds.
fn duration_ms(text: &str) -> Result<f64> {
    let split = text
        .find(|c: char| c.is_ascii_alphabetic())
        .with_context(|| format!("no unit in `{text}`"))?;
    let (number, unit) = text.split_at(split);
    let number: f64 = number
        .parse()
        .with_context(|| format!("bad duration `{text}`"))?;
    Ok(match unit {
        "us" => number / 1000.0,
        "ms" => number,
        "s" => number * 1000.0,
        "m" => number * 60_000.0,
        "h" => number * 3_600_000.0,
        _ => bail!("unknown unit in `{text}`"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const OUTPUT: &str = "\
Running 10s test @ http://127.0.0.1:40001/api/v1/generate/record-info?taskId=t1
  2 threads and 64 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     1.52ms  730.41us  21.83ms   87.12%
    Req/Sec    21.41k     1.89k   25.12k    71.00%
  Latency Distribution
     50%    1.38ms
     75%    1.80ms
     90%    2.31ms
     99%  812.00us
  426000 requests in 10.00s, 120.35MB read
  Socket errors: connect 0, read 2, write 0, timeout 1
  Non-2xx or 3xx responses: 7
Requests/sec:  42596.31
Transfer/sec:     12.03MB
";

    #[test]
    fn reads_rate_latency_and_errors() {
        let report = parse(OUTPUT).ok();
        assert_eq!(
            report,
            Some(Report {
                requests: 426_000,
                requests_per_sec: 42596.31,
                p50_ms: Some(1.38),
                p99_ms: Some(0.812),
                non_2xx: 7,
                socket_errors: 3,
            })
        );
    }

    #[test]
    fn converts_every_unit_and_refuses_garbage() {
        assert_eq!(duration_ms("2.00s").ok(), Some(2000.0));
        assert_eq!(duration_ms("1.50m").ok(), Some(90_000.0));
        assert!(duration_ms("12").is_err());
        assert!(parse("wrk: connection refused").is_err());
    }
}
