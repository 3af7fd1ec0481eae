//! The emulator under load: requests per second and p99 of a task's status query beside the
//! cheapest authenticated route of the same server (wrk), and the memory of 10,000 tasks in flight.

use super::{start, verdict, BENCH_KEY};
use crate::{http, toolchain, wrk};
use anyhow::{bail, Context, Result};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

// The targets of the emulator: throughput and memory.
const TARGET_REQUESTS_PER_SEC: f64 = 20_000.0;
const TARGET_P99_MS: f64 = 5.0;
const TARGET_RSS_MB: f64 = 200.0;
const TASKS_IN_FLIGHT: u64 = 10_000;
const CREATORS: u64 = 32;
/// The cheapest authenticated JSON route of the same server: same auth, envelope and middleware,
/// so the ratio isolates what record-info itself costs (task lookup, record with its tracks).
const BASELINE_PATH: &str = "/api/v1/generate/credit";

fn auth_header() -> String {
    format!("Bearer {BENCH_KEY}")
}

/// POST /api/v1/generate → data.taskId.
fn create_task(music: &str, prompt: &str) -> Result<String> {
    let body = serde_json::json!({
        "customMode": false,
        "instrumental": true,
        "model": "V6",
        "callBackUrl": "http://127.0.0.1:9/cb",
        "prompt": prompt,
    })
    .to_string();
    let auth = auth_header();
    let headers = [
        ("Authorization", auth.as_str()),
        ("Content-Type", "application/json"),
    ];
    let response = http::request(music, "POST", "/api/v1/generate", &headers, Some(&body))?;
    let json: serde_json::Value = serde_json::from_str(&response.body).with_context(|| {
        format!(
            "generate answered {} with a body that is not JSON: {}",
            response.status, response.body
        )
    })?;
    match json["data"]["taskId"].as_str() {
        Some(id) if json["code"] == 200 => Ok(id.to_string()),
        _ => bail!("generate answered {}: {}", response.status, response.body),
    }
}

/// GET `path` once and require envelope code 200, so wrk measures real answers, not errors.
fn check_route(music: &str, path: &str) -> Result<serde_json::Value> {
    let auth = auth_header();
    let response = http::request(
        music,
        "GET",
        path,
        &[("Authorization", auth.as_str())],
        None,
    )?;
    let json: serde_json::Value = serde_json::from_str(&response.body).unwrap_or_default();
    if response.status != 200 || json["code"] != 200 {
        bail!("GET {path} answered {}: {}", response.status, response.body);
    }
    Ok(json)
}

pub(super) fn throughput(bin: &std::path::Path, seconds: u32) -> Result<()> {
    toolchain::wrk()?;
    let emulator = start(bin, "50", Vec::new())?;
    let task = create_task(&emulator.music, "bench")?;
    let record_path = format!("/api/v1/generate/record-info?taskId={task}");
    // Benchmark the finished record (both tracks): what a poller reads most.
    let deadline = Instant::now() + Duration::from_secs(15);
    let mut status = String::new();
    while Instant::now() < deadline {
        let record = check_route(&emulator.music, &record_path)?;
        status = record["data"]["status"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        if status == "SUCCESS" {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    println!("task {task}: {status}");
    check_route(&emulator.music, BASELINE_PATH)?;

    let header = format!("Authorization: {}", auth_header());
    let measure = |path: &str| {
        wrk::run(&wrk::Load {
            url: &format!("{}{path}", emulator.music),
            header: Some(&header),
            threads: 2,
            connections: 64,
            seconds,
        })
    };
    let subject = measure(&record_path)?;
    let baseline = measure(BASELINE_PATH)?;

    let ms = |v: Option<f64>| {
        v.map(|v| format!("{v:.2} ms"))
            .unwrap_or_else(|| "-".into())
    };
    println!("\nwrk -t2 -c64 -d{seconds}s on loopback, same emulator process");
    println!(
        "{:<42} {:>12} {:>10} {:>10} {:>8}",
        "route", "req/s", "p50", "p99", "errors"
    );
    for (name, r) in [
        ("GET generate/record-info", &subject),
        (&*format!("GET {BASELINE_PATH} (baseline)"), &baseline),
    ] {
        println!(
            "{:<42} {:>12.0} {:>10} {:>10} {:>8}",
            name,
            r.requests_per_sec,
            ms(r.p50_ms),
            ms(r.p99_ms),
            r.non_2xx + r.socket_errors
        );
    }
    let ratio = |a: f64, b: f64| {
        if b > 0.0 {
            format!("{:.2}x", a / b)
        } else {
            "-".into()
        }
    };
    let p99_ratio = match (subject.p99_ms, baseline.p99_ms) {
        (Some(a), Some(b)) => ratio(a, b),
        _ => "-".into(),
    };
    println!(
        "{:<42} {:>12} {:>10} {:>10}",
        "record-info / baseline",
        ratio(subject.requests_per_sec, baseline.requests_per_sec),
        "",
        p99_ratio
    );
    println!(
        "target: >= {TARGET_REQUESTS_PER_SEC:.0} req/s: {}   p99 <= {TARGET_P99_MS} ms: {}",
        verdict(subject.requests_per_sec >= TARGET_REQUESTS_PER_SEC),
        verdict(subject.p99_ms.is_some_and(|p| p <= TARGET_P99_MS))
    );
    if subject.non_2xx + subject.socket_errors > 0 {
        println!(
            "note: {} error answers or socket errors during the record-info run",
            subject.non_2xx + subject.socket_errors
        );
    }
    Ok(())
}

/// VmRSS of a process, in bytes.
fn rss_bytes(pid: u32) -> Result<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"))?;
    parse_vm_rss(&status).context("no VmRSS in /proc/<pid>/status")
}

fn parse_vm_rss(status: &str) -> Option<u64> {
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

pub(super) fn memory(bin: &std::path::Path) -> Result<()> {
    // Stages an hour apart: every task stays in flight while we measure.
    let emulator = start(bin, "3600000", Vec::new())?;
    std::thread::sleep(Duration::from_millis(500));
    let before = rss_bytes(emulator.server.pid())?;
    let started = Instant::now();
    let next = AtomicU64::new(0);
    let failures = AtomicU64::new(0);
    let first_error = std::sync::Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..CREATORS {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= TASKS_IN_FLIGHT {
                    break;
                }
                if let Err(e) = create_task(&emulator.music, &format!("bench task {i}")) {
                    failures.fetch_add(1, Ordering::Relaxed);
                    if let Ok(mut first) = first_error.lock() {
                        first.get_or_insert(format!("{e:#}"));
                    }
                }
            });
        }
    });
    let took = started.elapsed();
    let after = rss_bytes(emulator.server.pid())?;
    let failures = failures.into_inner();
    let created = TASKS_IN_FLIGHT - failures;
    let mb = |b: u64| b as f64 / 1e6;
    println!(
        "created {created} tasks in {:.1}s ({:.0}/s, {CREATORS} at a time)",
        took.as_secs_f64(),
        created as f64 / took.as_secs_f64()
    );
    println!("{:<28} {:>10}", "emulator VmRSS", "MB");
    println!("{:<28} {:>10.1}", "idle (baseline)", mb(before));
    println!(
        "{:<28} {:>10.1}",
        format!("{created} tasks in flight"),
        mb(after)
    );
    println!(
        "{:<28} {:>10.2}x",
        "loaded / idle",
        after as f64 / before.max(1) as f64
    );
    if created > 0 {
        println!(
            "{:<28} {:>10.0}",
            "bytes per task",
            after.saturating_sub(before) as f64 / created as f64
        );
    }
    println!(
        "target: <= {TARGET_RSS_MB} MB with {TASKS_IN_FLIGHT} tasks: {}",
        verdict(failures == 0 && mb(after) <= TARGET_RSS_MB)
    );
    if failures > 0 {
        let first = first_error.into_inner().ok().flatten().unwrap_or_default();
        bail!("{failures} task creations failed; the first: {first}");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::parse_vm_rss;

    #[test]
    fn reads_resident_memory_in_bytes() {
        let status =
            "Name:\ttunesmith-emul\nVmPeak:\t  900000 kB\nVmRSS:\t   20480 kB\nRssAnon:\t 1 kB\n";
        assert_eq!(parse_vm_rss(status), Some(20480 * 1024));
        assert_eq!(parse_vm_rss("Name:\tx\n"), None);
    }
}
