//! Hostile input to every route of both hosts (the OpenAPI document's and the admin routes):
//! malformed JSON, wrong types, huge bodies and headers, path traversal in `uploadPath`,
//! `fileName` and file paths, URL uploads aimed at the emulator itself, out-of-range admin
//! values, and slow clients trickling a header byte per second. After every burst the emulator
//! must still be up and answer `GET /credit`; nothing may appear outside its data folder.
//! `cargo lab chaos` runs it against both builds: the native binary, then the wasm build as
//! `npx tunesmith emulator` runs it from the packed package (`Server`), each with its figures.
//! Over 400 lines on purpose: a catalogue of attacks, one short probe per kind, run in turn against
//! one emulator.

use super::net::{self, Reply};
use super::{Figure, Figures};
use crate::emulator::{Emulator, Launch, TEST_KEY};
use anyhow::{Context, Result};
use serde_json::Value;
use std::collections::BTreeSet;
use std::ffi::OsString;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};
use tunesmith_protocol::Op;

/// The section of the native binary's figures.
pub const S: &str = "hostile";
/// The section of the wasm build's figures.
pub const S_NPX: &str = "hostile (npx)";

/// The emulator under probe.
#[derive(Clone, Copy)]
pub enum Server<'a> {
    /// The native binary.
    Native(&'a Path),
    /// The wasm build as `npx tunesmith emulator` runs it, from the package installed in this
    /// project (xtask::emulator_wasm::npx_project).
    Npx(&'a Path),
}

impl Server<'_> {
    fn command(self) -> Command {
        match self {
            Server::Native(bin) => Command::new(bin),
            Server::Npx(project) => crate::emulator::npx(project),
        }
    }
}
const TIMEOUT: Duration = Duration::from_secs(5);

pub struct Settings {
    pub seed: u64,
    pub slow_clients: usize,
    pub slow_secs: u64,
    /// The emulator's `--read-timeout-ms`: well inside `slow_secs`, so a held trickle is a defect.
    pub read_timeout_ms: u64,
    pub huge_bytes: usize,
    /// Bounds, chosen after measuring (docs/reliability.md).
    pub rss_bound_mb: f64,
    pub sockets_bound: usize,
    pub latency_bound_ms: f64,
}

impl Settings {
    pub fn full(seed: u64) -> Settings {
        Settings {
            seed,
            slow_clients: 300,
            slow_secs: 20,
            read_timeout_ms: 5000,
            huge_bytes: 16 << 20,
            rss_bound_mb: 256.0,
            sockets_bound: 32,
            latency_bound_ms: 2000.0,
        }
    }

    /// The version inside `cargo test`: every kind of input, fewer and smaller.
    #[cfg(test)]
    pub fn short(seed: u64) -> Settings {
        Settings {
            slow_clients: 20,
            slow_secs: 3,
            read_timeout_ms: 1000,
            huge_bytes: 1 << 20,
            ..Settings::full(seed)
        }
    }
}

#[derive(Default)]
pub struct Findings {
    pub routes: usize,
    pub requests: u64,
    pub crashes: BTreeSet<String>,
    pub unanswered: BTreeSet<String>,
    pub outside: BTreeSet<String>,
    pub reads_outside: BTreeSet<String>,
    pub self_fetches: BTreeSet<String>,
    pub admin_unbounded: BTreeSet<String>,
    pub peak_rss_mb: f64,
    pub slow_opened: usize,
    pub slow_held: usize,
    pub slow_latency_ms: f64,
    pub sockets_after_slow: usize,
    pub took: Duration,
}

impl Findings {
    /// The figures in `section` (S or S_NPX).
    pub fn figures(&self, figures: &mut Figures, settings: &Settings, section: &str) {
        let first = |set: &BTreeSet<String>| set.iter().next().cloned().unwrap_or_default();
        figures.push(Figure::info(
            section,
            "routes probed (OpenAPI + admin + file routes)",
            self.routes.to_string(),
        ));
        figures.push(Figure::info(
            section,
            "hostile requests sent",
            super::thousands(self.requests as f64),
        ));
        figures.push(Figure::none_of(
            section,
            "crashes (process exited)",
            self.crashes.len(),
            first(&self.crashes),
        ));
        figures.push(Figure::none_of(
            section,
            "bursts after which GET /credit did not answer",
            self.unanswered.len(),
            first(&self.unanswered),
        ));
        figures.push(Figure::none_of(
            section,
            "files created outside the data folder",
            self.outside.len(),
            first(&self.outside),
        ));
        figures.push(Figure::none_of(
            section,
            "files read from outside the data folder",
            self.reads_outside.len(),
            first(&self.reads_outside),
        ));
        figures.push(Figure::none_of(
            section,
            "URL uploads of the emulator itself accepted",
            self.self_fetches.len(),
            first(&self.self_fetches),
        ));
        figures.push(Figure::none_of(
            section,
            "out-of-range admin values accepted",
            self.admin_unbounded.len(),
            first(&self.admin_unbounded),
        ));
        figures.push(Figure::at_most(
            section,
            "peak RSS",
            self.peak_rss_mb.round(),
            settings.rss_bound_mb,
            " MB",
        ));
        figures.push(Figure::at_most(
            section,
            &format!(
                "GET /credit while {} clients trickle a byte/s (worst)",
                self.slow_opened
            ),
            self.slow_latency_ms.round(),
            settings.latency_bound_ms,
            " ms",
        ));
        figures.push(Figure::at_most(
            section,
            &format!(
                "trickling connections still open after {} s",
                settings.slow_secs
            ),
            self.slow_held as f64,
            (self.slow_opened / 10) as f64,
            "",
        ));
        figures.push(Figure::at_most(
            section,
            "emulator sockets after the trickle",
            self.sockets_after_slow as f64,
            settings.sockets_bound as f64,
            "",
        ));
        figures.push(Figure::info(
            section,
            "time",
            format!("{:.0} s", self.took.as_secs_f64()),
        ));
    }
}

/// A route of either host, and what its body holds.
struct Route {
    base: String,
    method: String,
    path: String,
    fields: Vec<String>,
    multipart: bool,
}

struct Probe<'a> {
    server: Server<'a>,
    sandbox: PathBuf,
    args: Vec<OsString>,
    emulator: Emulator,
    findings: Findings,
    marker: String,
}

/// The probe against the native binary `bin`.
pub fn run(bin: &Path, sandbox: &Path, settings: &Settings) -> Result<Findings> {
    run_on(Server::Native(bin), sandbox, settings)
}

pub fn run_on(server: Server, sandbox: &Path, settings: &Settings) -> Result<Findings> {
    let started = Instant::now();
    std::fs::create_dir_all(sandbox.join("cwd"))?;
    std::fs::create_dir_all(sandbox.join("data"))?;
    // A file next to the data folder: a traversal that reads it shows up in an answer.
    let canary = format!("chaos-canary-{:x}", settings.seed);
    std::fs::write(sandbox.join("canary.txt"), &canary)?;
    let mut args = crate::emulator::args(&[
        "--stage-delay-ms",
        "100",
        "--max-upload-mb",
        "8",
        "--api-key",
        TEST_KEY,
        "--data-dir",
    ]);
    args.push(sandbox.join("data").into());
    args.extend([
        "--read-timeout-ms".into(),
        settings.read_timeout_ms.to_string().into(),
    ]);
    let before = tree(sandbox, &sandbox.join("data"));
    let emulator = start_in(server, &args, &sandbox.join("cwd"))?;
    let mut probe = Probe {
        server,
        sandbox: sandbox.to_path_buf(),
        args,
        emulator,
        findings: Findings::default(),
        marker: format!("zz-chaos-escape-{:x}", settings.seed),
    };
    let routes = probe.routes()?;
    probe.findings.routes = routes.len();
    for route in &routes {
        probe.malformed(route, settings);
        probe.wrong_types(route);
    }
    probe.traversal(&canary);
    probe.self_fetches();
    probe.admin_values();
    probe.slow_clients(settings);
    let mut findings = std::mem::take(&mut probe.findings);
    findings.peak_rss_mb = findings
        .peak_rss_mb
        .max(rss_mb(probe.emulator.server.pid()));
    drop(probe);
    // Anything new around the data folder, or anywhere a traversal could have aimed.
    let after = tree(sandbox, &sandbox.join("data"));
    for path in after.difference(&before) {
        findings.outside.insert(path.display().to_string());
    }
    let marker = format!("zz-chaos-escape-{:x}", settings.seed);
    let mut roots = vec![std::env::temp_dir(), PathBuf::from("/"), crate::root()];
    if let Some(home) = std::env::var_os("HOME") {
        roots.push(PathBuf::from(home));
    }
    for root in roots {
        for path in find_named(&root, &marker, 3, &sandbox.join("data")) {
            findings.outside.insert(path.display().to_string());
        }
    }
    findings.took = started.elapsed();
    Ok(findings)
}

/// Starts the emulator with its working folder in the sandbox, so that a relative escape lands
/// where the scan looks.
fn start_in(server: Server, args: &[OsString], cwd: &Path) -> Result<Emulator> {
    let mut cmd = server.command();
    cmd.current_dir(cwd);
    let launch = Launch {
        args: args.to_vec(),
        echo: false,
        temp_data_dir: false,
    };
    Emulator::start_command(cmd, launch)
}

impl Probe<'_> {
    fn music(&self) -> String {
        self.emulator.music.clone()
    }

    fn upload(&self) -> String {
        self.emulator.upload.clone()
    }

    fn send(
        &mut self,
        base: &str,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> Option<Reply> {
        self.findings.requests += 1;
        net::request(base, method, path, headers, body, TIMEOUT).ok()
    }

    fn send_json(&mut self, route: &Route, body: &[u8], extra: &[(&str, &str)]) -> Option<Reply> {
        let auth = format!("Bearer {TEST_KEY}");
        let mut headers = vec![
            ("Authorization", auth.as_str()),
            ("Content-Type", "application/json"),
        ];
        headers.extend_from_slice(extra);
        let (base, method, path) = (route.base.clone(), route.method.clone(), fill(&route.path));
        self.send(&base, &method, &path, &headers, body)
    }

    /// After a burst: still running, and `GET /credit` answers.
    fn after_burst(&mut self, burst: &str) {
        self.findings.peak_rss_mb = self
            .findings
            .peak_rss_mb
            .max(rss_mb(self.emulator.server.pid()));
        if let Some(status) = self.emulator.server.exited() {
            self.findings
                .crashes
                .insert(format!("{burst}: exited ({status})"));
            match start_in(self.server, &self.args, &self.sandbox.join("cwd")) {
                Ok(emulator) => self.emulator = emulator,
                Err(e) => {
                    self.findings
                        .unanswered
                        .insert(format!("{burst}: could not restart: {e:#}"));
                    return;
                }
            }
        }
        let credit = Op::GetCredits.path("suno");
        let ok = net::json(&self.music(), "GET", &credit, TEST_KEY, None, TIMEOUT)
            .is_ok_and(|r| r.code() == 200);
        if !ok {
            self.findings.unanswered.insert(burst.to_string());
        }
    }

    fn routes(&mut self) -> Result<Vec<Route>> {
        let doc = net::request(&self.music(), "GET", "/openapi.json", &[], b"", TIMEOUT)?.json();
        let paths = doc["paths"]
            .as_object()
            .context("/openapi.json has no paths")?;
        let mut routes = Vec::new();
        for (path, item) in paths {
            for (method, op) in item.as_object().into_iter().flatten() {
                if !op.is_object() {
                    continue;
                }
                let servers = op.get("servers").or_else(|| item.get("servers"));
                let upload_host = servers
                    .and_then(|s| s.to_string().contains("upload host").then_some(()))
                    .is_some();
                let content = &op["requestBody"]["content"];
                let schema = content
                    .get("application/json")
                    .or_else(|| content.get("multipart/form-data"))
                    .map(|c| resolve(&doc, &c["schema"]))
                    .unwrap_or_default();
                let fields = schema["properties"]
                    .as_object()
                    .map(|p| p.keys().cloned().collect())
                    .unwrap_or_default();
                routes.push(Route {
                    base: if upload_host {
                        self.upload()
                    } else {
                        self.music()
                    },
                    method: method.to_uppercase(),
                    path: path.clone(),
                    fields,
                    multipart: content.get("multipart/form-data").is_some(),
                });
            }
        }
        // Routes the document leaves out: the upload host's stored files.
        for path in ["/files/{path}", "/download/{id}"] {
            routes.push(Route {
                base: self.upload(),
                method: "GET".into(),
                path: path.into(),
                fields: Vec::new(),
                multipart: false,
            });
        }
        Ok(routes)
    }

    fn malformed(&mut self, route: &Route, settings: &Settings) {
        let deep = "[".repeat(100_000);
        let many_keys = format!(
            "{{{}\"end\":0}}",
            (0..50_000)
                .map(|i| format!("\"k{i}\":{i},"))
                .collect::<String>()
        );
        let mut huge = br#"{"prompt":""#.to_vec();
        huge.resize(settings.huge_bytes, b'a');
        huge.extend_from_slice(br#""}"#);
        let bodies: Vec<Vec<u8>> = vec![
            b"{".to_vec(),
            br#"{"a":"#.to_vec(),
            b"[".to_vec(),
            b"null".to_vec(),
            br#""text""#.to_vec(),
            b"123".to_vec(),
            br#"{"x":1e999}"#.to_vec(),
            vec![0xff, 0xfe, b'{', b'}'],
            "\u{feff}{}".as_bytes().to_vec(),
            deep.into_bytes(),
            many_keys.into_bytes(),
            huge,
        ];
        for body in &bodies {
            self.send_json(route, body, &[]);
        }
        // Odd headers: huge, wrong and out-of-range values.
        let long = "k".repeat(64 * 1024);
        for (name, value) in [
            ("Authorization", long.as_str()),
            ("X-Emulate-Code", "99999999999999999999"),
            ("X-Emulate-Code", "-1"),
            ("X-Emulate-Retry-After", "1e999"),
            ("X-Emulator-Tag", long.as_str()),
            ("Content-Length", "18446744073709551615"),
        ] {
            self.send_json(route, b"{}", &[(name, value)]);
        }
        // A query as long as a server might take, and odd ones.
        let path = fill(&route.path);
        let (base, method) = (route.base.clone(), route.method.clone());
        for query in [
            "taskId=",
            "taskId=%00",
            "taskId=../../etc/passwd",
            "taskId=a&taskId=b",
            &format!("taskId={}", "x".repeat(60_000)),
        ] {
            self.send(
                &base,
                &method,
                &format!("{path}?{query}"),
                &[("Authorization", &format!("Bearer {TEST_KEY}"))],
                b"",
            );
        }
        if route.multipart {
            self.multipart_oddities(route, settings);
        }
        self.after_burst(&format!("malformed {} {}", route.method, route.path));
    }

    fn multipart_oddities(&mut self, route: &Route, settings: &Settings) {
        let auth = format!("Bearer {TEST_KEY}");
        let big = vec![7u8; (settings.huge_bytes).max(9 << 20)];
        let (ty, body) = net::multipart(&[], "file", "big.bin", &big);
        let (base, path) = (route.base.clone(), route.path.clone());
        self.send(
            &base,
            "POST",
            &path,
            &[("Authorization", &auth), ("Content-Type", &ty)],
            &body,
        );
        let cut = body.len() / 2;
        self.send(
            &base,
            "POST",
            &path,
            &[("Authorization", &auth), ("Content-Type", &ty)],
            &body[..cut],
        );
        self.send(
            &base,
            "POST",
            &path,
            &[
                ("Authorization", &auth),
                ("Content-Type", "multipart/form-data"),
            ],
            b"--x\r\n",
        );
        self.send(
            &base,
            "POST",
            &path,
            &[
                ("Authorization", &auth),
                ("Content-Type", "multipart/form-data; boundary=x"),
            ],
            b"not multipart",
        );
    }

    fn wrong_types(&mut self, route: &Route) {
        if route.method != "POST" || route.fields.is_empty() {
            return;
        }
        let long = format!("\"{}\"", "x".repeat(100_000));
        let emoji = format!("\"{}\"", "🎵".repeat(1000));
        let wrong = [
            "null",
            "true",
            "-1",
            "0",
            "1e308",
            "-1e308",
            "18446744073709551616",
            "-9223372036854775809",
            "0.5",
            "\"\"",
            long.as_str(),
            emoji.as_str(),
            "[]",
            "{}",
            "[[[[[]]]]]",
            "\"\\u0000\"",
            "\"\\ud800\"",
        ];
        let fields = route.fields.clone();
        for field in &fields {
            for value in wrong {
                let body = format!("{{\"{field}\":{value}}}");
                if route.multipart {
                    let auth = format!("Bearer {TEST_KEY}");
                    let (ty, body) =
                        net::multipart(&[(field, value)], "file", "a.bin", b"RIFF0000WAVE");
                    let (base, path) = (route.base.clone(), route.path.clone());
                    self.send(
                        &base,
                        "POST",
                        &path,
                        &[("Authorization", &auth), ("Content-Type", &ty)],
                        &body,
                    );
                } else {
                    self.send_json(route, body.as_bytes(), &[]);
                }
            }
        }
        self.after_burst(&format!("wrong types {} {}", route.method, route.path));
    }

    /// `..`, encoded `..` and absolute paths in every place a path is taken.
    fn traversal(&mut self, canary: &str) {
        let m = self.marker.clone();
        let paths = [
            "..".to_string(),
            "../..".to_string(),
            format!("../../{m}"),
            format!("../../../../../../../../tmp/{m}"),
            format!("%2e%2e/%2e%2e/{m}"),
            format!("..%2f..%2f{m}"),
            format!("/tmp/{m}"),
            format!("/{m}"),
            format!("a/../../{m}"),
            format!("..\\..\\{m}"),
            format!("./../{m}"),
            format!("....//....//{m}"),
            format!("{m}\u{0}.bin"),
            format!("~/{m}"),
            format!("C:/{m}"),
            format!("{}/{m}", "a".repeat(300)),
            format!(".%00./{m}"),
        ];
        let auth = format!("Bearer {TEST_KEY}");
        let upload = self.upload();
        // A file of the upload host itself, for URL uploads (its own host is allowed).
        let own = net::json(
            &upload,
            "POST",
            &Op::UploadBase64.path(""),
            TEST_KEY,
            Some(&serde_json::json!({"base64Data": "UklGRiQAAABXQVZF", "fileName": "own.wav"})),
            TIMEOUT,
        )
        .ok()
        .and_then(|r| r.json()["data"]["downloadUrl"].as_str().map(str::to_string))
        .unwrap_or_else(|| format!("{upload}/download/none"));
        for p in &paths {
            for (dir, name) in [(p.as_str(), "x.bin"), ("ok", p.as_str())] {
                let body = serde_json::json!({"base64Data": "aGVsbG8=", "uploadPath": dir, "fileName": name});
                self.send(
                    &upload,
                    "POST",
                    &Op::UploadBase64.path(""),
                    &[
                        ("Authorization", &auth),
                        ("Content-Type", "application/json"),
                    ],
                    body.to_string().as_bytes(),
                );
                let body = serde_json::json!({"fileUrl": own, "uploadPath": dir, "fileName": name});
                self.send(
                    &upload,
                    "POST",
                    &Op::UploadFromUrl.path(""),
                    &[
                        ("Authorization", &auth),
                        ("Content-Type", "application/json"),
                    ],
                    body.to_string().as_bytes(),
                );
                let (ty, body) = net::multipart(
                    &[("uploadPath", dir), ("fileName", name)],
                    "file",
                    "x.bin",
                    b"hello",
                );
                self.send(
                    &upload,
                    "POST",
                    &Op::UploadStream.path(""),
                    &[("Authorization", &auth), ("Content-Type", &ty)],
                    &body,
                );
            }
            // The file's own name, when no fileName is given.
            let (ty, body) = net::multipart(&[], "file", p, b"hello");
            self.send(
                &upload,
                "POST",
                &Op::UploadStream.path(""),
                &[("Authorization", &auth), ("Content-Type", &ty)],
                &body,
            );
        }
        self.after_burst("traversal in uploads");
        let music = self.music();
        let reads = [
            (upload.clone(), "/files/../../canary.txt"),
            (upload.clone(), "/files/%2e%2e/%2e%2e/canary.txt"),
            (upload.clone(), "/files/..%2f..%2fcanary.txt"),
            (upload.clone(), "/files/%2e%2e%2f%2e%2e%2fcanary.txt"),
            (upload.clone(), "/files//etc/passwd"),
            (upload.clone(), "/files/%2fetc%2fpasswd"),
            (
                upload.clone(),
                "/files/..%2f..%2f..%2f..%2f..%2f..%2f..%2fetc%2fpasswd",
            ),
            (upload.clone(), "/download/..%2f..%2fcanary.txt"),
            (music.clone(), "/files/..%2f..%2f/canary.txt"),
            (music.clone(), "/files/x/..%2f..%2f..%2fcanary.txt"),
            (music.clone(), "/files/%2e%2e/%2e%2e%2fcanary.txt"),
            (music.clone(), "/inbox/..%2f..%2fcanary.txt"),
        ];
        for (base, path) in reads {
            if let Some(reply) = self.send(&base, "GET", path, &[], b"") {
                let text = String::from_utf8_lossy(&reply.body);
                if text.contains(canary) || text.contains("root:x:0:0") {
                    self.findings
                        .reads_outside
                        .insert(format!("GET {path} answered {}", reply.status));
                }
            }
        }
        self.after_burst("traversal in file paths");
    }

    /// URL uploads aimed at the emulator's own admin routes and music host, in disguise.
    fn self_fetches(&mut self) {
        let port = net::addr_of(&self.music()).map(|a| a.port()).unwrap_or(0);
        let urls = [
            format!("http://127.0.0.1:{port}/_emulator/requests"),
            format!("http://127.0.0.1:{port}/_emulator/stats"),
            format!("http://localhost:{port}/_emulator/requests"),
            format!("http://2130706433:{port}/_emulator/requests"),
            format!("http://0x7f000001:{port}/_emulator/stats"),
            format!("http://127.1:{port}/_emulator/stats"),
            format!("http://user@127.0.0.1:{port}/_emulator/requests"),
            format!("http://user:pw@127.0.0.1:{port}/_emulator/stats"),
            format!("http://127.0.0.1:{port}/openapi.json"),
            format!("http://127.0.0.1:{port}/inbox/chaos"),
            format!("http://[::ffff:127.0.0.1]:{port}/_emulator/stats"),
        ];
        let (upload, auth) = (self.upload(), format!("Bearer {TEST_KEY}"));
        for url in urls {
            let body = serde_json::json!({"fileUrl": url});
            let reply = self.send(
                &upload,
                "POST",
                &Op::UploadFromUrl.path(""),
                &[
                    ("Authorization", &auth),
                    ("Content-Type", "application/json"),
                ],
                body.to_string().as_bytes(),
            );
            if reply.is_some_and(|r| r.status == 200) {
                self.findings.self_fetches.insert(url);
            }
        }
        self.after_burst("URL uploads at the emulator itself");
    }

    fn admin_values(&mut self) {
        let music = self.music();
        let cases: [(&str, &str); 9] = [
            (
                "/_emulator/faults",
                r#"{"tag":"chaos-hostile","code":500,"times":1,"delayMs":18446744073709551615}"#,
            ),
            (
                "/_emulator/faults",
                r#"{"tag":"chaos-hostile","code":500,"times":1,"retryAfterMs":1e308}"#,
            ),
            (
                "/_emulator/faults",
                r#"{"tag":"chaos-hostile","code":18446744073709551615,"times":1}"#,
            ),
            (
                "/_emulator/faults",
                r#"{"tag":"chaos-hostile","code":500,"times":-1}"#,
            ),
            ("/_emulator/credits", r#"{"credits":1e308}"#),
            ("/_emulator/credits", r#"{"credits":-9223372036854775808}"#),
            ("/_emulator/clock", r#"{"advanceMs":1e308}"#),
            ("/_emulator/clock", r#"{"advanceMs":-1}"#),
            (
                "/inbox/chaos?delayMs=18446744073709551615&status=99999&times=-1",
                "{}",
            ),
        ];
        let auth = format!("Bearer {TEST_KEY}");
        for (path, body) in cases {
            let reply = self.send(
                &music,
                "POST",
                path,
                &[
                    ("Authorization", &auth),
                    ("Content-Type", "application/json"),
                ],
                body.as_bytes(),
            );
            if reply.is_some_and(|r| {
                r.status == 200 && r.json()["code"].as_i64().is_none_or(|c| c == 200)
            }) {
                self.findings
                    .admin_unbounded
                    .insert(format!("POST {path} {body}"));
            }
        }
        for path in [
            "/_emulator/requests?since=-1&tag=%00",
            "/_emulator/stats?tag=x",
        ] {
            self.send(&music, "GET", path, &[], b"");
        }
        // Leave the key able to pay for what follows.
        self.send(
            &music,
            "POST",
            "/_emulator/credits",
            &[
                ("Authorization", &auth),
                ("Content-Type", "application/json"),
            ],
            br#"{"credits":100000}"#,
        );
        self.after_burst("admin values");
    }

    /// Clients that send a header byte per second: the hosts must keep answering others, and
    /// (with read timeouts) drop them.
    fn slow_clients(&mut self, settings: &Settings) {
        let hosts = [self.music(), self.upload()];
        let mut conns: Vec<TcpStream> = Vec::new();
        for i in 0..settings.slow_clients {
            let Ok(addr) = net::addr_of(&hosts[i % 2]) else {
                continue;
            };
            if let Ok(stream) = TcpStream::connect_timeout(&addr, TIMEOUT) {
                let _ = stream.set_write_timeout(Some(Duration::from_millis(200)));
                conns.push(stream);
            }
        }
        self.findings.slow_opened = conns.len();
        let header = b"GET /api/v1/generate/credit HTTP/1.1\r\nHost: chaos\r\nAuthorization: Bearer slow\r\nX-Slow: ";
        let credit = Op::GetCredits.path("suno");
        let started = Instant::now();
        let mut second = 0usize;
        while started.elapsed() < Duration::from_secs(settings.slow_secs) {
            let byte = header.get(second).copied().unwrap_or(b'a');
            for conn in &mut conns {
                let _ = conn.write_all(&[byte]);
            }
            second += 1;
            let asked = Instant::now();
            let ok = net::json(&hosts[0], "GET", &credit, TEST_KEY, None, TIMEOUT)
                .is_ok_and(|r| r.code() == 200);
            let ms = if ok {
                asked.elapsed().as_secs_f64() * 1000.0
            } else {
                TIMEOUT.as_secs_f64() * 1000.0
            };
            self.findings.slow_latency_ms = self.findings.slow_latency_ms.max(ms);
            self.findings.peak_rss_mb = self
                .findings
                .peak_rss_mb
                .max(rss_mb(self.emulator.server.pid()));
            std::thread::sleep(Duration::from_secs(1).saturating_sub(asked.elapsed()));
        }
        // Still open: a read that would block (a closed one reads 0 bytes or fails).
        let mut held = 0;
        for conn in &mut conns {
            let _ = conn.set_nonblocking(true);
            let mut buf = [0u8; 256];
            match conn.read(&mut buf) {
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => held += 1,
                _ => {}
            }
        }
        self.findings.slow_held = held;
        self.findings.sockets_after_slow = sockets(self.emulator.server.pid());
        drop(conns);
        self.after_burst("slow clients");
    }
}

/// Fills path parameters with a plain value.
fn fill(path: &str) -> String {
    let mut out = String::new();
    let mut rest = path;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let close = rest[open..].find('}').map_or(rest.len(), |c| open + c + 1);
        out.push_str("chaos");
        rest = &rest[close..];
    }
    out.push_str(rest);
    out
}

/// A schema, following one `$ref`.
fn resolve(doc: &Value, schema: &Value) -> Value {
    match schema["$ref"].as_str().and_then(|r| r.strip_prefix("#/")) {
        Some(pointer) => doc
            .pointer(&format!("/{pointer}"))
            .cloned()
            .unwrap_or_default(),
        None => schema.clone(),
    }
}

fn rss_mb(pid: u32) -> f64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            let line = s.lines().find(|l| l.starts_with("VmRSS:"))?.to_string();
            line.split_whitespace().nth(1)?.parse::<f64>().ok()
        })
        .map_or(0.0, |kib| kib / 1024.0)
}

/// Open sockets of a process (listeners included).
fn sockets(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/fd"))
        .map(|entries| {
            entries
                .flatten()
                .filter(|e| {
                    std::fs::read_link(e.path())
                        .is_ok_and(|l| l.to_string_lossy().starts_with("socket:"))
                })
                .count()
        })
        .unwrap_or(0)
}

/// Every file and folder under `root`, except `skip` and what is inside it.
fn tree(root: &Path, skip: &Path) -> BTreeSet<PathBuf> {
    let mut out = BTreeSet::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.starts_with(skip) {
                continue;
            }
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                stack.push(path.clone());
            }
            out.insert(path);
        }
    }
    out
}

/// Paths under `root` (to `depth` levels) whose name contains `marker`, outside `skip`.
fn find_named(root: &Path, marker: &str, depth: usize, skip: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![(root.to_path_buf(), 0)];
    while let Some((dir, level)) = stack.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.starts_with(skip) || path.starts_with("/proc") || path.starts_with("/sys") {
                continue;
            }
            if entry.file_name().to_string_lossy().contains(marker) {
                out.push(path.clone());
            }
            let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
            if is_dir && level + 1 < depth {
                stack.push((path, level + 1));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_parameters_are_filled() {
        assert_eq!(fill("/files/{taskId}/{name}"), "/files/chaos/chaos");
        assert_eq!(fill("/api/v1/generate"), "/api/v1/generate");
    }

    #[test]
    fn new_files_are_found_outside_the_skipped_folder() {
        let Ok(dir) = crate::emulator::fresh_temp_dir("chaos-tree-test") else {
            return;
        };
        let data = dir.join("data");
        let _ = std::fs::create_dir_all(&data);
        let before = tree(&dir, &data);
        let _ = std::fs::write(data.join("inside"), "x");
        let _ = std::fs::write(dir.join("zz-mark-outside"), "x");
        let after = tree(&dir, &data);
        let new: Vec<_> = after.difference(&before).collect();
        assert_eq!(new, vec![&dir.join("zz-mark-outside")]);
        assert_eq!(
            find_named(&dir, "zz-mark", 2, &data),
            vec![dir.join("zz-mark-outside")]
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
