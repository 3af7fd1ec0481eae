//! Shared test harness: an emulator on ephemeral ports and a reqwest client for it.
//!
//! By default the emulator runs in-process (the native build). With `TUNESMITH_EMULATOR_CMD` set
//! to a command line (e.g. `node …/tunesmith/cli/tunesmith.js emulator`, the wasm build as
//! `npx tunesmith emulator` runs it), each test starts that command instead, with the same flags
//! and a data folder of its own, and reads its ready line: the same tests run against both builds.
//! A test that checks what only the native build has starts with [`native_only`].
#![allow(dead_code)]

pub mod external;
pub mod mp4;
pub mod songs;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use reqwest::{Client, Response};
use serde_json::{json, Value};
use tunesmith_emulator::{start, Config, Running};

#[allow(unused_imports)]
pub use external::{emulator_command, native_only, ENV_CMD};

pub const KEY: &str = "test-key";

pub struct Emu {
    pub music: String,
    pub upload: String,
    pub music_addr: SocketAddr,
    pub upload_addr: SocketAddr,
    /// The data folder, on either build.
    pub data_dir: PathBuf,
    pub http: Client,
    server: Server,
}

enum Server {
    Native(Running),
    External(external::Process),
}

/// Test settings plus a known key and faster callback retries; `extra` flags are applied on top.
pub fn config(extra: &[&str]) -> Config {
    let mut args = vec!["--callback-retry-delay-ms", "20", "--api-key", KEY];
    args.extend_from_slice(extra);
    Config::for_tests_with(&args)
}

impl Emu {
    pub async fn start(extra: &[&str]) -> Emu {
        Self::with(config(extra)).await
    }

    pub async fn with(config: Config) -> Emu {
        if let Some(cmd) = external::command_line() {
            let process = external::Process::start(&cmd, &config).await;
            return Emu {
                music: process.music.clone(),
                upload: process.upload.clone(),
                music_addr: external::addr_of(&process.music),
                upload_addr: external::addr_of(&process.upload),
                data_dir: process.data_dir.clone(),
                http: Client::new(),
                server: Server::External(process),
            };
        }
        Self::native(config).await
    }

    /// The native build in-process, whatever `TUNESMITH_EMULATOR_CMD` says (to compare the two).
    pub async fn native(config: Config) -> Emu {
        let running = start(config).await.expect("emulator starts");
        Emu {
            music: running.music_url(),
            upload: running.upload_url(),
            music_addr: running.music_addr,
            upload_addr: running.upload_addr,
            data_dir: running.data_dir.clone(),
            http: Client::new(),
            server: Server::Native(running),
        }
    }

    /// The process serving the emulator (this one, in-process).
    pub fn pid(&self) -> u32 {
        match &self.server {
            Server::Native(_) => std::process::id(),
            Server::External(process) => process.pid(),
        }
    }

    /// Stops the emulator as SIGTERM does; its data folder stays for the next start.
    pub async fn shutdown(self) {
        match self.server {
            Server::Native(running) => running.shutdown().await,
            Server::External(process) => process.stop().await,
        }
    }

    pub async fn post(&self, path: &str, body: Value) -> Value {
        self.post_raw(path, body).await.json().await.expect("json")
    }

    pub async fn post_raw(&self, path: &str, body: Value) -> Response {
        self.http
            .post(format!("{}{path}", self.music))
            .bearer_auth(KEY)
            .json(&body)
            .send()
            .await
            .expect("send")
    }

    pub async fn get(&self, path: &str) -> Value {
        self.http
            .get(format!("{}{path}", self.music))
            .bearer_auth(KEY)
            .send()
            .await
            .expect("send")
            .json()
            .await
            .expect("json")
    }

    /// Plain GET without auth (admin, inbox, files).
    pub async fn public(&self, url: &str) -> Response {
        self.http.get(url).send().await.expect("send")
    }

    pub fn inbox_url(&self, name: &str) -> String {
        format!("{}/inbox/{name}", self.music)
    }

    pub async fn inbox(&self, name: &str) -> Vec<Value> {
        let v: Value = self
            .public(&self.inbox_url(name))
            .await
            .json()
            .await
            .expect("json");
        v["items"].as_array().cloned().unwrap_or_default()
    }

    /// Waits until the inbox holds at least `n` items.
    pub async fn inbox_wait(&self, name: &str, n: usize) -> Vec<Value> {
        for _ in 0..500 {
            let items = self.inbox(name).await;
            if items.len() >= n {
                return items;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        panic!(
            "inbox {name} never got {n} items: {:?}",
            self.inbox(name).await
        );
    }

    /// Moves the manual clock forward by `ms`.
    pub async fn advance(&self, ms: i64) {
        let res = self.admin("clock", json!({ "advanceMs": ms })).await;
        assert_eq!(res.status(), 200);
    }

    /// Advances the manual clock by `step_ms` until inbox `name` holds `n` items. A failed
    /// attempt schedules its retry when the emulator has read the answer, which may come after
    /// the test saw the attempt recorded and moved the clock: then one more step is needed.
    pub async fn advance_until(&self, step_ms: i64, name: &str, n: usize) -> Vec<Value> {
        for _ in 0..5 {
            self.advance(step_ms).await;
            for _ in 0..50 {
                let items = self.inbox(name).await;
                if items.len() >= n {
                    return items;
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
        panic!(
            "inbox {name} never got {n} items: {:?}",
            self.inbox(name).await
        );
    }

    /// A generate task with a callback into inbox `name`; returns its id.
    pub async fn generate(&self, name: &str, title: &str) -> String {
        let v = self
            .post(
                "/api/v1/generate",
                json!({
                    "customMode": true, "instrumental": false, "model": "V6",
                    "callBackUrl": self.inbox_url(name),
                    "prompt": "city lights at night", "style": "synthwave", "title": title,
                }),
            )
            .await;
        assert_eq!(v["code"], 200, "{v}");
        v["data"]["taskId"].as_str().expect("taskId").to_owned()
    }

    /// Polls `query` (a record-info path) until `field` is one of `want`; returns the record.
    pub async fn wait_for(&self, query: &str, field: &str, want: &[Value]) -> Value {
        let mut last = Value::Null;
        for _ in 0..500 {
            last = self.get(query).await;
            if want.contains(&last["data"][field]) {
                return last["data"].clone();
            }
            tokio::time::sleep(Duration::from_millis(15)).await;
        }
        panic!("{query}: {field} never reached {want:?}; last {last}");
    }

    /// A finished generate task (its record).
    pub async fn finished(&self, title: &str) -> Value {
        let id = self.generate(&format!("done-{}", rand_name()), title).await;
        self.wait_for(
            &format!("/api/v1/generate/record-info?taskId={id}"),
            "status",
            &[json!("SUCCESS")],
        )
        .await
    }

    /// `GET /_emulator/stats` (of `tag`'s requests when given): `{requests, tasksCreated}`.
    pub async fn stats(&self, tag: Option<&str>) -> Value {
        let query = tag.map(|t| format!("?tag={t}")).unwrap_or_default();
        self.public(&format!("{}/_emulator/stats{query}", self.music))
            .await
            .json()
            .await
            .expect("stats")
    }

    pub async fn admin(&self, path: &str, body: Value) -> Response {
        self.http
            .post(format!("{}/_emulator/{path}", self.music))
            .json(&body)
            .send()
            .await
            .expect("send")
    }
}

pub fn rand_name() -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    format!("n{}", N.fetch_add(1, Ordering::Relaxed))
}

impl Emu {
    /// Stores `bytes` as `name` under `folder` on the upload host (Base64); the stored record.
    pub async fn store_bytes(&self, bytes: &[u8], folder: &str, name: &str) -> Value {
        use base64::Engine;
        let v: Value = self
            .http
            .post(format!("{}/api/file-base64-upload", self.upload))
            .bearer_auth(KEY)
            .json(&json!({
                "base64Data": base64::engine::general_purpose::STANDARD.encode(bytes),
                "fileName": name,
                "uploadPath": folder,
            }))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        assert_eq!(v["code"], 200, "{v}");
        v["data"].clone()
    }

    /// Stores `url`'s bytes as `name.wav` under `folder` on the upload host: its download URL,
    /// the `uploadUrl` the audio operations take.
    pub async fn store_url(&self, url: &str, folder: &str, name: &str) -> String {
        let v: Value = self
            .http
            .post(format!("{}/api/file-url-upload", self.upload))
            .bearer_auth(KEY)
            .json(&json!({"fileUrl": url, "uploadPath": folder, "fileName": format!("{name}.wav")}))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        v["data"]["downloadUrl"]
            .as_str()
            .expect("uploaded")
            .to_owned()
    }
}

/// A mono 8 kHz WAV of `seconds`: a 440 Hz sine.
pub fn sine_wav(seconds: f64) -> Vec<u8> {
    let spec = hound::WavSpec {
        channels: 1,
        sample_rate: 8000,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    let mut out = std::io::Cursor::new(Vec::new());
    let mut w = hound::WavWriter::new(&mut out, spec).unwrap();
    for i in 0..(seconds * 8000.0) as usize {
        let s = (i as f64 * 440.0 * std::f64::consts::TAU / 8000.0).sin() * 8000.0;
        w.write_sample(s as i16).unwrap();
    }
    w.finalize().unwrap();
    out.into_inner()
}
