//! Every operation of the service: method, host, path, family, and the rules of its request.
//! One table on purpose (over 400 lines): a reader compares operations row by row, and the code
//! generator, the validators and `/openapi.json` all read it.

use crate::codes::Family;
use crate::rules::{check, FieldRule, Fields, Kind, RuleKind, ValidationError, Value};
use crate::schema::Record;

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

/// The operations, named as the client's JavaScript methods are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    Generate,
    Extend,
    UploadCover,
    UploadExtend,
    AddInstrumental,
    AddVocals,
    BoostStyle,
    GetTask,
    GetCredits,
    GenerateCover,
    GetCover,
    ConvertToWav,
    GetWav,
    GenerateLyrics,
    GetLyrics,
    GetTimestampedLyrics,
    SeparateVocals,
    GetVocalSeparation,
    GenerateVideo,
    GetVideo,
    UploadFromUrl,
    UploadStream,
    UploadBase64,
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
    /// An object with a non-empty string at this key.
    Record(&'static str),
}

impl Answer {
    /// What the documentation promises, for the error message.
    pub const fn promise(self) -> &'static str {
        match self {
            Answer::TaskId => "a taskId",
            Answer::Number => "a number",
            Answer::Object | Answer::Record(_) => "a record",
        }
    }
}

/// How an operation is called and what its request must satisfy.
#[derive(Debug)]
pub struct Endpoint {
    pub op: Op,
    /// The JavaScript method name.
    pub name: &'static str,
    pub method: Method,
    pub host: Host,
    /// Path on its host; `{svc}` stands for the service segment (default `suno`).
    pub path: &'static str,
    pub family: Family,
    /// Creating calls start (and charge for) a task: never retried after an ambiguous failure.
    pub creates_task: bool,
    /// For GET operations these are query parameters; otherwise JSON (or multipart) body fields.
    pub fields: &'static [FieldRule],
    pub summary: &'static str,
}

use crate::docs;
pub use crate::schema::{DEFAULT_MODEL, V6_SERIES};
/// The model enum: current values first, then the deprecated ones still accepted.
pub const MODELS: &[&str] = crate::schema::MODEL.values;
pub const VOCAL_GENDERS: &[&str] = crate::schema::VOCAL_GENDER.values;
pub const SEPARATION_TYPES: &[&str] = crate::schema::SEPARATION_TYPE.values;

/// Lyrics limit of add-instrumental for the V6 series.
pub const MAX_LYRICS_V6: usize = 5000;
/// Limits of extend with `defaultParamFlag: true`.
pub const MAX_EXTEND_PROMPT: usize = 3000;
pub const MAX_EXTEND_STYLE: usize = 200;
pub const MAX_EXTEND_TITLE: usize = 80;

const fn req(name: &'static str, kind: Kind, doc: &'static str) -> FieldRule {
    FieldRule {
        name,
        required: true,
        kind,
        doc: docs(doc),
    }
}
const fn opt(name: &'static str, kind: Kind, doc: &'static str) -> FieldRule {
    FieldRule {
        name,
        required: false,
        kind,
        doc: docs(doc),
    }
}
const TEXT: Kind = Kind::Text { max: None };
const WEIGHT: Kind = Kind::Number {
    min: 0.0,
    max: 1.0,
    step: Some(0.01),
};

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
const MODEL: FieldRule = opt("model", Kind::OneOf(MODELS), "Model version; default V6");
const MODEL_REQ: FieldRule = req("model", Kind::OneOf(MODELS), "Model version");
const GENDER: FieldRule = opt("vocalGender", Kind::OneOf(VOCAL_GENDERS), "`m` or `f`");
const STYLE_WEIGHT: FieldRule = opt("styleWeight", WEIGHT, "0 to 1, multiple of 0.01");
const WEIRDNESS: FieldRule = opt("weirdnessConstraint", WEIGHT, "0 to 1, multiple of 0.01");
const AUDIO_WEIGHT: FieldRule = opt("audioWeight", WEIGHT, "0 to 1, multiple of 0.01");
const NEGATIVE: FieldRule = opt("negativeTags", TEXT, "Styles or traits to exclude");
const TASK_ID: FieldRule = req("taskId", TEXT, "Id returned when the task was created");
const AUDIO_ID: FieldRule = req(
    "audioId",
    TEXT,
    "Id of one generated track (the `id` of a Track)",
);
const CONTINUE_AT: FieldRule =
    opt("continueAt", Kind::Number { min: 0.0, max: 86_400.0, step: None }, "Seconds into the source where the extension starts; above 0 and below its length; required with defaultParamFlag true");
const UPLOAD_PATH: FieldRule = opt("uploadPath", Kind::DirPath, "Storage directory, relative");
const FILE_NAME: FieldRule = opt(
    "fileName",
    Kind::FileName,
    "Stored file name; an existing name is overwritten; random when omitted",
);

static TABLE: &[Endpoint] = &[
    Endpoint {
        op: Op::Generate, name: "generate", method: Method::Post, host: Host::Music, path: "/api/v1/generate",
        family: Family::Music, creates_task: true, summary: docs("Generate music (2 tracks)"),
        fields: &[
            req("customMode", Kind::Bool, "true: style and title are given; false: only a prompt"),
            req("instrumental", Kind::Bool, "true: no vocals"),
            MODEL_REQ, CALLBACK,
            opt("prompt", TEXT, "Lyrics (custom mode) or description of the song"),
            opt("style", TEXT, "Genre and style"),
            opt("title", TEXT, "Track title"),
            NEGATIVE, GENDER, STYLE_WEIGHT, WEIRDNESS, AUDIO_WEIGHT,
            opt("personaId", TEXT, "Persona to sing with"),
        ],
    },
    Endpoint {
        op: Op::Extend, name: "extend", method: Method::Post, host: Host::Music, path: "/api/v1/generate/extend",
        family: Family::Music, creates_task: true, summary: docs("Extend a generated track"),
        fields: &[
            req("defaultParamFlag", Kind::Bool, "true: custom parameters (prompt, style, title, continueAt); false: taken from the source audio"),
            AUDIO_ID, CALLBACK, MODEL,
            opt("prompt", Kind::Text { max: Some(MAX_EXTEND_PROMPT) }, "At most 3000 characters; required with defaultParamFlag true"),
            opt("style", Kind::Text { max: Some(MAX_EXTEND_STYLE) }, "At most 200 characters; required with defaultParamFlag true"),
            opt("title", Kind::Text { max: Some(MAX_EXTEND_TITLE) }, "At most 80 characters; required with defaultParamFlag true"),
            CONTINUE_AT, NEGATIVE, GENDER, STYLE_WEIGHT, WEIRDNESS, AUDIO_WEIGHT,
        ],
    },
    Endpoint {
        op: Op::UploadCover, name: "uploadCover", method: Method::Post, host: Host::Music, path: "/api/v1/generate/upload-cover",
        family: Family::Music, creates_task: true, summary: docs("Cover an uploaded audio in a new style"),
        fields: &[
            UPLOAD_URL,
            req("customMode", Kind::Bool, "true: style and title are given; false: only a prompt"),
            req("instrumental", Kind::Bool, "true: no vocals"),
            MODEL_REQ, CALLBACK,
            opt("prompt", TEXT, "Lyrics or description"), opt("style", TEXT, "Genre and style"), opt("title", TEXT, "Track title"),
            NEGATIVE, GENDER, STYLE_WEIGHT, WEIRDNESS, AUDIO_WEIGHT,
        ],
    },
    Endpoint {
        op: Op::UploadExtend, name: "uploadExtend", method: Method::Post, host: Host::Music, path: "/api/v1/generate/upload-extend",
        family: Family::Music, creates_task: true, summary: docs("Extend an uploaded audio"),
        fields: &[
            UPLOAD_URL,
            req("defaultParamFlag", Kind::Bool, "true: custom parameters (continueAt required); false: defaults"),
            MODEL_REQ, CALLBACK,
            opt("instrumental", Kind::Bool, "true: no vocals"),
            opt("prompt", TEXT, "Lyrics or description"), opt("style", TEXT, "Genre and style"), opt("title", TEXT, "Track title"),
            CONTINUE_AT, NEGATIVE, GENDER, STYLE_WEIGHT, WEIRDNESS, AUDIO_WEIGHT,
        ],
    },
    Endpoint {
        op: Op::AddInstrumental, name: "addInstrumental", method: Method::Post, host: Host::Music, path: "/api/v1/generate/add-instrumental",
        family: Family::Music, creates_task: true, summary: docs("Generate an accompaniment for an uploaded vocal or melody"),
        fields: &[
            UPLOAD_URL,
            req("title", TEXT, "Title of the generated track"),
            req("negativeTags", TEXT, "Styles or traits to exclude"),
            req("tags", TEXT, "Desired style, mood and instruments"),
            CALLBACK,
            opt("lyrics", TEXT, "Lyrics; at most 5000 characters for V6, V6_MINI and V6_WILD"),
            GENDER, STYLE_WEIGHT, WEIRDNESS, AUDIO_WEIGHT,
            opt("variety", Kind::Integer { min: 0, max: 4 }, "0 off, 1 normal (default), 2 high, 3 extra, 4 max"),
            MODEL,
        ],
    },
    Endpoint {
        op: Op::AddVocals, name: "addVocals", method: Method::Post, host: Host::Music, path: "/api/v1/generate/add-vocals",
        family: Family::Music, creates_task: true, summary: docs("Layer generated vocals over an uploaded instrumental"),
        fields: &[
            UPLOAD_URL, CALLBACK,
            req("prompt", TEXT, "Lyrical concept or mood"),
            req("title", TEXT, "Title of the generated track"),
            req("negativeTags", TEXT, "Styles or vocal traits to exclude"),
            req("style", TEXT, "Overall genre and vocal approach"),
            opt("tags", TEXT, "Accepted as a style control"),
            GENDER, STYLE_WEIGHT, WEIRDNESS, AUDIO_WEIGHT, MODEL,
        ],
    },
    Endpoint {
        op: Op::BoostStyle, name: "boostStyle", method: Method::Post, host: Host::Music, path: "/api/v1/style/generate",
        family: Family::Music, creates_task: false, summary: docs("Boost a style description (answers at once; tied to V4_5)"),
        fields: &[req("content", TEXT, "Style description; may be a conversational, detailed prompt")],
    },
    Endpoint {
        op: Op::GetTask, name: "getTask", method: Method::Get, host: Host::Music, path: "/api/v1/generate/record-info",
        family: Family::Music, creates_task: false, summary: docs("Status and tracks of a music task"), fields: &[TASK_ID],
    },
    Endpoint {
        op: Op::GetCredits, name: "getCredits", method: Method::Get, host: Host::Music, path: "/api/v1/generate/credit",
        family: Family::Music, creates_task: false, summary: docs("Remaining credits of the key"), fields: &[],
    },
    Endpoint {
        op: Op::GenerateCover, name: "generateCover", method: Method::Post, host: Host::Music, path: "/api/v1/{svc}/cover/generate",
        family: Family::Cover, creates_task: true, summary: docs("Generate cover images (normally 2) for a music task"),
        fields: &[req("taskId", TEXT, "Id of the music task"), CALLBACK],
    },
    Endpoint {
        op: Op::GetCover, name: "getCover", method: Method::Get, host: Host::Music, path: "/api/v1/{svc}/cover/record-info",
        family: Family::Cover, creates_task: false, summary: docs("Status and images of a cover task"), fields: &[TASK_ID],
    },
    Endpoint {
        op: Op::ConvertToWav, name: "convertToWav", method: Method::Post, host: Host::Music, path: "/api/v1/wav/generate",
        family: Family::Music, creates_task: true, summary: docs("Convert a track to WAV (one of taskId or audioId)"),
        fields: &[opt("taskId", TEXT, "Music task of the track"), opt("audioId", TEXT, "Id of the track"), CALLBACK_OPT],
    },
    Endpoint {
        op: Op::GetWav, name: "getWav", method: Method::Get, host: Host::Music, path: "/api/v1/wav/record-info",
        family: Family::Music, creates_task: false, summary: docs("Status and URL of a WAV conversion"), fields: &[TASK_ID],
    },
    Endpoint {
        op: Op::GenerateLyrics, name: "generateLyrics", method: Method::Post, host: Host::Music, path: "/api/v1/lyrics",
        family: Family::Music, creates_task: true, summary: docs("Write lyrics from a prompt"),
        fields: &[req("prompt", Kind::Words { max_words: 200 }, "What the lyrics are about; at most 200 words"), CALLBACK],
    },
    Endpoint {
        op: Op::GetLyrics, name: "getLyrics", method: Method::Get, host: Host::Music, path: "/api/v1/lyrics/record-info",
        family: Family::Music, creates_task: false, summary: docs("Status and texts of a lyrics task"), fields: &[TASK_ID],
    },
    Endpoint {
        op: Op::GetTimestampedLyrics, name: "getTimestampedLyrics", method: Method::Post, host: Host::Music,
        path: "/api/v1/generate/get-timestamped-lyrics", family: Family::Music, creates_task: false,
        summary: docs("Lyrics aligned to the audio, word by word (answers at once)"),
        fields: &[
            req("taskId", TEXT, "Music task of the track"),
            opt("audioId", TEXT, "Track id; wins over musicIndex"),
            opt("musicIndex", Kind::Integer { min: 0, max: 1 }, "0 or 1: which of the task's tracks"),
        ],
    },
    Endpoint {
        op: Op::SeparateVocals, name: "separateVocals", method: Method::Post, host: Host::Music, path: "/api/v1/vocal-removal/generate",
        family: Family::Music, creates_task: true, summary: docs("Separate vocals and instruments into stems"),
        fields: &[
            req("taskId", TEXT, "Music task of the track"), AUDIO_ID, CALLBACK,
            opt("type", Kind::OneOf(SEPARATION_TYPES), "separate_vocal (default, 2 stems) or split_stem (up to 12 stems)"),
        ],
    },
    Endpoint {
        op: Op::GetVocalSeparation, name: "getVocalSeparation", method: Method::Get, host: Host::Music,
        path: "/api/v1/vocal-removal/record-info", family: Family::Music, creates_task: false,
        summary: docs("Status and stems of a vocal separation"), fields: &[TASK_ID],
    },
    Endpoint {
        op: Op::GenerateVideo, name: "generateVideo", method: Method::Post, host: Host::Music, path: "/api/v1/mp4/generate",
        family: Family::Music, creates_task: true, summary: docs("Make a music video of a track"),
        fields: &[
            req("taskId", TEXT, "Music task of the track"), AUDIO_ID, CALLBACK,
            opt("author", Kind::Text { max: Some(50) }, "Shown in the video; at most 50 characters"),
            opt("domainName", Kind::Text { max: Some(50) }, "Watermark domain; at most 50 characters"),
        ],
    },
    Endpoint {
        op: Op::GetVideo, name: "getVideo", method: Method::Get, host: Host::Music, path: "/api/v1/mp4/record-info",
        family: Family::Music, creates_task: false, summary: docs("Status and URL of a music video"), fields: &[TASK_ID],
    },
    Endpoint {
        op: Op::UploadFromUrl, name: "uploadFromUrl", method: Method::Post, host: Host::Upload, path: "/api/file-url-upload",
        family: Family::Upload, creates_task: false, summary: docs("Store a remote file (downloaded within 30 s; at most 100 MB recommended)"),
        fields: &[req("fileUrl", Kind::Url, "Public http or https URL of the file"), UPLOAD_PATH, FILE_NAME],
    },
    Endpoint {
        op: Op::UploadStream, name: "uploadFile", method: Method::Post, host: Host::Upload, path: "/api/file-stream-upload",
        family: Family::Upload, creates_task: false, summary: docs("Store a file sent as multipart/form-data (`file`)"),
        fields: &[UPLOAD_PATH, FILE_NAME],
    },
    Endpoint {
        op: Op::UploadBase64, name: "uploadBase64", method: Method::Post, host: Host::Upload, path: "/api/file-base64-upload",
        family: Family::Upload, creates_task: false, summary: docs("Store a file sent as Base64 text or a data URL (at most 10 MB)"),
        fields: &[req("base64Data", TEXT, "Bare Base64 or `data:<mime>;base64,<data>`"), UPLOAD_PATH, FILE_NAME],
    },
];

impl Op {
    pub const ALL: [Op; 23] = [
        Op::Generate,
        Op::Extend,
        Op::UploadCover,
        Op::UploadExtend,
        Op::AddInstrumental,
        Op::AddVocals,
        Op::BoostStyle,
        Op::GetTask,
        Op::GetCredits,
        Op::GenerateCover,
        Op::GetCover,
        Op::ConvertToWav,
        Op::GetWav,
        Op::GenerateLyrics,
        Op::GetLyrics,
        Op::GetTimestampedLyrics,
        Op::SeparateVocals,
        Op::GetVocalSeparation,
        Op::GenerateVideo,
        Op::GetVideo,
        Op::UploadFromUrl,
        Op::UploadStream,
        Op::UploadBase64,
    ];

    /// The name of the request's type, in the TypeScript and in `wire::generated`; `None` for an
    /// operation that takes no fields.
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
            | Op::GetVideo => "TaskQuery",
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
        })
    }

    /// What the client's method resolves with (without `wait`): the record it returns.
    pub fn output(self) -> &'static Record {
        use crate::schema as s;
        if crate::waiter::TaskKind::created_by(self).is_some() {
            return &s::TASK_CREATED;
        }
        match self {
            Op::BoostStyle => &s::STYLE_BOOST,
            Op::GetCredits => &s::CREDITS,
            Op::GetTimestampedLyrics => &s::TIMESTAMPED_LYRICS,
            Op::UploadFromUrl | Op::UploadStream | Op::UploadBase64 => &s::UPLOADED_FILE,
            Op::GetCover => &s::COVER_TASK,
            Op::GetWav => &s::WAV_TASK,
            Op::GetLyrics => &s::LYRICS_TASK,
            Op::GetVocalSeparation => &s::VOCAL_SEPARATION_TASK,
            Op::GetVideo => &s::VIDEO_TASK,
            _ => &s::MUSIC_TASK,
        }
    }

    /// What a successful answer's `data` must hold, as the documentation promises: an answer
    /// without it is an unexpected answer (a typed error), never a silent `{}`.
    pub fn answer(self) -> Answer {
        match self {
            _ if self.endpoint().creates_task => Answer::TaskId,
            Op::GetCredits => Answer::Number,
            // What a caller needs next: the file's URL, the task's id.
            Op::UploadFromUrl | Op::UploadStream | Op::UploadBase64 => {
                Answer::Record("downloadUrl")
            }
            Op::BoostStyle | Op::GetTimestampedLyrics => Answer::Object,
            _ => Answer::Record("taskId"),
        }
    }

    /// Uploads take a file or a URL and options rather than one request object.
    pub const fn is_upload(self) -> bool {
        matches!(
            self,
            Op::UploadFromUrl | Op::UploadStream | Op::UploadBase64
        )
    }

    pub fn endpoint(self) -> &'static Endpoint {
        // TABLE is written in the order of `Op`, which the tests check.
        &TABLE[self as usize]
    }

    /// Path with the service segment filled in.
    pub fn path(self, service_segment: &str) -> String {
        // The segment only ever follows `/api/v1/`; a prefix test keeps core's substring search
        // (and its panic formatting) out of the wasm.
        let path = self.endpoint().path;
        match path.strip_prefix("/api/v1/{svc}/") {
            Some(rest) => format!("/api/v1/{service_segment}/{rest}"),
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
        match self {
            Op::Extend => {
                if flag(fields, "defaultParamFlag") {
                    require_all(
                        fields,
                        &["prompt", "style", "title", "continueAt"],
                        "defaultParamFlag is true",
                    )?;
                }
                check_continue_at(fields)
            }
            Op::UploadExtend => {
                if flag(fields, "defaultParamFlag") {
                    require_all(fields, &["continueAt"], "defaultParamFlag is true")?;
                }
                check_continue_at(fields)
            }
            Op::AddInstrumental => {
                let model = match fields.field("model") {
                    Value::Str(m) => m.into_owned(),
                    _ => DEFAULT_MODEL.to_owned(),
                };
                if let Value::Str(lyrics) = fields.field("lyrics") {
                    let len = lyrics.chars().count();
                    if V6_SERIES.contains(&model.as_str()) && len > MAX_LYRICS_V6 {
                        return Err(ValidationError::new(
                            "lyrics",
                            RuleKind::MaxLength,
                            format!("must be at most {MAX_LYRICS_V6} characters for {model} (got {len})"),
                        ));
                    }
                }
                Ok(())
            }
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
            _ => Ok(()),
        }
    }
}

fn flag(fields: &(impl Fields + ?Sized), name: &str) -> bool {
    fields.field(name) == Value::Bool(true)
}

fn require_all(
    fields: &(impl Fields + ?Sized),
    names: &[&str],
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
            format!("is required when {because}"),
        ));
    }
    Ok(())
}

fn check_continue_at(fields: &(impl Fields + ?Sized)) -> Result<(), ValidationError> {
    match fields.field("continueAt") {
        Value::Num(n) if n <= 0.0 => Err(ValidationError::new(
            "continueAt",
            RuleKind::Range,
            format!("must be above 0 seconds (got {})", crate::num::fmt(n)),
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
