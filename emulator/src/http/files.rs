//! Generated media at public URLs (no auth, so `<audio>` and `<img>` can load them): synthesized on
//! first download and cached under `files/{taskId}/`, visible once their stage is reached, and
//! gone (404) once the task's retention has passed.

use std::path::PathBuf;
use std::sync::Arc;

use axum::extract::{Path, Request, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use tower::ServiceExt;
use tower_http::services::ServeFile;
use tunesmith_protocol::Op;

use super::{cover, video, vocals, wav};
use crate::media;
use crate::tasks::{Kind, Task, FIRST, SUCCESS};
use crate::AppState;

/// What a file name of a task stands for.
enum Product {
    /// Track `index` of this (music) task; `stream` names are served before completion.
    Track {
        index: usize,
    },
    Image {
        index: usize,
    },
    Cover {
        style: u8,
    },
    Wav,
    Stem {
        index: usize,
        of: usize,
    },
    Video,
}

fn not_found(what: &str) -> Response {
    (StatusCode::NOT_FOUND, format!("{what}\n")).into_response()
}

/// The product a file name stands for, if it exists at `now`.
fn resolve(task: &Task, name: &str, now: i64) -> Option<Product> {
    let success = task.has_reached(now, SUCCESS);
    match task.kind {
        Kind::Music => {
            let first = success || task.has_reached(now, FIRST);
            task.tracks.iter().enumerate().find_map(|(index, t)| {
                let early = index == 0 && first;
                let full = name == format!("{}.wav", t.id) && success;
                let stream = name == format!("{}-stream.wav", t.id) && (success || early);
                if full || stream {
                    Some(Product::Track { index })
                } else if name == format!("{}.png", t.id) && (success || early) {
                    Some(Product::Image { index })
                } else {
                    None
                }
            })
        }
        _ if !success => None,
        Kind::Cover => cover::IMAGES
            .iter()
            .position(|n| *n == name)
            .map(|i| Product::Cover { style: i as u8 }),
        Kind::Wav => (name == wav::FILE).then_some(Product::Wav),
        Kind::Video => (name == video::FILE).then_some(Product::Video),
        Kind::Vocal => {
            let names = vocals::stem_names(task);
            names
                .iter()
                .position(|s| vocals::stem_file(s) == name)
                .map(|index| Product::Stem {
                    index,
                    of: names.len(),
                })
        }
        Kind::Lyrics => None,
    }
}

pub async fn serve(
    State(app): State<AppState>,
    Path((task_id, name)): Path<(String, String)>,
    req: Request,
) -> Response {
    let Some(task) = app.tasks.get(&task_id) else {
        return not_found("no such file");
    };
    let now = app.clock.now_ms();
    if task.expired(now) {
        let _ = tokio::fs::remove_dir_all(app.dirs.files.join(&task.id)).await;
        return not_found("this file has expired");
    }
    let Some(product) = resolve(&task, &name, now) else {
        return not_found("no such file (or not generated yet)");
    };
    let path = match &product {
        Product::Track { index } => track_path(&app, &task, *index),
        _ => app.dirs.files.join(&task.id).join(&name),
    };
    if !path.exists() {
        let made = match product {
            Product::Track { index } => track_bytes(&app, &task, index).await.map(drop),
            other => match produce(&app, &task, other).await {
                Some(bytes) => app.dirs.write_atomic(&path, &bytes).ok(),
                None => None,
            },
        };
        if made.is_none() {
            return (
                StatusCode::INTERNAL_SERVER_ERROR,
                "could not generate the file\n",
            )
                .into_response();
        }
    }
    match ServeFile::new(&path).oneshot(req).await {
        Ok(res) => res.into_response(),
        Err(e) => (StatusCode::INTERNAL_SERVER_ERROR, format!("{e}\n")).into_response(),
    }
}

fn track_path(app: &AppState, task: &Task, index: usize) -> PathBuf {
    app.dirs
        .files
        .join(&task.id)
        .join(format!("{}.wav", task.tracks[index].id))
}

async fn blocking<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> Option<T> {
    tokio::task::spawn_blocking(f).await.ok()
}

/// The audio of a music track: cached, else synthesized (with the uploaded source mixed in for
/// the operations that take one) and cached.
async fn track_bytes(app: &AppState, task: &Arc<Task>, index: usize) -> Option<Vec<u8>> {
    let path = track_path(app, task, index);
    if let Ok(bytes) = tokio::fs::read(&path).await {
        return Some(bytes);
    }
    let takes_source = matches!(
        task.op(),
        Some(Op::UploadCover | Op::UploadExtend | Op::AddInstrumental | Op::AddVocals)
    );
    let source = match super::text(&task.param, "uploadUrl") {
        Some(url) if takes_source => super::uploads::fetch(app, url).await,
        _ => None,
    };
    let spec = task.tracks.get(index)?.clone();
    let bytes = blocking(move || {
        let source = source.filter(|s| media::wav_duration(s).is_some());
        media::synth_track(spec.seed, spec.seconds as f32, source.as_deref())
    })
    .await?;
    app.dirs.write_atomic(&path, &bytes).ok()?;
    Some(bytes)
}

/// For the operations that take a source audio: mixes it in at creation, so every track's
/// `duration` is its true length from the first record on (a mixed track lasts as long as its source).
pub async fn mix_source(app: &AppState, task: &mut Task, url: &str) {
    let Some(source) = super::uploads::fetch(app, url).await else {
        return;
    };
    if media::wav_duration(&source).is_none() {
        return;
    }
    let source = Arc::new(source);
    for spec in &mut task.tracks {
        let (seed, seconds, src) = (spec.seed, spec.seconds as f32, source.clone());
        let Some(bytes) = blocking(move || media::synth_track(seed, seconds, Some(&src))).await
        else {
            continue;
        };
        let Some(duration) = media::wav_duration(&bytes) else {
            continue;
        };
        let path = app
            .dirs
            .files
            .join(&task.id)
            .join(format!("{}.wav", spec.id));
        if app.dirs.write_atomic(&path, &bytes).is_ok() {
            spec.seconds = (f64::from(duration) * 1000.0).round() / 1000.0;
        }
    }
}

/// The source track of a WAV, separation or video task.
async fn parent_track(app: &AppState, task: &Task) -> Option<Vec<u8>> {
    let parent = app.tasks.get(task.parent_task.as_deref()?)?;
    track_bytes(app, &parent, task.music_index as usize).await
}

async fn produce(app: &AppState, task: &Task, product: Product) -> Option<Vec<u8>> {
    match product {
        Product::Track { .. } => None,
        Product::Image { index } => {
            let seed = task.tracks.get(index)?.seed;
            blocking(move || media::cover_png(seed, 0)).await
        }
        Product::Cover { style } => {
            let seed = task.seed;
            blocking(move || media::cover_png(seed, style)).await
        }
        Product::Wav => {
            let track = parent_track(app, task).await?;
            blocking(move || media::to_wav_44k(&track)).await
        }
        Product::Stem { index, of } => {
            let track = parent_track(app, task).await?;
            blocking(move || media::stems(&track, of).into_iter().nth(index)).await?
        }
        Product::Video => {
            let seed = task.seed;
            blocking(move || media::tiny_mp4(seed)).await
        }
    }
}
