//! Uploaded files: stored under `uploads/{uploadPath}/{fileName}` with one metadata record each,
//! kept three days (by the emulator's clock), then gone.

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};
use serde::{Deserialize, Serialize};
use tunesmith_protocol::time::iso_from_epoch_ms;
use tunesmith_protocol::upload::UPLOAD_RETENTION_MS;
use tunesmith_protocol::wire::UploadRecord;

use super::store::{fnv, Dirs};

#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct Stored {
    pub record: UploadRecord,
    /// Path under the uploads root, `/`-separated.
    pub rel_path: String,
    pub expires_ms: i64,
}

/// What a new upload is, before it is stored.
pub struct Incoming<'a> {
    pub upload_path: &'a str,
    pub file_name: &'a str,
    pub original_name: &'a str,
    pub size: u64,
    pub mime: &'a str,
}

pub struct Uploads {
    dirs: Dirs,
    files: Mutex<HashMap<String, Stored>>,
}

/// Same stored path, same id: a repeated `fileName` overwrites the record as well as the file.
pub fn file_id(rel_path: &str) -> String {
    format!("{:016x}", fnv(&[b"upload", rel_path.as_bytes()]))
}

/// Everything but RFC 3986's unreserved characters is escaped in a path segment.
const SEGMENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// Percent-encodes one URL path segment.
pub fn encode_segment(s: &str) -> String {
    utf8_percent_encode(s, SEGMENT).to_string()
}

/// The relative path of an upload, refusing anything but plain names (the last line of defence
/// after the protocol's rules): `None` means it would leave the uploads root.
pub fn relative_path(upload_path: &str, file_name: &str) -> Option<String> {
    let joined = if upload_path.trim_matches('/').is_empty() {
        file_name.to_owned()
    } else {
        format!("{}/{file_name}", upload_path.trim_matches('/'))
    };
    let ok = Path::new(&joined)
        .components()
        .all(|c| matches!(c, Component::Normal(_)));
    (ok && !joined.is_empty()).then_some(joined)
}

impl Uploads {
    pub fn load(dirs: &Dirs) -> std::io::Result<Uploads> {
        Ok(Uploads {
            dirs: dirs.clone(),
            files: Mutex::new(dirs.read_all(&dirs.upload_meta)?),
        })
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<String, Stored>> {
        self.files.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn meta_path(&self, id: &str) -> PathBuf {
        self.dirs.upload_meta.join(format!("{id}.json"))
    }

    pub fn file_path(&self, stored: &Stored) -> PathBuf {
        self.dirs.uploads.join(&stored.rel_path)
    }

    /// Moves a complete temporary file into place and records it.
    pub fn commit(
        &self,
        tmp: Box<dyn super::host::Staged>,
        incoming: &Incoming<'_>,
        upload_base: &str,
        now_ms: i64,
    ) -> std::io::Result<UploadRecord> {
        let rel = relative_path(incoming.upload_path, incoming.file_name)
            .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::InvalidInput, "unsafe path"))?;
        let dest = self.dirs.uploads.join(&rel);
        self.dirs.persist(tmp, &dest)?;
        let id = file_id(&rel);
        let url_path: Vec<String> = rel.split('/').map(encode_segment).collect();
        let uploaded = iso_from_epoch_ms(now_ms);
        let record = UploadRecord {
            file_id: id.clone(),
            file_name: incoming.file_name.to_owned(),
            original_name: incoming.original_name.to_owned(),
            file_size: incoming.size,
            mime_type: incoming.mime.to_owned(),
            upload_path: incoming.upload_path.to_owned(),
            file_url: format!("{upload_base}/files/{}", url_path.join("/")),
            download_url: format!("{upload_base}/download/{id}"),
            upload_time: uploaded.clone(),
            expires_at: iso_from_epoch_ms(now_ms + UPLOAD_RETENTION_MS),
            file_path: Some(rel.clone()),
            uploaded_at: Some(uploaded),
        };
        let stored = Stored {
            record: record.clone(),
            rel_path: rel,
            expires_ms: now_ms + UPLOAD_RETENTION_MS,
        };
        self.dirs.write_json(&self.meta_path(&id), &stored)?;
        self.lock().insert(id, stored);
        Ok(record)
    }

    /// The upload with this id and its file, unless it has expired (then it is deleted).
    pub fn live(&self, id: &str, now_ms: i64) -> Option<(Stored, PathBuf)> {
        let stored = self.lock().get(id).cloned()?;
        if now_ms >= stored.expires_ms {
            self.remove(id, &stored);
            return None;
        }
        let path = self.file_path(&stored);
        Some((stored, path))
    }

    fn remove(&self, id: &str, stored: &Stored) {
        self.lock().remove(id);
        self.dirs.storage.remove_file(&self.file_path(stored));
        self.dirs.storage.remove_file(&self.meta_path(id));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_stay_inside() {
        assert_eq!(relative_path("a/b/", "x.wav").as_deref(), Some("a/b/x.wav"));
        assert_eq!(relative_path("", "x.wav").as_deref(), Some("x.wav"));
        assert_eq!(relative_path("../a", "x"), None);
        assert_eq!(relative_path("a", ".."), None);
        assert_eq!(encode_segment("a b/é"), "a%20b%2F%C3%A9");
    }
}
