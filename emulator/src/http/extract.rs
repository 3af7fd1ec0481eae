//! Extractors that own their rejections: the caller the gate admitted, and a request's JSON body
//! or query checked against the protocol's rules of the route's operation, refused in the
//! operation's table of codes.

use std::collections::HashMap;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{FromRequest, FromRequestParts, Query, Request};
use axum::http::request::Parts;
use axum::http::StatusCode;
use serde_json::{Map, Value};
use tunesmith_protocol::{CodeTable, ErrorKind, Op};

use super::envelope::ApiError;
use crate::app::AppState;

/// Who called and what for: set by the gate on every API route.
#[derive(Clone, Debug)]
pub struct Caller {
    pub key: String,
    pub tag: Option<String>,
    pub op: Op,
    /// `X-Emulate-Stage-Delay-Ms` of the request (gate.rs): its new task's stage delay.
    pub stage_delay_ms: Option<u64>,
}

impl FromRequestParts<AppState> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &AppState) -> Result<Self, ApiError> {
        parts.extensions.get::<Caller>().cloned().ok_or_else(|| {
            ApiError::kind(CodeTable::Music, ErrorKind::Unauthorized, "Unauthorized")
        })
    }
}

/// The route's operation: the gate already found it on API routes.
fn op_of(app: &AppState, parts: &Parts) -> Result<Op, ApiError> {
    if let Some(caller) = parts.extensions.get::<Caller>() {
        return Ok(caller.op);
    }
    app.op_of(&parts.method, parts.uri.path())
        .ok_or_else(|| ApiError::not_found(CodeTable::Music, "Invalid request method or path"))
}

/// The JSON body of a call to the route's operation, checked against the protocol's rules for it.
pub struct ValidBody(pub Map<String, Value>);

impl FromRequest<AppState> for ValidBody {
    type Rejection = ApiError;

    async fn from_request(req: Request, app: &AppState) -> Result<Self, ApiError> {
        let (parts, body) = req.into_parts();
        let op = op_of(app, &parts)?;
        let bytes = Bytes::from_request(Request::from_parts(parts, body), app).await;
        valid_json(op, bytes).map(ValidBody)
    }
}

/// The query of a call to the route's operation, as a JSON object of strings, checked against
/// the protocol's rules for it.
pub struct ValidQuery(pub Map<String, Value>);

impl FromRequestParts<AppState> for ValidQuery {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &AppState) -> Result<Self, ApiError> {
        let op = op_of(app, parts)?;
        let table = op.endpoint().codes;
        let Query(q) = Query::<HashMap<String, String>>::from_request_parts(parts, app)
            .await
            .map_err(|e| ApiError::new(table, 400, format!("Invalid query: {e}")))?;
        let fields: Map<String, Value> =
            q.into_iter().map(|(k, v)| (k, Value::String(v))).collect();
        validate(op, &fields)?;
        Ok(ValidQuery(fields))
    }
}

fn validate(op: Op, fields: &Map<String, Value>) -> Result<(), ApiError> {
    // The service refuses a model it does not know, which the client passes on.
    op.validate(fields)
        .and_then(|()| tunesmith_protocol::rules::check_listed(op.endpoint().fields, fields))
        .map_err(|e| ApiError::invalid(op.endpoint().codes, &e))
}

/// The JSON object of a request body; malformed JSON is 400 on every family.
fn json_object(
    table: CodeTable,
    body: Result<Bytes, BytesRejection>,
) -> Result<Map<String, Value>, ApiError> {
    let bytes = body.map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::new(table, 413, "Request body too large")
        } else {
            ApiError::new(table, 400, format!("Could not read the request body: {e}"))
        }
    })?;
    match serde_json::from_slice::<Value>(&bytes) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(ApiError::new(
            table,
            400,
            "Format error: the body must be a JSON object",
        )),
        Err(e) => Err(ApiError::new(
            table,
            400,
            format!("Format error: parameters not valid JSON ({e})"),
        )),
    }
}

/// The JSON body of a call to `op`, checked against the protocol's rules for it (for handlers
/// that look at the raw body first).
pub fn valid_json(
    op: Op,
    body: Result<Bytes, BytesRejection>,
) -> Result<Map<String, Value>, ApiError> {
    let param = json_object(op.endpoint().codes, body)?;
    validate(op, &param)?;
    Ok(param)
}
