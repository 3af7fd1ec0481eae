//! The decoders under fuzz, one target each: a target draws its input, writes it to `shown`
//! (so that a panic can be reported with the input that caused it), then decodes it.
//! Over 400 lines on purpose: one short target per decoder, listed together so that a decoder
//! without a target shows.

use crate::gen::Gen;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use std::fmt::Write;
use tunesmith_protocol::schema::{self, Record, Ty};
use tunesmith_protocol::wire::{self, Envelope, UploadEnvelope};
use tunesmith_protocol::{
    callback, codes, num, retry, rules, state, status, time, track, upload, CodeTable, Method,
    Observed, Op, Status, TaskFamily,
};

#[derive(Clone)]
pub struct Target {
    pub name: &'static str,
    /// Relative share of the inputs.
    pub weight: u32,
    /// Draws valid samples and mutates them as text (the others draw wrong values directly).
    pub mutates: bool,
    /// Builds JSON documents (and needs more random bytes than a string does).
    pub json: bool,
    pub run: fn(&mut Gen, &mut String),
}

pub const TARGETS: &[Target] = &[
    Target {
        name: "music answers",
        weight: 6,
        mutates: false,
        json: true,
        run: music_answer,
    },
    Target {
        name: "upload answers",
        weight: 2,
        mutates: false,
        json: true,
        run: upload_answer,
    },
    Target {
        name: "callbacks",
        weight: 6,
        mutates: false,
        json: true,
        run: callback_body,
    },
    Target {
        name: "mutated samples",
        weight: 8,
        mutates: true,
        json: true,
        run: mutated_sample,
    },
    Target {
        name: "requests and upload rules",
        weight: 6,
        mutates: false,
        json: true,
        run: request,
    },
    Target {
        name: "times",
        weight: 6,
        mutates: false,
        json: false,
        run: times,
    },
    Target {
        name: "numbers",
        weight: 6,
        mutates: false,
        json: false,
        run: numbers,
    },
    Target {
        name: "retry-after",
        weight: 4,
        mutates: false,
        json: false,
        run: retry_after,
    },
    Target {
        name: "base64 and data URLs",
        weight: 4,
        mutates: false,
        json: false,
        run: data_urls,
    },
    Target {
        name: "paths, URLs and vocabularies",
        weight: 4,
        mutates: false,
        json: false,
        run: words,
    },
];

/// A successful `data` of the music host, by the record the client holds it against.
struct Answer {
    record: Option<&'static Record>,
    decode: fn(&str),
}

fn decode<T: DeserializeOwned>(text: &str) {
    let _ = serde_json::from_str::<T>(text);
}

const MUSIC_ANSWERS: &[Answer] = &[
    Answer {
        record: Some(&schema::TASK_CREATED),
        decode: decode::<Envelope<wire::TaskCreated>>,
    },
    Answer {
        record: None,
        decode: decode::<Envelope<i64>>,
    },
    Answer {
        record: Some(&schema::MUSIC_TASK),
        decode: decode::<Envelope<wire::MusicRecord>>,
    },
    Answer {
        record: Some(&schema::COVER_TASK),
        decode: decode::<Envelope<wire::CoverRecord>>,
    },
    Answer {
        record: Some(&schema::WAV_TASK),
        decode: decode::<Envelope<wire::WavRecord>>,
    },
    Answer {
        record: Some(&schema::VOCAL_SEPARATION_TASK),
        decode: decode::<Envelope<wire::VocalRecord>>,
    },
    Answer {
        record: Some(&schema::VIDEO_TASK),
        decode: decode::<Envelope<wire::VideoRecord>>,
    },
    Answer {
        record: Some(&schema::LYRICS_TASK),
        decode: decode::<Envelope<wire::LyricsRecord>>,
    },
    Answer {
        record: Some(&schema::STYLE_BOOST),
        decode: decode::<Envelope<wire::StyleBoost>>,
    },
    Answer {
        record: Some(&schema::TIMESTAMPED_LYRICS),
        decode: decode::<Envelope<wire::TimestampedLyrics>>,
    },
];

/// Callback `data` objects, with the typed envelope each decodes into.
const CALLBACKS: &[Answer] = &[
    Answer {
        record: Some(&schema::MUSIC_CALLBACK_DATA),
        decode: decode::<Envelope<wire::MusicCallbackData>>,
    },
    Answer {
        record: Some(&schema::COVER_CALLBACK_DATA),
        decode: decode::<Envelope<wire::CoverCallbackData>>,
    },
    Answer {
        record: Some(&schema::WAV_CALLBACK_DATA),
        decode: decode::<Envelope<wire::WavCallbackData>>,
    },
    Answer {
        record: Some(&schema::VOCAL_CALLBACK_DATA),
        decode: decode::<Envelope<wire::VocalCallbackData>>,
    },
    Answer {
        record: Some(&schema::VIDEO_CALLBACK_DATA),
        decode: decode::<Envelope<wire::VideoCallbackData>>,
    },
    Answer {
        record: Some(&schema::LYRICS_CALLBACK_DATA),
        decode: decode::<Envelope<wire::LyricsCallbackData>>,
    },
];

fn show_json(shown: &mut String, v: &Value) -> String {
    let text = v.to_string();
    shown.push_str(&text);
    text
}

fn envelope(g: &mut Gen, data: Value) -> Value {
    let mut map = Map::new();
    if !g.chance(1, 20) {
        map.insert(
            "code".into(),
            if g.chance(1, 2) {
                Value::from(200)
            } else {
                g.number()
            },
        );
    }
    if !g.chance(1, 20) {
        map.insert("msg".into(), Value::String(g.string()));
    }
    if !g.chance(1, 20) {
        map.insert("data".into(), data);
    }
    Value::Object(map)
}

/// What the client does with any answer's `data`: hold it against the declaration, and read
/// the envelope's code in every family.
fn inspect_answer(value: &Value, record: Option<&'static Record>) {
    if let (Some(record), Some(data)) = (record, value.get("data")) {
        let _ = schema::check(data, &Ty::Ref(record));
    }
    if let Some(code) = value.get("code").and_then(Value::as_f64) {
        for table in [CodeTable::Music, CodeTable::Cover, CodeTable::Upload] {
            let _ = codes::classify(table, code as i64);
            let _ = codes::meaning(table, code as i64);
        }
    }
    if let Some(status) = value.pointer("/data/status").and_then(Value::as_str) {
        let _ = state::from_status(status);
        for family in TaskFamily::ALL {
            let _ = family.observe(Status::Word(status));
        }
        let _ = status::is_failure(status);
        let _ = status::Failure::of_status(status);
        let _ = state::from_string_flag(status);
        let _ = state::from_style_flag(status);
    }
    if let Some(flag) = value.pointer("/data/successFlag") {
        match flag {
            Value::String(s) => {
                let _ = state::from_string_flag(s);
            }
            other => {
                let _ = state::from_cover_flag(other.as_i64().unwrap_or(0));
            }
        }
    }
    if let Some(t) = value.pointer("/data/createTime").and_then(Value::as_str) {
        let _ = time::normalize_text(t);
        let _ = time::epoch_ms_from_iso(&time::normalize_text(t));
    }
}

fn music_answer(g: &mut Gen, shown: &mut String) {
    let answer = g.pick(MUSIC_ANSWERS);
    let data = match answer.record {
        Some(record) => g.record(record, false, 0),
        None => g.number(),
    };
    let value = envelope(g, data);
    let text = show_json(shown, &value);
    (answer.decode)(&text);
    inspect_answer(&value, answer.record);
}

fn upload_answer(g: &mut Gen, shown: &mut String) {
    let data = g_record(g, &schema::UPLOADED_FILE);
    let mut value = envelope(g, data);
    if let Value::Object(map) = &mut value {
        let success = if g.chance(1, 8) {
            g.any(1)
        } else {
            Value::Bool(g.chance(3, 4))
        };
        map.insert("success".into(), success);
    }
    let text = show_json(shown, &value);
    decode::<UploadEnvelope<Option<wire::UploadRecord>>>(&text);
    inspect_answer(&value, Some(&schema::UPLOADED_FILE));
}

fn g_record(g: &mut Gen, record: &'static Record) -> Value {
    g.record(record, false, 0)
}

/// `callback::classify` as the client and the emulator's inbox call it: the body, its `data`
/// object, and that object's first `data` item.
fn classify(value: &Value) {
    let Some(body) = value.as_object() else {
        return;
    };
    let data = body.get("data").and_then(Value::as_object);
    let first = data
        .and_then(|d| d.get("data"))
        .and_then(Value::as_array)
        .and_then(|items| items.first())
        .and_then(Value::as_object);
    let data: Option<&dyn rules::Fields> = data.map(|d| d as &dyn rules::Fields);
    let first: Option<&dyn rules::Fields> = first.map(|f| f as &dyn rules::Fields);
    if let Ok(cb) = callback::classify(body, data, first) {
        let _ = cb.key();
        let _ = cb.family.rank(Observed {
            state: cb.state,
            stage: cb.stage,
        });
    }
    let _ = schema::check(value, &Ty::Union(&schema::CALLBACK_EVENT));
}

fn callback_body(g: &mut Gen, shown: &mut String) {
    let shape = g.pick(CALLBACKS);
    let data = match shape.record {
        Some(record) => g.record(record, false, 0),
        None => g.any(0),
    };
    let value = envelope(g, data);
    let text = show_json(shown, &value);
    (shape.decode)(&text);
    classify(&value);
    if let Some(items) = value.pointer("/data/data").and_then(Value::as_array) {
        for key in items
            .iter()
            .filter_map(Value::as_object)
            .flat_map(|o| o.keys())
        {
            let _ = track::camel_key(key);
        }
    }
}

/// A valid sample of any answer or callback, serialized, then mutated as bytes.
fn mutated_sample(g: &mut Gen, shown: &mut String) {
    let (value, answer) = match g.below(3) {
        0 => {
            let a = g.pick(MUSIC_ANSWERS);
            let data = a.record.map_or(Value::from(42), |r| g.record(r, false, 0));
            (envelope(g, data), a)
        }
        1 => {
            let a = g.pick(CALLBACKS);
            let data = a.record.map_or(Value::Null, |r| g.record(r, false, 0));
            (envelope(g, data), a)
        }
        _ => {
            const UPLOAD: Answer = Answer {
                record: Some(&schema::UPLOADED_FILE),
                decode: decode::<UploadEnvelope<Option<wire::UploadRecord>>>,
            };
            let data = g_record(g, &schema::UPLOADED_FILE);
            (envelope(g, data), &UPLOAD)
        }
    };
    let mut bytes = serde_json::to_vec(&value).unwrap_or_default();
    g.mutate(&mut bytes);
    shown.push_str(&String::from_utf8_lossy(&bytes));
    if let Ok(text) = std::str::from_utf8(&bytes) {
        (answer.decode)(text);
    }
    if let Ok(parsed) = serde_json::from_slice::<Value>(&bytes) {
        inspect_answer(&parsed, answer.record);
        classify(&parsed);
    }
}

fn request(g: &mut Gen, shown: &mut String) {
    let op = *g.pick(&Op::ALL);
    let fields = g.request(op.endpoint().fields);
    let value = Value::Object(fields);
    let _ = write!(shown, "{op:?} ");
    show_json(shown, &value);
    if let Value::Object(map) = &value {
        // The message is what people read: format it too.
        let _ = op.validate(map).map_err(|e| e.to_string());
    }
    decode_request(op, &value);
    if let Some(data) = value.get("base64Data").and_then(Value::as_str) {
        check_base64(data);
    }
}

fn decode_request(op: Op, v: &Value) {
    fn go<T: DeserializeOwned>(v: &Value) {
        let _ = T::deserialize(v);
    }
    match op {
        Op::Generate => go::<wire::GenerateRequest>(v),
        Op::Extend => go::<wire::ExtendRequest>(v),
        Op::UploadCover => go::<wire::UploadCoverRequest>(v),
        Op::UploadExtend => go::<wire::UploadExtendRequest>(v),
        Op::AddInstrumental => go::<wire::AddInstrumentalRequest>(v),
        Op::AddVocals => go::<wire::AddVocalsRequest>(v),
        Op::BoostStyle => go::<wire::BoostStyleRequest>(v),
        Op::GetTask
        | Op::GetCover
        | Op::GetWav
        | Op::GetLyrics
        | Op::GetVocalSeparation
        | Op::GetVideo
        | Op::GetMidi
        | Op::GetVoiceValidation
        | Op::GetVoice => go::<wire::TaskQuery>(v),
        Op::GetCredits => {}
        Op::GenerateCover => go::<wire::GenerateCoverRequest>(v),
        Op::ConvertToWav => go::<wire::ConvertToWavRequest>(v),
        Op::GenerateLyrics => go::<wire::GenerateLyricsRequest>(v),
        Op::GetTimestampedLyrics => go::<wire::TimestampedLyricsRequest>(v),
        Op::SeparateVocals => go::<wire::SeparateVocalsRequest>(v),
        Op::GenerateVideo => go::<wire::GenerateVideoRequest>(v),
        Op::UploadFromUrl => go::<wire::UploadFromUrlRequest>(v),
        Op::UploadStream => go::<wire::UploadTarget>(v),
        Op::UploadBase64 => go::<wire::UploadBase64Request>(v),
        Op::GenerateSounds => go::<wire::GenerateSoundsRequest>(v),
        Op::ReplaceSection => go::<wire::ReplaceSectionRequest>(v),
        Op::Mashup => go::<wire::MashupRequest>(v),
        Op::GeneratePersona => go::<wire::GeneratePersonaRequest>(v),
        Op::GenerateMidi => go::<wire::GenerateMidiRequest>(v),
        Op::RecoverAudio => go::<wire::RecoverAudioRequest>(v),
        Op::GetRecovery => go::<wire::RecoveryQuery>(v),
        Op::ValidateVoice => go::<wire::ValidateVoiceRequest>(v),
        Op::RegenerateVoicePhrase => go::<wire::RegenerateVoicePhraseRequest>(v),
        Op::CreateVoice => go::<wire::CreateVoiceRequest>(v),
        Op::CheckVoice => go::<wire::CheckVoiceRequest>(v),
    }
}

/// What the Base64 upload reads of its payload before decoding it.
fn check_base64(data: &str) {
    let payload = match upload::split_data_url(data) {
        Some((mime, payload)) => {
            let _ = upload::extension_for_mime(mime);
            payload
        }
        None => data,
    };
    let len = payload.len() as u64;
    let bytes = upload::decoded_len(len);
    if bytes > upload::MAX_BASE64_FILE_BYTES {
        let _ = upload::base64_too_large("base64Data", bytes);
    }
}

fn times(g: &mut Gen, shown: &mut String) {
    if g.chance(1, 3) {
        let ms = match g.below(3) {
            0 => g.i64(),
            1 => g.i64() % 400_000_000_000_000,
            _ => *g.pick(&[i64::MIN, i64::MAX, -1, 0, 253_402_300_799_999]),
        };
        let _ = write!(shown, "iso_from_epoch_ms({ms})");
        let iso = time::iso_from_epoch_ms(ms);
        let _ = time::epoch_ms_from_iso(&iso);
        let _ = wire::service_time(ms);
    } else {
        let text = match g.below(3) {
            0 => g.date_text(),
            1 => g.digits(),
            _ => g.string(),
        };
        let _ = write!(shown, "{text:?}");
        let normal = time::normalize_text(&text);
        let _ = time::epoch_ms_from_iso(&text);
        let _ = time::epoch_ms_from_iso(&normal);
    }
}

fn numbers(g: &mut Gen, shown: &mut String) {
    if g.chance(1, 3) {
        let n = match g.below(3) {
            0 => g.f64(),
            1 => g.i64() as f64,
            _ => *g.pick(&[
                f64::NAN,
                f64::INFINITY,
                f64::NEG_INFINITY,
                f64::MAX,
                f64::MIN,
                -0.0,
                1e15,
                -1e15,
                999_999_999_999_999.9,
                1.8446744073709552e19,
                -1.8446744073709552e19,
                5e-324,
            ]),
        };
        let _ = write!(shown, "fmt({n:?})");
        let _ = num::fmt(n);
    } else {
        let text = if g.chance(1, 2) {
            g.digits()
        } else {
            g.string()
        };
        let _ = write!(shown, "{text:?}");
        let _ = num::parse_int(&text);
        let _ = num::parse_decimal(&text);
    }
}

fn retry_after(g: &mut Gen, shown: &mut String) {
    let mut header = || match g.below(4) {
        0 => None,
        1 => Some(g.digits()),
        _ => Some(g.string()),
    };
    let (secs, ms) = (header(), header());
    let retry = g.u64() as u32;
    let jitter = g.f64();
    let _ = write!(
        shown,
        "Retry-After {secs:?}, retry-after-ms {ms:?}, retry {retry}, jitter {jitter:?}"
    );
    let parsed = retry::parse_retry_after(secs.as_deref(), ms.as_deref());
    let _ = retry::retry_after_too_long(parsed);
    let _ = retry::backoff_ms(retry, parsed, jitter);
}

fn data_urls(g: &mut Gen, shown: &mut String) {
    if g.chance(1, 3) {
        let bytes = g.bytes(64);
        let _ = write!(shown, "sniff_mime({bytes:?})");
        let mime = upload::sniff_mime(&bytes);
        let _ = upload::extension_for_mime(mime);
        return;
    }
    let text = match g.below(4) {
        0 => format!(
            "data:{};base64,{}",
            g.pick(&["audio/wav", "", "a;b", "audio/wav;base64", "é"]),
            g.string()
        ),
        1 => format!("data:{}", g.string()),
        _ => g.string(),
    };
    let _ = write!(shown, "{text:?}");
    check_base64(&text);
    let _ = upload::decoded_len(g.u64());
}

fn words(g: &mut Gen, shown: &mut String) {
    let text = g.string();
    let _ = write!(shown, "{text:?}");
    let _ = rules::check_url("fileUrl", &text);
    let _ = rules::check_dir_path("uploadPath", &text);
    let _ = rules::check_file_name("fileName", &text);
    let _ = state::Stage::from_callback_type(&text);
    let _ = TaskFamily::from_name(&text);
    let _ = track::camel_key(&text);
    for method in [Method::Get, Method::Post] {
        let _ = Op::from_route(method, &text, "suno");
    }
}
