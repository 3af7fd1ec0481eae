//! The upload host: file by URL, by multipart stream, by Base64; and the stored files at their
//! public URLs. Files are written to a temporary file first and moved into place only when
//! complete and valid, so a refused or interrupted upload leaves nothing behind.

use axum::body::Bytes;
use axum::extract::multipart::MultipartRejection;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Multipart, Path, Request, State};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use base64::Engine;
use serde_json::{Map, Value};
use tunesmith_protocol::rules::{check_file_name, Value as RuleValue};
use tunesmith_protocol::upload::{
    base64_too_large, decoded_len, extension_for_mime, sniff_mime, split_data_url,
    MAX_BASE64_FILE_BYTES,
};
use tunesmith_protocol::{CodeTable, Op};

use super::envelope::{upload_ok, ApiError};
use super::extract::{valid_json, ValidBody};
use super::send_file::send_file;
use crate::app::AppState;
use crate::core::host::Staged;
use crate::core::uploads::{file_id, Incoming};
use crate::families::common::text;
use crate::sources::{download, last_segment};

/// A stream upload being written: where, its name, its size and its first bytes.
type StagedFile = (Box<dyn Staged>, String, u64, Vec<u8>);

const F: CodeTable = CodeTable::Upload;

fn bad(msg: impl Into<String>) -> ApiError {
    ApiError::new(F, 400, msg)
}

fn server(e: &dyn std::fmt::Display) -> ApiError {
    eprintln!("upload failed: {e}");
    ApiError::new(F, 500, "Server error: could not store the file")
}

fn random_name(app: &AppState, mime: &str) -> String {
    format!("{}.{}", &app.random_id()[..16], extension_for_mime(mime))
}

/// Stores a complete temporary file and answers with its record.
fn finish(
    app: &AppState,
    tmp: Box<dyn Staged>,
    upload_path: &str,
    file_name: &str,
    original_name: &str,
    size: u64,
    mime: &str,
) -> Result<Response, ApiError> {
    let incoming = Incoming {
        upload_path,
        file_name,
        original_name,
        size,
        mime,
    };
    let record = app
        .uploads
        .commit(tmp, &incoming, &app.upload_base, app.now_ms())
        .map_err(|e| {
            if e.kind() == std::io::ErrorKind::InvalidInput {
                bad("`uploadPath` and `fileName` must stay inside the storage root (rule: safe_path)")
            } else {
                server(&e)
            }
        })?;
    Ok(upload_ok(record))
}

/// Stores a file received whole in memory (as Base64) under the request's
/// `uploadPath`, and answers with its record.
fn finish_bytes(
    app: &AppState,
    param: &Map<String, Value>,
    bytes: &[u8],
    file_name: &str,
    original_name: &str,
    mime: &str,
) -> Result<Response, ApiError> {
    let mut tmp = app.dirs.temp_file().map_err(|e| server(&e))?;
    tmp.write(bytes).map_err(|e| server(&e))?;
    finish(
        app,
        tmp,
        text(param, "uploadPath").unwrap_or(""),
        file_name,
        original_name,
        bytes.len() as u64,
        mime,
    )
}

/// `POST /api/file-url-upload`: `{fileUrl, uploadPath?, fileName?}`.
pub async fn from_url(
    State(app): State<AppState>,
    ValidBody(param): ValidBody,
) -> Result<Response, ApiError> {
    let url = text(&param, "fileUrl").unwrap_or_default();
    let cap = app.config.max_upload_mb.saturating_mul(1024 * 1024);
    let got = download(&app, url, cap).await.map_err(bad)?;
    let mime = sniff_mime(&got.head);
    let from_url = last_segment(url).filter(|n| check_file_name("fileName", n).is_ok());
    let name = text(&param, "fileName")
        .map(str::to_owned)
        .or_else(|| from_url.clone())
        .unwrap_or_else(|| random_name(&app, mime));
    let original = from_url.unwrap_or_else(|| name.clone());
    finish(
        &app,
        got.file,
        text(&param, "uploadPath").unwrap_or(""),
        &name,
        &original,
        got.size,
        mime,
    )
}

/// `POST /api/file-base64-upload`: `{base64Data, uploadPath?, fileName?}`; at most 10 MB of file.
pub async fn base64(
    State(app): State<AppState>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    if body
        .as_ref()
        .is_err_and(|e| e.status() == StatusCode::PAYLOAD_TOO_LARGE)
    {
        return Err(bad(format!(
            "`base64Data` is too large: Base64 uploads are limited to {MAX_BASE64_FILE_BYTES} bytes (10 MB) of file; use the stream upload for larger files (rule: max_size)"
        )));
    }
    let param = valid_json(Op::UploadBase64, body)?;
    let data = text(&param, "base64Data").unwrap_or_default();
    let (declared, payload) = match split_data_url(data) {
        Some((mime, payload)) => (Some(mime), payload),
        None => (None, data),
    };
    let payload: String = payload.chars().filter(|c| !c.is_whitespace()).collect();
    // The `=` padding stands for no byte: the limit is on the file, as the client counts it.
    let padding = payload
        .bytes()
        .rev()
        .take(2)
        .take_while(|b| *b == b'=')
        .count() as u64;
    let size = decoded_len(payload.len() as u64).saturating_sub(padding);
    if size > MAX_BASE64_FILE_BYTES {
        return Err(ApiError::invalid(F, &base64_too_large("base64Data", size)));
    }
    let engines = [
        base64::engine::general_purpose::STANDARD,
        base64::engine::general_purpose::STANDARD_NO_PAD,
        base64::engine::general_purpose::URL_SAFE,
        base64::engine::general_purpose::URL_SAFE_NO_PAD,
    ];
    let bytes = engines
        .iter()
        .find_map(|e| e.decode(payload.as_bytes()).ok())
        .ok_or_else(|| bad("`base64Data` is not valid Base64 (rule: type)"))?;
    let sniffed = sniff_mime(&bytes);
    let mime = match declared {
        Some(d) if sniffed == "application/octet-stream" && !d.is_empty() => d.to_owned(),
        _ => sniffed.to_owned(),
    };
    let name = text(&param, "fileName")
        .map(str::to_owned)
        .unwrap_or_else(|| random_name(&app, &mime));
    finish_bytes(&app, &param, &bytes, &name, &name, &mime)
}

/// `POST /api/file-stream-upload`: multipart `file`, `uploadPath?`, `fileName?`; streamed to disk.
pub async fn stream(
    State(app): State<AppState>,
    multipart: Result<Multipart, MultipartRejection>,
) -> Result<Response, ApiError> {
    let mut multipart = multipart.map_err(|e| {
        bad(format!(
            "expected multipart/form-data with a `file` field: {e}"
        ))
    })?;
    let limit_mb = app.config.max_upload_mb;
    let too_large = || {
        ApiError::new(
            F,
            413,
            format!("the upload is larger than the limit of {limit_mb} MB"),
        )
    };
    let mut upload_path: Option<String> = None;
    let mut file_name: Option<String> = None;
    // The staged file, its name, its size, and its first bytes (for the type).
    let mut file: Option<StagedFile> = None;
    loop {
        let field = match multipart.next_field().await {
            Ok(Some(f)) => f,
            Ok(None) => break,
            Err(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => return Err(too_large()),
            Err(e) => return Err(bad(format!("malformed multipart body: {e}"))),
        };
        match field.name().unwrap_or("") {
            "file" => {
                let original = field.file_name().unwrap_or("").to_owned();
                let tmp = app.dirs.temp_file().map_err(|e| server(&e))?;
                let (tmp, size, head) = write_field(tmp, field, too_large).await?;
                file = Some((tmp, original, size, head));
            }
            name @ ("uploadPath" | "fileName") => {
                let name = name.to_owned();
                let value = field
                    .text()
                    .await
                    .map_err(|e| bad(format!("unreadable field `{name}`: {e}")))?;
                if name == "uploadPath" {
                    upload_path = Some(value);
                } else {
                    file_name = Some(value).filter(|v| !v.is_empty());
                }
            }
            _ => {}
        }
    }
    let fields: Vec<(&str, RuleValue)> = [("uploadPath", &upload_path), ("fileName", &file_name)]
        .into_iter()
        .filter_map(|(k, v)| v.as_deref().map(|v| (k, RuleValue::Str(v.into()))))
        .collect();
    validate_fields(Op::UploadStream, &fields)?;
    let Some((tmp, original, size, head)) = file else {
        return Err(bad("`file` is required (rule: required)"));
    };
    if size == 0 {
        return Err(bad("`file` must not be empty (rule: not_empty)"));
    }
    let mime = sniff_mime(&head);
    let name = match file_name {
        Some(n) => n,
        None if !original.is_empty() => {
            check_file_name("file", &original).map_err(|e| ApiError::invalid(F, &e))?;
            original.clone()
        }
        None => random_name(&app, mime),
    };
    let original = if original.is_empty() {
        name.clone()
    } else {
        original
    };
    finish(
        &app,
        tmp,
        upload_path.as_deref().unwrap_or(""),
        &name,
        &original,
        size,
        mime,
    )
}

fn validate_fields(op: Op, fields: &[(&str, RuleValue<'_>)]) -> Result<(), ApiError> {
    op.validate(fields).map_err(|e| ApiError::invalid(F, &e))
}

/// Streams one multipart field into the temporary file; returns its size and first bytes.
async fn write_field(
    mut tmp: Box<dyn Staged>,
    mut field: axum::extract::multipart::Field<'_>,
    too_large: impl Fn() -> ApiError,
) -> Result<(Box<dyn Staged>, u64, Vec<u8>), ApiError> {
    let mut size = 0u64;
    let mut head = Vec::new();
    loop {
        match field.chunk().await {
            Ok(Some(chunk)) => {
                if head.len() < 512 {
                    head.extend_from_slice(&chunk[..chunk.len().min(512 - head.len())]);
                }
                size += chunk.len() as u64;
                tmp.write(&chunk).map_err(|e| server(&e))?;
            }
            Ok(None) => break,
            Err(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => return Err(too_large()),
            Err(e) => return Err(bad(format!("the upload was interrupted: {e}"))),
        }
    }
    Ok((tmp, size, head))
}

async fn serve_stored(app: &AppState, id: &str, req: Request, attachment: bool) -> Response {
    let Some((stored, path)) = app.uploads.live(id, app.now_ms()) else {
        return ApiError::not_found(F, "No such file (uploads are deleted 3 days after upload)")
            .into_response();
    };
    let mime = stored.record.mime_type.clone();
    let mut res = match send_file(app, &path, req).await {
        Ok(res) => res,
        Err(e) => return server(&e).into_response(),
    };
    if let Ok(v) = HeaderValue::from_str(&mime) {
        res.headers_mut().insert("content-type", v);
    }
    if attachment {
        let name = stored.record.file_name.replace(['"', '\\'], "_");
        if let Ok(v) = HeaderValue::from_str(&format!("attachment; filename=\"{name}\"")) {
            res.headers_mut().insert("content-disposition", v);
        }
    }
    res
}

/// `GET /files/{uploadPath}/{fileName}` (the record's `fileUrl`).
pub async fn serve_path(
    State(app): State<AppState>,
    Path(path): Path<String>,
    req: Request,
) -> Response {
    serve_stored(&app, &file_id(&path), req, false).await
}

/// `GET /download/{fileId}` (the record's `downloadUrl`).
pub async fn serve_download(
    State(app): State<AppState>,
    Path(id): Path<String>,
    req: Request,
) -> Response {
    serve_stored(&app, &id, req, true).await
}
