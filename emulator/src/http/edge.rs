//! The outermost layer of both hosts: X-Request-Id and CORP on every answer, the request log, and
//! request bodies with a read timeout, read to the end before an answer that left them unread.

use std::time::Duration;

use axum::extract::{Request, State};
use axum::http::{HeaderValue, Method};
use axum::middleware::Next;
use axum::response::Response;
use tunesmith_protocol::time::iso_from_epoch_ms;
use tunesmith_protocol::Host;

use super::body;
use super::envelope::Outcome;
use crate::app::AppState;
use crate::core::log::Entry;

/// The outermost layer of both hosts: request id and CORP on every answer, the request log, and
/// the request body's read timeout and draining (up to `largest_body`, what the host accepts).
pub async fn edge(
    State((app, host, largest_body)): State<(AppState, Host, u64)>,
    req: Request,
    next: Next,
) -> Response {
    let read_timeout = Duration::from_millis(app.config.read_timeout_ms);
    let (req, unread) = body::guard(req, read_timeout);
    let logged = req.method() != Method::OPTIONS && req.uri().path().starts_with("/api/");
    let pending = logged.then(|| {
        let tag = req
            .headers()
            .get("x-emulator-tag")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let path = req.uri().path().to_owned();
        Entry {
            seq: 0,
            host: match host {
                Host::Music => "music",
                Host::Upload => "upload",
            },
            method: req.method().to_string(),
            op: app.op_of(req.method(), &path).map(|op| op.endpoint().name),
            path,
            query: req.uri().query().unwrap_or("").to_owned(),
            code: 0,
            tag,
            at: iso_from_epoch_ms(app.now_ms()),
        }
    });
    let mut res = next.run(req).await;
    body::drain(unread, largest_body, read_timeout).await;
    if let Some(mut entry) = pending {
        entry.code = res
            .extensions()
            .get::<Outcome>()
            .map_or(i64::from(res.status().as_u16()), |o| o.0);
        app.log.record(entry);
    }
    let id = app.request_id();
    let headers = res.headers_mut();
    if let Ok(v) = HeaderValue::from_str(&id) {
        headers.insert("x-request-id", v);
    }
    headers.insert(
        "cross-origin-resource-policy",
        HeaderValue::from_static("cross-origin"),
    );
    res
}
