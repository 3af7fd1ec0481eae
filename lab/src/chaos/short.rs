//! The short version of each chaos probe, as ordinary tests of `cargo test -p lab` (and so of
//! `cargo xtask test`): a few kills, one hostile pass with small bodies, a key scan without the
//! wasm build. The long run is `cargo lab chaos`.

use super::{hostile, kill, secrets, Figures};
use crate::emulator;
use std::path::PathBuf;
use std::sync::OnceLock;

/// The release emulator, built once for all tests of this binary (a no-op when it is fresh).
fn emulator_bin() -> PathBuf {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| emulator::build().expect("the emulator builds"))
        .clone()
}

fn sandbox(what: &str) -> PathBuf {
    emulator::fresh_temp_dir(what).expect("a temporary folder")
}

fn kill_findings() -> &'static kill::Findings {
    static FINDINGS: OnceLock<kill::Findings> = OnceLock::new();
    FINDINGS.get_or_init(|| {
        let dir = sandbox("chaos-short-kill");
        let settings = kill::Settings {
            kills: 3,
            seed: fastrand::u64(..),
            min_ms: 300,
            max_ms: 900,
            max_upload: 16 * 1024,
        };
        let findings = kill::run(&emulator_bin(), &dir, &settings).expect("the kill probe runs");
        let _ = std::fs::remove_dir_all(&dir);
        findings
    })
}

fn hostile_findings() -> &'static hostile::Findings {
    static FINDINGS: OnceLock<hostile::Findings> = OnceLock::new();
    FINDINGS.get_or_init(|| {
        let dir = sandbox("chaos-short-hostile");
        let findings = hostile::run(
            &emulator_bin(),
            &dir,
            &hostile::Settings::short(fastrand::u64(..)),
        )
        .expect("the hostile probe runs");
        let _ = std::fs::remove_dir_all(&dir);
        findings
    })
}

#[test]
fn kill_9_loses_no_acknowledged_upload_or_task_and_delivers_every_due_callback() {
    let f = kill_findings();
    assert_eq!(f.kills, 3);
    assert!(
        f.uploads > 0 && f.tasks > 0,
        "no load: {} uploads, {} tasks",
        f.uploads,
        f.tasks
    );
    assert!(
        f.lost_uploads.is_empty(),
        "lost uploads: {:?}",
        f.lost_uploads
    );
    assert!(f.lost_tasks.is_empty(), "lost tasks: {:?}", f.lost_tasks);
    assert!(
        f.undelivered.is_empty(),
        "never delivered: {:?}",
        f.undelivered
    );
}

#[test]
fn kill_9_keeps_every_callback_recorded_as_delivered_in_the_inbox() {
    let f = kill_findings();
    assert!(
        f.missing.is_empty(),
        "{} of {} missing: {:?}",
        f.missing.len(),
        f.recorded,
        f.missing.iter().next()
    );
}

#[test]
fn hostile_input_crashes_nothing_and_writes_or_reads_nothing_outside_the_data_folder() {
    let f = hostile_findings();
    assert!(f.routes >= 30, "only {} routes probed", f.routes);
    assert!(f.crashes.is_empty(), "crashes: {:?}", f.crashes);
    assert!(
        f.unanswered.is_empty(),
        "GET /credit unanswered after: {:?}",
        f.unanswered
    );
    assert!(
        f.outside.is_empty(),
        "outside the data folder: {:?}",
        f.outside
    );
    assert!(
        f.reads_outside.is_empty(),
        "read from outside: {:?}",
        f.reads_outside
    );
    let bounds = hostile::Settings::short(0);
    assert!(
        f.peak_rss_mb <= bounds.rss_bound_mb,
        "RSS {} MB",
        f.peak_rss_mb
    );
    assert!(
        f.slow_latency_ms <= bounds.latency_bound_ms,
        "GET /credit took {} ms",
        f.slow_latency_ms
    );
}

#[test]
fn hostile_input_cannot_open_the_emulators_own_doors() {
    let f = hostile_findings();
    assert!(f.self_fetches.is_empty(), "{:?}", f.self_fetches);
    assert!(f.admin_unbounded.is_empty(), "{:?}", f.admin_unbounded);
    assert!(
        f.slow_held <= f.slow_opened / 10,
        "{} of {} slow clients held",
        f.slow_held,
        f.slow_opened
    );
}

#[test]
fn the_key_appears_in_nothing_the_emulator_produces() {
    let dir = sandbox("chaos-short-secrets");
    let mut figures = Figures::default();
    let ran = secrets::run(
        &emulator_bin(),
        &dir,
        secrets::Clients::RawOnly,
        &mut figures,
    );
    let _ = std::fs::remove_dir_all(&dir);
    ran.expect("the secrets probe runs");
    let misses: Vec<String> = figures
        .0
        .iter()
        .filter(|f| f.met == Some(false))
        .map(|f| format!("{}: {} ({})", f.name, f.value, f.note))
        .collect();
    assert!(misses.is_empty(), "{misses:?}");
}
