//! Generated media on disk: synthesized on first need and cached under `files/{taskId}/`; a
//! source audio mixed into a music task's tracks at creation (or the task failed when the source
//! is not audio); sounds, mashups and replaced sections made as their requests ask.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use tunesmith_protocol::Op;
use tunesmith_protocol::TaskFamily;

use crate::app::AppState;
use crate::core::task::Task;
use crate::families::common::text;
use crate::families::files::Product;
use crate::families::{music, recovery, vocal_separation};
use crate::{media, sources};

/// Where a product of a task is kept.
pub fn path(app: &AppState, task: &Task, product: Product, name: &str) -> PathBuf {
    let dir = app.dirs.files.join(&task.id);
    match product {
        Product::Track { index } => dir.join(music::audio_file(&task.tracks[index])),
        Product::Recovered { index } => dir.join(recovery::file(&task.tracks[index])),
        _ => dir.join(name),
    }
}

/// Makes and stores a product that is not on disk yet; `None` when it cannot be made.
pub async fn make(app: &AppState, task: &Task, product: Product, path: &Path) -> Option<()> {
    match product {
        Product::Track { index } => track_bytes(app, task, index).await.map(drop),
        other => {
            let bytes = produce(app, task, other).await?;
            app.dirs.write_atomic(path, &bytes).ok()
        }
    }
}

/// The audio of a music track: cached, else made (see [`fresh_track`]) and cached.
pub async fn track_bytes(app: &AppState, task: &Task, index: usize) -> Option<Vec<u8>> {
    let path = path(app, task, Product::Track { index }, "");
    if let Ok(Some(bytes)) = app.dirs.storage.read(&path) {
        return Some(bytes);
    }
    let bytes = fresh_track(app, task, index).await?;
    app.dirs.write_atomic(&path, &bytes).ok()?;
    Some(bytes)
}

/// Makes the audio of a music track as its operation asks: a sound at its tempo and key, the
/// mix of a mashup's uploads, a track with one window replaced, else a synthesized song (with the
/// uploaded source mixed in for the operations that take one).
async fn fresh_track(app: &AppState, task: &Task, index: usize) -> Option<Vec<u8>> {
    let spec = task.tracks.get(index)?.clone();
    match task.op() {
        Some(Op::GenerateSounds) => {
            let (tempo, key, looped) = music::sound_request(&task.param);
            app.host
                .blocking(move || {
                    media::sound_wav(spec.seed, tempo, &key, looped, spec.seconds as f32)
                })
                .await
        }
        Some(Op::Mashup) => {
            let mix = mashup_mix(app, task).await?;
            if index == 0 {
                Some(mix)
            } else {
                // The second take: the same mix over a new accompaniment.
                app.host
                    .blocking(move || media::synth_track(spec.seed, 0.0, Some(&mix)))
                    .await
            }
        }
        Some(Op::ReplaceSection) => {
            let (start, end) = replace_window_of(&task.param);
            let source = replace_source(app, task).await?;
            app.host
                .blocking(move || media::replace_window(&source, start, end, spec.seed))
                .await
                .filter(|b| !b.is_empty())
        }
        _ => {
            let source = track_source(app, task).await;
            app.host
                .blocking(move || {
                    media::synth_track(spec.seed, spec.seconds as f32, source.as_deref())
                })
                .await
        }
    }
}

/// The mix of a mashup's uploads; `None` when none of them is audio the emulator can read.
async fn mashup_mix(app: &AppState, task: &Task) -> Option<Vec<u8>> {
    let urls: Vec<String> = task
        .param
        .get("uploadUrlList")
        .and_then(serde_json::Value::as_array)
        .map(|l| {
            l.iter()
                .filter_map(|u| u.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    let mut fetched = Vec::new();
    for url in &urls {
        if let Some(bytes) = sources::fetch(app, url).await {
            fetched.push(bytes);
        }
    }
    app.host
        .blocking(move || {
            let refs: Vec<&[u8]> = fetched.iter().map(Vec::as_slice).collect();
            media::mix(&refs)
        })
        .await
        .filter(|b| !b.is_empty())
}

/// The window `infillStartS..infillEndS` of a replace-section request, in seconds.
fn replace_window_of(param: &serde_json::Map<String, serde_json::Value>) -> (f64, f64) {
    let at = |k: &str| {
        param
            .get(k)
            .and_then(serde_json::Value::as_f64)
            .unwrap_or(0.0)
    };
    (at("infillStartS"), at("infillEndS"))
}

/// The track a replace-section works on: the generated track it names, else its upload.
pub async fn replace_source(app: &AppState, task: &Task) -> Option<Vec<u8>> {
    match task.parent_task.as_deref().and_then(|id| app.tasks.get(id)) {
        Some(parent) => Box::pin(track_bytes(app, &parent, task.music_index as usize)).await,
        None => sources::fetch(app, text(&task.param, "uploadUrl")?).await,
    }
}

/// For the operations whose audio comes from their sources (mashup, replace-section): makes it at
/// creation, so every track's `duration` is its true length from the first record on. When no
/// source can be read the task makes a song of its own instead, of its drafted length.
pub async fn make_from_sources(app: &AppState, task: &mut Task) {
    for index in 0..task.tracks.len() {
        let Some(bytes) = fresh_track(app, task, index).await else {
            task.op = Op::Generate.endpoint().name.to_owned();
            return;
        };
        let Some(duration) = media::wav_duration(&bytes) else {
            continue;
        };
        let path = path(app, task, Product::Track { index }, "");
        if app.dirs.write_atomic(&path, &bytes).is_ok() {
            if let Some(spec) = task.tracks.get_mut(index) {
                spec.seconds = (f64::from(duration) * 1000.0).round() / 1000.0;
            }
        }
    }
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
        task.fail_at_once(TaskFamily::Music.generation_failed(), failure);
        return;
    }
    if media::wav_duration(&source).is_none() {
        return;
    }
    let source = Arc::new(source);
    for spec in &mut task.tracks {
        let (seed, seconds, src) = (spec.seed, spec.seconds as f32, source.clone());
        let Some(bytes) = app
            .host
            .blocking(move || media::synth_track(seed, seconds, Some(&src)))
            .await
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

/// A track of the old music task a recovery brings back, made afresh under the recovery (the old
/// task's own files may have expired).
async fn recovered_track(app: &AppState, task: &Task, index: usize) -> Option<Vec<u8>> {
    let parent = app.tasks.get(task.parent_task.as_deref()?)?;
    fresh_track(app, &parent, index).await
}

async fn produce(app: &AppState, task: &Task, product: Product) -> Option<Vec<u8>> {
    match product {
        Product::Track { .. } => None,
        Product::Image { index } => {
            let seed = task.tracks.get(index)?.seed;
            app.host.blocking(move || media::cover_png(seed, 0)).await
        }
        Product::Cover { style } => {
            let seed = task.seed;
            app.host
                .blocking(move || media::cover_png(seed, style))
                .await
        }
        Product::Wav => {
            let track = parent_track(app, task).await?;
            app.host.blocking(move || media::to_wav_44k(&track)).await
        }
        Product::Stem { index } => {
            let parent = app.tasks.get(task.parent_task.as_deref()?)?;
            let spec = parent.tracks.get(task.music_index as usize)?.clone();
            let source = track_source(app, &parent).await;
            let name = vocal_separation::stem_names(task).get(index)?;
            let parts = vocal_separation::stem_parts(name);
            app.host
                .blocking(move || {
                    media::part_track(spec.seed, spec.seconds as f32, source.as_deref(), parts)
                })
                .await
        }
        Product::Video => {
            // The track's own cover (its `imageUrl`) over the track's audio.
            let parent = app.tasks.get(task.parent_task.as_deref()?)?;
            let cover_seed = parent.tracks.get(task.music_index as usize)?.seed;
            let track = parent_track(app, task).await?;
            app.host
                .blocking(move || media::music_video(&track, cover_seed))
                .await
                .filter(|b| !b.is_empty())
        }
        Product::Recovered { index } => recovered_track(app, task, index).await,
    }
}
