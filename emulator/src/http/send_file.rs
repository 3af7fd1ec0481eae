//! A stored file as an HTTP answer, with byte ranges (browsers read and seek media by ranges):
//! streamed from disk by tower-http's `ServeFile` on the native host; from the host's storage in
//! one piece elsewhere, with the same content types (mime_guess, which `ServeFile` uses too) and
//! the same single-range answers.

use std::path::Path;

use axum::extract::Request;
use axum::response::Response;

use crate::app::AppState;

#[cfg(feature = "native")]
pub async fn send_file(_app: &AppState, path: &Path, req: Request) -> Result<Response, String> {
    use axum::response::IntoResponse;
    use tower::ServiceExt;
    tower_http::services::ServeFile::new(path)
        .oneshot(req)
        .await
        .map(IntoResponse::into_response)
        .map_err(|e| e.to_string())
}

#[cfg(not(feature = "native"))]
pub async fn send_file(app: &AppState, path: &Path, req: Request) -> Result<Response, String> {
    use axum::body::Body;
    use axum::http::{header, Method, StatusCode};

    let Some(bytes) = app.dirs.storage.read(path).map_err(|e| e.to_string())? else {
        return Ok(Response::builder()
            .status(StatusCode::NOT_FOUND)
            .body(Body::empty())
            .map_err(|e| e.to_string())?);
    };
    let mime = mime_guess::from_path(path).first_or_octet_stream();
    let len = bytes.len() as u64;
    let range = req
        .headers()
        .get(header::RANGE)
        .and_then(|v| v.to_str().ok())
        .map(|v| byte_range(v, len));
    let head = req.method() == Method::HEAD;
    let res = Response::builder()
        .header(header::CONTENT_TYPE, mime.as_ref())
        .header(header::ACCEPT_RANGES, "bytes");
    let res = match range {
        None => {
            let body = if head {
                Body::empty()
            } else {
                Body::from(bytes)
            };
            res.header(header::CONTENT_LENGTH, len).body(body)
        }
        Some(Some((start, end))) => {
            let part = bytes
                .get(start as usize..=end as usize)
                .map(<[u8]>::to_vec)
                .unwrap_or_default();
            let body = if head {
                Body::empty()
            } else {
                Body::from(part)
            };
            res.status(StatusCode::PARTIAL_CONTENT)
                .header(header::CONTENT_RANGE, format!("bytes {start}-{end}/{len}"))
                .header(header::CONTENT_LENGTH, end - start + 1)
                .body(body)
        }
        Some(None) => res
            .status(StatusCode::RANGE_NOT_SATISFIABLE)
            .header(header::CONTENT_RANGE, format!("bytes */{len}"))
            .body(Body::empty()),
    };
    res.map_err(|e| e.to_string())
}

/// The one range of a `Range: bytes=...` header, inclusive; `None` when it cannot be served
/// (malformed, past the end, or several ranges).
#[cfg(any(not(feature = "native"), test))]
fn byte_range(header: &str, len: u64) -> Option<(u64, u64)> {
    let spec = header.trim().strip_prefix("bytes=")?;
    if spec.contains(',') || len == 0 {
        return None;
    }
    let (a, b) = spec.split_once('-')?;
    let (a, b) = (a.trim(), b.trim());
    let (start, end) = if a.is_empty() {
        let n: u64 = b.parse().ok()?;
        if n == 0 {
            return None;
        }
        (len.saturating_sub(n), len - 1)
    } else {
        let start: u64 = a.parse().ok()?;
        let end = if b.is_empty() {
            len - 1
        } else {
            b.parse::<u64>().ok()?.min(len - 1)
        };
        (start, end)
    };
    (start <= end && start < len).then_some((start, end))
}

#[cfg(test)]
mod tests {
    use super::byte_range;

    #[test]
    fn ranges_are_read_as_servers_read_them() {
        assert_eq!(byte_range("bytes=100-199", 1000), Some((100, 199)));
        assert_eq!(byte_range("bytes=900-", 1000), Some((900, 999)));
        assert_eq!(byte_range("bytes=-100", 1000), Some((900, 999)));
        assert_eq!(byte_range("bytes=0-5000", 1000), Some((0, 999)));
        assert_eq!(byte_range("bytes=1000-", 1000), None);
        assert_eq!(byte_range("bytes=0-1,5-6", 1000), None);
        assert_eq!(byte_range("items=0-1", 1000), None);
    }
}
