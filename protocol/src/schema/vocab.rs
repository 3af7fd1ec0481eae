//! The service's and the client's vocabularies: models, genders, states, stages, families, error
//! kinds. Request rules (`endpoints.rs`) take their allowed values from here.
//! Over 400 lines on purpose: it is data, one vocabulary after another with each value's
//! documentation, as the generated `.d.ts` shows them.

use super::shape::Vocab;
use crate::codes::ClientErrorKind;
use crate::docs;

/// Model versions: current first, then the deprecated ones still accepted (service.md, Versioning).
pub static MODEL: Vocab = Vocab {
    name: "Model",
    doc: docs("Model version."),
    values: &[
        "V6", "V6_WILD", "V6_MINI", "V5_5", "V5", "V4_5PLUS", "V4_5ALL", "V4_5", "V4",
    ],
    value_docs: &[
        docs("default, recommended"),
        docs("more experimental and creative"),
        docs("lightweight"),
        docs("deprecated: voice-customized"),
        docs("deprecated"),
        docs("deprecated: richer tones, up to 8 min"),
        docs("deprecated: better song structure, up to 8 min"),
        docs("deprecated: better prompt understanding, up to 8 min"),
        docs("deprecated: improved vocals, up to 4 min"),
    ],
};

/// The V6 series, for which `lyrics` are limited to 5000 characters and generate's `negativeTags` to 1000.
pub const V6_SERIES: &[&str] = &["V6", "V6_WILD", "V6_MINI"];
pub const DEFAULT_MODEL: &str = "V6";

pub static VOCAL_GENDER: Vocab = Vocab {
    name: "VocalGender",
    doc: docs("Vocal gender."),
    values: &["m", "f"],
    value_docs: &[docs("male"), docs("female")],
};

pub static SEPARATION_TYPE: Vocab = Vocab {
    name: "SeparationType",
    doc: docs("How a vocal separation splits the track."),
    values: &["separate_vocal", "split_stem", "split_stem_advanced"],
    value_docs: &[
        docs("default: 2 stems, vocals and instrumental"),
        docs("up to 12 stems, one per instrument group"),
        docs("one named instrument (`stemName`), separated more finely"),
    ],
};

/// The instruments `split_stem_advanced` can separate (the public document's `stemName` enum).
pub static STEM_NAME: Vocab = Vocab {
    name: "StemName",
    doc: docs("The instrument a `split_stem_advanced` separation isolates."),
    values: &[
        "Lead Vocal",
        "Drum Kit",
        "Kick",
        "Snare",
        "Risers",
        "Bass",
        "Backing Vocals",
        "Piano",
        "Electric Guitar",
        "Percussion",
        "String Section",
        "Synth",
        "Acoustic Guitar",
        "Sound Effects",
        "Synth Pad",
        "Synth Bass",
        "Guitar",
        "Brass Section",
        "Organ",
        "Electronic Drum Kit",
        "Lead Electric Guitar",
        "Synth Keys",
        "Rhythm Electric Guitar",
        "Electric Piano",
        "Upright Bass",
        "Keyboards",
        "Distorted Electric Guitar",
        "Synth Strings",
        "Synth Lead",
        "Woodwinds",
        "Rhythm Acoustic Guitar",
        "Flute",
        "Harp",
        "Tambourine",
        "Trumpet",
        "Arpeggiator",
        "Accordion",
        "Fiddle",
        "Pedal Steel Guitar",
        "Synth Voice",
        "Violin",
        "Digital Piano",
        "Synth Brass",
        "Mandolin",
        "Choir",
        "Banjo",
        "Bells",
        "Clarinet",
        "Tenor Saxophone",
        "Trombone",
        "Shaker",
        "French Horn",
        "Glockenspiel",
        "Electric Bass",
        "Cello",
        "Timpani",
        "Harmonica",
        "Marimba",
        "Vibraphone",
        "Lap Steel Guitar",
        "Saxophone",
        "Orchestra",
        "Horns",
        "Cymbals",
        "Hand Clap",
        "Oboe",
        "Celesta",
        "Congas",
        "Drone",
        "Alto Saxophone",
        "Double Bass",
        "Ukulele",
        "Harpsichord",
        "Baritone Saxophone",
        "Xylophone",
        "Tuba",
        "Bass Guitar",
        "Whistle",
        "Lead Guitar",
        "Rhodes",
        "808",
        "Bongos",
        "Bassoon",
        "Cowbell",
        "Viola",
        "Sitar",
        "Steel Drums",
        "Piccolo",
        "Theremin",
        "Bagpipes",
        "Hi-Hat",
        "Music Box",
        "Melodica",
        "Tabla",
        "Koto",
        "Djembe",
        "Taiko",
        "Didgeridoo",
    ],
    value_docs: &[],
};

/// Keys of generated sounds: `Any`, then the 12 minor keys, then the 12 major keys.
pub static SOUND_KEY: Vocab = Vocab {
    name: "SoundKey",
    doc: docs("Key of a generated sound; `Any` (the default) lets the model choose. Minor keys end in `m`."),
    values: &[
        "Any", "Cm", "C#m", "Dm", "D#m", "Em", "Fm", "F#m", "Gm", "G#m", "Am", "A#m", "Bm", "C",
        "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B",
    ],
    value_docs: &[],
};

/// Models a sounds task is known to take: the V6 series (default V6), and V5, its model before V6.
pub const SOUND_MODELS: &[&str] = &["V6", "V6_WILD", "V6_MINI", "V5"];

pub static PERSONA_MODEL: Vocab = Vocab {
    name: "PersonaModel",
    doc: docs("What kind of id `personaId` is."),
    values: &["style_persona", "voice_persona"],
    value_docs: &[
        docs("default: a persona made by `generatePersona`"),
        docs("a voice made by `createVoice` (its `voiceId`); V5, V5_5 and the V6 series"),
    ],
};

/// Models `voice_persona` works with (a model the package does not know is left to the service).
pub const VOICE_PERSONA_MODELS: &[&str] = &["V5", "V5_5", "V6", "V6_WILD", "V6_MINI"];

pub static VOICE_LANGUAGE: Vocab = Vocab {
    name: "VoiceLanguage",
    doc: docs("Language of the validation phrase a singer records."),
    values: &["en", "zh", "es", "fr", "pt", "de", "ja", "ko", "hi", "ru"],
    value_docs: &[],
};

pub static SINGER_SKILL: Vocab = Vocab {
    name: "SingerSkillLevel",
    doc: docs("How skilled the singer of a custom voice is."),
    values: &["beginner", "intermediate", "advanced", "professional"],
    value_docs: &[],
};

/// The lower-case `status` of voice validation and voice records.
pub static VOICE_STATUS: Vocab = Vocab {
    name: "VoiceStatus",
    doc: docs("Status of a voice validation or voice task, as the service writes it (lower case)."),
    values: &[
        "wait_processing",
        "processing_validate",
        "processing_validate_fail",
        "wait_validating",
        "success",
        "fail",
    ],
    value_docs: &[
        docs("queued"),
        docs("checking the recording"),
        docs("the recording was refused (failed)"),
        docs("waiting for the singer's recording of the phrase (validation: done)"),
        docs("done"),
        docs("failed"),
    ],
};

/// `status` of one recovered track.
pub static RECOVERED_STATUS: Vocab = Vocab {
    name: "RecoveredStatus",
    doc: docs("Whether one track's audio was recovered."),
    values: &["success", "failed"],
    value_docs: &[],
};

/// `TaskState::as_str` of every state, in order.
pub static TASK_STATE: Vocab = Vocab {
    name: "TaskState",
    doc: docs("Normalized state of any task, whatever its family's own encoding."),
    values: &["pending", "running", "succeeded", "failed"],
    value_docs: &["", "", "", ""],
};

/// `Stage::as_str` of every stage, in order.
pub static MUSIC_STAGE: Vocab = Vocab {
    name: "MusicStage",
    doc: docs(
        "Stage of a music task: as the callbacks name them, plus `pending` before the first.",
    ),
    values: &["pending", "text", "first", "complete", "error"],
    value_docs: &[
        docs("nothing yet"),
        docs("the lyrics or description are written"),
        docs("the first track is playable through its `streamAudioUrl`"),
        docs("every track is done"),
        docs("the task failed"),
    ],
};

pub static CALLBACK_STAGE: Vocab = Vocab {
    name: "CallbackStage",
    doc: docs("Stage of a callback: music tasks call back at `text`, `first` (either may be skipped) and `complete`, or `error`; the other families once, `complete` or `error`."),
    values: &["text", "first", "complete", "error"],
    value_docs: &["", "", "", ""],
};

/// `TaskFamily::as_str` of every family that has a status query and callbacks.
pub static TASK_FAMILY: Vocab = Vocab {
    name: "TaskFamily",
    doc: docs("Which kind of task: the families that have a status query, a waiter and callbacks."),
    values: &[
        "music",
        "cover",
        "wav",
        "lyrics",
        "vocal_separation",
        "video",
        "midi",
        "recovery",
        "voice_validation",
        "voice",
    ],
    value_docs: &[
        docs("generate, extend, uploadCover, uploadExtend, addInstrumental, addVocals, generateSounds, mashup, replaceSection"),
        docs("generateCover"),
        docs("convertToWav"),
        docs("generateLyrics"),
        docs("separateVocals"),
        docs("generateVideo"),
        docs("generateMidi"),
        docs("recoverAudio"),
        docs("validateVoice, regenerateVoicePhrase"),
        docs("createVoice"),
    ],
};

/// `ClientErrorKind::ALL`, read as strings: the `kind` of every error, both faces alike.
pub static ERROR_KIND: Vocab = Vocab {
    name: "ErrorKind",
    doc: docs("What went wrong, as a string union: the `kind` of every tunesmith error."),
    values: &ERROR_KIND_NAMES,
    value_docs: &ERROR_KIND_MEANINGS,
};

const ERROR_KINDS: usize = ClientErrorKind::ALL.len();
// Evaluated by the compiler: an index out of bounds fails the build, not a call.
#[allow(clippy::indexing_slicing)]
const ERROR_KIND_NAMES: [&str; ERROR_KINDS] = {
    let mut out = [""; ERROR_KINDS];
    let mut i = 0;
    while i < ERROR_KINDS {
        out[i] = ClientErrorKind::ALL[i].as_str();
        i += 1;
    }
    out
};
#[allow(clippy::indexing_slicing)]
const ERROR_KIND_MEANINGS: [&str; ERROR_KINDS] = {
    let mut out = [""; ERROR_KINDS];
    let mut i = 0;
    while i < ERROR_KINDS {
        out[i] = ClientErrorKind::ALL[i].meaning();
        i += 1;
    }
    out
};

/// The rules a `ValidationError` can name (`RuleKind::as_str`).
pub static RULE: Vocab = Vocab {
    name: "ValidationRule",
    doc: docs("The rule a `ValidationError` names."),
    values: &[
        "required",
        "type",
        "max_length",
        "max_words",
        "range",
        "step",
        "integer",
        "one_of",
        "url",
        "safe_path",
        "not_empty",
        "max_size",
        "dependency",
        "unknown_field",
    ],
    value_docs: &[
        docs("the field is missing or empty"),
        docs("the value has the wrong type"),
        docs("too many characters"),
        docs("too many words"),
        docs("outside the allowed range"),
        docs("not a multiple of the allowed step"),
        docs("not a whole number"),
        docs("not one of the allowed values"),
        docs("not an absolute http or https URL"),
        docs("a path that could leave its folder"),
        docs("empty where content is needed"),
        docs("too many bytes"),
        docs("two fields that depend on each other"),
        docs("a field the operation does not have (a typo?)"),
    ],
};

/// Every vocabulary, for the code generator.
pub static VOCABS: &[&Vocab] = &[
    &MODEL,
    &VOCAL_GENDER,
    &SEPARATION_TYPE,
    &STEM_NAME,
    &SOUND_KEY,
    &PERSONA_MODEL,
    &VOICE_LANGUAGE,
    &SINGER_SKILL,
    &VOICE_STATUS,
    &RECOVERED_STATUS,
    &TASK_STATE,
    &MUSIC_STAGE,
    &CALLBACK_STAGE,
    &TASK_FAMILY,
    &ERROR_KIND,
    &RULE,
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::TaskFamily;
    use crate::rules::RuleKind;
    use crate::state::{Stage, TaskState};

    #[test]
    fn vocabularies_agree_with_the_enums_the_code_matches_on() {
        let states: Vec<&str> = TaskState::ALL.iter().map(|s| s.as_str()).collect();
        assert_eq!(states, TASK_STATE.values);
        let stages: Vec<&str> = Stage::ALL.iter().map(|s| s.as_str()).collect();
        assert_eq!(stages, MUSIC_STAGE.values);
        assert_eq!(&MUSIC_STAGE.values[1..], CALLBACK_STAGE.values);
        let families: Vec<&str> = TaskFamily::ALL.iter().map(|f| f.as_str()).collect();
        assert_eq!(families, TASK_FAMILY.values);
        assert_eq!(
            ERROR_KIND.values[..3],
            ["unauthorized", "insufficient_credits", "rate_limited"]
        );
        assert_eq!(ERROR_KIND.values[ERROR_KIND.values.len() - 1], "internal");
        let rules: Vec<&str> = RuleKind::ALL.iter().map(|k| k.as_str()).collect();
        assert_eq!(rules, RULE.values);
        for v in VOCABS {
            // Either a meaning for every value, or none (the value says it all).
            assert!(
                v.value_docs.is_empty() || v.values.len() == v.value_docs.len(),
                "{}",
                v.name
            );
        }
    }
}
