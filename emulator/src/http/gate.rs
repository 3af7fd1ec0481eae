//! The checks every API request passes before its handler runs, in this order: authentication,
//! `X-Emulate-Code`, `X-Emulate-Stage-Delay-Ms`, armed faults, rate limit, random faults. Refused
//! requests change nothing.

use axum::extract::{Request, State};
use axum::http::HeaderMap;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use tunesmith_protocol::codes::meaning;
use tunesmith_protocol::{CodeTable, ErrorKind};

use super::auth;
use super::envelope::ApiError;
use super::extract::Caller;
use crate::app::AppState;
use crate::core::bounds::Bound;
use crate::core::faults::{default_retry_after_ms, Action};

fn answer(table: CodeTable, code: i64, retry_after_ms: Option<u64>) -> Response {
    let mut err = ApiError::new(table, code, meaning(table, code));
    err.retry_after_ms = retry_after_ms;
    err.into_response()
}

pub async fn gate(State(app): State<AppState>, mut req: Request, next: Next) -> Response {
    let Some(op) = app.op_of(req.method(), req.uri().path()) else {
        return next.run(req).await;
    };
    let table = op.endpoint().codes;
    let Some(key) = auth::bearer(req.headers())
        .filter(|k| app.keys.contains(*k))
        .map(str::to_owned)
    else {
        return ApiError::kind(
            table,
            ErrorKind::Unauthorized,
            "Unauthorized: missing or invalid bearer token in the Authorization header",
        )
        .into_response();
    };
    let tag = req
        .headers()
        .get("x-emulator-tag")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);

    if let Some(Action::Answer {
        code,
        retry_after_ms,
    }) = emulated(table, req.headers())
    {
        return answer(table, code, retry_after_ms);
    }
    let stage_delay_ms = match stage_delay(req.headers()) {
        Ok(ms) => ms,
        Err(msg) => return ApiError::kind(table, ErrorKind::Invalid, msg).into_response(),
    };
    match app.faults.take_armed(tag.as_deref(), op.endpoint().name) {
        Some(Action::Answer {
            code,
            retry_after_ms,
        }) => return answer(table, code, retry_after_ms),
        // A slow answer is real latency, as the client's timers measure it.
        Some(Action::Delay(ms)) => app.host.runtime.sleep(ms).await,
        None => {}
    }
    if let Err(wait_ms) = app.rate.check(&key, app.now_ms()) {
        return ApiError::kind(
            table,
            ErrorKind::RateLimited,
            format!(
                "{}: at most {} requests per 10 s per key",
                meaning(
                    table,
                    tunesmith_protocol::codes::code_for(table, ErrorKind::RateLimited)
                ),
                app.config.rate_limit
            ),
        )
        .with_retry_after_ms(wait_ms)
        .into_response();
    }
    if let Some(Action::Answer {
        code,
        retry_after_ms,
    }) = app.faults.random(table)
    {
        return answer(table, code, retry_after_ms);
    }
    req.extensions_mut().insert(Caller {
        key,
        tag,
        op,
        stage_delay_ms,
    });
    next.run(req).await
}

/// The header that sets the stage delay of the task a create request makes.
pub const STAGE_DELAY_HEADER: &str = "x-emulate-stage-delay-ms";

/// `X-Emulate-Stage-Delay-Ms: N`: the stages of the task this request creates are N ms apart
/// (`--stage-delay-ms` otherwise), for a test that must see each stage, or a demo that shows them
/// slowly. At most [`Bound::DELAY_MS`]; anything else is refused, naming the header and the rule.
fn stage_delay(headers: &HeaderMap) -> Result<Option<u64>, String> {
    let Some(value) = headers.get(STAGE_DELAY_HEADER) else {
        return Ok(None);
    };
    let rule = || {
        format!(
            "X-Emulate-Stage-Delay-Ms must be a whole number of milliseconds from 0 to {}",
            Bound::DELAY_MS
        )
    };
    let ms: u64 = value
        .to_str()
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .ok_or_else(|| {
            format!(
                "{}; got {:?}",
                rule(),
                String::from_utf8_lossy(value.as_bytes())
            )
        })?;
    if ms > Bound::DELAY_MS {
        return Err(format!("{}; got {ms}", rule()));
    }
    Ok(Some(ms))
}

/// `X-Emulate-Code: N` (with `X-Emulate-Retry-After: SECONDS`, fractional allowed; by default a
/// Retry-After only where the table's code means "try later").
fn emulated(table: CodeTable, headers: &HeaderMap) -> Option<Action> {
    let code: i64 = headers
        .get("x-emulate-code")?
        .to_str()
        .ok()?
        .trim()
        .parse()
        .ok()?;
    let explicit = headers
        .get("x-emulate-retry-after")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s >= 0.0)
        .map(|s| (s * 1000.0).round() as u64);
    Some(Action::Answer {
        code,
        retry_after_ms: explicit.or(default_retry_after_ms(table, code)),
    })
}
