//! Bytes behind a URL: a file of this upload host read from storage, or a remote file downloaded
//! (30 s timeout, capped in size).

use percent_encoding::percent_decode_str;
use reqwest::Url;

use crate::app::AppState;
use crate::core::uploads::file_id;

/// Source audio fetched for add-instrumental and the like is capped at this size.
const MAX_SOURCE_BYTES: usize = 100 * 1024 * 1024;

/// Decodes `%XX` escapes of a URL path; `None` unless the result is UTF-8.
pub fn percent_decode(s: &str) -> Option<String> {
    percent_decode_str(s)
        .decode_utf8()
        .ok()
        .map(|c| c.into_owned())
}

/// Downloads `url` (30 s timeout) into memory, refusing more than `cap` bytes.
pub async fn download(app: &AppState, url: &str, cap: usize) -> Result<Vec<u8>, String> {
    let mut res = app
        .downloads
        .get(url)
        .send()
        .await
        .map_err(|e| format!("could not download `fileUrl`: {e}"))?;
    if !res.status().is_success() {
        return Err(format!(
            "could not download `fileUrl`: the server answered HTTP {}",
            res.status().as_u16()
        ));
    }
    let mut out = Vec::new();
    while let Some(chunk) = res
        .chunk()
        .await
        .map_err(|e| format!("could not download `fileUrl`: {e}"))?
    {
        if out.len() + chunk.len() > cap {
            return Err(format!("the remote file is larger than {cap} bytes"));
        }
        out.extend_from_slice(&chunk);
    }
    Ok(out)
}

/// The bytes behind a URL: read from storage when it names a file of this upload host,
/// else downloaded. `None` when it cannot be had.
pub async fn fetch(app: &AppState, url: &str) -> Option<Vec<u8>> {
    let parsed = Url::parse(url).ok()?;
    let ours = Url::parse(&app.upload_base).is_ok_and(|base| base.origin() == parsed.origin());
    if ours {
        let path = parsed.path();
        let id = if let Some(rel) = path.strip_prefix("/files/") {
            file_id(&percent_decode(rel)?)
        } else {
            path.strip_prefix("/download/")?.to_owned()
        };
        let (_, file) = app.uploads.live(&id, app.now_ms())?;
        return tokio::fs::read(file).await.ok();
    }
    download(app, url, MAX_SOURCE_BYTES).await.ok()
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
