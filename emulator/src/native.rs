//! The native host ([`crate::host`]): files on disk, tokio's timers and tasks, reqwest.

use std::io::{self, Write};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::core::host::{BoxFuture, Chunks, Fetching, Host, Outbound, Runtime, Staged, Storage};

/// Files on disk: every write goes to a temporary file, synced and renamed, then its folder synced.
pub struct Disk;

/// Syncs a folder, so that the names just written or renamed in it survive a crash.
fn sync_dir(dir: &Path) -> io::Result<()> {
    std::fs::File::open(dir)?.sync_all()
}

/// Creates `dir` and its missing parents, each recorded in its own parent on disk.
fn create_dir_synced(dir: &Path) -> io::Result<()> {
    if dir.is_dir() {
        return Ok(());
    }
    let missing: Vec<&Path> = dir.ancestors().take_while(|d| !d.exists()).collect();
    std::fs::create_dir_all(dir)?;
    for d in missing.iter().rev() {
        if let Some(parent) = d.parent() {
            sync_dir(parent)?;
        }
    }
    Ok(())
}

/// A temporary file of the data directory's `tmp` folder.
struct TempFile(tempfile::NamedTempFile);

impl Staged for TempFile {
    fn write(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.0.write_all(bytes)
    }

    fn read_all(&self) -> io::Result<Vec<u8>> {
        std::fs::read(self.0.path())
    }

    /// Its data synced first, then renamed, then the folder synced: a crash (of the process or
    /// the machine) leaves the old or the new file.
    fn persist(self: Box<Self>, path: &Path) -> io::Result<()> {
        if let Some(parent) = path.parent() {
            create_dir_synced(parent)?;
        }
        self.0.as_file().sync_all()?;
        self.0.persist(path).map_err(|e| e.error)?;
        match path.parent() {
            Some(parent) => sync_dir(parent),
            None => Ok(()),
        }
    }
}

impl Storage for Disk {
    fn read(&self, path: &Path) -> io::Result<Option<Vec<u8>>> {
        match std::fs::read(path) {
            Ok(bytes) => Ok(Some(bytes)),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e),
        }
    }

    fn append(&self, path: &Path, bytes: &[u8]) -> io::Result<()> {
        let new = !path.exists();
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)?;
        file.write_all(bytes)?;
        file.sync_data()?;
        match path.parent() {
            Some(dir) if new => sync_dir(dir),
            _ => Ok(()),
        }
    }

    fn list(&self, dir: &Path) -> io::Result<Vec<PathBuf>> {
        match std::fs::read_dir(dir) {
            Ok(entries) => Ok(entries.flatten().map(|e| e.path()).collect()),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Vec::new()),
            Err(e) => Err(e),
        }
    }

    fn exists(&self, path: &Path) -> bool {
        path.exists()
    }

    fn remove_file(&self, path: &Path) {
        let _ = std::fs::remove_file(path);
    }

    fn remove_dir_all(&self, path: &Path) {
        let _ = std::fs::remove_dir_all(path);
    }

    fn prepare(&self, dirs: &[&Path], tmp: &Path) -> io::Result<()> {
        for d in dirs.iter().chain([&tmp]) {
            std::fs::create_dir_all(d)?;
        }
        // Leftovers of writes interrupted by a crash.
        for entry in std::fs::read_dir(tmp)?.flatten() {
            let _ = std::fs::remove_file(entry.path());
        }
        Ok(())
    }

    fn stage(&self, tmp: &Path) -> io::Result<Box<dyn Staged>> {
        Ok(Box::new(TempFile(tempfile::NamedTempFile::new_in(tmp)?)))
    }
}

/// tokio's timers and tasks.
pub struct Tokio;

impl Runtime for Tokio {
    fn wall_ms(&self) -> i64 {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as i64)
    }

    fn sleep(&self, ms: u64) -> BoxFuture<'static, ()> {
        Box::pin(tokio::time::sleep(Duration::from_millis(ms)))
    }

    fn spawn(&self, task: BoxFuture<'static, ()>) {
        tokio::spawn(task);
    }

    fn blocking(&self, work: Box<dyn FnOnce() + Send>) -> BoxFuture<'static, ()> {
        Box::pin(async move {
            let _ = tokio::task::spawn_blocking(work).await;
        })
    }

    fn entropy(&self) -> u64 {
        StdRng::from_os_rng().random()
    }
}

/// reqwest: one client for callbacks (timeout set per request), one for downloads.
pub struct Reqwest {
    callbacks: reqwest::Client,
    downloads: reqwest::Client,
}

impl Reqwest {
    pub fn new(callback_timeout_ms: u64) -> io::Result<Reqwest> {
        Ok(Reqwest {
            callbacks: reqwest::Client::builder()
                .connect_timeout(Duration::from_millis(callback_timeout_ms))
                .build()
                .map_err(io::Error::other)?,
            downloads: reqwest::Client::builder()
                .timeout(Duration::from_millis(
                    tunesmith_protocol::upload::URL_DOWNLOAD_TIMEOUT_MS,
                ))
                // Each hop would need the URL rules again: redirects are refused instead.
                .redirect(reqwest::redirect::Policy::none())
                .no_proxy()
                .build()
                .map_err(io::Error::other)?,
        })
    }
}

struct Body(reqwest::Response);

impl Chunks for Body {
    fn next(&mut self) -> BoxFuture<'_, Result<Option<Vec<u8>>, String>> {
        Box::pin(async move {
            self.0
                .chunk()
                .await
                .map(|c| c.map(|b| b.to_vec()))
                .map_err(|e| e.to_string())
        })
    }
}

impl Outbound for Reqwest {
    fn post_json(&self, url: String, body: Vec<u8>, timeout_ms: u64) -> BoxFuture<'static, bool> {
        let sent = self
            .callbacks
            .post(url)
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .body(body)
            .timeout(Duration::from_millis(timeout_ms))
            .send();
        Box::pin(async move {
            match sent.await {
                // The body must arrive within the timeout too.
                Ok(res) if res.status().as_u16() == 200 => res.bytes().await.is_ok(),
                _ => false,
            }
        })
    }

    fn resolve(&self, host: String, port: u16) -> BoxFuture<'static, Option<SocketAddr>> {
        Box::pin(async move {
            tokio::net::lookup_host((host.as_str(), port))
                .await
                .ok()
                .and_then(|mut addrs| addrs.next())
        })
    }

    fn get(&self, url: String, host: String) -> BoxFuture<'static, Result<Fetching, String>> {
        let sent = self
            .downloads
            .get(url)
            .header(reqwest::header::HOST, host)
            .send();
        Box::pin(async move {
            let res = sent.await.map_err(|e| e.to_string())?;
            Ok(Fetching {
                status: res.status().as_u16(),
                body: Box::new(Body(res)),
            })
        })
    }
}

/// The native host: the disk, tokio and reqwest.
pub fn host(callback_timeout_ms: u64) -> io::Result<Host> {
    Ok(Host {
        storage: Arc::new(Disk),
        runtime: Arc::new(Tokio),
        outbound: Arc::new(Reqwest::new(callback_timeout_ms)?),
    })
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use crate::clock::{sleep_until, Clock, ManualClock};

    #[tokio::test]
    async fn advancing_wakes_a_sleeper_whose_moment_has_come() {
        let c = std::sync::Arc::new(ManualClock::frozen(0));
        let sleeper = tokio::spawn({
            let c = c.clone();
            async move { sleep_until(&*c, &super::Tokio, 60_000).await }
        });
        tokio::task::yield_now().await;
        c.advance(30_000);
        tokio::task::yield_now().await;
        assert!(!sleeper.is_finished());
        c.advance(30_000);
        tokio::time::timeout(Duration::from_secs(5), sleeper)
            .await
            .expect("woken by the advance")
            .expect("no panic");
    }
}
