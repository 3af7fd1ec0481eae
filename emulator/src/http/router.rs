//! The two routers, each built in one function: every route of the host, its layers and fallbacks.

use axum::extract::DefaultBodyLimit;
use axum::http::{HeaderName, Method, StatusCode};
use axum::middleware::{from_fn_with_state, map_response};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
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
        .route(&p(Op::SeparateVocals), post(vocal_separation::create))
        .route(&p(Op::GetVocalSeparation), get(vocal_separation::get))
        .route(&p(Op::GenerateVideo), post(video::create))
        .route(&p(Op::GetVideo), get(video::get))
        .route(&p(Op::GenerateSounds), post(music::create))
        .route(&p(Op::Mashup), post(music::create))
        .route(&p(Op::ReplaceSection), post(music::replace_section))
        .route(&p(Op::GeneratePersona), post(persona::create))
        .route(&p(Op::GenerateMidi), post(midi::create))
        .route(&p(Op::GetMidi), get(midi::get))
        .route(&p(Op::RecoverAudio), post(recovery::create))
        .route(&p(Op::GetRecovery), get(recovery::get))
        .route(&p(Op::ValidateVoice), post(voice::validate))
        .route(&p(Op::GetVoiceValidation), get(voice::validate_info))
        .route(&p(Op::RegenerateVoicePhrase), post(voice::regenerate))
        .route(&p(Op::CreateVoice), post(voice::create))
        .route(&p(Op::GetVoice), get(voice::get))
        .route(&p(Op::CheckVoice), post(voice::check))
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
    let api = Router::new()
        .route(&Op::UploadFromUrl.path(""), post(uploads::from_url))
        .route(
            &Op::UploadStream.path(""),
            post(uploads::stream).layer(DefaultBodyLimit::max(
                usize::try_from(stream_limit(&app)).unwrap_or(usize::MAX),
            )),
        )
        .route(
            &Op::UploadBase64.path(""),
            post(uploads::base64).layer(DefaultBodyLimit::max(BASE64_BODY_LIMIT)),
        )
        .route_layer(from_fn_with_state(app.clone(), gate::gate));
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
