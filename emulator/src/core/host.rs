//! What the emulator takes from the machine it runs on, behind small traits with one
//! implementation per host: storage, the wall clock, sleeping and spawning, and outbound HTTP
//! (callbacks and URL downloads). Everything else (routes, rules, records, media and behaviour)
//! is the same code in both builds.
//!
//! The native host (`native.rs`, feature `native`) uses the file system, tokio and reqwest; the
//! wasm host (`emulator/wasm`) calls functions the JavaScript side hands in (Node's `fs` or a
//! map, `setTimeout`, `fetch` or the caller's callback handler).

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::sync::Arc;

/// A boxed future that handlers may hold across an await (handlers want `Send`).
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Files under the data directory. Whole files are written through [`Storage::stage`], so that a
/// crash leaves the old or the new version.
pub trait Storage: Send + Sync {
    /// The bytes of a file; `None` when it is missing.
    fn read(&self, path: &Path) -> io::Result<Option<Vec<u8>>>;
    /// Appends to a file (creating it), durable before it returns.
    fn append(&self, path: &Path, bytes: &[u8]) -> io::Result<()>;
    /// The files directly in `dir` (none when it is missing).
    fn list(&self, dir: &Path) -> io::Result<Vec<PathBuf>>;
    fn exists(&self, path: &Path) -> bool;
    fn remove_file(&self, path: &Path);
    fn remove_dir_all(&self, path: &Path);
    /// Makes the data directory's folders and drops what interrupted writes left in `tmp`.
    fn prepare(&self, dirs: &[&Path], tmp: &Path) -> io::Result<()>;
    /// A file being written (an upload, a download), moved into place only when complete.
    fn stage(&self, tmp: &Path) -> io::Result<Box<dyn Staged>>;
}

/// A file being written; dropped unpersisted, it leaves nothing behind.
pub trait Staged: Send {
    fn write(&mut self, bytes: &[u8]) -> io::Result<()>;
    /// What was written so far.
    fn read_all(&self) -> io::Result<Vec<u8>>;
    /// Moves the complete file to `path`, atomically.
    fn persist(self: Box<Self>, path: &Path) -> io::Result<()>;
}

/// Time that passes and work that runs in the background.
pub trait Runtime: Send + Sync {
    /// Milliseconds since the Unix epoch, from the machine's clock.
    fn wall_ms(&self) -> i64;
    /// Resolves after `ms` milliseconds of real time.
    fn sleep(&self, ms: u64) -> BoxFuture<'static, ()>;
    /// Runs `task` in the background.
    fn spawn(&self, task: BoxFuture<'static, ()>);
    /// Runs CPU-heavy work (media) where it does not hold up answers.
    fn blocking(&self, work: Box<dyn FnOnce() + Send>) -> BoxFuture<'static, ()>;
    /// A seed for the random source when `--seed` is not given.
    fn entropy(&self) -> u64;
}

/// Outbound HTTP: callbacks, and the downloads of URL uploads and source audio.
pub trait Outbound: Send + Sync {
    /// POSTs a JSON body; `true` when the receiver answered 200 (body included) within `timeout_ms`.
    fn post_json(&self, url: String, body: Vec<u8>, timeout_ms: u64) -> BoxFuture<'static, bool>;
    /// The address a host name leads to (the URL rules check it before any byte is sent).
    fn resolve(&self, host: String, port: u16) -> BoxFuture<'static, Option<SocketAddr>>;
    /// GETs `url` (already pinned to the checked address) with `host` as its Host header; no
    /// redirect followed, 30 s timeout.
    fn get(&self, url: String, host: String) -> BoxFuture<'static, Result<Fetching, String>>;
}

/// An answer being downloaded: its status, then its body chunk by chunk.
pub struct Fetching {
    pub status: u16,
    pub body: Box<dyn Chunks>,
}

pub trait Chunks: Send {
    /// The next chunk; `None` at the end.
    fn next(&mut self) -> BoxFuture<'_, Result<Option<Vec<u8>>, String>>;
}

/// Everything a host supplies, as the emulator holds it.
#[derive(Clone)]
pub struct Host {
    pub storage: Arc<dyn Storage>,
    pub runtime: Arc<dyn Runtime>,
    pub outbound: Arc<dyn Outbound>,
}

impl Host {
    /// Runs `f` through [`Runtime::blocking`] and hands back its value (`None` if it panicked).
    pub async fn blocking<T: Send + 'static>(
        &self,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Option<T> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        self.runtime
            .blocking(Box::new(move || {
                let _ = tx.send(f());
            }))
            .await;
        rx.await.ok()
    }
}
