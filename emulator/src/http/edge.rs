//! The outermost layer of both hosts: X-Request-Id and CORP on every answer, and the request log.

use axum::extract::{Request, State};
use axum::http::{HeaderValue, Method};
use axum::middleware::Next;
use axum::response::Response;
use tunesmith_protocol::time::iso_from_epoch_ms;
use tunesmith_protocol::Host;

use super::envelope::Outcome;
use crate::app::AppState;
use crate::core::log::Entry;

/// The outermost layer of both hosts: request id and CORP on every answer, and the request log.
pub async fn edge(
    State((app, host)): State<(AppState, Host)>,
    req: Request,
    next: Next,
) -> Response {
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
