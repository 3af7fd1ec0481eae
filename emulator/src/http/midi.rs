//! Handlers of MIDI: create (from a finished vocal separation, one stem or all) and record-info.

use axum::extract::State;
use axum::response::Response;
use tunesmith_protocol::status::SUCCESS;
use tunesmith_protocol::TaskFamily;
use tunesmith_protocol::{CodeTable, Op};

use super::envelope::{ok, ApiError};
use super::extract::{Caller, ValidBody, ValidQuery};
use super::tasks::{create as create_task, draft, queried};
use crate::app::AppState;
use crate::families::common::text;
use crate::families::midi;
use crate::families::vocal_separation::{listed_stems, stem_id};

const F: CodeTable = CodeTable::Music;

/// MIDI of a task that is not a vocal separation is 404; of a separation that has not finished
/// (or failed), 400; an `audioId` that is not one of its `originData` ids, 404.
pub async fn create(
    State(app): State<AppState>,
    caller: Caller,
    ValidBody(param): ValidBody,
) -> Result<Response, ApiError> {
    let id = text(&param, "taskId").unwrap_or_default();
    let separation = app
        .tasks
        .get(id)
        .filter(|t| t.kind == TaskFamily::VocalSeparation)
        .ok_or_else(|| {
            ApiError::new(
                F,
                404,
                format!("No such vocal separation task: taskId {id} (MIDI is made from the stems of a finished vocal separation)"),
            )
        })?;
    let status = separation.status(app.now_ms()).to_owned();
    if status != SUCCESS {
        return Err(ApiError::new(
            F,
            400,
            format!("Vocal separation {id} is not finished (status {status}): MIDI is made from its stems once it succeeds"),
        ));
    }
    let listed = listed_stems(&separation);
    let stems: Vec<String> = match text(&param, "audioId") {
        Some(audio) => {
            let name = listed
                .iter()
                .find(|n| stem_id(&separation, n) == audio)
                .ok_or_else(|| {
                    ApiError::new(
                        F,
                        404,
                        format!("No such stem: audioId {audio} is not an id of the separation's originData"),
                    )
                })?;
            vec![(*name).to_owned()]
        }
        None => listed.iter().map(|n| (*n).to_owned()).collect(),
    };
    let spec = match separation.tracks.first() {
        Some(spec) => spec.clone(),
        None => {
            let (parent, i) = app
                .tasks
                .music_track(
                    separation.parent_task.as_deref(),
                    separation.parent_audio.as_deref(),
                    0,
                )
                .map_err(|e| ApiError::from_core(F, e))?;
            parent.tracks[i].clone()
        }
    };
    let mut task = draft(&app, &caller, param)?;
    task.parent_task = Some(separation.id.clone());
    task.parent_audio = separation.parent_audio.clone();
    task.tracks = vec![spec];
    task.stems = stems;
    create_task(&app, &caller, task)
}

pub async fn get(
    State(app): State<AppState>,
    ValidQuery(q): ValidQuery,
) -> Result<Response, ApiError> {
    let task = queried(&app, Op::GetMidi, TaskFamily::Midi, &q)?;
    Ok(ok(midi::record(&task, app.now_ms())))
}
