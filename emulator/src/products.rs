//! Generated media on disk: synthesized on first need and cached under `files/{taskId}/`; a
//! source audio mixed into a music task's tracks at creation (or the task failed when the source
//! is not audio).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use tunesmith_protocol::status::generation_failed;
use tunesmith_protocol::waiter::TaskKind;

use crate::app::AppState;
use crate::core::task::Task;
use crate::families::common::text;
use crate::families::files::Product;
use crate::families::{music, vocal_separation};
use crate::{media, sources};

/// Where a product of a task is kept.
pub fn path(app: &AppState, task: &Task, product: Product, name: &str) -> PathBuf {
    let dir = app.dirs.files.join(&task.id);
    match product {
        Product::Track { index } => dir.join(music::audio_file(&task.tracks[index])),
        _ => dir.join(name),
    }
}

async fn blocking<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> Option<T> {
    tokio::task::spawn_blocking(f).await.ok()
}

/// Makes and stores a product that is not on disk yet; `None` when it cannot be made.
pub async fn make(app: &AppState, task: &Arc<Task>, product: Product, path: &Path) -> Option<()> {
    match product {
        Product::Track { index } => track_bytes(app, task, index).await.map(drop),
        other => {
            let bytes = produce(app, task, other).await?;
            app.dirs.write_atomic(path, &bytes).ok()
        }
    }
}

/// The audio of a music track: cached, else synthesized (with the uploaded source mixed in for
/// the operations that take one) and cached.
async fn track_bytes(app: &AppState, task: &Arc<Task>, index: usize) -> Option<Vec<u8>> {
    let path = path(app, task, Product::Track { index }, "");
    if let Ok(bytes) = tokio::fs::read(&path).await {
        return Some(bytes);
    }
    let source = track_source(app, task).await;
    let spec = task.tracks.get(index)?.clone();
    let bytes =
        blocking(move || media::synth_track(spec.seed, spec.seconds as f32, source.as_deref()))
            .await?;
    app.dirs.write_atomic(&path, &bytes).ok()?;
    Some(bytes)
}

/// The uploaded audio mixed into a music task's tracks, for the operations that take one.
async fn track_source(app: &AppState, task: &Task) -> Option<Vec<u8>> {
    match text(&task.param, "uploadUrl") {
        Some(url) if music::takes_source(task.op()) => sources::fetch(app, url)
            .await
            .filter(|s| media::wav_duration(s).is_some()),
        _ => None,
    }
}

/// For the operations that take a source audio: mixes it in at creation, so every track's
/// `duration` is its true length from the first record on (a mixed track lasts as long as its
/// source). A source that is not audio fails the task as the service does (callback code 400).
pub async fn mix_source(app: &AppState, task: &mut Task, url: &str) {
    let Some(source) = sources::fetch(app, url).await else {
        return;
    };
    if let Some(failure) = music::source_failure(&source) {
        task.fail_at_once(generation_failed(TaskKind::Music), failure);
        return;
    }
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
        let path = app.dirs.files.join(&task.id).join(music::audio_file(spec));
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
        Product::Stem { index } => {
            let parent = app.tasks.get(task.parent_task.as_deref()?)?;
            let spec = parent.tracks.get(task.music_index as usize)?.clone();
            let source = track_source(app, &parent).await;
            let name = vocal_separation::stem_names(task).get(index)?;
            let parts = vocal_separation::stem_parts(name);
            blocking(move || {
                media::part_track(spec.seed, spec.seconds as f32, source.as_deref(), parts)
            })
            .await
        }
        Product::Video => {
            let seed = task.seed;
            blocking(move || media::tiny_mp4(seed)).await
        }
    }
}
