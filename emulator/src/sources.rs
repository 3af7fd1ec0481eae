//! Bytes behind a URL: a file of this upload host read from storage, or a file downloaded where
//! the URL rules (`core::url_rules`) allow: 30 s timeout, capped in size, streamed to a temporary
//! file, at most [`MAX_DOWNLOADS`] at a time.

use percent_encoding::percent_decode_str;
use url::Url;

use crate::app::AppState;
use crate::core::host::Staged;
use crate::core::uploads::file_id;
use crate::core::url_rules::{check_form, check_target};

/// Source audio fetched for add-instrumental and the like is capped at this size.
const MAX_SOURCE_BYTES: u64 = 100 * 1024 * 1024;

/// Downloads running at once; more wait their turn, so that memory and disk bandwidth stay bounded.
pub const MAX_DOWNLOADS: usize = 4;

/// How much of the start of a file is kept to recognize its type.
const HEAD_BYTES: usize = 512;

/// Decodes `%XX` escapes of a URL path; `None` unless the result is UTF-8.
pub fn percent_decode(s: &str) -> Option<String> {
    percent_decode_str(s)
        .decode_utf8()
        .ok()
        .map(|c| c.into_owned())
}

/// A downloaded file, complete, in a temporary file of the data directory.
pub struct Downloaded {
    pub file: Box<dyn Staged>,
    pub size: u64,
    /// Its first bytes.
    pub head: Vec<u8>,
}

fn failed(e: impl std::fmt::Display) -> String {
    format!("could not download `fileUrl`: {e}")
}

/// Downloads `url` to a temporary file if the URL rules allow it, refusing more than `cap` bytes.
/// The connection goes to the very address that was checked, so a second lookup of the name
/// cannot lead elsewhere.
pub async fn download(app: &AppState, url: &str, cap: u64) -> Result<Downloaded, String> {
    let parsed = check_form(url).map_err(|r| r.to_string())?;
    let authority = &parsed[url::Position::BeforeHost..url::Position::AfterPort];
    let authority = authority.to_owned();
    let pinned = if shared_music_file(app, &parsed) {
        // A generated file of the music host where it shares the upload host's origin: the host
        // serves it (the address is the upload host's, so the URL rules would see its path).
        parsed
    } else {
        let host = parsed.host_str().unwrap_or("");
        let port = parsed.port_or_known_default().unwrap_or(80);
        let addr = app
            .host
            .outbound
            .resolve(host.trim_matches(['[', ']']).to_owned(), port)
            .await
            .ok_or_else(|| failed(format!("`{host}` does not resolve")))?;
        check_target(&parsed, addr, app.own, app.config.allow_private_url_uploads)
            .map_err(|r| r.to_string())?;
        let mut pinned = parsed.clone();
        pinned
            .set_ip_host(addr.ip())
            .map_err(|()| failed("the host cannot be addressed"))?;
        pinned
    };

    let _slot = app.download_slots.acquire().await.map_err(failed)?;
    let mut res = app
        .host
        .outbound
        .get(pinned.as_str().to_owned(), authority)
        .await
        .map_err(failed)?;
    let status = res.status;
    if (300..400).contains(&status) {
        return Err(format!(
            "could not download `fileUrl`: the server answered a redirect (HTTP {status}), which is not followed (rule: url_redirect)"
        ));
    }
    if !(200..300).contains(&status) {
        return Err(failed(format!("the server answered HTTP {status}")));
    }
    let mut out = app.dirs.temp_file().map_err(failed)?;
    let (mut size, mut head) = (0u64, Vec::new());
    while let Some(chunk) = res.body.next().await.map_err(failed)? {
        size += chunk.len() as u64;
        if size > cap {
            return Err(format!("the remote file is larger than {cap} bytes"));
        }
        if head.len() < HEAD_BYTES {
            head.extend_from_slice(&chunk[..chunk.len().min(HEAD_BYTES - head.len())]);
        }
        out.write(&chunk).map_err(failed)?;
    }
    Ok(Downloaded {
        file: out,
        size,
        head,
    })
}

/// Whether `url` is under this emulator's upload host: its origin, and not under the music host,
/// which may share that origin under a path of its own (the demo as a static site: both hosts are
/// its service worker's).
pub fn is_upload_url(app: &AppState, url: &Url) -> bool {
    Url::parse(&app.upload_base).is_ok_and(|base| base.origin() == url.origin())
        && !under_music(app, url)
}

fn under_music(app: &AppState, url: &Url) -> bool {
    url.as_str()
        .strip_prefix(app.music_base.as_str())
        .is_some_and(|rest| rest.starts_with('/'))
}

/// A generated file of the music host (`{music base}/files/...`) on the upload host's origin.
fn shared_music_file(app: &AppState, url: &Url) -> bool {
    Url::parse(&app.upload_base).is_ok_and(|base| base.origin() == url.origin())
        && url
            .as_str()
            .strip_prefix(app.music_base.as_str())
            .is_some_and(|rest| rest.starts_with("/files/"))
}

/// The bytes behind a URL: read from storage when it names a file of this upload host,
/// else downloaded. `None` when it cannot be had.
pub async fn fetch(app: &AppState, url: &str) -> Option<Vec<u8>> {
    let parsed = Url::parse(url).ok()?;
    if is_upload_url(app, &parsed) {
        let path = parsed.path();
        let id = if let Some(rel) = path.strip_prefix("/files/") {
            file_id(&percent_decode(rel)?)
        } else {
            path.strip_prefix("/download/")?.to_owned()
        };
        let (_, file) = app.uploads.live(&id, app.now_ms())?;
        return app.dirs.storage.read(&file).ok().flatten();
    }
    let downloaded = download(app, url, MAX_SOURCE_BYTES).await.ok()?;
    downloaded.file.read_all().ok()
}

/// The decoded last path segment of a URL (a file name, if it names one).
pub fn last_segment(url: &str) -> Option<String> {
    let parsed = Url::parse(url).ok()?;
    let last = parsed.path_segments()?.next_back()?;
    percent_decode(last).filter(|s| !s.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_come_from_the_decoded_last_segment() {
        assert_eq!(
            last_segment("http://h/a/b%20c.wav?x=1#f").as_deref(),
            Some("b c.wav")
        );
        assert_eq!(last_segment("http://h/"), None);
        assert_eq!(last_segment("not a url"), None);
        assert_eq!(percent_decode("%C3%A9").as_deref(), Some("é"));
    }
}
