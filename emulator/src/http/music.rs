//! Handlers of the music operations: those that create music tasks (the six of songs, sounds,
//! mashup, replace-section), record-info, credits, style boost and timestamped lyrics.

use axum::extract::State;
use axum::response::Response;
use serde_json::{Map, Value};
use tunesmith_protocol::TaskFamily;
use tunesmith_protocol::{CodeTable, Op};
use url::Url;

use super::envelope::{ok, ApiError};
use super::extract::{Caller, ValidBody, ValidQuery};
use super::tasks::{create as create_task, draft, queried};
use crate::app::AppState;
use crate::core::create::charge;
use crate::families::common::text;
use crate::families::{music, references};
use crate::products::{make_from_sources, mix_source};
use crate::{media, sources};

const F: CodeTable = CodeTable::Music;

/// Creates a task of the six song operations, sounds or a mashup.
pub async fn create(
    State(app): State<AppState>,
    caller: Caller,
    ValidBody(param): ValidBody,
) -> Result<Response, ApiError> {
    super::persona::check_use(&app, &param)?;
    let table = caller.op.endpoint().codes;
    check_references(&app, table, &param).await?;
    let mut task = draft(&app, &caller, param)?;
    let parent = if caller.op == Op::Extend {
        let audio_id = text(&task.param, "audioId").unwrap_or_default();
        Some(
            app.tasks
                .music_track(None, Some(audio_id), 0)
                .map_err(|e| ApiError::from_core(table, e))?,
        )
    } else {
        None
    };
    music::prepare(&mut task, parent.as_ref().map(|(t, i)| (&**t, *i)), || {
        app.random_uuid()
    })
    .map_err(|e| ApiError::from_core(table, e))?;
    if caller.op == Op::Mashup {
        make_from_sources(&app, &mut task).await;
    } else if let Some(url) = text(&task.param, "uploadUrl").map(str::to_owned) {
        mix_source(&app, &mut task, &url).await;
    }
    create_task(&app, &caller, task)
}

/// A reference file as fetched: its first bytes, its size and, for the kinds whose length is
/// only in the whole file (MP4, MOV), the whole file when not too large to read.
struct Fetched {
    head: Vec<u8>,
    size: u64,
    whole: Option<Vec<u8>>,
}

enum Unfetched {
    TooLarge,
    Failed(String),
}

/// Fetches a reference as source audio is fetched (a file of this upload host from storage, else
/// a download under the URL rules), refusing more than `cap` bytes.
async fn fetch_reference(app: &AppState, url: &str, cap: u64) -> Result<Fetched, Unfetched> {
    let ours = Url::parse(url).is_ok_and(|u| sources::is_upload_url(app, &u));
    if ours {
        let bytes = sources::fetch(app, url).await.ok_or_else(|| {
            Unfetched::Failed("no such file on the upload host (expired or never stored)".into())
        })?;
        if bytes.len() as u64 > cap {
            return Err(Unfetched::TooLarge);
        }
        let head = bytes[..bytes.len().min(512)].to_vec();
        return Ok(Fetched {
            head,
            size: bytes.len() as u64,
            whole: Some(bytes),
        });
    }
    match sources::download(app, url, cap).await {
        Ok(d) => {
            let whole = (references::needs_whole(&d.head) && d.size <= references::MAX_READ_WHOLE)
                .then(|| d.file.read_all().ok())
                .flatten();
            Ok(Fetched {
                head: d.head,
                size: d.size,
                whole,
            })
        }
        Err(e) if e.starts_with("the remote file is larger than") => Err(Unfetched::TooLarge),
        // The download's words name the upload's field; here the item is named instead.
        Err(e) => Err(Unfetched::Failed(
            e.replace("could not download `fileUrl`: ", "")
                .replace("`fileUrl` ", "the URL "),
        )),
    }
}

/// generate's references (`imageUrls`, `videoUrls`, `audioUrls`), each fetched and checked before
/// anything is charged: 451 (the service's code for source files that could not be downloaded)
/// when one cannot be fetched, else the rule a file breaks: its kind by its first bytes (400), its
/// size (413 in the music table), its length where its header tells (400).
async fn check_references(
    app: &AppState,
    table: CodeTable,
    param: &Map<String, Value>,
) -> Result<(), ApiError> {
    for (field, kind) in references::FIELDS {
        let Some(urls) = param.get(field).and_then(Value::as_array) else {
            continue;
        };
        for (i, url) in urls.iter().filter_map(Value::as_str).enumerate() {
            let n = i + 1;
            let got = fetch_reference(app, url, kind.max_bytes()).await;
            let file = match got {
                Ok(file) => file,
                Err(Unfetched::TooLarge) => {
                    return Err(ApiError::invalid(
                        table,
                        &references::too_large(field, kind, n),
                    ))
                }
                Err(Unfetched::Failed(why)) => {
                    return Err(ApiError::new(
                        table,
                        451,
                        format!("Could not fetch `{field}` item {n} ({url}): {why}"),
                    ))
                }
            };
            references::check(field, kind, n, &file.head, file.size, file.whole.as_deref())
                .map_err(|e| ApiError::invalid(table, &e))?;
        }
    }
    Ok(())
}

/// Replace-section: regenerates a window of a generated or uploaded track. The window's rules
/// that need the track's length (at most half of it, inside it) are checked here, before any
/// credit is spent; a source that cannot be fetched is 451.
pub async fn replace_section(
    State(app): State<AppState>,
    caller: Caller,
    ValidBody(param): ValidBody,
) -> Result<Response, ApiError> {
    const C: CodeTable = CodeTable::Cover;
    let parent = match text(&param, "audioId") {
        Some(audio) => Some(
            app.tasks
                .music_track(text(&param, "taskId"), Some(audio), 0)
                .map_err(|e| ApiError::from_core(C, e))?,
        ),
        None => None,
    };
    let seconds = match &parent {
        Some((t, i)) => Some(t.tracks[*i].seconds),
        None => {
            let url = text(&param, "uploadUrl").unwrap_or_default();
            let source = sources::fetch(&app, url).await.ok_or_else(|| {
                ApiError::new(
                    C,
                    451,
                    format!("Could not fetch the source audio at uploadUrl {url}"),
                )
            })?;
            media::wav_duration(&source).map(f64::from)
        }
    };
    let at = |k: &str| param.get(k).and_then(Value::as_f64).unwrap_or(0.0);
    let (start, end) = (at("infillStartS"), at("infillEndS"));
    if let Some(total) = seconds {
        if end > total + 1e-9 {
            return Err(ApiError::new(C, 422, format!(
                "`infillEndS` must be within the track, which lasts {total} seconds (got {end}) (rule: range)"
            )));
        }
        if end - start > total / 2.0 + 1e-9 {
            return Err(ApiError::new(C, 422, format!(
                "`infillEndS` must make a window of at most half the track ({} of {total} seconds; got {}) (rule: range)",
                (total * 50.0).round() / 100.0,
                ((end - start) * 100.0).round() / 100.0
            )));
        }
    }
    let mut task = draft(&app, &caller, param)?;
    music::prepare(&mut task, None, || app.random_uuid()).map_err(|e| ApiError::from_core(C, e))?;
    if let Some((t, i)) = &parent {
        task.parent_task = Some(t.id.clone());
        task.parent_audio = Some(t.tracks[*i].id.clone());
        task.music_index = *i as i64;
        task.model = t.model.clone();
    }
    make_from_sources(&app, &mut task).await;
    create_task(&app, &caller, task)
}

pub async fn get_task(
    State(app): State<AppState>,
    ValidQuery(q): ValidQuery,
) -> Result<Response, ApiError> {
    let task = queried(&app, Op::GetTask, TaskFamily::Music, &q)?;
    Ok(ok(music::record(&task, app.now_ms(), app.links())))
}

pub async fn credits(State(app): State<AppState>, caller: Caller) -> Response {
    ok(app.credits.balance(&caller.key))
}

/// Style boost answers at once; it costs 1 credit.
pub async fn boost_style(
    State(app): State<AppState>,
    caller: Caller,
    ValidBody(param): ValidBody,
) -> Result<Response, ApiError> {
    let cost = charge(&app.credits, &caller.key, Op::BoostStyle, &param)
        .map_err(|e| ApiError::from_core(F, e))?;
    let content = text(&param, "content").unwrap_or_default();
    Ok(ok(music::style_boost(
        app.random_id(),
        content,
        cost,
        app.credits.balance(&caller.key),
        app.now_ms(),
    )))
}

/// Timestamped lyrics answer at once: the track's words spread over its duration.
pub async fn timestamped_lyrics(
    State(app): State<AppState>,
    ValidBody(param): ValidBody,
) -> Result<Response, ApiError> {
    let index = param.get("musicIndex").and_then(Value::as_u64).unwrap_or(0) as usize;
    let (task, i) = app
        .tasks
        .music_track(text(&param, "taskId"), text(&param, "audioId"), index)
        .map_err(|e| ApiError::from_core(F, e))?;
    Ok(ok(music::timestamped_lyrics(&task.tracks[i])))
}
