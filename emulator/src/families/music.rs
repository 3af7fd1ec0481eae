//! Music tasks (generate, extend, upload-cover, upload-extend, add-instrumental, add-vocals,
//! sounds, replace-section, mashup): their
//! tracks, record-info and callbacks, and the answers of the synchronous music operations
//! (style boost, timestamped lyrics).

use serde_json::{json, Value};
use tunesmith_protocol::status::{is_failure, Failure, FIRST_SUCCESS, SUCCESS, TEXT_SUCCESS};
use tunesmith_protocol::upload::sniff_mime;
use tunesmith_protocol::wire::{
    service_time, AlignedWord, CallbackTrack, Envelope, MusicCallbackData, MusicRecord,
    MusicResponse, StyleBoost, TimestampedLyrics, Track,
};
use tunesmith_protocol::{Op, RuleKind};

use super::common::{iso, param_string, text, Links};
use crate::core::error::CoreError;
use crate::core::store::fnv;
use crate::core::task::{Outcome, Task, TrackSpec};

/// Fills in a drafted music task: the extension's source (`parent`: task and track index) and
/// two tracks named from the request, with ids from `new_id`.
pub fn prepare(
    task: &mut Task,
    parent: Option<(&Task, usize)>,
    mut new_id: impl FnMut() -> String,
) -> Result<(), CoreError> {
    let p = task.param.clone();
    let mut title = text(&p, "title").map(str::to_owned);
    let mut tags = text(&p, "style").or(text(&p, "tags")).map(str::to_owned);
    // The words sung: a replaced section's whole song, else `lyrics` (which take priority over
    // `prompt` since V6), else `prompt` (custom mode's lyrics before V6).
    let mut prompt = text(&p, "fullLyrics")
        .or(text(&p, "lyrics"))
        .or(text(&p, "prompt"))
        .map(str::to_owned);
    if let Some((parent, i)) = parent {
        let source = &parent.tracks[i];
        if text(&p, "model").is_some_and(|m| m != parent.model) {
            return Err(CoreError::Invalid(format!(
                "`model` must equal the source music's model {} (rule: one_of)",
                parent.model
            )));
        }
        if let Some(at) = p.get("continueAt").and_then(Value::as_f64) {
            if at >= source.seconds {
                return Err(CoreError::Invalid(format!(
                    "`continueAt` must be below the source length of {} seconds (got {at}) (rule: {})",
                    source.seconds,
                    RuleKind::Range.as_str()
                )));
            }
        }
        title = title.or_else(|| Some(format!("{} (extended)", source.title)));
        tags = tags.or_else(|| Some(source.tags.clone()));
        prompt = prompt.or_else(|| Some(source.prompt.clone()));
        task.model = parent.model.clone();
        task.parent_task = Some(parent.id.clone());
        task.parent_audio = Some(source.id.clone());
    }
    let prompt = prompt.unwrap_or_default();
    let title = title.unwrap_or_else(|| {
        let words: Vec<&str> = prompt.split_whitespace().take(4).collect();
        if words.is_empty() {
            "Untitled".to_owned()
        } else {
            words.join(" ")
        }
    });
    let tags = tags.unwrap_or_default();
    task.tracks = (0..2u64)
        .map(|i| {
            let seed = fnv(&[&task.seed.to_le_bytes(), &i.to_le_bytes()]);
            TrackSpec {
                id: new_id(),
                // 20 to 40 s in tenths: a whole number of samples at the usual rates.
                seconds: 20.0 + (seed % 201) as f64 / 10.0,
                seed,
                title: title.clone(),
                tags: tags.clone(),
                prompt: prompt.clone(),
            }
        })
        .collect();
    if task.op == Op::GenerateSounds.endpoint().name {
        for t in &mut task.tracks {
            t.seconds = sound_seconds(&p, t.seed);
        }
    } else if let Some(seconds) = requested_seconds(&p) {
        for t in &mut task.tracks {
            t.seconds = seconds;
        }
    }
    Ok(())
}

/// The length a request's `duration` asks for (V6, custom mode), in tenths of a second: a whole
/// number of samples, so the audio made lasts exactly what the record says. The operations whose
/// audio comes from their sources (covers, mashups) end up as long as their sources instead.
fn requested_seconds(param: &serde_json::Map<String, Value>) -> Option<f64> {
    let d = param.get("duration").and_then(Value::as_f64)?;
    let (min, max) = (
        tunesmith_protocol::endpoints::DURATION_MIN_S,
        tunesmith_protocol::endpoints::DURATION_MAX_S,
    );
    (d.is_finite()).then(|| ((d.clamp(min, max) * 10.0).round()) / 10.0)
}

/// What a sounds request asks for: tempo (BPM), key and whether it loops.
pub fn sound_request(param: &serde_json::Map<String, Value>) -> (Option<u32>, String, bool) {
    let tempo = param
        .get("soundTempo")
        .and_then(Value::as_u64)
        .and_then(|t| u32::try_from(t).ok());
    let key = text(param, "soundKey").unwrap_or("Any").to_owned();
    let looped = param.get("soundLoop").and_then(Value::as_bool) == Some(true);
    (tempo, key, looped)
}

/// Length of a sound: a loop of whole beats near 8 to 16 s (sample-exact), a one-shot of 8 to
/// 16 s in tenths; the audio is made to this length.
fn sound_seconds(param: &serde_json::Map<String, Value>, seed: u64) -> f64 {
    let (tempo, _, looped) = sound_request(param);
    let target = 8.0 + (seed % 81) as f64 / 10.0;
    if !looped {
        return target;
    }
    let bpm = crate::media::sound_tempo(seed, tempo);
    let beats = (target * f64::from(bpm) / 60.0).round().max(1.0);
    // Shown to the millisecond; the audio recomputes the same whole number of beats from it.
    let seconds =
        beats * crate::media::beat_samples(bpm) as f64 / f64::from(crate::media::SAMPLE_RATE);
    (seconds * 1000.0).round() / 1000.0
}

fn operation_type(op: &str) -> &'static str {
    match op {
        "extend" => "extend",
        "uploadCover" => "upload_cover",
        "uploadExtend" => "upload_extend",
        "addInstrumental" => "add_instrumental",
        "addVocals" => "add_vocals",
        "generateSounds" => "generate_sounds",
        "replaceSection" => "replace_section",
        "mashup" => "mashup",
        _ => "generate",
    }
}

/// File name of a track's full audio and of its early stream.
pub fn audio_file(spec: &TrackSpec) -> String {
    format!("{}.wav", spec.id)
}

pub fn stream_file(spec: &TrackSpec) -> String {
    format!("{}-stream.wav", spec.id)
}

pub fn image_file(spec: &TrackSpec) -> String {
    format!("{}.png", spec.id)
}

fn track(links: Links<'_>, task: &Task, spec: &TrackSpec, complete: bool) -> Track {
    let stream = links.file(&task.id, &stream_file(spec));
    let audio = if complete {
        links.file(&task.id, &audio_file(spec))
    } else {
        String::new()
    };
    let image = links.file(&task.id, &image_file(spec));
    Track {
        id: spec.id.clone(),
        source_audio_url: audio.clone(),
        audio_url: audio,
        source_stream_audio_url: stream.clone(),
        stream_audio_url: stream,
        source_image_url: image.clone(),
        image_url: image,
        prompt: spec.prompt.clone(),
        model_name: format!("chirp-{}", task.model.to_ascii_lowercase()),
        title: spec.title.clone(),
        tags: spec.tags.clone(),
        create_time: service_time(task.created_ms),
        duration: spec.seconds,
    }
}

/// The tracks known once `reached` phases are done: the first (streamable) at FIRST_SUCCESS,
/// all of them, complete, at SUCCESS.
fn tracks_at(links: Links<'_>, task: &Task, reached: usize) -> Vec<Track> {
    let done = &task.phases[..reached];
    if done.iter().any(|p| p == SUCCESS) {
        task.tracks
            .iter()
            .map(|t| track(links, task, t, true))
            .collect()
    } else if done.iter().any(|p| p == FIRST_SUCCESS) {
        task.tracks
            .iter()
            .take(1)
            .map(|t| track(links, task, t, false))
            .collect()
    } else {
        Vec::new()
    }
}

pub fn record(task: &Task, now: i64, links: Links<'_>) -> MusicRecord {
    let Outcome {
        status,
        error_code,
        error_message,
    } = task.outcome(now);
    let op_type = operation_type(&task.op);
    MusicRecord {
        task_id: task.id.clone(),
        parent_music_id: task.parent_audio.clone().unwrap_or_default(),
        param: param_string(&task.param),
        response: MusicResponse {
            task_id: task.id.clone(),
            suno_data: tracks_at(links, task, task.reached(now)),
        },
        status,
        kind: op_type.to_ascii_uppercase(),
        operation_type: op_type.to_owned(),
        error_code,
        error_message,
        create_time: iso(task.created_ms),
    }
}

pub fn callback(task: &Task, phase: usize, links: Links<'_>) -> Value {
    let label = task.phases[phase].as_str();
    let (code, msg, callback_type, data) = if is_failure(label) {
        let f = task.failure_of(label);
        (f.code, f.message, "error", None)
    } else {
        let tracks: Vec<CallbackTrack> = tracks_at(links, task, phase + 1)
            .iter()
            .map(CallbackTrack::from)
            .collect();
        let (kind, msg) = match label {
            TEXT_SUCCESS => ("text", "Text generation completed successfully."),
            FIRST_SUCCESS => ("first", "First track generation completed successfully."),
            _ => ("complete", "All generated successfully."),
        };
        (200, msg.to_owned(), kind, Some(tracks))
    };
    json!(Envelope {
        code,
        msg,
        data: MusicCallbackData {
            callback_type: callback_type.to_owned(),
            task_id: task.id.clone(),
            data,
        },
    })
}

/// The answer of a style boost of `content`, charged `cost`, with `remaining` credits left.
pub fn style_boost(
    task_id: String,
    content: &str,
    cost: i64,
    remaining: i64,
    now: i64,
) -> StyleBoost {
    let result = format!(
        "{}, polished arrangement, warm analog textures, dynamic build, crisp modern mix",
        content.trim().trim_end_matches(['.', ','])
    );
    StyleBoost {
        task_id,
        param: content.to_owned(),
        result,
        credits_consumed: cost,
        credits_remaining: remaining,
        success_flag: "1".into(),
        error_code: None,
        error_message: String::new(),
        create_time: iso(now),
    }
}

/// Timestamped lyrics of a track: its words spread over its duration.
pub fn timestamped_lyrics(spec: &TrackSpec) -> TimestampedLyrics {
    let source = if spec.prompt.trim().is_empty() {
        &spec.title
    } else {
        &spec.prompt
    };
    let words: Vec<&str> = source.split_whitespace().collect();
    let slot = spec.seconds / words.len().max(1) as f64;
    let aligned_words = words
        .iter()
        .enumerate()
        .map(|(k, w)| AlignedWord {
            word: (*w).to_owned(),
            success: true,
            start_s: round2(k as f64 * slot),
            end_s: round2((k as f64 + 0.9) * slot),
            palign: 0.0,
        })
        .collect();
    let waveform_data = (0..64)
        .map(|k| round2(0.5 + 0.5 * ((spec.seed % 97) as f64 + k as f64 * 0.4).sin()))
        .collect();
    TimestampedLyrics {
        aligned_words,
        waveform_data,
        hoot_cer: 0.0,
        is_streamed: false,
    }
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// Why a source cannot be used when it is not audio at all (text, an image, a PDF); `None` for
/// audio and for bytes of unknown kind, which get the benefit of the doubt.
pub fn source_failure(source: &[u8]) -> Option<Failure> {
    let mime = sniff_mime(source);
    let what = match mime.split('/').next() {
        Some("text") => "text",
        Some("image") => "an image",
        _ if mime == "application/pdf" => "a PDF document",
        _ => return None,
    };
    Some(Failure::unsupported_source(what))
}

/// Whether `op` takes a source audio (`uploadUrl`) mixed into its tracks.
pub fn takes_source(op: Option<Op>) -> bool {
    matches!(
        op,
        Some(Op::UploadCover | Op::UploadExtend | Op::AddInstrumental | Op::AddVocals)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_sources_that_are_not_audio_fail() {
        assert_eq!(
            source_failure(b"just some words\n").map(|f| f.code),
            Some(400)
        );
        assert!(source_failure(b"\x89PNG\r\n\x1a\n....").is_some());
        assert!(source_failure(b"RIFF\0\0\0\0WAVEfmt ").is_none());
        assert!(source_failure(b"ID3\x04rest").is_none());
        assert!(source_failure(&[0u8, 1, 2, 0]).is_none());
    }
}
