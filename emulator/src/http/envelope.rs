//! Answers of both hosts: the music envelope (HTTP 200, outcome in `code`) and the upload envelope
//! (HTTP status = `code`), the one error type every handler returns, and the mapping of the core's
//! errors to each endpoint's table of codes.

use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;
use serde_json::json;
use tunesmith_protocol::codes::{self, code_for};
use tunesmith_protocol::{CodeTable, ErrorKind, ValidationError};

use crate::core::error::CoreError;

/// The envelope code of an answer, for the request log (handlers attach it to the response).
#[derive(Clone, Copy, Debug)]
pub struct Outcome(pub i64);

/// A refusal or failure, answered in the envelope, numbered by the endpoint's table.
#[derive(Debug)]
pub struct ApiError {
    pub table: CodeTable,
    pub code: i64,
    pub msg: String,
    pub retry_after_ms: Option<u64>,
    /// HTTP status on the music host (200 for every envelope except unknown routes).
    pub http: StatusCode,
}

impl ApiError {
    pub fn new(table: CodeTable, code: i64, msg: impl Into<String>) -> Self {
        ApiError {
            table,
            code,
            msg: msg.into(),
            retry_after_ms: None,
            http: StatusCode::OK,
        }
    }

    pub fn kind(table: CodeTable, kind: ErrorKind, msg: impl Into<String>) -> Self {
        Self::new(table, code_for(table, kind), msg)
    }

    /// A rule broken by the request: 413 for "too long" in the music table, 400 otherwise;
    /// 422 for every rule in the cover table.
    pub fn invalid(table: CodeTable, err: &ValidationError) -> Self {
        let code = match table {
            CodeTable::Cover | CodeTable::Mashup => 422,
            _ if err.rule.is_too_long() && table == CodeTable::Music => 413,
            _ => 400,
        };
        Self::new(
            table,
            code,
            format!("{} (rule: {})", err.message, err.rule.as_str()),
        )
    }

    pub fn not_found(table: CodeTable, msg: impl Into<String>) -> Self {
        Self::kind(table, ErrorKind::NotFound, msg)
    }

    pub fn with_retry_after_ms(mut self, ms: u64) -> Self {
        self.retry_after_ms = Some(ms);
        self
    }

    /// A refusal of the core, in the envelope and numbering of `table`.
    pub fn from_core(table: CodeTable, e: CoreError) -> Self {
        let kind = match &e {
            CoreError::NotATaskOperation | CoreError::NotFound(_) => ErrorKind::NotFound,
            CoreError::Invalid(_) => ErrorKind::Invalid,
            CoreError::Conflict => ErrorKind::Conflict,
            CoreError::InsufficientCredits { .. } => ErrorKind::InsufficientCredits,
            CoreError::Storage(_) => {
                eprintln!("server error: {e}");
                return Self::kind(
                    table,
                    ErrorKind::Server,
                    "Server error: could not store the record",
                );
            }
        };
        // Rules broken in context are 400 in every table but the cover's (422).
        if kind == ErrorKind::Invalid && !matches!(table, CodeTable::Cover | CodeTable::Mashup) {
            return Self::new(table, 400, e.to_string());
        }
        Self::kind(table, kind, e.to_string())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut res = if self.table == CodeTable::Upload {
            let status =
                StatusCode::from_u16(self.code as u16).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
            (
                status,
                Json(json!({"success": false, "code": self.code, "msg": self.msg})),
            )
                .into_response()
        } else {
            (
                self.http,
                Json(json!({"code": self.code, "msg": self.msg, "data": null})),
            )
                .into_response()
        };
        if let Some(ms) = self.retry_after_ms {
            let secs = ms.div_ceil(1000).max(1);
            let h = res.headers_mut();
            h.insert("retry-after", HeaderValue::from(secs));
            h.insert("retry-after-ms", HeaderValue::from(ms));
        }
        res.extensions_mut().insert(Outcome(self.code));
        res
    }
}

/// A music-host success: `{code: 200, msg: "success", data}`.
pub fn ok<T: Serialize>(data: T) -> Response {
    let mut res = Json(json!({"code": codes::OK, "msg": "success", "data": data})).into_response();
    res.extensions_mut().insert(Outcome(codes::OK));
    res
}

/// An upload-host success: `{success: true, code: 200, msg, data}`.
pub fn upload_ok<T: Serialize>(data: T) -> Response {
    let mut res = Json(json!({
        "success": true,
        "code": codes::OK,
        "msg": "File uploaded successfully",
        "data": data
    }))
    .into_response();
    res.extensions_mut().insert(Outcome(codes::OK));
    res
}
