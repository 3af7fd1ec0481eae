//! Bytes behind a URL: a file of this upload host read from storage, or a remote file downloaded
//! (30 s timeout, capped in size).

use percent_encoding::percent_decode_str;

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
    let now = app.now_ms();
    if let Some(rest) = url.strip_prefix(&app.upload_base) {
        let rest = rest.split(['?', '#']).next().unwrap_or("");
        let id = if let Some(rel) = rest.strip_prefix("/files/") {
            file_id(&percent_decode(rel)?)
        } else {
            rest.strip_prefix("/download/")?.to_owned()
        };
        let (_, path) = app.uploads.live(&id, now)?;
        return tokio::fs::read(path).await.ok();
    }
    download(app, url, MAX_SOURCE_BYTES).await.ok()
}
