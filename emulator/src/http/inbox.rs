//! A callback receiver on the music host, for the demo and the tests: `POST /inbox/{name}` records
//! every attempt (with the status it was answered) and `GET /inbox/{name}` lists them in order.
//! Query parameters shape the receiver: `status=500&times=3` answers 500 to the first 3 posts,
//! `delayMs=N` waits before answering (after recording).

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::AppState;

#[derive(Clone, Serialize)]
pub struct Item {
    pub at: String,
    /// The HTTP status this attempt was answered with.
    pub status: u16,
    /// The body as JSON when it parses, else as a string.
    pub body: Value,
}

#[derive(Default)]
pub struct Inbox {
    boxes: Mutex<HashMap<String, (Vec<Item>, u32)>>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Shape {
    status: Option<u16>,
    times: Option<u32>,
    delay_ms: Option<u64>,
}

pub async fn receive(
    State(app): State<AppState>,
    Path(name): Path<String>,
    Query(shape): Query<Shape>,
    body: Bytes,
) -> Response {
    let body = serde_json::from_slice(&body)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&body).into_owned()));
    let status = {
        let mut boxes = app.inbox.boxes.lock().unwrap_or_else(|e| e.into_inner());
        let (items, failed) = boxes.entry(name).or_default();
        let status = match shape.status {
            Some(s) if shape.times.is_none_or(|t| *failed < t) => s,
            _ => 200,
        };
        if status != 200 {
            *failed += 1;
        }
        items.push(Item {
            at: super::iso(app.clock.now_ms()),
            status,
            body,
        });
        status
    };
    if let Some(ms) = shape.delay_ms {
        tokio::time::sleep(Duration::from_millis(ms)).await;
    }
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::OK);
    (status, Json(json!({"received": true}))).into_response()
}

pub async fn list(State(app): State<AppState>, Path(name): Path<String>) -> Json<Value> {
    let boxes = app.inbox.boxes.lock().unwrap_or_else(|e| e.into_inner());
    let items = boxes.get(&name).map(|(i, _)| i.clone()).unwrap_or_default();
    Json(json!({ "items": items }))
}
