//! A callback receiver on the music host, for the demo and the tests: `POST /inbox/{name}` records
//! every attempt (with the status it was answered) and `GET /inbox/{name}` lists them in order.
//! Query parameters shape the receiver: `status=500&times=3` answers 500 to the first 3 posts,
//! `delayMs=N` waits before answering (after recording). The wait is real time on purpose: it
//! stands for a slow receiver, which the callback timeout measures in real time too.

use axum::body::Bytes;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};

use crate::app::AppState;
use crate::core::inbox::Shape;
use crate::families::common::iso;

fn refuse(msg: String) -> Response {
    (StatusCode::BAD_REQUEST, Json(json!({ "error": msg }))).into_response()
}

pub async fn receive(
    State(app): State<AppState>,
    Path(name): Path<String>,
    shape: Result<Query<Shape>, QueryRejection>,
    body: Bytes,
) -> Response {
    let shape = match shape {
        Ok(Query(shape)) => shape,
        Err(e) => return refuse(format!("invalid inbox shape: {}", e.body_text())),
    };
    if let Err(e) = shape.check() {
        return refuse(format!("invalid inbox shape: {e}"));
    }
    let body = serde_json::from_slice(&body)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&body).into_owned()));
    let at = iso(app.now_ms());
    let status = match app.inbox.receive(name, shape, at, body) {
        Ok(status) => status,
        Err(e) => {
            eprintln!("inbox: could not record a post: {e}");
            return (
                StatusCode::INTERNAL_SERVER_ERROR,
                Json(json!({"error": "could not record the post"})),
            )
                .into_response();
        }
    };
    if let Some(ms) = shape.delay_ms {
        app.host.runtime.sleep(ms).await;
    }
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::OK);
    (status, Json(json!({"received": true}))).into_response()
}

pub async fn list(State(app): State<AppState>, Path(name): Path<String>) -> Json<Value> {
    Json(json!({ "items": app.inbox.list(&name) }))
}
