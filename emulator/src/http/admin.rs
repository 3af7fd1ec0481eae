//! Admin routes under `/_emulator` (no auth): the request log, counters, armed faults, credits and
//! the manual clock. They exist for tests and demos and are not part of the emulated service; every
//! value they take is bounded (`core::bounds`).

use axum::body::Bytes;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::json;

use super::auth;
use crate::app::AppState;
use crate::core::bounds::{between, Bound};
use crate::core::faults::FaultSpec;
use crate::families::common::iso;

fn refuse(status: StatusCode, msg: impl std::fmt::Display) -> Response {
    (status, Json(json!({"error": msg.to_string()}))).into_response()
}

#[derive(Deserialize)]
pub struct LogQuery {
    tag: Option<String>,
    since: Option<u64>,
}

/// `GET /_emulator/requests?tag=T&since=SEQ`: `{"requests": [{seq, host, method, path, query, op, code, tag, at}]}`.
pub async fn requests(State(app): State<AppState>, Query(q): Query<LogQuery>) -> Response {
    let list = app.log.list(q.tag.as_deref(), q.since.unwrap_or(0));
    Json(json!({ "requests": list })).into_response()
}

/// `GET /_emulator/stats?tag=T`: `{"requests": N, "tasksCreated": N}`.
pub async fn stats(State(app): State<AppState>, Query(q): Query<LogQuery>) -> Response {
    Json(app.log.stats(q.tag.as_deref())).into_response()
}

/// `POST /_emulator/faults`: arms faults for requests carrying `X-Emulator-Tag`.
pub async fn faults(State(app): State<AppState>, body: Bytes) -> Response {
    let spec = match serde_json::from_slice::<FaultSpec>(&body) {
        Ok(spec) => spec,
        Err(e) => return refuse(StatusCode::BAD_REQUEST, format!("invalid fault: {e}")),
    };
    match spec.check().and_then(|()| app.faults.arm(spec)) {
        Ok(()) => Json(json!({"armed": true})).into_response(),
        Err(e) => refuse(StatusCode::BAD_REQUEST, format!("invalid fault: {e}")),
    }
}

#[derive(Deserialize)]
struct SetCredits {
    credits: i64,
}

/// `POST /_emulator/credits` with `Authorization: Bearer KEY` and `{"credits": N}`.
pub async fn credits(State(app): State<AppState>, headers: HeaderMap, body: Bytes) -> Response {
    let Some(key) = auth::bearer(&headers).filter(|k| app.keys.contains(*k)) else {
        return refuse(
            StatusCode::UNAUTHORIZED,
            "a known key is required in Authorization",
        );
    };
    let set: SetCredits = match serde_json::from_slice(&body) {
        Ok(s) => s,
        Err(e) => {
            return refuse(
                StatusCode::BAD_REQUEST,
                format!("expected {{\"credits\": N}}: {e}"),
            )
        }
    };
    if let Err(e) = between("credits", set.credits, 0, Bound::CREDITS) {
        return refuse(StatusCode::BAD_REQUEST, e);
    }
    match app.credits.set(key, set.credits) {
        Ok(()) => Json(json!({"credits": set.credits})).into_response(),
        Err(e) => refuse(StatusCode::INTERNAL_SERVER_ERROR, e),
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Advance {
    advance_ms: i64,
}

/// `POST /_emulator/clock` `{"advanceMs": N}`: only with `--manual-clock` (else 409).
pub async fn clock(State(app): State<AppState>, body: Bytes) -> Response {
    let advance: Advance = match serde_json::from_slice(&body) {
        Ok(a) => a,
        Err(e) => {
            return refuse(
                StatusCode::BAD_REQUEST,
                format!("expected {{\"advanceMs\": N}}: {e}"),
            )
        }
    };
    if let Err(e) = between("advanceMs", advance.advance_ms, 0, Bound::ADVANCE_MS) {
        return refuse(StatusCode::BAD_REQUEST, e);
    }
    if !app.clock.advance(advance.advance_ms) {
        return refuse(
            StatusCode::CONFLICT,
            "the clock is the system clock; start the emulator with --manual-clock",
        );
    }
    let now = app.clock.now_ms();
    Json(json!({"nowMs": now, "now": iso(now)})).into_response()
}
