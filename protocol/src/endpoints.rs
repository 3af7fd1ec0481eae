//! Every operation of the service, one row each: method, host, path, code table, what it answers
//! (the task family it starts, or the least its answer holds) and the rules of its request. One
//! table on purpose (over 400 lines): a reader compares operations row by
//! row, and the code generator, the validators and `/openapi.json` all read it. What a row cannot
//! hold (rules that tie fields together), or what the wasm client must not carry (type names,
//! prices, the records' declarations), is a match on `Op` with no wildcard arm, so that a new operation that
//! forgets one does not compile.

use crate::codes::CodeTable;
use crate::family::TaskFamily;
pub use crate::op::Op;
use crate::pricing::Price;
use crate::rules::{check, FieldRule, Fields, Kind, Range, RuleKind, ValidationError, Value};
use crate::schema::{self as s, Record};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Method {
    Get,
    Post,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Host {
    Music,
    Upload,
}

/// The least a successful answer's `data` must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// `{ taskId: "non-empty" }` (or the id as a bare string).
    TaskId,
    /// A finite number (or `{ credits: number }`).
    Number,
    /// An object (not an array, not null).
    Object,
    /// An object with a non-empty string in this field.
    Record(Key),
    /// Nothing in `data`: the envelope itself answers (recovery's `{code, msg, task_id, data}`,
    /// whose `data` is null while the task runs).
    Envelope,
}

/// The field a record must hold for a caller to go on: what names it, or where its file is. An
/// enum rather than the field's name, so that a row of the table stays a few bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    TaskId,
    PersonaId,
    DownloadUrl,
}

impl Key {
    pub const fn name(self) -> &'static str {
        match self {
            Key::TaskId => "taskId",
            Key::PersonaId => "personaId",
            Key::DownloadUrl => "downloadUrl",
        }
    }
}

impl Answer {
    /// What the documentation promises, for the error message.
    pub const fn promise(self) -> &'static str {
        match self {
            Answer::TaskId => "a taskId",
            Answer::Number => "a number",
            Answer::Object | Answer::Record(_) | Answer::Envelope => "a record",
        }
    }

    /// Whether an answer with `code` and a `task_id` beside it (read only if needed) is the task's
    /// state rather than an error: only for `Envelope` (recovery), whose 201 (running) and 500
    /// (every track failed) are states of a task that exists, told by its `task_id`.
    pub fn is_state_envelope(
        self,
        code: Option<i64>,
        task_id: impl FnOnce() -> Option<String>,
    ) -> bool {
        use crate::status::{RECOVERY_ALL_FAILED, RECOVERY_DONE, RECOVERY_RUNNING};
        self == Answer::Envelope
            && matches!(
                code,
                Some(RECOVERY_DONE | RECOVERY_RUNNING | RECOVERY_ALL_FAILED)
            )
            && task_id().is_some_and(|t| !t.is_empty())
    }
}

/// What an operation answers with.
#[derive(Clone, Copy, Debug)]
pub enum Returns {
    /// It starts (and charges for) a task of this family, and answers the task's id.
    TaskId(TaskFamily),
    /// It is the status query of this family: it answers a task's record, its own status in it.
    Status(TaskFamily),
    /// It answers at once with its record (`Op::output`), whose `data` must hold at least this.
    Now(Answer),
}

/// How an operation is called, what it answers and costs, and what its request must satisfy.
#[derive(Debug)]
pub struct Endpoint {
    pub op: Op,
    /// The JavaScript method name.
    pub name: &'static str,
    pub method: Method,
    pub host: Host,
    /// Path on its host; `{svc}` stands for the service segment (default `suno`).
    pub path: &'static str,
    /// Which table of envelope codes its answers follow.
    pub codes: CodeTable,
    pub returns: Returns,
    /// For GET operations these are query parameters; otherwise JSON (or multipart) body fields.
    pub fields: &'static [FieldRule],
    pub summary: &'static str,
}

impl Endpoint {
    /// The family of the task the operation starts; `None` for operations that start none.
    pub const fn creates(&self) -> Option<TaskFamily> {
        match self.returns {
            Returns::TaskId(family) => Some(family),
            Returns::Status(_) | Returns::Now(_) => None,
        }
    }

    /// Creating calls start (and charge for) a task: never retried after an ambiguous failure.
    pub const fn creates_task(&self) -> bool {
        self.creates().is_some()
    }

    /// The field that takes the callback URL, if the operation has one.
    pub fn callback_field(&self) -> Option<&'static str> {
        self.fields
            .iter()
            .find(|f| CALLBACK_FIELDS.contains(&f.name))
            .map(|f| f.name)
    }
}

use crate::docs;
pub use crate::schema::{DEFAULT_MODEL, V6_SERIES};
/// The model enum: current values first, then the deprecated ones still accepted.
pub const MODELS: &[&str] = crate::schema::MODEL.values;
pub const VOCAL_GENDERS: &[&str] = crate::schema::VOCAL_GENDER.values;
pub const SEPARATION_TYPES: &[&str] = crate::schema::SEPARATION_TYPE.values;
pub use crate::schema::{SOUND_MODELS, VOICE_PERSONA_MODELS};

/// The limits of the text fields of a music generation in custom mode, by model (the public
/// document's tables; it predates the V6 series, which is held to the V5 limits here).
pub const fn custom_limits(model: &str) -> CustomLimits {
    match model.as_bytes() {
        b"V4" => CustomLimits {
            prompt: 3000,
            style: 200,
            title: 80,
        },
        b"V4_5ALL" => CustomLimits {
            prompt: 5000,
            style: 1000,
            title: 80,
        },
        _ => CustomLimits {
            prompt: 5000,
            style: 1000,
            title: 100,
        },
    }
}

/// Character limits of `prompt` (the lyrics), `style` and `title` in custom mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CustomLimits {
    pub prompt: usize,
    pub style: usize,
    pub title: usize,
}

/// The prompt limit of non-custom mode (the idea of the song; the lyrics are written for it).
pub const MAX_DESCRIPTION_PROMPT: usize = 3000;
/// Replace-section windows: at least 10 seconds. At most half the track too, which only a reader
/// of the track can check: the emulator's `replace_section` (emulator/src/http/music.rs), before
/// any credit is spent, with this fraction.
pub const REPLACE_WINDOW_MIN_S: f64 = 10.0;
pub const REPLACE_WINDOW_MAX_FRACTION: f64 = 0.5;
/// Persona segments: 10 to 30 seconds, from 0 and 30 by default.
pub const PERSONA_SEGMENT_MIN_S: f64 = 10.0;
pub const PERSONA_SEGMENT_MAX_S: f64 = 30.0;
pub const PERSONA_DEFAULT_START_S: f64 = 0.0;
pub const PERSONA_DEFAULT_END_S: f64 = 30.0;
/// A mashup mixes exactly this many uploads.
pub const MASHUP_SOURCES: usize = 2;

/// The request fields that name a task the caller made (the service spells them three ways): a
/// server in front of the service checks their owner before forwarding.
pub const TASK_ID_FIELDS: &[&str] = &["taskId", "task_id", "sunoTaskId"];
/// The request fields that name a track or stem (`audioId`), or a persona or custom voice
/// (`personaId`), of the caller's: a server in front of the service checks their owner too.
pub const REFERENCE_FIELDS: &[&str] = &["audioId", "personaId"];
/// Where the service's records and callbacks name a track, stem, persona or custom voice.
pub const NAMED_REFERENCE_FIELDS: &[&str] = &["id", "personaId", "voiceId"];
/// The fields that take the callback URL (regenerate's is spelt `calBackUrl` by the service).
pub const CALLBACK_FIELDS: &[&str] = &["callBackUrl", "calBackUrl"];

/// `lyrics` limit for the V6 series, in every operation that takes lyrics.
pub const MAX_LYRICS_V6: usize = 5000;
/// generate's `negativeTags` limit for the V6 series.
pub const MAX_NEGATIVE_TAGS_V6: usize = 1000;
/// `duration`: the target length in seconds (the service's default is 20; a target, not a promise).
pub const DURATION_MIN_S: f64 = 10.0;
pub const DURATION_MAX_S: f64 = 360.0;

/// generate's fields of custom mode only: the service ignores them when `customMode` is false.
pub const CUSTOM_ONLY: &[&str] = &[
    "negativeTags",
    "vocalGender",
    "duration",
    "styleWeight",
    "weirdnessConstraint",
    "audioWeight",
    "variety",
];
/// generate's references, of non-custom mode only.
pub const NON_CUSTOM_ONLY: &[&str] = &["imageUrls", "videoUrls", "audioUrls"];
/// generate needs at least one of these, by mode. Non-custom lists `prompt` too (the idea text,
/// which the documentation's list omits; it was the one field of that mode until V6).
pub const NON_CUSTOM_ONE_OF: &[&str] = &[
    "prompt",
    "imageUrls",
    "videoUrls",
    "audioUrls",
    "style",
    "lyrics",
];
pub const CUSTOM_ONE_OF: &[&str] = &["style", "lyrics", "negativeTags"];
/// What counts toward generate's references: each URL of the lists, and `style` and `lyrics`.
pub const REFERENCES: &[&str] = &["imageUrls", "videoUrls", "audioUrls", "style", "lyrics"];
pub const MAX_REFERENCES: usize = 10;
/// Limits of extend with `defaultParamFlag: true`.
pub const MAX_EXTEND_PROMPT: usize = 3000;
pub const MAX_EXTEND_STYLE: usize = 200;
pub const MAX_EXTEND_TITLE: usize = 80;

#[cfg_attr(not(feature = "docs"), allow(unused_variables))]
const fn req(name: &'static str, kind: Kind, doc: &'static str) -> FieldRule {
    FieldRule {
        name,
        required: true,
        kind,
        #[cfg(feature = "docs")]
        doc,
    }
}
#[cfg_attr(not(feature = "docs"), allow(unused_variables))]
const fn opt(name: &'static str, kind: Kind, doc: &'static str) -> FieldRule {
    FieldRule {
        name,
        required: false,
        kind,
        #[cfg(feature = "docs")]
        doc,
    }
}
const TEXT: Kind = Kind::Text { max: None };
const WEIGHT: Kind = Kind::Number(&Range {
    min: 0.0,
    max: 1.0,
    step: Some(0.01),
});

const CALLBACK: FieldRule = req(
    "callBackUrl",
    Kind::Url,
    "URL that receives the task's callbacks (POST, JSON)",
);
const CALLBACK_OPT: FieldRule = opt(
    "callBackUrl",
    Kind::Url,
    "URL that receives the task's callback (POST, JSON)",
);
const UPLOAD_URL: FieldRule = req(
    "uploadUrl",
    Kind::Url,
    "Publicly accessible audio file (MP3, WAV and similar)",
);
/// A model: the known ones listed, a newer one's name passed on for the service to answer.
const MODEL_KIND: Kind = Kind::Open(MODELS);
const MODEL: FieldRule = opt("model", MODEL_KIND, "Model version; default V6");
const MODEL_REQ: FieldRule = req("model", MODEL_KIND, "Model version");
const LYRICS: FieldRule = opt(
    "lyrics",
    TEXT,
    "The lyrics to sing; at most 5000 characters for the V6 series",
);
const VARIETY: FieldRule = opt(
    "variety",
    Kind::Integer { min: 0, max: 4 },
    "0 off, 1 normal (default), 2 high, 3 extra, 4 max",
);
const DURATION: FieldRule = opt(
    "duration",
    Kind::Number(&Range {
        min: DURATION_MIN_S,
        max: DURATION_MAX_S,
        step: None,
    }),
    "Target length in seconds (default 20); a target, not a promise",
);
const CUSTOM_MODE: &str =
    "true: custom parameters (style, lyrics, title...); false: the idea in `prompt` and references";
const GENDER: FieldRule = opt("vocalGender", Kind::OneOf(VOCAL_GENDERS), "`m` or `f`");
const STYLE_WEIGHT: FieldRule = opt("styleWeight", WEIGHT, "0 to 1, multiple of 0.01");
const WEIRDNESS: FieldRule = opt("weirdnessConstraint", WEIGHT, "0 to 1, multiple of 0.01");
const AUDIO_WEIGHT: FieldRule = opt("audioWeight", WEIGHT, "0 to 1, multiple of 0.01");
const NEGATIVE: FieldRule = opt("negativeTags", TEXT, "Styles or traits to exclude");
const TASK_ID: FieldRule = req("taskId", TEXT, "Id returned when the task was created");
const PERSONA_ID: FieldRule = opt("personaId", TEXT, "Persona to sing with (custom mode only): a `personaId` of generatePersona, or a `voiceId` of createVoice with personaModel `voice_persona`");
const PERSONA_MODEL: FieldRule = opt(
    "personaModel",
    Kind::OneOf(crate::schema::PERSONA_MODEL.values),
    "What `personaId` is: style_persona (default) or voice_persona (V5, V5_5 and the V6 series)",
);
const SECONDS: Kind = Kind::Number(&Range {
    min: 0.0,
    max: 86_400.0,
    step: None,
});
const SECONDS_2DP: Kind = Kind::Number(&Range {
    min: 0.0,
    max: 86_400.0,
    step: Some(0.01),
});
const AUDIO_ID: FieldRule = req(
    "audioId",
    TEXT,
    "Id of one generated track (the `id` of a Track)",
);
const CONTINUE_AT: FieldRule =
    opt("continueAt", SECONDS, "Seconds into the source where the extension starts; above 0 and below its length; required with defaultParamFlag true");
const UPLOAD_PATH: FieldRule = opt("uploadPath", Kind::DirPath, "Storage directory, relative");
const FILE_NAME: FieldRule = opt(
    "fileName",
    Kind::FileName,
    "Stored file name; an existing name is overwritten; random when omitted",
);

static TABLE: &[Endpoint] = &[
    Endpoint {
        op: Op::Generate, name: "generate", method: Method::Post, host: Host::Music, path: "/api/v1/generate",
        codes: CodeTable::Music, summary: docs("Generate music (2 tracks)"),
        returns: Returns::TaskId(TaskFamily::Music),
        fields: &[
            req("customMode", Kind::Bool, CUSTOM_MODE),
            req("instrumental", Kind::Bool, "true: no vocals"),
            MODEL_REQ, CALLBACK,
            opt("prompt", TEXT, "Non-custom mode: the idea of the song, at most 3000 characters; custom mode: the lyrics, when `lyrics` is not given"),
            LYRICS,
            opt("style", TEXT, "Genre and style"),
            opt("title", TEXT, "Track title"),
            opt("imageUrls", Kind::UrlList { min: 0, max: 5 }, "Non-custom mode only: up to 5 images (jpeg, png, webp or bmp; at most 10 MB each)"),
            opt("videoUrls", Kind::UrlList { min: 0, max: 1 }, "Non-custom mode only: one video (mp4, mov or webm; at most 100 MB and 241 s)"),
            opt("audioUrls", Kind::UrlList { min: 0, max: MAX_REFERENCES }, "Non-custom mode only: audio references (6 s to 30 min, at most 500 MB each); 10 references in all, style and lyrics included"),
            NEGATIVE, GENDER, STYLE_WEIGHT, WEIRDNESS, AUDIO_WEIGHT, DURATION, VARIETY,
            PERSONA_ID, PERSONA_MODEL,
        ],
    },
    Endpoint {
        op: Op::Extend, name: "extend", method: Method::Post, host: Host::Music, path: "/api/v1/generate/extend",
        codes: CodeTable::Music, summary: docs("Extend a generated track"),
        returns: Returns::TaskId(TaskFamily::Music),
        fields: &[
            req("defaultParamFlag", Kind::Bool, "true: custom parameters (prompt, style, title, continueAt); false: taken from the source audio"),
            AUDIO_ID, CALLBACK, MODEL,
            opt("prompt", Kind::Text { max: Some(MAX_EXTEND_PROMPT) }, "At most 3000 characters; required with defaultParamFlag true"),
            opt("style", Kind::Text { max: Some(MAX_EXTEND_STYLE) }, "At most 200 characters; required with defaultParamFlag true"),
            opt("title", Kind::Text { max: Some(MAX_EXTEND_TITLE) }, "At most 80 characters; required with defaultParamFlag true"),
            CONTINUE_AT, NEGATIVE, GENDER, STYLE_WEIGHT, WEIRDNESS, AUDIO_WEIGHT,
            PERSONA_ID, PERSONA_MODEL,
        ],
    },
    Endpoint {
        op: Op::UploadCover, name: "uploadCover", method: Method::Post, host: Host::Music, path: "/api/v1/generate/upload-cover",
        codes: CodeTable::Music, summary: docs("Cover an uploaded audio in a new style"),
        returns: Returns::TaskId(TaskFamily::Music),
        fields: &[
            UPLOAD_URL, MODEL_REQ, CALLBACK,
            opt("customMode", Kind::Bool, "Always custom mode since V6; false is still read as before"),
            opt("instrumental", Kind::Bool, "true: no vocals"),
            opt("prompt", TEXT, "Lyrics or description"), LYRICS, opt("style", TEXT, "Genre and style"), opt("title", TEXT, "Track title"),
            NEGATIVE, GENDER, STYLE_WEIGHT, WEIRDNESS, AUDIO_WEIGHT, DURATION, VARIETY,
            PERSONA_ID, PERSONA_MODEL,
        ],
    },
    Endpoint {
        op: Op::UploadExtend, name: "uploadExtend", method: Method::Post, host: Host::Music, path: "/api/v1/generate/upload-extend",
        codes: CodeTable::Music, summary: docs("Extend an uploaded audio"),
        returns: Returns::TaskId(TaskFamily::Music),
        fields: &[
            UPLOAD_URL,
            req("defaultParamFlag", Kind::Bool, "true: custom parameters (continueAt required); false: defaults"),
            MODEL_REQ, CALLBACK,
            opt("instrumental", Kind::Bool, "true: no vocals"),
            opt("prompt", TEXT, "Lyrics or description"), opt("style", TEXT, "Genre and style"), opt("title", TEXT, "Track title"),
            CONTINUE_AT, NEGATIVE, GENDER, STYLE_WEIGHT, WEIRDNESS, AUDIO_WEIGHT,
            PERSONA_ID, PERSONA_MODEL,
        ],
    },
    Endpoint {
        op: Op::AddInstrumental, name: "addInstrumental", method: Method::Post, host: Host::Music, path: "/api/v1/generate/add-instrumental",
        codes: CodeTable::Music, summary: docs("Generate an accompaniment for an uploaded vocal or melody"),
        returns: Returns::TaskId(TaskFamily::Music),
        fields: &[
            UPLOAD_URL,
            req("title", TEXT, "Title of the generated track"),
            req("negativeTags", TEXT, "Styles or traits to exclude"),
            req("tags", TEXT, "Desired style, mood and instruments"),
            CALLBACK,
            LYRICS, GENDER, STYLE_WEIGHT, WEIRDNESS, AUDIO_WEIGHT, VARIETY, MODEL,
        ],
    },
    Endpoint {
        op: Op::AddVocals, name: "addVocals", method: Method::Post, host: Host::Music, path: "/api/v1/generate/add-vocals",
        codes: CodeTable::Music, summary: docs("Layer generated vocals over an uploaded instrumental"),
        returns: Returns::TaskId(TaskFamily::Music),
        fields: &[
            UPLOAD_URL, CALLBACK,
            req("title", TEXT, "Title of the generated track"),
            req("negativeTags", TEXT, "Styles or vocal traits to exclude"),
            req("style", TEXT, "Overall genre and vocal approach"),
            opt("prompt", TEXT, "Lyrical concept or mood"),
            LYRICS,
            opt("tags", TEXT, "Accepted as a style control"),
            GENDER, STYLE_WEIGHT, WEIRDNESS, AUDIO_WEIGHT, VARIETY, MODEL,
        ],
    },
    Endpoint {
        op: Op::BoostStyle, name: "boostStyle", method: Method::Post, host: Host::Music, path: "/api/v1/style/generate",
        codes: CodeTable::Music, summary: docs("Boost a style description (answers at once; tied to V4_5)"),
        returns: Returns::Now(Answer::Object),
        fields: &[req("content", TEXT, "Style description; may be a conversational, detailed prompt")],
    },
    Endpoint {
        op: Op::GetTask, name: "getTask", method: Method::Get, host: Host::Music, path: "/api/v1/generate/record-info",
        codes: CodeTable::Music, summary: docs("Status and tracks of a music task"), fields: &[TASK_ID],
        returns: Returns::Status(TaskFamily::Music),
    },
    Endpoint {
        op: Op::GetCredits, name: "getCredits", method: Method::Get, host: Host::Music, path: "/api/v1/generate/credit",
        codes: CodeTable::Music, summary: docs("Remaining credits of the key"), fields: &[],
        returns: Returns::Now(Answer::Number),
    },
    Endpoint {
        op: Op::GenerateCover, name: "generateCover", method: Method::Post, host: Host::Music, path: "/api/v1/{svc}/cover/generate",
        codes: CodeTable::Cover, summary: docs("Generate cover images (normally 2) for a music task"),
        returns: Returns::TaskId(TaskFamily::Cover),
        fields: &[req("taskId", TEXT, "Id of the music task"), CALLBACK],
    },
    Endpoint {
        op: Op::GetCover, name: "getCover", method: Method::Get, host: Host::Music, path: "/api/v1/{svc}/cover/record-info",
        codes: CodeTable::Cover, summary: docs("Status and images of a cover task"), fields: &[TASK_ID],
        returns: Returns::Status(TaskFamily::Cover),
    },
    Endpoint {
        op: Op::ConvertToWav, name: "convertToWav", method: Method::Post, host: Host::Music, path: "/api/v1/wav/generate",
        codes: CodeTable::Music, summary: docs("Convert a track to WAV (one of taskId or audioId)"),
        returns: Returns::TaskId(TaskFamily::Wav),
        fields: &[opt("taskId", TEXT, "Music task of the track"), opt("audioId", TEXT, "Id of the track"), CALLBACK_OPT],
    },
    Endpoint {
        op: Op::GetWav, name: "getWav", method: Method::Get, host: Host::Music, path: "/api/v1/wav/record-info",
        codes: CodeTable::Music, summary: docs("Status and URL of a WAV conversion"), fields: &[TASK_ID],
        returns: Returns::Status(TaskFamily::Wav),
    },
    Endpoint {
        op: Op::GenerateLyrics, name: "generateLyrics", method: Method::Post, host: Host::Music, path: "/api/v1/lyrics",
        codes: CodeTable::Music, summary: docs("Write lyrics from a prompt"),
        returns: Returns::TaskId(TaskFamily::Lyrics),
        fields: &[req("prompt", Kind::Words { max_words: 200 }, "What the lyrics are about; at most 200 words"), CALLBACK],
    },
    Endpoint {
        op: Op::GetLyrics, name: "getLyrics", method: Method::Get, host: Host::Music, path: "/api/v1/lyrics/record-info",
        codes: CodeTable::Music, summary: docs("Status and texts of a lyrics task"), fields: &[TASK_ID],
        returns: Returns::Status(TaskFamily::Lyrics),
    },
    Endpoint {
        op: Op::GetTimestampedLyrics, name: "getTimestampedLyrics", method: Method::Post, host: Host::Music,
        path: "/api/v1/generate/get-timestamped-lyrics", codes: CodeTable::Music,
        returns: Returns::Now(Answer::Object),
        summary: docs("Lyrics aligned to the audio, word by word (answers at once)"),
        fields: &[
            req("taskId", TEXT, "Music task of the track"),
            opt("audioId", TEXT, "Track id; wins over musicIndex"),
            opt("musicIndex", Kind::Integer { min: 0, max: 1 }, "0 or 1: which of the task's tracks"),
        ],
    },
    Endpoint {
        op: Op::SeparateVocals, name: "separateVocals", method: Method::Post, host: Host::Music, path: "/api/v1/vocal-removal/generate",
        codes: CodeTable::Music, summary: docs("Separate vocals and instruments into stems"),
        returns: Returns::TaskId(TaskFamily::VocalSeparation),
        fields: &[
            req("taskId", TEXT, "Music task of the track"), AUDIO_ID, CALLBACK,
            opt("type", Kind::OneOf(SEPARATION_TYPES), "separate_vocal (default, 2 stems), split_stem (up to 12 stems) or split_stem_advanced (one named instrument)"),
            opt("stemName", Kind::OneOf(crate::schema::STEM_NAME.values), "The instrument to isolate; required with type split_stem_advanced, and only with it"),
        ],
    },
    Endpoint {
        op: Op::GetVocalSeparation, name: "getVocalSeparation", method: Method::Get, host: Host::Music,
        path: "/api/v1/vocal-removal/record-info", codes: CodeTable::Music,
        returns: Returns::Status(TaskFamily::VocalSeparation),
        summary: docs("Status and stems of a vocal separation"), fields: &[TASK_ID],
    },
    Endpoint {
        op: Op::GenerateVideo, name: "generateVideo", method: Method::Post, host: Host::Music, path: "/api/v1/mp4/generate",
        codes: CodeTable::Music, summary: docs("Make a music video of a track"),
        returns: Returns::TaskId(TaskFamily::Video),
        fields: &[
            req("taskId", TEXT, "Music task of the track"), AUDIO_ID, CALLBACK,
            opt("author", Kind::Text { max: Some(50) }, "Shown in the video; at most 50 characters"),
            opt("domainName", Kind::Text { max: Some(50) }, "Watermark domain; at most 50 characters"),
        ],
    },
    Endpoint {
        op: Op::GetVideo, name: "getVideo", method: Method::Get, host: Host::Music, path: "/api/v1/mp4/record-info",
        codes: CodeTable::Music, summary: docs("Status and URL of a music video"), fields: &[TASK_ID],
        returns: Returns::Status(TaskFamily::Video),
    },
    Endpoint {
        op: Op::UploadFromUrl, name: "uploadFromUrl", method: Method::Post, host: Host::Upload, path: "/api/file-url-upload",
        codes: CodeTable::Upload, summary: docs("Store a remote file (downloaded within 30 s; at most 100 MB recommended)"),
        returns: Returns::Now(Answer::Record(Key::DownloadUrl)),
        fields: &[req("fileUrl", Kind::Url, "Public http or https URL of the file"), UPLOAD_PATH, FILE_NAME],
    },
    Endpoint {
        op: Op::UploadStream, name: "uploadFile", method: Method::Post, host: Host::Upload, path: "/api/file-stream-upload",
        codes: CodeTable::Upload, summary: docs("Store a file sent as multipart/form-data (`file`)"),
        returns: Returns::Now(Answer::Record(Key::DownloadUrl)),
        fields: &[UPLOAD_PATH, FILE_NAME],
    },
    Endpoint {
        op: Op::UploadBase64, name: "uploadBase64", method: Method::Post, host: Host::Upload, path: "/api/file-base64-upload",
        codes: CodeTable::Upload, summary: docs("Store a file sent as Base64 text or a data URL (at most 10 MB)"),
        returns: Returns::Now(Answer::Record(Key::DownloadUrl)),
        fields: &[req("base64Data", TEXT, "Bare Base64 or `data:<mime>;base64,<data>`"), UPLOAD_PATH, FILE_NAME],
    },
    Endpoint {
        op: Op::GenerateSounds, name: "generateSounds", method: Method::Post, host: Host::Music, path: "/api/v1/generate/sounds",
        codes: CodeTable::Music, summary: docs("Generate a sound or loop (tempo, key)"),
        returns: Returns::TaskId(TaskFamily::Music),
        fields: &[
            req("prompt", Kind::Text { max: Some(500) }, "What the sound is; at most 500 characters"),
            opt("model", Kind::Open(SOUND_MODELS), "Model version: the V6 series, default V6 (V5 still accepted)"),
            opt("soundLoop", Kind::Bool, "true: a seamless loop"),
            opt("soundTempo", Kind::Integer { min: 1, max: 300 }, "Beats per minute, 1 to 300; automatic when omitted"),
            opt("soundKey", Kind::OneOf(crate::schema::SOUND_KEY.values), "Key; Any (default) lets the model choose"),
            opt("grabLyrics", Kind::Bool, "true: fetch lyric subtitles when done"),
            CALLBACK_OPT,
        ],
    },
    Endpoint {
        op: Op::ReplaceSection, name: "replaceSection", method: Method::Post, host: Host::Music, path: "/api/v1/generate/replace-section",
        codes: CodeTable::Cover, summary: docs("Regenerate a window of a track, keeping the rest"),
        returns: Returns::TaskId(TaskFamily::Music),
        fields: &[
            req("prompt", TEXT, "The new lyrics of the window"),
            req("tags", TEXT, "Style tags (jazz, electronic...)"),
            req("title", TEXT, "Track title"),
            req("fullLyrics", TEXT, "The whole song's lyrics after the change"),
            req("infillStartS", SECONDS_2DP, "Start of the window, seconds (two decimals); below infillEndS"),
            req("infillEndS", SECONDS_2DP, "End of the window, seconds (two decimals); the window is at least 10 s and at most half the track"),
            opt("taskId", TEXT, "Music task of a generated track (with audioId)"),
            opt("audioId", TEXT, "The generated track (with taskId)"),
            opt("uploadUrl", Kind::Url, "An uploaded track instead (with model)"),
            opt("model", MODEL_KIND, "Model version; required with uploadUrl"),
            opt("lyrics", TEXT, "The replaced window's lyrics only (`fullLyrics` holds the song's); at most 5000 characters for the V6 series"),
            NEGATIVE, GENDER, STYLE_WEIGHT, WEIRDNESS, AUDIO_WEIGHT, VARIETY,
            PERSONA_ID, PERSONA_MODEL, CALLBACK_OPT,
        ],
    },
    Endpoint {
        op: Op::Mashup, name: "mashup", method: Method::Post, host: Host::Music, path: "/api/v1/generate/mashup",
        codes: CodeTable::Mashup, summary: docs("Mash up two uploaded tracks into a new one"),
        returns: Returns::TaskId(TaskFamily::Music),
        fields: &[
            req("uploadUrlList", Kind::UrlList { min: MASHUP_SOURCES, max: MASHUP_SOURCES }, "The two uploaded tracks to mix"),
            MODEL_REQ, CALLBACK,
            opt("customMode", Kind::Bool, "Always custom mode since V6; false is still read as before"),
            opt("prompt", TEXT, "Lyrics (custom mode) or description of the song"),
            LYRICS,
            opt("style", TEXT, "Genre and style"),
            opt("title", TEXT, "Track title"),
            opt("instrumental", Kind::Bool, "true: no vocals"),
            GENDER, STYLE_WEIGHT, WEIRDNESS, AUDIO_WEIGHT, DURATION, VARIETY,
            PERSONA_ID, PERSONA_MODEL,
        ],
    },
    Endpoint {
        op: Op::GeneratePersona, name: "generatePersona", method: Method::Post, host: Host::Music, path: "/api/v1/generate/generate-persona",
        codes: CodeTable::Cover, summary: docs("Make a persona from a generated track (answers at once)"),
        returns: Returns::Now(Answer::Record(Key::PersonaId)),
        fields: &[
            req("taskId", TEXT, "Music task of the track"), AUDIO_ID,
            req("name", TEXT, "The persona's name"),
            req("description", TEXT, "Its musical character: genre, mood, instruments, voice"),
            opt("vocalStart", SECONDS, "Start of the analysed segment, seconds; default 0"),
            opt("vocalEnd", SECONDS, "End of the segment, seconds; default 30; the segment is 10 to 30 s"),
            opt("style", TEXT, "Style label"),
        ],
    },
    Endpoint {
        op: Op::GenerateMidi, name: "generateMidi", method: Method::Post, host: Host::Music, path: "/api/v1/midi/generate",
        codes: CodeTable::Music, summary: docs("Transcribe a vocal separation's stems to MIDI notes"),
        returns: Returns::TaskId(TaskFamily::Midi),
        fields: &[
            req("taskId", TEXT, "A finished vocal-separation task"), CALLBACK,
            opt("audioId", TEXT, "One stem (an `id` of the separation's `originData`); every stem when omitted"),
        ],
    },
    Endpoint {
        op: Op::GetMidi, name: "getMidi", method: Method::Get, host: Host::Music, path: "/api/v1/midi/record-info",
        codes: CodeTable::Music, summary: docs("Status and notes of a MIDI task"), fields: &[TASK_ID],
        returns: Returns::Status(TaskFamily::Midi),
    },
    Endpoint {
        op: Op::RecoverAudio, name: "recoverAudio", method: Method::Post, host: Host::Music, path: "/api/v1/{svc}/recovery",
        codes: CodeTable::Music, summary: docs("Fresh playable links for an old music task whose links expired"),
        returns: Returns::TaskId(TaskFamily::Recovery),
        fields: &[req("sunoTaskId", TEXT, "The old music task"), CALLBACK],
    },
    Endpoint {
        op: Op::GetRecovery, name: "getRecovery", method: Method::Get, host: Host::Music, path: "/api/v1/{svc}/recovery/record-info",
        codes: CodeTable::Music, summary: docs("Status and links of an audio recovery"),
        returns: Returns::Status(TaskFamily::Recovery),
        fields: &[req("task_id", TEXT, "Id returned by recoverAudio (the service spells this parameter in snake_case)")],
    },
    Endpoint {
        op: Op::ValidateVoice, name: "validateVoice", method: Method::Post, host: Host::Music, path: "/api/v1/voice/validate",
        codes: CodeTable::Music, summary: docs("Start a custom voice: get a phrase for the singer to record"),
        returns: Returns::TaskId(TaskFamily::VoiceValidation),
        fields: &[
            req("voiceUrl", Kind::Url, "An uploaded recording of the singer"),
            req("vocalStartS", SECONDS, "Start of the singing in the recording, seconds"),
            req("vocalEndS", SECONDS, "End of the singing, seconds; after vocalStartS"),
            opt("language", Kind::OneOf(crate::schema::VOICE_LANGUAGE.values), "Language of the phrase"),
            CALLBACK_OPT,
        ],
    },
    Endpoint {
        op: Op::GetVoiceValidation, name: "getVoiceValidation", method: Method::Get, host: Host::Music, path: "/api/v1/voice/validate-info",
        codes: CodeTable::Music, summary: docs("Status and phrase of a voice validation"), fields: &[TASK_ID],
        returns: Returns::Status(TaskFamily::VoiceValidation),
    },
    Endpoint {
        op: Op::RegenerateVoicePhrase, name: "regenerateVoicePhrase", method: Method::Post, host: Host::Music, path: "/api/v1/voice/regenerate",
        codes: CodeTable::Music, summary: docs("A new phrase for a voice validation"),
        returns: Returns::TaskId(TaskFamily::VoiceValidation),
        fields: &[
            req("taskId", TEXT, "The voice-validation task"),
            req("calBackUrl", Kind::Url, "URL that receives the callback (the service spells this field `calBackUrl`)"),
        ],
    },
    Endpoint {
        op: Op::CreateVoice, name: "createVoice", method: Method::Post, host: Host::Music, path: "/api/v1/voice/generate",
        codes: CodeTable::Music, summary: docs("Create the custom voice from the recorded phrase"),
        returns: Returns::TaskId(TaskFamily::Voice),
        fields: &[
            req("taskId", TEXT, "The voice-validation task"),
            req("verifyUrl", Kind::Url, "An uploaded recording of the phrase"),
            opt("voiceName", TEXT, "The voice's name"),
            opt("description", TEXT, "A description of the voice"),
            opt("style", TEXT, "Style of the voice"),
            opt("singerSkillLevel", Kind::OneOf(crate::schema::SINGER_SKILL.values), "How skilled the singer is"),
            CALLBACK_OPT,
        ],
    },
    Endpoint {
        op: Op::GetVoice, name: "getVoice", method: Method::Get, host: Host::Music, path: "/api/v1/voice/record-info",
        codes: CodeTable::Music, summary: docs("Status and id of a custom voice"), fields: &[TASK_ID],
        returns: Returns::Status(TaskFamily::Voice),
    },
    Endpoint {
        op: Op::CheckVoice, name: "checkVoice", method: Method::Post, host: Host::Music, path: "/api/v1/voice/check-voice",
        codes: CodeTable::Music, summary: docs("Whether a custom voice can be used (answers at once)"),
        returns: Returns::Now(Answer::Object),
        fields: &[req("task_id", TEXT, "The voice task (the service spells this field in snake_case)")],
    },
];

impl Op {
    /// The name of the request's type, in the TypeScript and in `wire::generated`; `None` for an
    /// operation that takes no fields. A match rather than a column of the table, so that these
    /// names stay out of the wasm client, which never shows them.
    pub const fn request_type(self) -> Option<&'static str> {
        Some(match self {
            Op::Generate => "GenerateRequest",
            Op::Extend => "ExtendRequest",
            Op::UploadCover => "UploadCoverRequest",
            Op::UploadExtend => "UploadExtendRequest",
            Op::AddInstrumental => "AddInstrumentalRequest",
            Op::AddVocals => "AddVocalsRequest",
            Op::BoostStyle => "BoostStyleRequest",
            Op::GetTask
            | Op::GetCover
            | Op::GetWav
            | Op::GetLyrics
            | Op::GetVocalSeparation
            | Op::GetVideo
            | Op::GetMidi
            | Op::GetVoiceValidation
            | Op::GetVoice => "TaskQuery",
            Op::GetCredits => return None,
            Op::GenerateCover => "GenerateCoverRequest",
            Op::ConvertToWav => "ConvertToWavRequest",
            Op::GenerateLyrics => "GenerateLyricsRequest",
            Op::GetTimestampedLyrics => "TimestampedLyricsRequest",
            Op::SeparateVocals => "SeparateVocalsRequest",
            Op::GenerateVideo => "GenerateVideoRequest",
            Op::UploadFromUrl => "UploadFromUrlRequest",
            Op::UploadStream => "UploadTarget",
            Op::UploadBase64 => "UploadBase64Request",
            Op::GenerateSounds => "GenerateSoundsRequest",
            Op::ReplaceSection => "ReplaceSectionRequest",
            Op::Mashup => "MashupRequest",
            Op::GeneratePersona => "GeneratePersonaRequest",
            Op::GenerateMidi => "GenerateMidiRequest",
            Op::RecoverAudio => "RecoverAudioRequest",
            Op::GetRecovery => "RecoveryQuery",
            Op::ValidateVoice => "ValidateVoiceRequest",
            Op::RegenerateVoicePhrase => "RegenerateVoicePhraseRequest",
            Op::CreateVoice => "CreateVoiceRequest",
            Op::CheckVoice => "CheckVoiceRequest",
        })
    }

    /// The family of the task the operation starts; `None` for operations that start none.
    pub fn creates(self) -> Option<TaskFamily> {
        self.endpoint().creates()
    }

    /// The family whose status `self` queries, if it is a status query.
    pub fn queries(self) -> Option<TaskFamily> {
        match self.endpoint().returns {
            Returns::Status(family) => Some(family),
            Returns::TaskId(_) | Returns::Now(_) => None,
        }
    }

    /// What the client's method resolves with (without `wait`): the record it returns. A match
    /// rather than a column of the table, so that the records' declarations stay out of the wasm
    /// client, which reads the table but never these.
    pub fn output(self) -> &'static Record {
        match self {
            Op::Generate
            | Op::Extend
            | Op::UploadCover
            | Op::UploadExtend
            | Op::AddInstrumental
            | Op::AddVocals
            | Op::GenerateCover
            | Op::ConvertToWav
            | Op::GenerateLyrics
            | Op::SeparateVocals
            | Op::GenerateVideo
            | Op::GenerateSounds
            | Op::ReplaceSection
            | Op::Mashup
            | Op::GenerateMidi
            | Op::RecoverAudio
            | Op::ValidateVoice
            | Op::RegenerateVoicePhrase
            | Op::CreateVoice => &s::TASK_CREATED,
            Op::BoostStyle => &s::STYLE_BOOST,
            Op::GetTask => &s::MUSIC_TASK,
            Op::GetCredits => &s::CREDITS,
            Op::GetCover => &s::COVER_TASK,
            Op::GetWav => &s::WAV_TASK,
            Op::GetLyrics => &s::LYRICS_TASK,
            Op::GetTimestampedLyrics => &s::TIMESTAMPED_LYRICS,
            Op::GetVocalSeparation => &s::VOCAL_SEPARATION_TASK,
            Op::GetVideo => &s::VIDEO_TASK,
            Op::UploadFromUrl | Op::UploadStream | Op::UploadBase64 => &s::UPLOADED_FILE,
            Op::GeneratePersona => &s::PERSONA,
            Op::GetMidi => &s::MIDI_TASK,
            Op::GetRecovery => &s::RECOVERY_TASK,
            Op::GetVoiceValidation => &s::VOICE_VALIDATION_TASK,
            Op::GetVoice => &s::VOICE_TASK,
            Op::CheckVoice => &s::VOICE_AVAILABILITY,
        }
    }

    /// What a successful answer's `data` must hold, as the documentation promises: an answer
    /// without it is an unexpected answer (a typed error), never a silent `{}`.
    pub fn answer(self) -> Answer {
        match self.endpoint().returns {
            Returns::TaskId(_) => Answer::TaskId,
            // Recovery's query answers its own envelope, 201 while running.
            Returns::Status(TaskFamily::Recovery) => Answer::Envelope,
            Returns::Status(_) => Answer::Record(Key::TaskId),
            Returns::Now(answer) => answer,
        }
    }

    /// Uploads take a file or a URL and options rather than one request object: the upload
    /// host's operations.
    pub fn is_upload(self) -> bool {
        self.endpoint().host == Host::Upload
    }

    /// What one call costs on the emulator (a match, like `request_type`: the wasm client never
    /// needs it).
    pub const fn price(self) -> Price {
        match self {
            Op::Generate
            | Op::Extend
            | Op::UploadCover
            | Op::UploadExtend
            | Op::AddInstrumental
            | Op::AddVocals
            | Op::Mashup
            | Op::CreateVoice => Price::Flat(10),
            Op::BoostStyle | Op::GenerateLyrics | Op::RecoverAudio | Op::RegenerateVoicePhrase => {
                Price::Flat(1)
            }
            Op::GetTask
            | Op::GetCredits
            | Op::GetCover
            | Op::GetWav
            | Op::GetLyrics
            | Op::GetTimestampedLyrics
            | Op::GetVocalSeparation
            | Op::GetVideo
            | Op::UploadFromUrl
            | Op::UploadStream
            | Op::UploadBase64
            | Op::GeneratePersona
            | Op::GetMidi
            | Op::GetRecovery
            | Op::GetVoiceValidation
            | Op::GetVoice
            | Op::CheckVoice => Price::Free,
            Op::GenerateCover | Op::ConvertToWav | Op::ValidateVoice => Price::Flat(2),
            Op::SeparateVocals => Price::BySeparation {
                two_stems: 5,
                instruments: 10,
            },
            Op::GenerateVideo | Op::ReplaceSection | Op::GenerateMidi => Price::Flat(5),
            Op::GenerateSounds => Price::Flat(6),
        }
    }

    pub fn endpoint(self) -> &'static Endpoint {
        // TABLE is written in the order of `Op`, one entry each, which the tests check: every
        // discriminant is an index of it.
        #[allow(clippy::indexing_slicing)]
        &TABLE[self as usize]
    }

    /// Path with the service segment filled in.
    pub fn path(self, service_segment: &str) -> String {
        // The segment only ever follows `/api/v1/`; a prefix test keeps core's substring search
        // (and its panic formatting) out of the wasm.
        let path = self.endpoint().path;
        match path.strip_prefix("/api/v1/{svc}/") {
            Some(rest) => crate::text!("/api/v1/", service_segment, "/", rest),
            None => path.to_owned(),
        }
    }

    /// Finds the operation served at `method` and `path` (the path as served, with its segment).
    pub fn from_route(method: Method, path: &str, service_segment: &str) -> Option<Op> {
        Op::ALL.into_iter().find(|op| {
            let e = op.endpoint();
            e.method == method && op.path(service_segment) == path
        })
    }

    /// The full set of request rules: the field table, then rules that tie fields together.
    pub fn validate(self, fields: &(impl Fields + ?Sized)) -> Result<(), ValidationError> {
        check(self.endpoint().fields, fields)?;
        if self.endpoint().fields.iter().any(|f| f.name == "lyrics") {
            check_v6_length(fields, "lyrics", MAX_LYRICS_V6)?;
        }
        match self {
            Op::Generate => check_generate(fields),
            Op::UploadCover | Op::Mashup => {
                // Always custom since V6: only an explicit `customMode: false` reads as before.
                let custom = !matches!(fields.field("customMode"), Value::Bool(false));
                if custom {
                    check_custom_lengths(fields)?;
                } else {
                    check_description(fields, "customMode")?;
                }
                check_persona(fields, custom, "customMode")
            }
            Op::Extend => {
                let custom = flag(fields, "defaultParamFlag");
                if custom {
                    require_all(
                        fields,
                        &["prompt", "style", "title", "continueAt"],
                        "defaultParamFlag is true",
                    )?;
                }
                check_persona(fields, custom, "defaultParamFlag")?;
                check_continue_at(fields)
            }
            Op::UploadExtend => {
                let custom = flag(fields, "defaultParamFlag");
                if custom {
                    // Custom parameters: style and title, the lyrics unless instrumental, and where
                    // to continue; the limits of custom mode by model.
                    check_modes(fields, true, "defaultParamFlag")?;
                    require_all(fields, &["continueAt"], "defaultParamFlag is true")?;
                }
                check_persona(fields, custom, "defaultParamFlag")?;
                check_continue_at(fields)
            }
            Op::SeparateVocals => {
                let advanced =
                    matches!(fields.field("type"), Value::Str(t) if t == "split_stem_advanced");
                match (advanced, fields.field("stemName").is_absent()) {
                    (true, true) => Err(ValidationError::new(
                        "stemName",
                        RuleKind::Required,
                        "is required when type is split_stem_advanced",
                    )),
                    (false, false) => Err(ValidationError::new(
                        "stemName",
                        RuleKind::Dependency,
                        "is only used with type split_stem_advanced (the service would ignore it)",
                    )),
                    _ => Ok(()),
                }
            }
            Op::ReplaceSection => {
                let generated =
                    !fields.field("taskId").is_absent() || !fields.field("audioId").is_absent();
                if generated {
                    require_all(
                        fields,
                        &["taskId", "audioId"],
                        "the source is a generated track",
                    )?;
                    if !fields.field("uploadUrl").is_absent() {
                        return Err(ValidationError::new(
                            "uploadUrl",
                            RuleKind::Dependency,
                            "cannot be given with taskId and audioId: name one source",
                        ));
                    }
                } else if fields.field("uploadUrl").is_absent() {
                    return Err(ValidationError::new(
                        "taskId",
                        RuleKind::Dependency,
                        "and `audioId` (a generated track), or `uploadUrl` and `model` (an uploaded one), are required",
                    ));
                } else {
                    require_all(fields, &["model"], "the source is an uploadUrl")?;
                }
                check_window(
                    fields,
                    ("infillStartS", "infillEndS"),
                    (None, None),
                    REPLACE_WINDOW_MIN_S,
                    f64::INFINITY,
                )?;
                check_persona(fields, true, "customMode")
            }
            Op::GeneratePersona => check_window(
                fields,
                ("vocalStart", "vocalEnd"),
                (Some(PERSONA_DEFAULT_START_S), Some(PERSONA_DEFAULT_END_S)),
                PERSONA_SEGMENT_MIN_S,
                PERSONA_SEGMENT_MAX_S,
            ),
            Op::ValidateVoice => check_window(
                fields,
                ("vocalStartS", "vocalEndS"),
                (None, None),
                f64::MIN_POSITIVE,
                f64::MAX,
            ),
            Op::ConvertToWav => {
                if fields.field("taskId").is_absent() && fields.field("audioId").is_absent() {
                    return Err(ValidationError::new(
                        "taskId",
                        RuleKind::Dependency,
                        "or `audioId` is required: one of them identifies the source track",
                    ));
                }
                Ok(())
            }
            // The field table (and the lyrics' limit above) says all there is to say about these.
            Op::AddInstrumental
            | Op::AddVocals
            | Op::BoostStyle
            | Op::GetTask
            | Op::GetCredits
            | Op::GenerateCover
            | Op::GetCover
            | Op::GetWav
            | Op::GenerateLyrics
            | Op::GetLyrics
            | Op::GetTimestampedLyrics
            | Op::GetVocalSeparation
            | Op::GenerateVideo
            | Op::GetVideo
            | Op::UploadFromUrl
            | Op::UploadStream
            | Op::UploadBase64
            | Op::GenerateSounds
            | Op::GenerateMidi
            | Op::GetMidi
            | Op::RecoverAudio
            | Op::GetRecovery
            | Op::GetVoiceValidation
            | Op::RegenerateVoicePhrase
            | Op::CreateVoice
            | Op::GetVoice
            | Op::CheckVoice => Ok(()),
        }
    }
}

/// Custom mode (`customMode`, or `defaultParamFlag` on upload-extend) needs `style` and `title`,
/// and `prompt` (the exact lyrics) unless `instrumental`, within the model's limits; non-custom
/// mode needs only `prompt`, a description of at most 500 characters, and ignores the rest.
fn check_modes(
    fields: &(impl Fields + ?Sized),
    custom: bool,
    switch: &str,
) -> Result<(), ValidationError> {
    if !custom {
        require_all(fields, &["prompt"], &crate::text!(switch, " is false"))?;
        return check_description(fields, switch);
    }
    let because = crate::text!(switch, " is true");
    require_all(fields, &["style", "title"], &because)?;
    if !flag(fields, "instrumental") {
        require_all(
            fields,
            &["prompt"],
            &crate::text!(
                because,
                " and instrumental is not (the prompt is the lyrics)"
            ),
        )?;
    }
    check_custom_lengths(fields)
}

/// A non-custom `prompt` (the idea of the song): at most 3000 characters.
fn check_description(fields: &(impl Fields + ?Sized), switch: &str) -> Result<(), ValidationError> {
    check_length(
        fields,
        "prompt",
        MAX_DESCRIPTION_PROMPT,
        &crate::text!("when ", switch, " is false"),
    )
}

/// The request's model, or the default.
fn model_of(fields: &(impl Fields + ?Sized)) -> String {
    match fields.field("model") {
        Value::Str(m) => m.into_owned(),
        _ => DEFAULT_MODEL.to_owned(),
    }
}

/// `prompt`, `style` and `title` within the custom-mode limits of the request's model.
fn check_custom_lengths(fields: &(impl Fields + ?Sized)) -> Result<(), ValidationError> {
    let model = model_of(fields);
    let limits = custom_limits(&model);
    let with = crate::text!("for ", model, " in custom mode");
    check_length(fields, "prompt", limits.prompt, &with)?;
    check_length(fields, "style", limits.style, &with)?;
    check_length(fields, "title", limits.title, &with)
}

/// A field at most `max` characters long when the model is of the V6 series.
fn check_v6_length(
    fields: &(impl Fields + ?Sized),
    name: &'static str,
    max: usize,
) -> Result<(), ValidationError> {
    let model = model_of(fields);
    if !V6_SERIES.contains(&model.as_str()) {
        return Ok(());
    }
    check_length(fields, name, max, &crate::text!("for ", model))
}

/// Whether a field holds something: not absent, not blank text, not an empty list.
fn given(fields: &(impl Fields + ?Sized), name: &'static str) -> bool {
    match fields.field(name) {
        Value::Str(s) => !s.trim().is_empty(),
        Value::List(items) => !items.is_empty(),
        v => !v.is_absent(),
    }
}

/// "`a`, `b` or `c`".
fn either(names: &[&str]) -> String {
    let mut out = String::new();
    for (i, name) in names.iter().enumerate() {
        if i > 0 {
            out.push_str(if i + 1 == names.len() { " or " } else { ", " });
        }
        out.push('`');
        out.push_str(name);
        out.push('`');
    }
    out
}

/// generate since V6: the fields of the other mode refused (the service would ignore them), at
/// least one of the mode's inputs, at most 10 references in all, the lengths by mode and model,
/// and the persona's rules.
fn check_generate(fields: &(impl Fields + ?Sized)) -> Result<(), ValidationError> {
    let custom = flag(fields, "customMode");
    let (refused, mode, one_of) = if custom {
        (NON_CUSTOM_ONLY, "true", CUSTOM_ONE_OF)
    } else {
        (CUSTOM_ONLY, "false", NON_CUSTOM_ONE_OF)
    };
    if let Some(name) = refused.iter().find(|name| given(fields, name)) {
        return Err(ValidationError::new(
            name,
            RuleKind::Dependency,
            crate::text!(
                "is only for ",
                if custom { "non-custom" } else { "custom" },
                " mode: do not pass it when customMode is ",
                mode,
                " (the service would ignore it)"
            ),
        ));
    }
    if !one_of.iter().any(|name| given(fields, name)) {
        let field = one_of.first().copied().unwrap_or_default();
        return Err(ValidationError {
            field: field.to_owned(),
            rule: RuleKind::Required,
            message: crate::text!(
                "one of ",
                either(one_of),
                " is required when customMode is ",
                mode
            ),
        });
    }
    let mut count = 0;
    for name in REFERENCES {
        count += match fields.field(name) {
            Value::List(items) => items.len(),
            _ => usize::from(given(fields, name)),
        };
        if count > MAX_REFERENCES {
            return Err(ValidationError::new(
                name,
                RuleKind::Range,
                crate::text!(
                    "brings the references to ",
                    crate::num::int(count as i64),
                    ": at most 10 in all (each URL of `imageUrls`, `videoUrls` and `audioUrls`, `style` and `lyrics` count one)"
                ),
            ));
        }
    }
    if custom {
        check_custom_lengths(fields)?;
        check_v6_length(fields, "negativeTags", MAX_NEGATIVE_TAGS_V6)?;
    } else {
        check_description(fields, "customMode")?;
    }
    check_persona(fields, custom, "customMode")
}

fn check_length(
    fields: &(impl Fields + ?Sized),
    name: &'static str,
    max: usize,
    context: &str,
) -> Result<(), ValidationError> {
    if let Value::Str(text) = fields.field(name) {
        let len = text.chars().count();
        if len > max {
            return Err(crate::rules::too_long(
                name,
                RuleKind::MaxLength,
                max,
                &crate::text!("characters ", context),
                len,
            ));
        }
    }
    Ok(())
}

/// `personaId` only in custom mode; `personaModel` only with a `personaId`; a voice persona only
/// on the models that sing with voices.
fn check_persona(
    fields: &(impl Fields + ?Sized),
    custom: bool,
    switch: &str,
) -> Result<(), ValidationError> {
    let has_persona = !fields.field("personaId").is_absent();
    if has_persona && !custom {
        return Err(ValidationError::new(
            "personaId",
            RuleKind::Dependency,
            crate::text!(
                "is only available with custom parameters (",
                switch,
                ": true)"
            ),
        ));
    }
    match fields.field("personaModel") {
        v if v.is_absent() => Ok(()),
        _ if !has_persona => Err(ValidationError::new(
            "personaModel",
            RuleKind::Dependency,
            "needs a `personaId` to apply to",
        )),
        Value::Str(m) if m == "voice_persona" => {
            let model = model_of(fields);
            // A model the package does not know may sing with voices: the service answers for it.
            if VOICE_PERSONA_MODELS.contains(&model.as_str()) || !MODELS.contains(&model.as_str()) {
                return Ok(());
            }
            Err(ValidationError::new(
                "personaModel",
                RuleKind::Dependency,
                crate::text!(
                    "voice_persona is only available with model V5, V5_5 or the V6 series (got ",
                    model,
                    ")"
                ),
            ))
        }
        _ => Ok(()),
    }
}

/// A time window `[start, end)`: start below end, its length within `[min, max]` seconds.
/// Absent ends take their defaults (when the operation has them).
fn check_window(
    fields: &(impl Fields + ?Sized),
    (start_name, end_name): (&'static str, &'static str),
    (start_default, end_default): (Option<f64>, Option<f64>),
    min: f64,
    max: f64,
) -> Result<(), ValidationError> {
    let read = |name: &'static str, default: Option<f64>| match fields.field(name) {
        Value::Num(n) => Some(n),
        _ => default,
    };
    let (Some(start), Some(end)) = (read(start_name, start_default), read(end_name, end_default))
    else {
        return Ok(());
    };
    if start >= end {
        return Err(ValidationError::new(
            end_name,
            RuleKind::Range,
            crate::text!(
                "must be above `",
                start_name,
                "` (got ",
                crate::num::fmt(start),
                " to ",
                crate::num::fmt(end),
                ")"
            ),
        ));
    }
    let len = end - start;
    // Two-decimal inputs: 6.00 may arrive as 5.999999999; allow a hair under.
    if len + 1e-9 < min || len - 1e-9 > max {
        let bounds = if max.is_finite() {
            crate::text!(crate::num::fmt(min), " to ", crate::num::fmt(max))
        } else {
            crate::text!("at least ", crate::num::fmt(min))
        };
        return Err(ValidationError::new(
            end_name,
            RuleKind::Range,
            crate::text!(
                "must make a window of ",
                bounds,
                " seconds from `",
                start_name,
                "` (got ",
                crate::num::fmt((len * 100.0).round() / 100.0),
                ")"
            ),
        ));
    }
    Ok(())
}

fn flag(fields: &(impl Fields + ?Sized), name: &'static str) -> bool {
    matches!(fields.field(name), Value::Bool(true))
}

fn require_all(
    fields: &(impl Fields + ?Sized),
    names: &[&'static str],
    because: &str,
) -> Result<(), ValidationError> {
    for name in names {
        match fields.field(name) {
            Value::Str(s) if s.trim().is_empty() => {}
            v if v.is_absent() => {}
            _ => continue,
        }
        return Err(ValidationError::new(
            name,
            RuleKind::Required,
            crate::text!("is required when ", because),
        ));
    }
    Ok(())
}

fn check_continue_at(fields: &(impl Fields + ?Sized)) -> Result<(), ValidationError> {
    match fields.field("continueAt") {
        Value::Num(n) if n <= 0.0 => Err(ValidationError::new(
            "continueAt",
            RuleKind::Range,
            crate::text!("must be above 0 seconds (got ", crate::num::fmt(n), ")"),
        )),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Value;

    fn s(v: &str) -> Value<'_> {
        Value::Str(v.into())
    }

    #[test]
    fn no_list_field_is_longer_than_readers_read() {
        for endpoint in TABLE {
            for rule in endpoint.fields {
                if let crate::rules::Kind::UrlList { min, max } = rule.kind {
                    assert!(
                        min <= max && max <= crate::rules::MAX_LIST_ITEMS,
                        "{}",
                        rule.name
                    );
                }
            }
        }
    }

    #[test]
    fn table_follows_op_order_and_routes_resolve() {
        for (i, op) in Op::ALL.into_iter().enumerate() {
            assert_eq!(TABLE[i].op, op);
            assert_eq!(op as usize, i);
            let e = op.endpoint();
            assert_eq!(Op::from_route(e.method, &op.path("suno"), "suno"), Some(op));
        }
        assert_eq!(Op::GetCover.path("suno"), "/api/v1/suno/cover/record-info");
    }

    #[test]
    fn extend_custom_mode_needs_prompt_style_title_within_limits() {
        let base: Vec<(&str, Value)> = vec![
            ("defaultParamFlag", Value::Bool(true)),
            ("audioId", s("a1")),
            ("callBackUrl", s("https://example.com/cb")),
        ];
        let err = Op::Extend.validate(base.as_slice()).unwrap_err();
        assert_eq!(
            (err.field.as_str(), err.rule),
            ("prompt", RuleKind::Required)
        );

        let long_title = "t".repeat(81);
        let mut full = base.clone();
        full.extend([
            ("prompt", s("p")),
            ("style", s("s")),
            ("title", s(&long_title)),
            ("continueAt", Value::Num(10.0)),
        ]);
        let err = Op::Extend.validate(full.as_slice()).unwrap_err();
        assert_eq!(
            (err.field.as_str(), err.rule),
            ("title", RuleKind::MaxLength)
        );

        let mut defaults = base;
        defaults[0].1 = Value::Bool(false);
        assert!(Op::Extend.validate(defaults.as_slice()).is_ok());
    }

    #[test]
    fn lyrics_limit_applies_to_the_v6_series_only() {
        let lyrics = "l".repeat(5001);
        let mut fields: Vec<(&str, Value)> = vec![
            ("uploadUrl", s("https://example.com/v.mp3")),
            ("title", s("t")),
            ("negativeTags", s("n")),
            ("tags", s("t")),
            ("callBackUrl", s("https://example.com/cb")),
            ("lyrics", s(&lyrics)),
        ];
        assert_eq!(
            Op::AddInstrumental
                .validate(fields.as_slice())
                .unwrap_err()
                .rule,
            RuleKind::MaxLength
        );
        fields.push(("model", s("V4_5")));
        assert!(Op::AddInstrumental.validate(fields.as_slice()).is_ok());
        fields.pop();
        fields.push(("variety", Value::Num(5.0)));
        fields[5].1 = s("short");
        assert_eq!(
            Op::AddInstrumental
                .validate(fields.as_slice())
                .unwrap_err()
                .field,
            "variety"
        );
    }

    fn rule_of(op: Op, fields: &[(&str, Value)]) -> Option<(String, RuleKind)> {
        op.validate(fields).err().map(|e| (e.field, e.rule))
    }

    fn generate_base(custom: bool) -> Vec<(&'static str, Value<'static>)> {
        vec![
            ("customMode", Value::Bool(custom)),
            ("instrumental", Value::Bool(false)),
            ("model", Value::Str("V4".into())),
            ("callBackUrl", Value::Str("https://example.com/cb".into())),
        ]
    }

    fn urls(n: usize) -> Value<'static> {
        Value::List(
            (0..n)
                .map(|_| Value::Str("https://example.com/r".into()))
                .collect(),
        )
    }

    #[test]
    fn generate_follows_the_documented_modes() {
        // Non-custom: one input at least; the prompt (the idea) at most 3000 characters.
        let mut plain = generate_base(false);
        let err = Op::Generate.validate(plain.as_slice()).unwrap_err();
        assert_eq!(
            (err.field.as_str(), err.rule),
            ("prompt", RuleKind::Required)
        );
        assert!(
            err.message
                .contains("`imageUrls`, `videoUrls`, `audioUrls`, `style` or `lyrics`"),
            "{}",
            err.message
        );
        plain.push(("prompt", s("")));
        assert_eq!(
            rule_of(Op::Generate, &plain),
            Some(("prompt".into(), RuleKind::Required))
        );
        let long = "p".repeat(3001);
        plain.pop();
        plain.push(("prompt", s(&long)));
        assert_eq!(
            rule_of(Op::Generate, &plain),
            Some(("prompt".into(), RuleKind::MaxLength))
        );
        plain.pop();
        let idea = "p".repeat(3000);
        plain.push(("prompt", s(&idea)));
        assert_eq!(
            rule_of(Op::Generate, &plain),
            None,
            "3000 characters (was 500)"
        );
        for input in ["imageUrls", "videoUrls", "audioUrls"] {
            let mut only = generate_base(false);
            only.push((input, urls(1)));
            assert_eq!(rule_of(Op::Generate, &only), None, "{input} alone");
        }

        // Custom: one of style, lyrics or negativeTags; the title is optional.
        let mut custom = generate_base(true);
        custom.push(("title", s("t")));
        let err = Op::Generate.validate(custom.as_slice()).unwrap_err();
        assert_eq!(
            (err.field.as_str(), err.rule),
            ("style", RuleKind::Required)
        );
        assert!(
            err.message.contains("`style`, `lyrics` or `negativeTags`"),
            "{}",
            err.message
        );
        for input in ["style", "lyrics", "negativeTags"] {
            let mut only = generate_base(true);
            only.push((input, s("x")));
            assert_eq!(
                rule_of(Op::Generate, &only),
                None,
                "{input} alone, no title"
            );
        }
        // V4's custom limits still hold.
        let title = "t".repeat(81);
        custom[4].1 = s(&title);
        custom.push(("style", s("jazz")));
        assert_eq!(
            rule_of(Op::Generate, &custom),
            Some(("title".into(), RuleKind::MaxLength))
        );
        custom[2].1 = s("V5");
        assert_eq!(
            rule_of(Op::Generate, &custom),
            None,
            "V5 allows 100 characters"
        );
        assert_eq!(custom_limits("V4_5ALL").title, 80);
    }

    #[test]
    fn generate_refuses_the_other_modes_fields() {
        let values = |name: &str| match name {
            "vocalGender" => s("m"),
            "duration" => Value::Num(30.0),
            "variety" => Value::Num(2.0),
            "negativeTags" => s("no drums"),
            _ => Value::Num(0.5),
        };
        for name in CUSTOM_ONLY {
            let mut f = generate_base(false);
            f.extend([("prompt", s("an idea")), (*name, values(name))]);
            let err = Op::Generate.validate(f.as_slice()).unwrap_err();
            assert_eq!(
                (err.field.as_str(), err.rule),
                (*name, RuleKind::Dependency)
            );
            assert!(
                err.message.contains("only for custom mode"),
                "{}",
                err.message
            );
            f[0].1 = Value::Bool(true);
            f[4] = ("style", s("pop"));
            assert_eq!(rule_of(Op::Generate, &f), None, "{name} in custom mode");
        }
        for name in NON_CUSTOM_ONLY {
            let mut f = generate_base(true);
            f.extend([("style", s("pop")), (*name, urls(1))]);
            let err = Op::Generate.validate(f.as_slice()).unwrap_err();
            assert_eq!(
                (err.field.as_str(), err.rule),
                (*name, RuleKind::Dependency)
            );
            assert!(
                err.message.contains("only for non-custom mode"),
                "{}",
                err.message
            );
        }
        // An empty list is not a reference.
        let mut f = generate_base(true);
        f.extend([("style", s("pop")), ("imageUrls", urls(0))]);
        assert_eq!(rule_of(Op::Generate, &f), None);
    }

    #[test]
    fn generate_holds_references_duration_and_variety_to_their_ranges() {
        let mut f = generate_base(false);
        f.push(("imageUrls", urls(6)));
        assert_eq!(
            rule_of(Op::Generate, &f),
            Some(("imageUrls".into(), RuleKind::Range))
        );
        f[4].1 = urls(5);
        f.push(("videoUrls", urls(2)));
        assert_eq!(
            rule_of(Op::Generate, &f),
            Some(("videoUrls".into(), RuleKind::Range))
        );
        f[5].1 = urls(1);
        f.extend([("audioUrls", urls(3)), ("style", s("pop"))]);
        assert_eq!(rule_of(Op::Generate, &f), None, "10 references");
        f.push(("lyrics", s("la la")));
        let err = Op::Generate.validate(f.as_slice()).unwrap_err();
        assert_eq!((err.field.as_str(), err.rule), ("lyrics", RuleKind::Range));
        assert!(err.message.contains("at most 10 in all"), "{}", err.message);

        let mut d = generate_base(true);
        d.extend([("style", s("pop")), ("duration", Value::Num(9.5))]);
        assert_eq!(
            rule_of(Op::Generate, &d),
            Some(("duration".into(), RuleKind::Range))
        );
        for ok in [10.0, 20.0, 360.0] {
            d[5].1 = Value::Num(ok);
            assert_eq!(rule_of(Op::Generate, &d), None, "{ok}");
        }
        d[5].1 = Value::Num(361.0);
        assert_eq!(
            rule_of(Op::Generate, &d),
            Some(("duration".into(), RuleKind::Range))
        );
        d[5] = ("variety", Value::Num(2.5));
        assert_eq!(
            rule_of(Op::Generate, &d),
            Some(("variety".into(), RuleKind::Integer))
        );
        d[5].1 = Value::Num(5.0);
        assert_eq!(
            rule_of(Op::Generate, &d),
            Some(("variety".into(), RuleKind::Range))
        );
        d[5].1 = Value::Num(4.0);
        assert_eq!(rule_of(Op::Generate, &d), None);
    }

    #[test]
    fn v6_limits_lyrics_and_negative_tags() {
        let lyrics = "l".repeat(5001);
        let mut f = generate_base(true);
        f[2].1 = s("V6_WILD");
        f.push(("lyrics", s(&lyrics)));
        assert_eq!(
            rule_of(Op::Generate, &f),
            Some(("lyrics".into(), RuleKind::MaxLength))
        );
        f[2].1 = s("V5");
        assert_eq!(
            rule_of(Op::Generate, &f),
            None,
            "the limit is the V6 series'"
        );
        let tags = "n".repeat(1001);
        f[4] = ("negativeTags", s(&tags));
        f[2].1 = s("V6");
        assert_eq!(
            rule_of(Op::Generate, &f),
            Some(("negativeTags".into(), RuleKind::MaxLength))
        );
        // Every operation with lyrics, the default model being V6.
        let cover: Vec<(&str, Value)> = vec![
            ("uploadUrl", s("https://example.com/a.mp3")),
            ("model", s("V6")),
            ("callBackUrl", s("https://example.com/cb")),
            ("lyrics", s(&lyrics)),
        ];
        assert_eq!(
            rule_of(Op::UploadCover, &cover),
            Some(("lyrics".into(), RuleKind::MaxLength))
        );
        let vocals: Vec<(&str, Value)> = vec![
            ("uploadUrl", s("https://example.com/a.mp3")),
            ("callBackUrl", s("https://example.com/cb")),
            ("title", s("t")),
            ("negativeTags", s("n")),
            ("style", s("pop")),
            ("lyrics", s(&lyrics)),
        ];
        assert_eq!(
            rule_of(Op::AddVocals, &vocals),
            Some(("lyrics".into(), RuleKind::MaxLength))
        );
    }

    #[test]
    fn v6_dropped_requireds() {
        // uploadCover: uploadUrl, model and callBackUrl only.
        let cover: Vec<(&str, Value)> = vec![
            ("uploadUrl", s("https://example.com/a.mp3")),
            ("model", s("V6")),
            ("callBackUrl", s("https://example.com/cb")),
        ];
        assert_eq!(rule_of(Op::UploadCover, &cover), None);
        // mashup: no customMode.
        let url = || s("https://example.com/a.mp3");
        let mashup: Vec<(&str, Value)> = vec![
            ("uploadUrlList", Value::List(vec![url(), url()])),
            ("model", s("V6")),
            ("callBackUrl", s("https://example.com/cb")),
            ("duration", Value::Num(60.0)),
            ("variety", Value::Num(3.0)),
        ];
        assert_eq!(rule_of(Op::Mashup, &mashup), None);
        // addVocals: no prompt.
        let vocals: Vec<(&str, Value)> = vec![
            ("uploadUrl", s("https://example.com/a.mp3")),
            ("callBackUrl", s("https://example.com/cb")),
            ("title", s("t")),
            ("negativeTags", s("n")),
            ("style", s("pop")),
        ];
        assert_eq!(rule_of(Op::AddVocals, &vocals), None);
        // generateSounds: no callBackUrl, no model (V6 by default).
        assert_eq!(rule_of(Op::GenerateSounds, &[("prompt", s("rain"))]), None);
        // generate: neither prompt nor title when style is given in custom mode.
        let mut g = generate_base(true);
        g.push(("style", s("pop")));
        assert_eq!(rule_of(Op::Generate, &g), None);
        for op in [Op::Generate, Op::UploadCover, Op::Mashup, Op::AddVocals] {
            let e = op.endpoint();
            let required = |name: &str| e.fields.iter().any(|f| f.name == name && f.required);
            assert!(
                !required("prompt") && !required("title") || op == Op::AddVocals,
                "{op:?}"
            );
        }
        assert!(!Op::GenerateSounds
            .endpoint()
            .fields
            .iter()
            .any(|f| f.required && f.name != "prompt"));
    }

    #[test]
    fn models_the_package_does_not_know_pass_on_and_the_service_refuses_them() {
        let mut f: Vec<(&str, Value)> = vec![
            ("customMode", Value::Bool(true)),
            ("instrumental", Value::Bool(true)),
            ("model", s("V7_TURBO")),
            ("callBackUrl", s("https://example.com/cb")),
            ("style", s("pop")),
        ];
        assert_eq!(rule_of(Op::Generate, &f), None, "the client passes it on");
        let err =
            crate::rules::check_listed(Op::Generate.endpoint().fields, f.as_slice()).unwrap_err();
        assert_eq!((err.field.as_str(), err.rule), ("model", RuleKind::OneOf));
        assert!(
            err.message.contains("V6, V6_WILD, V6_MINI"),
            "{}",
            err.message
        );
        for deprecated in ["V5_5", "V5", "V4_5PLUS", "V4_5ALL", "V4_5", "V4"] {
            f[2].1 = s(deprecated);
            assert_eq!(rule_of(Op::Generate, &f), None, "{deprecated}");
            assert!(
                crate::rules::check_listed(Op::Generate.endpoint().fields, f.as_slice()).is_ok()
            );
        }
        assert!(!MODELS.contains(&"V3_5"), "V3_5 is gone");
        f[2].1 = s("  ");
        assert_eq!(
            rule_of(Op::Generate, &f),
            Some(("model".into(), RuleKind::NotEmpty))
        );
        f[2].1 = Value::Num(6.0);
        assert_eq!(
            rule_of(Op::Generate, &f),
            Some(("model".into(), RuleKind::Type))
        );
        // Every `model` field is open.
        for op in Op::ALL {
            for rule in op.endpoint().fields.iter().filter(|r| r.name == "model") {
                assert!(matches!(rule.kind, Kind::Open(_)), "{op:?}");
            }
        }
    }

    #[test]
    fn personas_need_custom_mode_and_voice_personas_need_v5() {
        let mut f: Vec<(&str, Value)> = vec![
            ("customMode", Value::Bool(false)),
            ("instrumental", Value::Bool(true)),
            ("model", s("V4")),
            ("callBackUrl", s("https://example.com/cb")),
            ("prompt", s("a song")),
            ("personaId", s("p1")),
        ];
        assert_eq!(
            rule_of(Op::Generate, &f),
            Some(("personaId".into(), RuleKind::Dependency))
        );
        f[0].1 = Value::Bool(true);
        f.extend([
            ("style", s("pop")),
            ("title", s("t")),
            ("personaModel", s("voice_persona")),
        ]);
        assert_eq!(
            rule_of(Op::Generate, &f),
            Some(("personaModel".into(), RuleKind::Dependency))
        );
        f[2].1 = s("V5_5");
        assert_eq!(rule_of(Op::Generate, &f), None);
        // Since V6 the V6 series sings with voices too, the default model included.
        f[2].1 = s("V6_MINI");
        assert_eq!(rule_of(Op::Generate, &f), None);
        let mut cover: Vec<(&str, Value)> = vec![
            ("uploadUrl", s("https://example.com/a.mp3")),
            ("model", s("V6")),
            ("callBackUrl", s("https://example.com/cb")),
            ("personaId", s("p1")),
            ("personaModel", s("voice_persona")),
        ];
        assert_eq!(rule_of(Op::UploadCover, &cover), None);
        cover[1].1 = s("V4_5");
        assert_eq!(
            rule_of(Op::UploadCover, &cover),
            Some(("personaModel".into(), RuleKind::Dependency))
        );
    }

    #[test]
    fn replace_section_windows_and_sources() {
        let mut f: Vec<(&str, Value)> = vec![
            ("prompt", s("new words")),
            ("tags", s("jazz")),
            ("title", s("t")),
            ("fullLyrics", s("all the words")),
            ("infillStartS", Value::Num(10.0)),
            ("infillEndS", Value::Num(12.0)),
        ];
        assert_eq!(
            rule_of(Op::ReplaceSection, &f),
            Some(("taskId".into(), RuleKind::Dependency))
        );
        f.push(("taskId", s("t1")));
        assert_eq!(
            rule_of(Op::ReplaceSection, &f),
            Some(("audioId".into(), RuleKind::Required))
        );
        f.push(("audioId", s("a1")));
        assert_eq!(
            rule_of(Op::ReplaceSection, &f),
            Some(("infillEndS".into(), RuleKind::Range))
        );
        f[5].1 = Value::Num(9.0);
        assert_eq!(
            rule_of(Op::ReplaceSection, &f),
            Some(("infillEndS".into(), RuleKind::Range))
        );
        // Since V6: at least 10 s (19.99 is 9.99 s), with no fixed maximum (half the track is
        // the emulator's check, which knows the track).
        f[5].1 = Value::Num(19.99);
        let err = Op::ReplaceSection.validate(f.as_slice()).unwrap_err();
        assert_eq!(
            (err.field.as_str(), err.rule),
            ("infillEndS", RuleKind::Range)
        );
        assert!(
            err.message.contains("at least 10 seconds"),
            "{}",
            err.message
        );
        f[5].1 = Value::Num(20.0);
        assert_eq!(rule_of(Op::ReplaceSection, &f), None);
        f[5].1 = Value::Num(71.5);
        assert_eq!(
            rule_of(Op::ReplaceSection, &f),
            None,
            "61.5 s: above the old 60 s"
        );
        f[5].1 = Value::Num(16.005);
        assert_eq!(
            rule_of(Op::ReplaceSection, &f),
            Some(("infillEndS".into(), RuleKind::Step))
        );
        f[5].1 = Value::Num(40.25);
        assert_eq!(rule_of(Op::ReplaceSection, &f), None);
        f.push(("uploadUrl", s("https://example.com/a.mp3")));
        assert_eq!(
            rule_of(Op::ReplaceSection, &f),
            Some(("uploadUrl".into(), RuleKind::Dependency))
        );
    }

    #[test]
    fn persona_segments_stems_and_mashup_lists() {
        let mut p: Vec<(&str, Value)> = vec![
            ("taskId", s("t")),
            ("audioId", s("a")),
            ("name", s("n")),
            ("description", s("d")),
            ("vocalStart", Value::Num(25.0)),
        ];
        assert_eq!(
            rule_of(Op::GeneratePersona, &p),
            Some(("vocalEnd".into(), RuleKind::Range))
        );
        p[4].1 = Value::Num(5.0);
        assert_eq!(rule_of(Op::GeneratePersona, &p), None);

        let mut v: Vec<(&str, Value)> = vec![
            ("taskId", s("t")),
            ("audioId", s("a")),
            ("callBackUrl", s("https://example.com/cb")),
            ("type", s("split_stem_advanced")),
        ];
        assert_eq!(
            rule_of(Op::SeparateVocals, &v),
            Some(("stemName".into(), RuleKind::Required))
        );
        v.push(("stemName", s("Kazoo")));
        assert_eq!(
            rule_of(Op::SeparateVocals, &v),
            Some(("stemName".into(), RuleKind::OneOf))
        );
        v[4].1 = s("Piano");
        assert_eq!(rule_of(Op::SeparateVocals, &v), None);
        v[3].1 = s("split_stem");
        assert_eq!(
            rule_of(Op::SeparateVocals, &v),
            Some(("stemName".into(), RuleKind::Dependency))
        );

        let url = || s("https://example.com/a.mp3");
        let mut m: Vec<(&str, Value)> = vec![
            ("uploadUrlList", Value::List(vec![url()])),
            ("customMode", Value::Bool(false)),
            ("model", s("V5")),
            ("callBackUrl", s("https://example.com/cb")),
            ("prompt", s("mix them")),
        ];
        assert_eq!(
            rule_of(Op::Mashup, &m),
            Some(("uploadUrlList".into(), RuleKind::Range))
        );
        m[0].1 = Value::List(vec![url(), s("not a url")]);
        assert_eq!(
            rule_of(Op::Mashup, &m),
            Some(("uploadUrlList[1]".into(), RuleKind::Url))
        );
        m[0].1 = Value::List(vec![url(), url()]);
        assert_eq!(rule_of(Op::Mashup, &m), None);
    }

    #[test]
    fn every_family_has_a_query_a_waiter_and_a_creator() {
        for family in TaskFamily::ALL {
            let query = family.query();
            assert_eq!(query.queries(), Some(family));
            assert!(!query.endpoint().creates_task(), "{family:?}");
            assert!(query
                .endpoint()
                .fields
                .iter()
                .any(|f| f.name == family.query_field()));
            assert!(Op::ALL.into_iter().any(|op| op.creates() == Some(family)));
        }
        assert_eq!(Op::AddVocals.creates(), Some(TaskFamily::Music));
        assert_eq!(
            Op::SeparateVocals.creates(),
            Some(TaskFamily::VocalSeparation)
        );
        assert_eq!(Op::GetTask.creates(), None);
        assert_eq!(Op::GetTask.output().name, "MusicTask");
        for op in Op::ALL {
            let created = op.output().name == s::TASK_CREATED.name;
            assert_eq!(created, op.creates().is_some(), "{op:?}");
        }
        assert_eq!(Op::ALL.len(), 37);
        let upload = Op::ALL
            .into_iter()
            .filter(|op| op.endpoint().host == Host::Upload)
            .count();
        assert_eq!(upload, 3);
    }

    /// A field that names something of the caller's is a task id or a reference, so that a
    /// server in front of the service checks its owner: a new one must be classed here first.
    #[test]
    fn every_id_field_is_a_task_id_or_a_reference() {
        for op in Op::ALL {
            for f in op.endpoint().fields {
                let id = f.name.ends_with("Id") || f.name.ends_with("_id");
                let classed =
                    TASK_ID_FIELDS.contains(&f.name) || REFERENCE_FIELDS.contains(&f.name);
                assert_eq!(
                    id, classed,
                    "{op:?}.{}: add it to TASK_ID_FIELDS or REFERENCE_FIELDS",
                    f.name
                );
            }
        }
        for name in NAMED_REFERENCE_FIELDS {
            assert!(
                s::RECORDS
                    .iter()
                    .any(|r| r.fields.iter().any(|f| f.name == *name)),
                "{name}"
            );
        }
    }

    #[test]
    fn wav_needs_task_or_audio() {
        let none: Vec<(&str, Value)> = vec![];
        assert_eq!(
            Op::ConvertToWav.validate(none.as_slice()).unwrap_err().rule,
            RuleKind::Dependency
        );
        assert!(Op::ConvertToWav
            .validate([("audioId", s("a"))].as_slice())
            .is_ok());
    }
}
