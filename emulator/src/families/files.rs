//! Which generated product a file name of a task stands for, and whether it exists yet at `now`.

use tunesmith_protocol::status::{FIRST_SUCCESS, SUCCESS};
use tunesmith_protocol::TaskFamily;

use super::{cover, music, recovery, video, vocal_separation, wav};
use crate::core::task::Task;

/// What a file name of a task stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Product {
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
    /// Stem `index` of the separation's `stem_names`.
    Stem {
        index: usize,
    },
    Video,
    /// A recovered copy of track `index` of the recovery's source task.
    Recovered {
        index: usize,
    },
}

/// The product a file name stands for, if it exists at `now`.
pub fn resolve(task: &Task, name: &str, now: i64) -> Option<Product> {
    let success = task.has_reached(now, SUCCESS);
    match task.kind {
        TaskFamily::Music => {
            let first = success || task.has_reached(now, FIRST_SUCCESS);
            task.tracks.iter().enumerate().find_map(|(index, t)| {
                let early = index == 0 && first;
                let full = name == music::audio_file(t) && success;
                let stream = name == music::stream_file(t) && (success || early);
                if full || stream {
                    Some(Product::Track { index })
                } else if name == music::image_file(t) && (success || early) {
                    Some(Product::Image { index })
                } else {
                    None
                }
            })
        }
        _ if !success => None,
        TaskFamily::Cover => cover::IMAGES
            .iter()
            .position(|n| *n == name)
            .map(|i| Product::Cover { style: i as u8 }),
        TaskFamily::Wav => (name == wav::FILE).then_some(Product::Wav),
        TaskFamily::Video => (name == video::FILE).then_some(Product::Video),
        TaskFamily::VocalSeparation => vocal_separation::stem_names(task)
            .iter()
            .position(|s| vocal_separation::stem_file(s) == name)
            .map(|index| Product::Stem { index }),
        TaskFamily::Recovery => task
            .tracks
            .iter()
            .position(|t| recovery::file(t) == name)
            .map(|index| Product::Recovered { index }),
        TaskFamily::Lyrics | TaskFamily::Midi | TaskFamily::VoiceValidation | TaskFamily::Voice => {
            None
        }
    }
}
