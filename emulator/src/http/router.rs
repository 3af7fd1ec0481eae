//! The two routers (one function each) and what handlers share: body and query parsing,
//! validation against the protocol's rules, record lookup and file URLs.

pub mod admin;
pub mod cover;
pub mod files;
pub mod inbox;
pub mod lyrics;
pub mod music;
pub mod openapi;
pub mod uploads;
pub mod video;
pub mod vocals;
pub mod wav;

use std::collections::HashMap;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{DefaultBodyLimit, Query};
use axum::http::{HeaderName, Method, StatusCode};
use axum::middleware::{from_fn_with_state, map_response};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use serde_json::{Map, Value};
use tower_http::cors::{AllowHeaders, Any, CorsLayer};
use tower_http::services::ServeDir;
use tunesmith_protocol::{Family, Host, Op};

use crate::envelope::ApiError;
use crate::gate::Caller;
use crate::tasks::{self, Kind, Task};
use crate::AppState;

/// JSON bodies of the music host are small; larger ones get a clean 413.
const MUSIC_BODY_LIMIT: usize = 1024 * 1024;
/// Room for a 10 MB file in Base64 (about 13.4 MB) plus the JSON around it.
const BASE64_BODY_LIMIT: usize = 16 * 1024 * 1024;

fn cors() -> CorsLayer {
    CorsLayer::new()
        .allow_origin(Any)
        .allow_methods([Method::GET, Method::POST, Method::OPTIONS])
        .allow_headers(AllowHeaders::mirror_request())
        .expose_headers([
            HeaderName::from_static("retry-after"),
            HeaderName::from_static("retry-after-ms"),
            HeaderName::from_static("x-request-id"),
        ])
        .max_age(std::time::Duration::from_secs(600))
}

pub fn music_router(app: AppState) -> Router {
    let svc = app.config.service_segment.clone();
    let p = |op: Op| op.path(&svc);
    let api = Router::new()
        .route(&p(Op::Generate), post(music::create))
        .route(&p(Op::Extend), post(music::create))
        .route(&p(Op::UploadCover), post(music::create))
        .route(&p(Op::UploadExtend), post(music::create))
        .route(&p(Op::AddInstrumental), post(music::create))
        .route(&p(Op::AddVocals), post(music::create))
        .route(&p(Op::BoostStyle), post(music::boost_style))
        .route(&p(Op::GetTask), get(music::get_task))
        .route(&p(Op::GetCredits), get(music::credits))
        .route(
            &p(Op::GetTimestampedLyrics),
            post(music::timestamped_lyrics),
        )
        .route(&p(Op::GenerateCover), post(cover::create))
        .route(&p(Op::GetCover), get(cover::get))
        .route(&p(Op::ConvertToWav), post(wav::create))
        .route(&p(Op::GetWav), get(wav::get))
        .route(&p(Op::GenerateLyrics), post(lyrics::create))
        .route(&p(Op::GetLyrics), get(lyrics::get))
        .route(&p(Op::SeparateVocals), post(vocals::create))
        .route(&p(Op::GetVocalSeparation), get(vocals::get))
        .route(&p(Op::GenerateVideo), post(video::create))
        .route(&p(Op::GetVideo), get(video::get))
        .route_layer(from_fn_with_state(app.clone(), crate::gate::gate))
        .layer(DefaultBodyLimit::max(MUSIC_BODY_LIMIT));
    let mut router = Router::new()
        .merge(api)
        .route("/openapi.json", get(openapi::serve))
        .route("/inbox/{name}", get(inbox::list).post(inbox::receive))
        .route("/files/{task}/{name}", get(files::serve))
        .nest("/_emulator", admin::router())
        .method_not_allowed_fallback(music_not_found);
    router = match &app.config.www {
        Some(dir) => router.fallback_service(ServeDir::new(dir).not_found_service(
            axum::handler::HandlerWithoutStateExt::into_service(music_not_found),
        )),
        None => router.fallback(music_not_found),
    };
    router
        .with_state(app.clone())
        .layer(cors())
        .layer(map_response(no_store_for_api))
        .layer(from_fn_with_state(
            (app, Host::Music),
            crate::requests::edge,
        ))
}

pub fn upload_router(app: AppState) -> Router {
    let api = Router::new()
        .route(&Op::UploadFromUrl.path(""), post(uploads::from_url))
        .route(
            &Op::UploadStream.path(""),
            post(uploads::stream).layer(DefaultBodyLimit::max(
                (app.config.max_upload_mb as usize).saturating_mul(1024 * 1024),
            )),
        )
        .route(
            &Op::UploadBase64.path(""),
            post(uploads::base64).layer(DefaultBodyLimit::max(BASE64_BODY_LIMIT)),
        )
        .route_layer(from_fn_with_state(app.clone(), crate::gate::gate));
    Router::new()
        .merge(api)
        .route("/files/{*path}", get(uploads::serve_path))
        .route("/download/{id}", get(uploads::serve_download))
        .fallback(upload_not_found)
        .method_not_allowed_fallback(upload_wrong_method)
        .with_state(app.clone())
        .layer(cors())
        .layer(from_fn_with_state(
            (app, Host::Upload),
            crate::requests::edge,
        ))
}

/// API answers describe changing tasks: caches must not keep them.
async fn no_store_for_api(mut res: Response) -> Response {
    if !res.headers().contains_key("cache-control") {
        res.headers_mut().insert(
            "cache-control",
            axum::http::HeaderValue::from_static("no-store"),
        );
    }
    res
}

/// Unknown paths and wrong methods: HTTP 404 with envelope code 404.
async fn music_not_found() -> Response {
    let mut e = ApiError::not_found(Family::Music, "Invalid request method or path");
    e.http = StatusCode::NOT_FOUND;
    e.into_response()
}

async fn upload_not_found() -> Response {
    ApiError::not_found(Family::Upload, "Resource or endpoint does not exist").into_response()
}

async fn upload_wrong_method() -> Response {
    ApiError::new(Family::Upload, 405, "Unsupported request method").into_response()
}

/// The JSON object of a request body; malformed JSON is 400 on every family.
fn json_body(
    family: Family,
    body: Result<Bytes, BytesRejection>,
) -> Result<Map<String, Value>, ApiError> {
    let bytes = body.map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::new(family, 413, "Request body too large")
        } else {
            ApiError::new(family, 400, format!("Could not read the request body: {e}"))
        }
    })?;
    match serde_json::from_slice::<Value>(&bytes) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(ApiError::new(
            family,
            400,
            "Format error: the body must be a JSON object",
        )),
        Err(e) => Err(ApiError::new(
            family,
            400,
            format!("Format error: parameters not valid JSON ({e})"),
        )),
    }
}

/// Query parameters as a JSON object of strings, for the protocol's validator.
pub fn query_map(
    family: Family,
    query: Result<Query<HashMap<String, String>>, QueryRejection>,
) -> Result<Map<String, Value>, ApiError> {
    let Query(q) = query.map_err(|e| ApiError::new(family, 400, format!("Invalid query: {e}")))?;
    Ok(q.into_iter().map(|(k, v)| (k, Value::String(v))).collect())
}

fn validate(op: Op, fields: &Map<String, Value>) -> Result<(), ApiError> {
    op.validate(fields)
        .map_err(|e| ApiError::invalid(op.endpoint().family, &e))
}

/// The JSON body of a call to `op`, checked against the protocol's rules for it.
pub fn valid_body(
    op: Op,
    body: Result<Bytes, BytesRejection>,
) -> Result<Map<String, Value>, ApiError> {
    let param = json_body(op.endpoint().family, body)?;
    validate(op, &param)?;
    Ok(param)
}

pub fn text<'a>(fields: &'a Map<String, Value>, name: &str) -> Option<&'a str> {
    fields
        .get(name)
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
}

/// The task a status query names, if it is of the family the query serves.
pub fn task_for_query(
    app: &AppState,
    op: Op,
    kind: Kind,
    query: Result<Query<HashMap<String, String>>, QueryRejection>,
) -> Result<Arc<Task>, ApiError> {
    let family = op.endpoint().family;
    let q = query_map(family, query)?;
    validate(op, &q)?;
    let id = text(&q, "taskId").unwrap_or_default();
    app.tasks
        .get(id)
        .filter(|t| t.kind == kind)
        .ok_or_else(|| ApiError::not_found(family, format!("No such task: taskId {id}")))
}

/// The music task `task_id` and its track `audio_id` (or track `index` when no audioId is given).
pub fn music_track(
    app: &AppState,
    family: Family,
    task_id: Option<&str>,
    audio_id: Option<&str>,
    index: usize,
) -> Result<(Arc<Task>, usize), ApiError> {
    if let Some(audio) = audio_id {
        let (task, i) = app.tasks.find_audio(audio).ok_or_else(|| {
            ApiError::not_found(family, format!("No such track: audioId {audio}"))
        })?;
        if task_id.is_some_and(|t| t != task.id) {
            return Err(ApiError::not_found(
                family,
                format!(
                    "Track {audio} does not belong to task {}",
                    task_id.unwrap_or_default()
                ),
            ));
        }
        return Ok((task, i));
    }
    let id = task_id.unwrap_or_default();
    let task = app
        .tasks
        .get(id)
        .filter(|t| t.kind == Kind::Music)
        .ok_or_else(|| ApiError::not_found(family, format!("No such music task: taskId {id}")))?;
    if index >= task.tracks.len() {
        return Err(ApiError::not_found(
            family,
            format!("Task {id} has no track {index}"),
        ));
    }
    Ok((task, index))
}

/// Creates a task of `op` that works on one track of a music task (WAV, vocal separation, video):
/// the track is named by `audioId`, else it is the first of `taskId`.
pub fn create_track_job(
    app: &AppState,
    caller: &Caller,
    op: Op,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let param = valid_body(op, body)?;
    let family = op.endpoint().family;
    let (parent, i) = music_track(
        app,
        family,
        text(&param, "taskId"),
        text(&param, "audioId"),
        0,
    )?;
    let mut task = tasks::draft(app, caller, param)?;
    task.parent_task = Some(parent.id.clone());
    task.parent_audio = Some(parent.tracks[i].id.clone());
    task.music_index = i as i64;
    tasks::create(app, caller, task)
}

/// Public URL of a generated file.
pub fn file_url(app: &AppState, task_id: &str, name: &str) -> String {
    format!("{}/files/{task_id}/{name}", app.music_base)
}

pub fn iso(ms: i64) -> String {
    tunesmith_protocol::time::iso_from_epoch_ms(ms)
}

/// Completion time of a finished task, else null.
pub fn complete_time(task: &Task, now: i64) -> Option<String> {
    task.is_done(now).then(|| iso(task.done_ms()))
}

/// The callback of `phase` of a task, in its family's shape.
pub fn callback_body(app: &AppState, task: &Task, phase: usize) -> Value {
    match task.kind {
        Kind::Music => music::callback(app, task, phase),
        Kind::Cover => cover::callback(app, task, phase),
        Kind::Wav => wav::callback(app, task, phase),
        Kind::Lyrics => lyrics::callback(task, phase),
        Kind::Vocal => vocals::callback(app, task, phase),
        Kind::Video => video::callback(app, task, phase),
    }
}
