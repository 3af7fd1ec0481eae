//! Persistence under the data directory, through the host's [`Storage`]: every record is written
//! atomically (on disk: to a temporary file, synced and renamed, then its folder synced), so a
//! crash leaves either the old or the new version, never half of one.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde::Serialize;

use super::host::{Staged, Storage};

/// The layout of the data directory, and the storage it lives in.
#[derive(Clone)]
pub struct Dirs {
    pub root: PathBuf,
    /// One JSON file per task.
    pub tasks: PathBuf,
    /// Generated media, one folder per task, made on first download.
    pub files: PathBuf,
    /// Uploaded files, under their `uploadPath`.
    pub uploads: PathBuf,
    /// One JSON file per uploaded file.
    pub upload_meta: PathBuf,
    /// One JSON-lines file per callback inbox.
    pub inbox: PathBuf,
    /// Partial writes; renamed into place when complete.
    pub tmp: PathBuf,
    pub storage: Arc<dyn Storage>,
}

impl Dirs {
    pub fn create(root: &Path, storage: Arc<dyn Storage>) -> std::io::Result<Dirs> {
        let dirs = Dirs {
            root: root.to_path_buf(),
            tasks: root.join("tasks"),
            files: root.join("files"),
            uploads: root.join("uploads"),
            upload_meta: root.join("upload-meta"),
            inbox: root.join("inbox"),
            tmp: root.join("tmp"),
            storage,
        };
        dirs.storage.prepare(
            &[
                &dirs.tasks,
                &dirs.files,
                &dirs.uploads,
                &dirs.upload_meta,
                &dirs.inbox,
            ],
            &dirs.tmp,
        )?;
        Ok(dirs)
    }

    pub fn credits_file(&self) -> PathBuf {
        self.root.join("credits.json")
    }

    /// A file being written in `tmp` that disappears unless persisted.
    pub fn temp_file(&self) -> std::io::Result<Box<dyn Staged>> {
        self.storage.stage(&self.tmp)
    }

    /// Writes `bytes` to `path` atomically.
    pub fn write_atomic(&self, path: &Path, bytes: &[u8]) -> std::io::Result<()> {
        let mut tmp = self.temp_file()?;
        tmp.write(bytes)?;
        tmp.persist(path)
    }

    /// Moves a complete staged file to `path` (see [`Staged::persist`]).
    pub fn persist(&self, tmp: Box<dyn Staged>, path: &Path) -> std::io::Result<()> {
        tmp.persist(path)
    }

    pub fn write_json<T: Serialize>(&self, path: &Path, value: &T) -> std::io::Result<()> {
        let bytes = serde_json::to_vec(value).map_err(std::io::Error::other)?;
        self.write_atomic(path, &bytes)
    }

    /// Reads one JSON file; `None` when it is missing.
    pub fn read_json<T: DeserializeOwned>(&self, path: &Path) -> std::io::Result<Option<T>> {
        match self.storage.read(path)? {
            Some(bytes) => serde_json::from_slice(&bytes)
                .map(Some)
                .map_err(std::io::Error::other),
            None => Ok(None),
        }
    }

    /// Reads every `*.json` file of a folder, keyed by file stem; unreadable files are reported
    /// and skipped.
    pub fn read_all<T: DeserializeOwned>(&self, dir: &Path) -> std::io::Result<HashMap<String, T>> {
        let mut out = HashMap::new();
        for path in self.storage.list(dir)? {
            if path.extension().and_then(|e| e.to_str()) != Some("json") {
                continue;
            }
            let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else {
                continue;
            };
            match self.read_json::<T>(&path) {
                Ok(Some(v)) => {
                    out.insert(stem.to_owned(), v);
                }
                Ok(None) => {}
                Err(e) => eprintln!("skipping unreadable record {}: {e}", path.display()),
            }
        }
        Ok(out)
    }
}

/// FNV-1a: a stable 64-bit hash (std's hasher may change between releases), for seeds and ids.
pub fn fnv(parts: &[&[u8]]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for b in *part {
            h ^= u64::from(*b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        h ^= 0xff;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}
