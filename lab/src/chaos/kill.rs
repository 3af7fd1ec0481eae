//! kill -9: the emulator killed at random moments while uploads, task creates and callback
//! deliveries to its own inbox are in flight, restarted on the same data folder each time.
//!
//! What must hold after every restart: each upload answered 200 downloads byte for byte, each
//! task answered 200 answers its record-info, and each callback the emulator had recorded as
//! delivered (its task file on disk says so) is still in the inbox. At the end, every due
//! callback has been delivered at least once.
//! Over 400 lines on purpose: the load, the kill loop and the checks after each restart all read
//! one ledger of what the emulator answered.

use super::net::{self, Reply};
use super::{base64, Figure, Figures};
use crate::emulator::{Emulator, Launch, TEST_KEY};
use anyhow::{bail, Context, Result};
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use tunesmith_protocol::{callback, state, Op};

const TIMEOUT: Duration = Duration::from_secs(5);
const STAGE_DELAY_MS: &str = "150";
/// After the last restart: how long every due callback gets to arrive.
const DRAIN: Duration = Duration::from_secs(30);

pub struct Settings {
    pub kills: u32,
    pub seed: u64,
    /// A kill lands this long after the emulator is ready: at least `min_ms`, below `max_ms`.
    pub min_ms: u64,
    pub max_ms: u64,
    /// Largest upload, in bytes.
    pub max_upload: usize,
}

/// An acknowledged upload: where it downloads, and how to make its bytes again.
#[derive(Clone)]
struct Upload {
    download_url: String,
    seed: u64,
    len: usize,
}

#[derive(Default)]
struct Acked {
    uploads: Vec<Upload>,
    tasks: Vec<String>,
}

/// (inbox name, task id, stage).
type Delivered = BTreeSet<(String, String, String)>;

#[derive(Default)]
pub struct Findings {
    pub kills: u32,
    pub uploads: usize,
    pub tasks: usize,
    pub lost_uploads: BTreeSet<String>,
    pub lost_tasks: BTreeSet<String>,
    /// Distinct callbacks that some task file recorded as delivered at a kill.
    pub recorded: usize,
    /// Of those, the ones missing from the inbox after the restart that followed.
    pub missing: BTreeSet<String>,
    pub due: usize,
    pub undelivered: BTreeSet<String>,
    pub took: Duration,
}

impl Findings {
    pub fn figures(&self, figures: &mut Figures, kills_goal: u32) {
        let s = "kill -9";
        let first = |set: &BTreeSet<String>| set.iter().next().cloned().unwrap_or_default();
        figures.push(Figure::at_least(
            s,
            "kills (SIGKILL, then restart on the same data)",
            self.kills as f64,
            kills_goal as f64,
        ));
        figures.push(Figure::none_of(
            s,
            &format!(
                "uploads acknowledged 200: {}; lost or changed",
                self.uploads
            ),
            self.lost_uploads.len(),
            first(&self.lost_uploads),
        ));
        figures.push(Figure::none_of(
            s,
            &format!(
                "tasks acknowledged: {}; without a record after restart",
                self.tasks
            ),
            self.lost_tasks.len(),
            first(&self.lost_tasks),
        ));
        figures.push(Figure::none_of(
            s,
            &format!(
                "callbacks recorded delivered: {}; missing from the inbox after restart",
                self.recorded
            ),
            self.missing.len(),
            first(&self.missing),
        ));
        figures.push(Figure::none_of(
            s,
            &format!("callbacks due: {}; never delivered", self.due),
            self.undelivered.len(),
            first(&self.undelivered),
        ));
        figures.push(Figure::info(
            s,
            "time",
            format!("{:.0} s", self.took.as_secs_f64()),
        ));
    }
}

struct Harness<'a> {
    bin: &'a Path,
    data: PathBuf,
    music: String,
    upload: String,
    args: Vec<OsString>,
}

impl Harness<'_> {
    fn start(&self) -> Result<Emulator> {
        // The ports of the killed process may take a moment to be free again.
        let mut last = None;
        for _ in 0..20 {
            match Emulator::start(
                self.bin,
                Launch {
                    args: self.args.clone(),
                    echo: false,
                    temp_data_dir: false,
                },
            ) {
                Ok(emulator) => return Ok(emulator),
                Err(e) => last = Some(e),
            }
            std::thread::sleep(Duration::from_millis(250));
        }
        Err(last.unwrap_or_else(|| anyhow::anyhow!("the emulator did not start")))
    }
}

pub fn run(bin: &Path, sandbox: &Path, settings: &Settings) -> Result<Findings> {
    let started = Instant::now();
    let data = sandbox.join("data");
    std::fs::create_dir_all(&data)?;
    let (music_port, upload_port) = (net::free_port()?, net::free_port()?);
    let music = format!("http://127.0.0.1:{music_port}");
    let upload = format!("http://127.0.0.1:{upload_port}");
    let args: Vec<OsString> = [
        "--music-addr",
        &format!("127.0.0.1:{music_port}"),
        "--upload-addr",
        &format!("127.0.0.1:{upload_port}"),
        "--data-dir",
        &data.to_string_lossy(),
        "--stage-delay-ms",
        STAGE_DELAY_MS,
        "--rate-limit",
        "0",
        "--credits",
        "100000000",
        "--callback-timeout-ms",
        "2000",
        "--callback-retry-delay-ms",
        "100",
        "--api-key",
        TEST_KEY,
    ]
    .iter()
    .map(OsString::from)
    .collect();
    let harness = Harness {
        bin,
        data: data.clone(),
        music,
        upload,
        args,
    };
    let mut rng = fastrand::Rng::with_seed(settings.seed);
    let mut findings = Findings::default();
    let mut all = Acked::default();
    let mut seen = Delivered::new();
    let mut recorded_ever = Delivered::new();
    let counter = AtomicU64::new(0);
    let mut emulator = harness.start()?;
    for cycle in 0..settings.kills {
        let acked = Mutex::new(Acked::default());
        let stop = AtomicBool::new(false);
        let wait = Duration::from_millis(
            rng.u64(settings.min_ms..settings.max_ms.max(settings.min_ms + 1)),
        );
        let load = Load {
            harness: &harness,
            cycle,
            acked: &acked,
            stop: &stop,
            counter: &counter,
            seed: settings.seed,
            max_upload: settings.max_upload,
        };
        std::thread::scope(|scope| -> Result<()> {
            let load = &load;
            scope.spawn(move || load.stream_uploads());
            scope.spawn(move || load.base64_uploads());
            scope.spawn(move || load.creates());
            scope.spawn(move || load.creates());
            std::thread::sleep(wait);
            let killed = kill_hard(&mut emulator);
            stop.store(true, Ordering::SeqCst);
            killed
        })?;
        findings.kills += 1;
        // What the emulator had recorded as delivered when it died.
        let recorded = recorded_deliveries(&harness.data)?;
        emulator = harness.start()?;
        let acked = acked.into_inner().unwrap_or_default();
        check_uploads(&acked.uploads, &mut findings.lost_uploads);
        check_tasks(&harness.music, &acked.tasks, &mut findings.lost_tasks);
        let inbox = list_inboxes(&harness.music, &recorded)?;
        for item in &recorded {
            if !inbox.contains(item) {
                findings
                    .missing
                    .insert(format!("{} {} ({})", item.1, item.2, item.0));
            }
        }
        seen.extend(inbox);
        recorded_ever.extend(recorded);
        all.uploads.extend(acked.uploads);
        all.tasks.extend(acked.tasks);
        print!(
            "\rkill -9: {}/{} kills, {} uploads and {} tasks acknowledged, {} callbacks recorded delivered   ",
            cycle + 1,
            settings.kills,
            all.uploads.len(),
            all.tasks.len(),
            recorded_ever.len()
        );
        let _ = std::io::Write::flush(&mut std::io::stdout());
    }
    println!();

    // Last: let every due callback arrive, then check everything once more.
    let deadline = Instant::now() + DRAIN;
    let mut files = task_files(&harness.data)?;
    while Instant::now() < deadline && files.values().any(TaskFile::pending) {
        std::thread::sleep(Duration::from_millis(250));
        files = task_files(&harness.data)?;
    }
    let names: BTreeSet<String> = files.values().filter_map(|t| t.inbox.clone()).collect();
    for name in &names {
        seen.extend(list_inbox(&harness.music, name)?);
    }
    for (id, file) in &files {
        let Some(name) = &file.inbox else { continue };
        for (phase, stage) in file.stages.iter().enumerate() {
            findings.due += 1;
            let recorded = phase < file.next;
            if !recorded && !seen.contains(&(name.clone(), id.clone(), stage.clone())) {
                findings.undelivered.insert(format!("{id} {stage}"));
            }
        }
    }
    check_uploads(&all.uploads, &mut findings.lost_uploads);
    check_tasks(&harness.music, &all.tasks, &mut findings.lost_tasks);
    drop(emulator);
    findings.uploads = all.uploads.len();
    findings.tasks = all.tasks.len();
    findings.recorded = recorded_ever.len();
    findings.took = started.elapsed();
    Ok(findings)
}

fn kill_hard(emulator: &mut Emulator) -> Result<()> {
    crate::signal::send(emulator.server.pid(), libc::SIGKILL);
    let deadline = Instant::now() + Duration::from_secs(10);
    while emulator.server.exited().is_none() {
        if Instant::now() > deadline {
            bail!("the emulator did not die of SIGKILL within 10 s");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    Ok(())
}

/// The bytes of upload `seed`: made again for the comparison instead of kept in memory.
fn content(seed: u64, len: usize) -> Vec<u8> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut bytes = vec![0u8; len];
    rng.fill(&mut bytes);
    bytes
}

struct Load<'a> {
    harness: &'a Harness<'a>,
    cycle: u32,
    acked: &'a Mutex<Acked>,
    stop: &'a AtomicBool,
    counter: &'a AtomicU64,
    seed: u64,
    max_upload: usize,
}

impl Load<'_> {
    fn next(&self) -> (u64, usize) {
        let n = self.counter.fetch_add(1, Ordering::SeqCst);
        let seed = self.seed.wrapping_mul(1_000_003).wrapping_add(n);
        let len = 1 + fastrand::Rng::with_seed(seed ^ 0x5eed).usize(..self.max_upload);
        (n, len)
    }

    fn running(&self) -> bool {
        !self.stop.load(Ordering::SeqCst)
    }

    fn record_upload(&self, reply: Result<Reply>, seed: u64, len: usize) {
        let Ok(reply) = reply else { return };
        let json = reply.json();
        if reply.status != 200 || json["success"] != true {
            return;
        }
        if let (Some(url), Ok(mut acked)) =
            (json["data"]["downloadUrl"].as_str(), self.acked.lock())
        {
            acked.uploads.push(Upload {
                download_url: url.to_string(),
                seed,
                len,
            });
        }
    }

    fn stream_uploads(&self) {
        let path = Op::UploadStream.path("suno");
        while self.running() {
            let (n, len) = self.next();
            let seed = self.seed.wrapping_mul(1_000_003).wrapping_add(n);
            let bytes = content(seed, len);
            let dir = format!("chaos/c{}", self.cycle);
            let name = format!("s{n}.bin");
            let (ty, body) = net::multipart(
                &[("uploadPath", &dir), ("fileName", &name)],
                "file",
                &name,
                &bytes,
            );
            let auth = format!("Bearer {TEST_KEY}");
            let reply = net::request(
                &self.harness.upload,
                "POST",
                &path,
                &[("Authorization", &auth), ("Content-Type", &ty)],
                &body,
                TIMEOUT,
            );
            self.record_upload(reply, seed, len);
        }
    }

    fn base64_uploads(&self) {
        let path = Op::UploadBase64.path("suno");
        while self.running() {
            let (n, len) = self.next();
            let seed = self.seed.wrapping_mul(1_000_003).wrapping_add(n);
            let bytes = content(seed, len);
            let data = if n % 2 == 0 {
                base64(&bytes)
            } else {
                format!("data:application/octet-stream;base64,{}", base64(&bytes))
            };
            let body = json!({
                "base64Data": data,
                "uploadPath": format!("chaos/c{}", self.cycle),
                "fileName": format!("b{n}.bin"),
            });
            let reply = net::json(
                &self.harness.upload,
                "POST",
                &path,
                TEST_KEY,
                Some(&body),
                TIMEOUT,
            );
            self.record_upload(reply, seed, len);
        }
    }

    fn creates(&self) {
        let path = Op::Generate.path("suno");
        while self.running() {
            let (n, _) = self.next();
            let body = json!({
                "customMode": false,
                "instrumental": true,
                "model": "V6",
                "prompt": format!("chaos kill {n}"),
                "callBackUrl": format!("{}/inbox/c{}", self.harness.music, self.cycle),
            });
            let Ok(reply) = net::json(
                &self.harness.music,
                "POST",
                &path,
                TEST_KEY,
                Some(&body),
                TIMEOUT,
            ) else {
                continue;
            };
            let json = reply.json();
            if let (200, Some(id)) = (reply.code(), json["data"]["taskId"].as_str()) {
                if let Ok(mut acked) = self.acked.lock() {
                    acked.tasks.push(id.to_string());
                }
            }
        }
    }
}

fn check_uploads(uploads: &[Upload], lost: &mut BTreeSet<String>) {
    for upload in uploads {
        let reply = url_parts(&upload.download_url)
            .and_then(|(base, path)| net::request(&base, "GET", &path, &[], b"", TIMEOUT));
        let ok = matches!(&reply, Ok(r) if r.status == 200 && r.body == content(upload.seed, upload.len));
        if !ok {
            lost.insert(upload.download_url.clone());
        }
    }
}

fn check_tasks(music: &str, tasks: &[String], lost: &mut BTreeSet<String>) {
    let path = Op::GetTask.path("suno");
    for id in tasks {
        let reply = net::json(
            music,
            "GET",
            &format!("{path}?taskId={id}"),
            TEST_KEY,
            None,
            TIMEOUT,
        );
        if !matches!(&reply, Ok(r) if r.code() == 200) {
            lost.insert(id.clone());
        }
    }
}

/// `http://h:p/a/b` → (`http://h:p`, `/a/b`).
fn url_parts(url: &str) -> Result<(String, String)> {
    let rest = url.strip_prefix("http://").context("not an http URL")?;
    let slash = rest.find('/').unwrap_or(rest.len());
    Ok((
        format!("http://{}", &rest[..slash]),
        format!("/{}", rest[slash..].trim_start_matches('/')),
    ))
}

/// A task as its file on disk stands: the stage of each phase with a callback, and how many
/// phases delivery has passed.
struct TaskFile {
    inbox: Option<String>,
    stages: Vec<String>,
    next: usize,
    stopped: bool,
}

impl TaskFile {
    fn pending(&self) -> bool {
        self.inbox.is_some() && !self.stopped && self.next < self.stages.len()
    }
}

fn task_files(data: &Path) -> Result<BTreeMap<String, TaskFile>> {
    let mut files = BTreeMap::new();
    let Ok(entries) = std::fs::read_dir(data.join("tasks")) else {
        return Ok(files);
    };
    for entry in entries.flatten() {
        // A file being replaced at the kill may be absent or a leftover: skip what does not parse.
        let Ok(text) = std::fs::read(entry.path()) else {
            continue;
        };
        let Ok(task) = serde_json::from_slice::<Value>(&text) else {
            continue;
        };
        let (Some(id), Some(phases)) = (task["id"].as_str(), task["phases"].as_array()) else {
            continue;
        };
        let inbox = task["callback_url"]
            .as_str()
            .and_then(|u| u.split("/inbox/").nth(1))
            .map(str::to_string);
        // Music calls back at every phase (the only family created here).
        let stages = phases
            .iter()
            .map(|p| {
                state::from_status(p.as_str().unwrap_or_default())
                    .1
                    .as_str()
                    .to_string()
            })
            .collect();
        files.insert(
            id.to_string(),
            TaskFile {
                inbox,
                stages,
                next: task["delivery"]["next"].as_u64().unwrap_or(0) as usize,
                stopped: task["delivery"]["stopped"] == true,
            },
        );
    }
    Ok(files)
}

fn recorded_deliveries(data: &Path) -> Result<Delivered> {
    let mut out = Delivered::new();
    for (id, file) in task_files(data)? {
        let Some(name) = &file.inbox else { continue };
        for stage in file.stages.iter().take(file.next) {
            out.insert((name.clone(), id.clone(), stage.clone()));
        }
    }
    Ok(out)
}

fn list_inboxes(music: &str, wanted: &Delivered) -> Result<Delivered> {
    let names: BTreeSet<&String> = wanted.iter().map(|(name, _, _)| name).collect();
    let mut out = Delivered::new();
    for name in names {
        out.extend(list_inbox(music, name)?);
    }
    Ok(out)
}

/// The callbacks an inbox took (answered 200), classified as the client would.
fn list_inbox(music: &str, name: &str) -> Result<Delivered> {
    let reply = net::request(music, "GET", &format!("/inbox/{name}"), &[], b"", TIMEOUT)?;
    let mut out = Delivered::new();
    for item in reply.json()["items"].as_array().into_iter().flatten() {
        if item["status"] != 200 {
            continue;
        }
        let Some(body) = item["body"].as_object() else {
            continue;
        };
        let data = body.get("data").and_then(Value::as_object);
        let first = data
            .and_then(|d| d.get("data"))
            .and_then(Value::as_array)
            .and_then(|a| a.first())
            .and_then(Value::as_object);
        let data = data.map(|d| d as &dyn tunesmith_protocol::Fields);
        let first = first.map(|f| f as &dyn tunesmith_protocol::Fields);
        if let Ok(cb) = callback::classify(body, data, first) {
            out.insert((name.to_string(), cb.task_id, cb.stage.as_str().to_string()));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn upload_bytes_are_made_again_from_their_seed() {
        assert_eq!(content(7, 100), content(7, 100));
        assert_ne!(content(7, 100), content(8, 100));
        assert_eq!(content(1, 0).len(), 0);
    }

    #[test]
    fn download_urls_split_into_host_and_path() {
        assert_eq!(
            url_parts("http://127.0.0.1:9/download/ab").ok(),
            Some(("http://127.0.0.1:9".to_string(), "/download/ab".to_string()))
        );
        assert!(url_parts("https://x/y").is_err());
    }
}
