//! The two routers, each built in one function: every route of the host, its layers and fallbacks.

use axum::extract::DefaultBodyLimit;
use axum::handler::Handler;
use axum::http::{HeaderName, Method, StatusCode};
use axum::middleware::{from_fn_with_state, map_response};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, on, post, MethodFilter, MethodRouter};
use axum::Router;
use tower_http::cors::{AllowHeaders, Any, CorsLayer};
use tunesmith_protocol::{CodeTable, Host, Op};

use super::envelope::ApiError;
use super::{
    admin, cover, edge, files, gate, inbox, lyrics, midi, music, openapi, persona, recovery,
    uploads, video, vocal_separation, voice, wav,
};
use crate::app::{App, AppState};

/// JSON bodies of the music host are small; larger ones get a clean 413.
const MUSIC_BODY_LIMIT: usize = 1024 * 1024;
/// Room for a 10 MB file in Base64 (about 13.4 MB) plus the JSON around it.
const BASE64_BODY_LIMIT: usize = 16 * 1024 * 1024;

/// Multipart framing around the file of a stream upload.
const MULTIPART_SLACK: u64 = 1024 * 1024;

fn stream_limit(app: &App) -> u64 {
    app.config.max_upload_mb.saturating_mul(1024 * 1024)
}

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

/// The handler of an operation, on its row's method: a match with no wildcard arm, so that a new
/// operation of the endpoint table does not compile until the emulator serves it. Where it is
/// served (host and path) is its row's too.
fn operation(op: Op, app: &AppState) -> MethodRouter<AppState> {
    match op {
        Op::Generate
        | Op::Extend
        | Op::UploadCover
        | Op::UploadExtend
        | Op::AddInstrumental
        | Op::AddVocals
        | Op::GenerateSounds
        | Op::Mashup => on_row(op, music::create),
        Op::BoostStyle => on_row(op, music::boost_style),
        Op::GetTask => on_row(op, music::get_task),
        Op::GetCredits => on_row(op, music::credits),
        Op::GetTimestampedLyrics => on_row(op, music::timestamped_lyrics),
        Op::ReplaceSection => on_row(op, music::replace_section),
        Op::GenerateCover => on_row(op, cover::create),
        Op::GetCover => on_row(op, cover::get),
        Op::ConvertToWav => on_row(op, wav::create),
        Op::GetWav => on_row(op, wav::get),
        Op::GenerateLyrics => on_row(op, lyrics::create),
        Op::GetLyrics => on_row(op, lyrics::get),
        Op::SeparateVocals => on_row(op, vocal_separation::create),
        Op::GetVocalSeparation => on_row(op, vocal_separation::get),
        Op::GenerateVideo => on_row(op, video::create),
        Op::GetVideo => on_row(op, video::get),
        Op::GeneratePersona => on_row(op, persona::create),
        Op::GenerateMidi => on_row(op, midi::create),
        Op::GetMidi => on_row(op, midi::get),
        Op::RecoverAudio => on_row(op, recovery::create),
        Op::GetRecovery => on_row(op, recovery::get),
        Op::ValidateVoice => on_row(op, voice::validate),
        Op::GetVoiceValidation => on_row(op, voice::validate_info),
        Op::RegenerateVoicePhrase => on_row(op, voice::regenerate),
        Op::CreateVoice => on_row(op, voice::create),
        Op::GetVoice => on_row(op, voice::get),
        Op::CheckVoice => on_row(op, voice::check),
        Op::UploadFromUrl => on_row(op, uploads::from_url),
        Op::UploadStream => on_row(op, uploads::stream).layer(DefaultBodyLimit::max(
            usize::try_from(stream_limit(app)).unwrap_or(usize::MAX),
        )),
        Op::UploadBase64 => {
            on_row(op, uploads::base64).layer(DefaultBodyLimit::max(BASE64_BODY_LIMIT))
        }
    }
}

/// `handler` on the method of `op`'s row.
fn on_row<H, T>(op: Op, handler: H) -> MethodRouter<AppState>
where
    H: Handler<T, AppState>,
    T: 'static,
{
    let filter = match op.endpoint().method {
        tunesmith_protocol::Method::Get => MethodFilter::GET,
        tunesmith_protocol::Method::Post => MethodFilter::POST,
    };
    on(filter, handler)
}

/// Every operation of `host` at its path (`segment` in place of `{svc}`).
fn operations(app: &AppState, host: Host, segment: &str) -> Router<AppState> {
    Op::ALL
        .into_iter()
        .filter(|op| op.endpoint().host == host)
        .fold(Router::new(), |api, op| {
            api.route(&op.path(segment), operation(op, app))
        })
}

pub fn music_router(app: AppState) -> Router {
    let svc = app.config.service_segment.clone();
    let api = operations(&app, Host::Music, &svc)
        .route_layer(from_fn_with_state(app.clone(), gate::gate))
        .layer(DefaultBodyLimit::max(MUSIC_BODY_LIMIT));
    let mut router = Router::new()
        .merge(api)
        .route("/openapi.json", get(openapi::serve))
        .route("/inbox/{name}", get(inbox::list).post(inbox::receive))
        .route("/files/{task}/{name}", get(files::serve))
        .route("/_emulator/requests", get(admin::requests))
        .route("/_emulator/stats", get(admin::stats))
        .route("/_emulator/faults", post(admin::faults))
        .route("/_emulator/credits", post(admin::credits))
        .route("/_emulator/clock", post(admin::clock))
        .method_not_allowed_fallback(music_not_found);
    router = match &app.config.www {
        // The page is served to GET and HEAD only: any other method on a path that is not an
        // operation is the service's own "invalid method or path" (a bare HTTP 405 from the file
        // server would read as the music family's rate limit).
        #[cfg(feature = "native")]
        Some(dir) => router.fallback_service(
            axum::routing::get_service(tower_http::services::ServeDir::new(dir).not_found_service(
                axum::handler::HandlerWithoutStateExt::into_service(music_not_found),
            ))
            .fallback(music_not_found),
        ),
        // The wasm build refuses `--www` when it starts.
        _ => router.fallback(music_not_found),
    };
    router
        .with_state(app.clone())
        .layer(cors())
        .layer(map_response(no_store_for_api))
        .layer(from_fn_with_state(
            (app, Host::Music, MUSIC_BODY_LIMIT as u64),
            edge::edge,
        ))
}

pub fn upload_router(app: AppState) -> Router {
    // What a refusal reads and discards at most: the largest body this host accepts.
    let largest_upload = stream_limit(&app).max(BASE64_BODY_LIMIT as u64) + MULTIPART_SLACK;
    let api =
        operations(&app, Host::Upload, "").route_layer(from_fn_with_state(app.clone(), gate::gate));
    Router::new()
        .merge(api)
        .route("/files/{*path}", get(uploads::serve_path))
        .route("/download/{id}", get(uploads::serve_download))
        .fallback(upload_not_found)
        .method_not_allowed_fallback(upload_wrong_method)
        .with_state(app.clone())
        .layer(cors())
        .layer(from_fn_with_state(
            (app, Host::Upload, largest_upload),
            edge::edge,
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
    let mut e = ApiError::not_found(CodeTable::Music, "Invalid request method or path");
    e.http = StatusCode::NOT_FOUND;
    e.into_response()
}

async fn upload_not_found() -> Response {
    ApiError::not_found(CodeTable::Upload, "Resource or endpoint does not exist").into_response()
}

async fn upload_wrong_method() -> Response {
    ApiError::new(CodeTable::Upload, 405, "Unsupported request method").into_response()
}
