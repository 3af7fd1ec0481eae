//! Persistence under the data directory: every record is written to a temporary file, synced and
//! renamed (then its folder synced), so a crash leaves either the old or the new version, never
//! half of one.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use serde::Serialize;

/// The layout of the data directory.
#[derive(Clone, Debug)]
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
}

impl Dirs {
    pub fn create(root: &Path) -> std::io::Result<Dirs> {
        let dirs = Dirs {
            root: root.to_path_buf(),
            tasks: root.join("tasks"),
            files: root.join("files"),
            uploads: root.join("uploads"),
            upload_meta: root.join("upload-meta"),
            inbox: root.join("inbox"),
            tmp: root.join("tmp"),
        };
        for d in [
            &dirs.tasks,
            &dirs.files,
            &dirs.uploads,
            &dirs.upload_meta,
            &dirs.inbox,
            &dirs.tmp,
        ] {
            std::fs::create_dir_all(d)?;
        }
        // Leftovers of writes interrupted by a crash.
        for entry in std::fs::read_dir(&dirs.tmp)?.flatten() {
            let _ = std::fs::remove_file(entry.path());
        }
        Ok(dirs)
    }

    pub fn credits_file(&self) -> PathBuf {
        self.root.join("credits.json")
    }

    /// A temporary file in `tmp` that disappears unless persisted.
    pub fn temp_file(&self) -> std::io::Result<tempfile::NamedTempFile> {
        tempfile::NamedTempFile::new_in(&self.tmp)
    }

    /// Writes `bytes` to `path` atomically (temporary file in `tmp`, then rename).
    pub fn write_atomic(&self, path: &Path, bytes: &[u8]) -> std::io::Result<()> {
        let mut tmp = self.temp_file()?;
        tmp.write_all(bytes)?;
        self.persist(tmp, path)
    }

    /// Moves a complete temporary file to `path` so that a crash (of the process or the machine)
    /// leaves the old or the new file: its data synced first, then renamed, then the folder synced.
    pub fn persist(&self, tmp: tempfile::NamedTempFile, path: &Path) -> std::io::Result<()> {
        if let Some(parent) = path.parent() {
            self.create_dir_synced(parent)?;
        }
        tmp.as_file().sync_all()?;
        tmp.persist(path).map_err(|e| e.error)?;
        match path.parent() {
            Some(parent) => sync_dir(parent),
            None => Ok(()),
        }
    }

    /// Creates `dir` and its missing parents, each recorded in its own parent on disk.
    fn create_dir_synced(&self, dir: &Path) -> std::io::Result<()> {
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

    pub fn write_json<T: Serialize>(&self, path: &Path, value: &T) -> std::io::Result<()> {
        let bytes = serde_json::to_vec(value).map_err(std::io::Error::other)?;
        self.write_atomic(path, &bytes)
    }
}

/// Syncs a folder, so that the names just written or renamed in it survive a crash.
pub fn sync_dir(dir: &Path) -> std::io::Result<()> {
    std::fs::File::open(dir)?.sync_all()
}

/// Reads one JSON file; `None` when it is missing.
pub fn read_json<T: DeserializeOwned>(path: &Path) -> std::io::Result<Option<T>> {
    match std::fs::read(path) {
        Ok(bytes) => serde_json::from_slice(&bytes)
            .map(Some)
            .map_err(std::io::Error::other),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

/// Reads every `*.json` file of a folder, keyed by file stem; unreadable files are reported and skipped.
pub fn read_all<T: DeserializeOwned>(dir: &Path) -> std::io::Result<HashMap<String, T>> {
    let mut out = HashMap::new();
    for entry in std::fs::read_dir(dir)?.flatten() {
        let path = entry.path();
        if path.extension().and_then(|e| e.to_str()) != Some("json") {
            continue;
        }
        let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else {
            continue;
        };
        match read_json::<T>(&path) {
            Ok(Some(v)) => {
                out.insert(stem.to_owned(), v);
            }
            Ok(None) => {}
            Err(e) => eprintln!("skipping unreadable record {}: {e}", path.display()),
        }
    }
    Ok(out)
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
