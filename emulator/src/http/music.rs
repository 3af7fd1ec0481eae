//! Music tasks (generate, extend, upload-cover, upload-extend, add-instrumental, add-vocals), their
//! record-info and callbacks, and the synchronous music operations (credits, style boost,
//! timestamped lyrics).

use std::collections::HashMap;

use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{Query, State};
use axum::response::Response;
use axum::Extension;
use serde_json::{json, Map, Value};
use tunesmith_protocol::wire::{
    service_time, AlignedWord, CallbackTrack, Envelope, MusicCallbackData, MusicRecord,
    MusicResponse, StyleBoost, TimestampedLyrics, Track,
};
use tunesmith_protocol::{ErrorKind, Family, Op, RuleKind};

use super::{file_url, music_track, task_for_query, text, valid_body};
use crate::envelope::{ok, ApiError};
use crate::gate::Caller;
use crate::store::fnv;
use crate::tasks::{
    self, failure_of, is_failure, Kind, Outcome, Task, TrackSpec, FIRST, SUCCESS, TEXT,
};
use crate::AppState;

const F: Family = Family::Music;

/// Creates a task of any of the six music operations.
pub async fn create(
    State(app): State<AppState>,
    Extension(caller): Extension<Caller>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let param = valid_body(caller.op, body)?;
    let mut task = tasks::draft(&app, &caller, param)?;
    let p = task.param.clone();
    let mut title = text(&p, "title").map(str::to_owned);
    let mut tags = text(&p, "style").or(text(&p, "tags")).map(str::to_owned);
    let mut prompt = text(&p, "prompt").or(text(&p, "lyrics")).map(str::to_owned);
    if caller.op == Op::Extend {
        let audio_id = text(&p, "audioId").unwrap_or_default();
        let (parent, i) = music_track(&app, F, None, Some(audio_id), 0)?;
        let source = &parent.tracks[i];
        if text(&p, "model").is_some_and(|m| m != parent.model) {
            return Err(ApiError::new(
                F,
                400,
                format!(
                    "`model` must equal the source music's model {} (rule: one_of)",
                    parent.model
                ),
            ));
        }
        if let Some(at) = p.get("continueAt").and_then(Value::as_f64) {
            if at >= source.seconds {
                return Err(ApiError::new(
                    F,
                    400,
                    format!(
                        "`continueAt` must be below the source length of {} seconds (got {at}) (rule: {})",
                        source.seconds,
                        RuleKind::Range.as_str()
                    ),
                ));
            }
        }
        title = title.or_else(|| Some(format!("{} (extended)", source.title)));
        tags = tags.or_else(|| Some(source.tags.clone()));
        prompt = prompt.or_else(|| Some(source.prompt.clone()));
        task.model = parent.model.clone();
        task.parent_task = Some(parent.id.clone());
        task.parent_audio = Some(audio_id.to_owned());
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
                id: app.random_uuid(),
                // 20 to 40 s in tenths: a whole number of samples at the usual rates.
                seconds: 20.0 + (seed % 201) as f64 / 10.0,
                seed,
                title: title.clone(),
                tags: tags.clone(),
                prompt: prompt.clone(),
            }
        })
        .collect();
    if let Some(url) = text(&p, "uploadUrl") {
        super::files::mix_source(&app, &mut task, url).await;
    }
    tasks::create(&app, &caller, task)
}

fn operation_type(op: &str) -> &'static str {
    match op {
        "extend" => "extend",
        "uploadCover" => "upload_cover",
        "uploadExtend" => "upload_extend",
        "addInstrumental" => "add_instrumental",
        "addVocals" => "add_vocals",
        _ => "generate",
    }
}

fn track(app: &AppState, task: &Task, spec: &TrackSpec, complete: bool) -> Track {
    let stream = file_url(app, &task.id, &format!("{}-stream.wav", spec.id));
    let audio = if complete {
        file_url(app, &task.id, &format!("{}.wav", spec.id))
    } else {
        String::new()
    };
    let image = file_url(app, &task.id, &format!("{}.png", spec.id));
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
fn tracks_at(app: &AppState, task: &Task, reached: usize) -> Vec<Track> {
    let done = &task.phases[..reached];
    if done.iter().any(|p| p == SUCCESS) {
        task.tracks
            .iter()
            .map(|t| track(app, task, t, true))
            .collect()
    } else if done.iter().any(|p| p == FIRST) {
        task.tracks
            .iter()
            .take(1)
            .map(|t| track(app, task, t, false))
            .collect()
    } else {
        Vec::new()
    }
}

pub fn record(app: &AppState, task: &Task, now: i64) -> MusicRecord {
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
            suno_data: tracks_at(app, task, task.reached(now)),
        },
        status,
        kind: op_type.to_ascii_uppercase(),
        operation_type: op_type.to_owned(),
        error_code,
        error_message,
        create_time: super::iso(task.created_ms),
    }
}

pub fn callback(app: &AppState, task: &Task, phase: usize) -> Value {
    let label = task.phases[phase].as_str();
    let (code, msg, callback_type, data) = if is_failure(label) {
        let (code, msg) = failure_of(label);
        (code, msg, "error", None)
    } else {
        let tracks: Vec<CallbackTrack> = tracks_at(app, task, phase + 1)
            .iter()
            .map(CallbackTrack::from)
            .collect();
        let (kind, msg) = match label {
            TEXT => ("text", "Text generation completed successfully."),
            FIRST => ("first", "First track generation completed successfully."),
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

pub async fn get_task(
    State(app): State<AppState>,
    query: Result<Query<HashMap<String, String>>, QueryRejection>,
) -> Result<Response, ApiError> {
    let task = task_for_query(&app, Op::GetTask, Kind::Music, query)?;
    Ok(ok(record(&app, &task, app.clock.now_ms())))
}

pub async fn credits(
    State(app): State<AppState>,
    Extension(caller): Extension<Caller>,
) -> Response {
    ok(app.credits.balance(&caller.key))
}

/// Style boost answers at once; it costs 1 credit.
pub async fn boost_style(
    State(app): State<AppState>,
    Extension(caller): Extension<Caller>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let param = valid_body(Op::BoostStyle, body)?;
    let cost = tasks::cost(Op::BoostStyle, &param);
    match app.credits.charge(&caller.key, cost) {
        Ok(true) => {}
        Ok(false) => {
            return Err(ApiError::kind(
                F,
                ErrorKind::InsufficientCredits,
                "Insufficient credits",
            ))
        }
        Err(e) => return Err(tasks::server_error(F, &e)),
    }
    let content = text(&param, "content").unwrap_or_default();
    let result = format!(
        "{}, polished arrangement, warm analog textures, dynamic build, crisp modern mix",
        content.trim().trim_end_matches(['.', ','])
    );
    Ok(ok(StyleBoost {
        task_id: app.random_id(),
        param: content.to_owned(),
        result,
        credits_consumed: cost,
        credits_remaining: app.credits.balance(&caller.key),
        success_flag: "1".into(),
        error_code: None,
        error_message: String::new(),
        create_time: super::iso(app.clock.now_ms()),
    }))
}

/// Timestamped lyrics answer at once: the track's words spread over its duration.
pub async fn timestamped_lyrics(
    State(app): State<AppState>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let param = valid_body(Op::GetTimestampedLyrics, body)?;
    let index = param.get("musicIndex").and_then(Value::as_u64).unwrap_or(0) as usize;
    let (task, i) = music_track(
        &app,
        F,
        text(&param, "taskId"),
        text(&param, "audioId"),
        index,
    )?;
    let spec = &task.tracks[i];
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
    Ok(ok(TimestampedLyrics {
        aligned_words,
        waveform_data,
        hoot_cer: 0.0,
        is_streamed: false,
    }))
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// Parameters every music record keeps as a JSON-encoded string.
pub fn param_string(param: &Map<String, Value>) -> String {
    Value::Object(param.clone()).to_string()
}
