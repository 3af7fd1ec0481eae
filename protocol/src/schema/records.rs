//! Every record, answer and callback of the service, and every event the client builds from them.
//! One declaration table on purpose (over 400 lines, grouped by family): it is data, read top to
//! bottom like the generated `.d.ts`.
//!
//! Wire fields are listed in the order the service writes them. A record with a `rust` name also
//! becomes a serde struct of `wire::generated`; its `client` fields are what the client adds.
//! Nothing here is linked into the wasm client (it validates with the endpoint table and never
//! reads these), so the doc text costs npm users nothing.

use super::shape::{client, renamed, wire, wire_opt, Field, Record, Twin, Ty, Union};
use super::vocab::{
    CALLBACK_STAGE, MUSIC_STAGE, RECOVERED_STATUS, TASK_FAMILY, TASK_STATE, VOICE_STATUS,
};

const STR: Ty = Ty::Str;
const NULL_STR: Ty = Ty::Null(&Ty::Str);
const NULL_INT: Ty = Ty::Null(&Ty::Int);
const NULL_TIME: Ty = Ty::Null(&Ty::Time);
const STATE: Ty = Ty::Enum(&TASK_STATE);

const fn state(doc: &'static str) -> Field {
    client("state", STATE, doc)
}

const ERROR_CODE: Field = wire(
    "errorCode",
    NULL_INT,
    "The failure's code; null while running or on success.",
);
const ERROR_MESSAGE: Field = wire(
    "errorMessage",
    NULL_STR,
    "The failure's reason; null while running or on success.",
);

// ---- Creating calls and plain answers ---------------------------------------------------------

pub static TASK_CREATED: Record = Record {
    name: "TaskCreated",
    rust: Some("TaskCreated"),
    twin: None,
    extends: None,
    doc: "What a task-creating call resolves with (without `wait`).",
    fields: &[wire(
        "taskId",
        STR,
        "Id of the new task: pass it to the family's status query or waiter.",
    )],
};

pub static CREDITS: Record = Record {
    name: "Credits",
    rust: None,
    twin: None,
    extends: None,
    doc: "Result of `getCredits`.",
    fields: &[client(
        "credits",
        Ty::Num,
        "Credits remaining on the key's account.",
    )],
};

// ---- Music tasks ------------------------------------------------------------------------------

pub static TRACK: Record = Record {
    name: "Track",
    rust: Some("Track"),
    twin: Some(Twin { rust: "CallbackTrack", keep: &["createTime"] }),
    extends: None,
    doc: "One generated track, in camelCase whatever casing the service used (callbacks send snake_case).",
    fields: &[
        wire("id", STR, "The track's id: the `audioId` of extend, separateVocals, generateVideo..."),
        wire("audioUrl", STR, "The generated audio; empty before the task completes (play `streamAudioUrl`). URLs may be time-limited."),
        wire("sourceAudioUrl", STR, "Upstream link; it expires and is not maintained: play `audioUrl`, or `recoverAudio` for fresh links.\n@deprecated The service marks it deprecated: still read, never to rely on."),
        wire("streamAudioUrl", STR, "Streaming audio, playable from the `first` stage."),
        wire("sourceStreamAudioUrl", STR, "Deprecated upstream streaming link."),
        wire("imageUrl", STR, "Cover image of the track."),
        wire("sourceImageUrl", STR, "Deprecated upstream image link."),
        wire("prompt", STR, "Generation prompt or lyrics."),
        wire("modelName", STR, "Internal model name, distinct from the request's `model`."),
        wire("title", STR, "Title of the track."),
        wire("tags", STR, "Style tags of the track."),
        wire("createTime", Ty::Time, "ISO 8601 (the service writes `YYYY-MM-DD hh:mm:ss`; the client adds the `T`)."),
        wire("duration", Ty::Num, "Length in seconds."),
    ],
};

pub static MUSIC_RESPONSE: Record = Record {
    name: "MusicResponse",
    rust: Some("MusicResponse"),
    twin: None,
    extends: None,
    doc: "`response` of a music task: the tracks as the service wrote them.",
    fields: &[
        wire("taskId", STR, "The task's id."),
        wire(
            "sunoData",
            Ty::List(&Ty::Ref(&TRACK)),
            "The tracks so far (read `tracks` on the task instead).",
        ),
    ],
};

pub static MUSIC_TASK: Record = Record {
    name: "MusicTask",
    rust: Some("MusicRecord"),
    twin: None,
    extends: None,
    doc: "Status of a music task (`getTask`): generate, extend, uploadCover, uploadExtend, addInstrumental, addVocals.",
    fields: &[
        wire("taskId", STR, "The task's id."),
        wire("parentMusicId", STR, "Source track of an extension; empty otherwise."),
        wire("param", STR, "The original request, JSON-encoded."),
        wire("response", Ty::Ref(&MUSIC_RESPONSE), "The tracks as the service wrote them."),
        wire("status", STR, "PENDING, TEXT_SUCCESS, FIRST_SUCCESS, SUCCESS, or a failure: CREATE_TASK_FAILED, GENERATE_AUDIO_FAILED, CALLBACK_EXCEPTION, SENSITIVE_WORD_ERROR; unknown values are kept."),
        renamed(wire("type", STR, "The service's task type."), "kind"),
        wire("operationType", STR, "`generate`, `extend`, `upload_cover`, `upload_extend`, others possible."),
        ERROR_CODE,
        ERROR_MESSAGE,
        wire("createTime", Ty::Time, "When the task was created, ISO 8601."),
        state("Normalized state of the task."),
        client("stage", Ty::Enum(&MUSIC_STAGE), "Stage reached: `first` means the first track is playable."),
        client("tracks", Ty::List(&Ty::Ref(&TRACK)), "The tracks so far, normalized: the first at stage `first`, all at `complete`."),
    ],
};

pub static MUSIC_CALLBACK_DATA: Record = Record {
    name: "MusicCallbackData",
    rust: Some("MusicCallbackData"),
    twin: None,
    extends: None,
    doc: "`data` of a generation callback, as the service writes it (snake_case).",
    fields: &[
        wire(
            "callbackType",
            STR,
            "`text`, `first`, `complete` or `error`.",
        ),
        wire("task_id", STR, "The task's id."),
        wire(
            "data",
            Ty::Null(&Ty::List(&Ty::Twin(&TRACK))),
            "The tracks (snake_case); null on failure.",
        ),
    ],
};

// ---- Covers -----------------------------------------------------------------------------------

pub static COVER_RESPONSE: Record = Record {
    name: "CoverResponse",
    rust: Some("CoverResponse"),
    twin: None,
    extends: None,
    doc: "`response` of a cover task.",
    fields: &[wire(
        "images",
        Ty::List(&STR),
        "Cover image URLs (normally 2).",
    )],
};

pub static COVER_TASK: Record = Record {
    name: "CoverTask",
    rust: Some("CoverRecord"),
    twin: None,
    extends: None,
    doc: "Status of a cover task (`getCover`). Images are kept 14 days.",
    fields: &[
        wire("taskId", STR, "The task's id."),
        wire("parentTaskId", STR, "The music task the covers are for."),
        wire("callbackUrl", STR, "The callback URL given at creation."),
        wire(
            "completeTime",
            NULL_TIME,
            "When the task ended, ISO 8601; null while running.",
        ),
        wire(
            "response",
            Ty::Null(&Ty::Ref(&COVER_RESPONSE)),
            "Present, with the images, only on success.",
        ),
        wire(
            "successFlag",
            Ty::Int,
            "0 pending, 1 success, 2 generating, 3 failed.",
        ),
        wire(
            "createTime",
            Ty::Time,
            "When the task was created, ISO 8601.",
        ),
        wire(
            "errorCode",
            NULL_INT,
            "200 success, 500 internal error (retry later); null while running.",
        ),
        wire(
            "errorMessage",
            STR,
            "The failure's reason; empty otherwise.",
        ),
        state("Normalized state of the task."),
        client(
            "images",
            Ty::List(&STR),
            "Cover image URLs (normally 2); empty until success.",
        ),
    ],
};

pub static COVER_CALLBACK_DATA: Record = Record {
    name: "CoverCallbackData",
    rust: Some("CoverCallbackData"),
    twin: None,
    extends: None,
    doc: "`data` of a cover callback.",
    fields: &[
        wire("taskId", STR, "The task's id."),
        wire(
            "images",
            Ty::Null(&Ty::List(&STR)),
            "Cover image URLs; null on failure.",
        ),
    ],
};

// ---- Flag-status families: WAV, vocal separation, video ---------------------------------------

const COMPLETE_TIME: Field = wire(
    "completeTime",
    NULL_TIME,
    "When the task ended, ISO 8601; null while running.",
);
const CREATE_TIME: Field = wire(
    "createTime",
    Ty::Time,
    "When the task was created, ISO 8601.",
);
const CALLBACK_URL: Field = wire("callbackUrl", STR, "The callback URL given at creation.");
const MUSIC_ID: Field = wire("musicId", STR, "The source track's id.");
const MUSIC_INDEX: Field = wire(
    "musicIndex",
    Ty::Int,
    "Which of the music task's tracks (0 or 1).",
);

pub static WAV_RESPONSE: Record = Record {
    name: "WavResponse",
    rust: Some("WavResponse"),
    twin: None,
    extends: None,
    doc: "`response` of a WAV conversion.",
    fields: &[wire("audioWavUrl", STR, "The WAV file; kept 15 days.")],
};

pub static WAV_TASK: Record = Record {
    name: "WavTask",
    rust: Some("WavRecord"),
    twin: None,
    extends: None,
    doc: "Status of a WAV conversion (`getWav`).",
    fields: &[
        wire("taskId", STR, "The task's id."),
        MUSIC_ID,
        CALLBACK_URL,
        COMPLETE_TIME,
        wire(
            "response",
            Ty::Null(&Ty::Ref(&WAV_RESPONSE)),
            "Present on success.",
        ),
        wire(
            "successFlag",
            STR,
            "PENDING, SUCCESS, CREATE_TASK_FAILED, GENERATE_WAV_FAILED, CALLBACK_EXCEPTION.",
        ),
        CREATE_TIME,
        ERROR_CODE,
        ERROR_MESSAGE,
        state("Normalized state of the task."),
    ],
};

pub static WAV_CALLBACK_DATA: Record = Record {
    name: "WavCallbackData",
    rust: Some("WavCallbackData"),
    twin: None,
    extends: None,
    doc: "`data` of a WAV callback: `audioWavUrl` camelCase, `task_id` snake_case, as documented.",
    fields: &[
        wire("audioWavUrl", NULL_STR, "The WAV file; null on failure."),
        wire("task_id", STR, "The task's id."),
    ],
};

pub static STEMS: Record = Record {
    name: "Stems",
    rust: Some("Stems"),
    twin: Some(Twin {
        rust: "StemsSnake",
        keep: &[],
    }),
    extends: None,
    doc: "Stem URLs of a vocal separation; a stem the separation type does not produce is null.",
    fields: &[
        wire("originUrl", NULL_STR, "The source track."),
        wire("instrumentalUrl", NULL_STR, "Everything but the vocals."),
        wire("vocalUrl", NULL_STR, "Lead vocals."),
        wire("backingVocalsUrl", NULL_STR, "Backing vocals (split_stem)."),
        wire("drumsUrl", NULL_STR, "Drums (split_stem)."),
        wire("bassUrl", NULL_STR, "Bass (split_stem)."),
        wire("guitarUrl", NULL_STR, "Guitar (split_stem)."),
        wire("keyboardUrl", NULL_STR, "Keyboard (split_stem)."),
        wire("percussionUrl", NULL_STR, "Percussion (split_stem)."),
        wire("stringsUrl", NULL_STR, "Strings (split_stem)."),
        wire("synthUrl", NULL_STR, "Synth (split_stem)."),
        wire("fxUrl", NULL_STR, "Effects (split_stem)."),
        wire("brassUrl", NULL_STR, "Brass (split_stem)."),
        wire("woodwindsUrl", NULL_STR, "Woodwinds (split_stem)."),
        wire_opt("originData", Ty::List(&Ty::Ref(&ORIGIN_STEM)), "Every separated track with its id (pass one as `audioId` to `generateMidi`), when the service lists them."),
    ],
};

pub static ORIGIN_STEM: Record = Record {
    name: "OriginStem",
    rust: Some("OriginStem"),
    twin: None,
    extends: None,
    doc: "One separated track of a vocal separation (the service writes these fields in snake_case).",
    fields: &[
        wire("id", STR, "The track's id: `audioId` of `generateMidi`."),
        wire("audio_url", STR, "The separated audio."),
        wire("duration", Ty::Num, "Length in seconds."),
        wire("stem_type_group_name", STR, "Which stem (Vocals, Instrumental, Drums, Bass, or the `stemName` of an advanced separation)."),
    ],
};

pub static VOCAL_SEPARATION_TASK: Record = Record {
    name: "VocalSeparationTask",
    rust: Some("VocalRecord"),
    twin: None,
    extends: None,
    doc: "Status of a vocal separation (`getVocalSeparation`).",
    fields: &[
        wire("taskId", STR, "The task's id."),
        MUSIC_ID,
        CALLBACK_URL,
        MUSIC_INDEX,
        COMPLETE_TIME,
        wire(
            "response",
            Ty::Null(&Ty::Ref(&STEMS)),
            "The stems; present on success.",
        ),
        wire(
            "successFlag",
            STR,
            "PENDING, SUCCESS, CREATE_TASK_FAILED, GENERATE_AUDIO_FAILED, CALLBACK_EXCEPTION.",
        ),
        CREATE_TIME,
        ERROR_CODE,
        ERROR_MESSAGE,
        state("Normalized state of the task."),
    ],
};

pub static VOCAL_CALLBACK_DATA: Record = Record {
    name: "VocalSeparationCallbackData",
    rust: Some("VocalCallbackData"),
    twin: None,
    extends: None,
    doc: "`data` of a vocal-separation callback (snake_case).",
    fields: &[
        wire("task_id", STR, "The task's id."),
        wire(
            "vocal_removal_info",
            Ty::Null(&Ty::Twin(&STEMS)),
            "The stems (snake_case); null on failure.",
        ),
    ],
};

pub static VIDEO_RESPONSE: Record = Record {
    name: "VideoResponse",
    rust: Some("VideoResponse"),
    twin: None,
    extends: None,
    doc: "`response` of a music video.",
    fields: &[wire("videoUrl", STR, "The MP4 file.")],
};

pub static VIDEO_TASK: Record = Record {
    name: "VideoTask",
    rust: Some("VideoRecord"),
    twin: None,
    extends: None,
    doc: "Status of a music video (`getVideo`).",
    fields: &[
        wire("taskId", STR, "The task's id."),
        MUSIC_ID,
        CALLBACK_URL,
        MUSIC_INDEX,
        COMPLETE_TIME,
        wire(
            "response",
            Ty::Null(&Ty::Ref(&VIDEO_RESPONSE)),
            "Present on success.",
        ),
        wire(
            "successFlag",
            STR,
            "PENDING, SUCCESS, CREATE_TASK_FAILED, GENERATE_MP4_FAILED, CALLBACK_EXCEPTION.",
        ),
        CREATE_TIME,
        ERROR_CODE,
        ERROR_MESSAGE,
        state("Normalized state of the task."),
    ],
};

pub static VIDEO_CALLBACK_DATA: Record = Record {
    name: "VideoCallbackData",
    rust: Some("VideoCallbackData"),
    twin: None,
    extends: None,
    doc: "`data` of a music-video callback (snake_case).",
    fields: &[
        wire("task_id", STR, "The task's id."),
        wire("video_url", NULL_STR, "The MP4 file; null on failure."),
    ],
};

// ---- Lyrics -----------------------------------------------------------------------------------

pub static LYRICS_TEXT: Record = Record {
    name: "LyricsText",
    rust: Some("Lyric"),
    twin: None,
    extends: None,
    doc: "One text of a lyrics task.",
    fields: &[
        wire("text", STR, "The lyrics."),
        wire("title", STR, "A title for them."),
        wire("status", STR, "`complete` or `failed`."),
        wire("errorMessage", STR, "Why it failed; empty otherwise."),
    ],
};

pub static LYRICS_RESPONSE: Record = Record {
    name: "LyricsResponse",
    rust: Some("LyricsResponse"),
    twin: None,
    extends: None,
    doc: "`response` of a lyrics task.",
    fields: &[
        wire("taskId", STR, "The task's id."),
        wire(
            "lyricsData",
            Ty::List(&Ty::Ref(&LYRICS_TEXT)),
            "The texts (read `lyrics` on the task instead).",
        ),
    ],
};

pub static LYRICS_TASK: Record = Record {
    name: "LyricsTask",
    rust: Some("LyricsRecord"),
    twin: None,
    extends: None,
    doc: "Status of a lyrics task (`getLyrics`).",
    fields: &[
        wire("taskId", STR, "The task's id."),
        wire("param", STR, "The original request, JSON-encoded."),
        wire("response", Ty::Null(&Ty::Ref(&LYRICS_RESPONSE)), "The texts as the service wrote them; present on success."),
        wire("status", STR, "PENDING, SUCCESS, CREATE_TASK_FAILED, GENERATE_LYRICS_FAILED, CALLBACK_EXCEPTION, SENSITIVE_WORD_ERROR."),
        renamed(wire("type", STR, "The service's task type."), "kind"),
        ERROR_CODE,
        ERROR_MESSAGE,
        state("Normalized state of the task."),
        client("lyrics", Ty::List(&Ty::Ref(&LYRICS_TEXT)), "The texts, from `response.lyricsData`; empty until success."),
    ],
};

pub static LYRICS_CALLBACK_DATA: Record = Record {
    name: "LyricsCallbackData",
    rust: Some("LyricsCallbackData"),
    twin: None,
    extends: None,
    doc: "`data` of a lyrics callback.",
    fields: &[
        wire("callbackType", STR, "`complete` or `error`."),
        wire("taskId", STR, "The task's id."),
        wire(
            "data",
            Ty::Null(&Ty::List(&Ty::Ref(&LYRICS_TEXT))),
            "The texts; null on failure.",
        ),
    ],
};

// ---- Synchronous answers ----------------------------------------------------------------------

pub static STYLE_BOOST: Record = Record {
    name: "StyleBoost",
    rust: Some("StyleBoost"),
    twin: None,
    extends: None,
    doc: "Result of `boostStyle`.",
    fields: &[
        wire("taskId", STR, "Id of the boost."),
        wire("param", STR, "The style description sent."),
        wire("result", STR, "The boosted style text."),
        wire("creditsConsumed", Ty::Int, "Credits this boost cost."),
        wire("creditsRemaining", Ty::Int, "Credits left afterwards."),
        wire(
            "successFlag",
            STR,
            "\"0\" pending, \"1\" success, \"2\" failed.",
        ),
        wire(
            "errorCode",
            NULL_INT,
            "The failure's code; null on success.",
        ),
        wire(
            "errorMessage",
            STR,
            "The failure's reason; empty on success.",
        ),
        wire("createTime", Ty::Time, "ISO 8601."),
        state("Normalized state of the boost."),
    ],
};

pub static ALIGNED_WORD: Record = Record {
    name: "AlignedWord",
    rust: Some("AlignedWord"),
    twin: None,
    extends: None,
    doc: "One word of timestamped lyrics; times in seconds.",
    fields: &[
        wire(
            "word",
            STR,
            "The word, with any line break that follows it.",
        ),
        wire("success", Ty::Bool, "Whether the word was aligned."),
        wire("startS", Ty::Num, "Start, in seconds."),
        wire("endS", Ty::Num, "End, in seconds."),
        wire("palign", Ty::Num, "Alignment confidence."),
    ],
};

pub static TIMESTAMPED_LYRICS: Record = Record {
    name: "TimestampedLyrics",
    rust: Some("TimestampedLyrics"),
    twin: None,
    extends: None,
    doc: "Result of `getTimestampedLyrics`.",
    fields: &[
        wire(
            "alignedWords",
            Ty::List(&Ty::Ref(&ALIGNED_WORD)),
            "The words in order.",
        ),
        wire(
            "waveformData",
            Ty::List(&Ty::Num),
            "Amplitudes for drawing a waveform.",
        ),
        wire("hootCer", Ty::Num, "Alignment error rate."),
        wire(
            "isStreamed",
            Ty::Bool,
            "Whether the lyrics came from a streamed track.",
        ),
    ],
};

pub static UPLOADED_FILE: Record = Record {
    name: "UploadedFile",
    rust: Some("UploadRecord"),
    twin: None,
    extends: None,
    doc: "A stored file: what every upload method resolves with. Files are kept 3 days; times are ISO 8601 (UTC).",
    fields: &[
        wire("fileId", STR, "File id."),
        wire("fileName", STR, "Stored file name: `fileName` if given, else the original name (stream, URL) or a generated one."),
        wire("originalName", STR, "Original file name (the File's name, the URL's last segment, or the stored name)."),
        wire("fileSize", Ty::Size, "Size in bytes."),
        wire("mimeType", STR, "MIME type, recognized by the service from the content."),
        wire("uploadPath", STR, "Storage directory path (\"\" for the root)."),
        wire("fileUrl", STR, "URL of the stored file."),
        wire("downloadUrl", STR, "Direct download URL: pass it as `uploadUrl` to the audio operations."),
        wire("uploadTime", Ty::Time, "Upload time."),
        wire("expiresAt", Ty::Time, "Expiry: 3 days after upload, when the file is deleted."),
        wire_opt("filePath", STR, "Path of the file in the storage, when the service reports it."),
        wire_opt("uploadedAt", Ty::Time, "Upload time under the hosted service's other name for it, when reported."),
    ],
};

// ---- Personas, MIDI, recovery and voices -------------------------------------------------------

pub static PERSONA: Record = Record {
    name: "Persona",
    rust: Some("PersonaRecord"),
    twin: None,
    extends: None,
    doc: "A persona made from a generated track (`generatePersona`, answered at once): pass `personaId` to generate, extend, uploadCover or uploadExtend.",
    fields: &[
        wire("personaId", STR, "The persona's id."),
        wire("name", STR, "The name given."),
        wire("description", STR, "The description given."),
    ],
};

pub static MIDI_NOTE: Record = Record {
    name: "MidiNote",
    rust: Some("MidiNote"),
    twin: None,
    extends: None,
    doc: "One note heard in a stem.",
    fields: &[
        wire(
            "pitch",
            Ty::Int,
            "MIDI note number (0 to 127; 60 is middle C).",
        ),
        wire(
            "start",
            Ty::Num,
            "Start, in seconds from the start of the audio.",
        ),
        wire("end", Ty::Num, "End, in seconds."),
        wire("velocity", Ty::Num, "Loudness, 0 to 1."),
    ],
};

pub static MIDI_INSTRUMENT: Record = Record {
    name: "MidiInstrument",
    rust: Some("MidiInstrument"),
    twin: None,
    extends: None,
    doc: "The notes of one instrument (one separated stem).",
    fields: &[
        wire("name", STR, "Instrument name."),
        wire(
            "notes",
            Ty::List(&Ty::Ref(&MIDI_NOTE)),
            "Its notes, in time order.",
        ),
    ],
};

pub static MIDI_DATA: Record = Record {
    name: "MidiData",
    rust: Some("MidiData"),
    twin: None,
    extends: None,
    doc: "What a MIDI task found.",
    fields: &[
        wire(
            "state",
            STR,
            "The service's processing state (`complete` when done).",
        ),
        wire(
            "instruments",
            Ty::List(&Ty::Ref(&MIDI_INSTRUMENT)),
            "One entry per stem.",
        ),
    ],
};

pub static MIDI_TASK: Record = Record {
    name: "MidiTask",
    rust: Some("MidiRecord"),
    twin: None,
    extends: None,
    doc: "Status of a MIDI task (`getMidi`). Its `successFlag` is an integer: 0 pending, 1 success, 2 or more failed.",
    fields: &[
        wire("taskId", STR, "The task's id."),
        wire("recordTaskId", Ty::Int, "The service's internal record number."),
        wire("audioId", NULL_STR, "The stem the MIDI was made from; null when made from every stem."),
        CALLBACK_URL,
        wire("completeTime", Ty::Null(&Ty::Epoch), "When the task ended (epoch milliseconds on the wire, ISO 8601 from the client); null while running."),
        wire("midiData", Ty::Null(&Ty::Ref(&MIDI_DATA)), "The notes; null until the task succeeds."),
        wire("successFlag", Ty::Int, "0 pending, 1 success, 2 task creation failed, 3 MIDI generation failed."),
        wire("createTime", Ty::Epoch, "When the task was created (epoch milliseconds on the wire, ISO 8601 from the client)."),
        wire("errorCode", NULL_STR, "The failure's code (a string here); null unless failed."),
        ERROR_MESSAGE,
        state("Normalized state of the task."),
    ],
};

pub static MIDI_CALLBACK_DATA: Record = Record {
    name: "MidiCallbackData",
    rust: Some("MidiCallbackData"),
    twin: None,
    extends: None,
    doc: "`data` of a MIDI callback.",
    fields: &[
        wire("task_id", STR, "The task's id."),
        wire(
            "midiData",
            Ty::Null(&Ty::Ref(&MIDI_DATA)),
            "The notes; null on failure.",
        ),
    ],
};

pub static RECOVERED_TRACK: Record = Record {
    name: "RecoveredTrack",
    rust: Some("RecoveredTrack"),
    twin: None,
    extends: None,
    doc: "One track of an audio recovery (the service writes these fields in snake_case).",
    fields: &[
        wire(
            "id",
            STR,
            "The track's id (the `id` of the old task's Track).",
        ),
        wire(
            "audio_url",
            NULL_STR,
            "A fresh playable link (may be `.m4a`); null when this track failed.",
        ),
        wire("title", STR, "The track's title."),
        wire(
            "status",
            Ty::Enum(&RECOVERED_STATUS),
            "`success` or `failed`.",
        ),
        wire("error", NULL_STR, "Why this track failed; null on success."),
    ],
};

pub static RECOVERY_ENVELOPE: Record = Record {
    name: "RecoveryEnvelope",
    rust: Some("RecoveryEnvelope"),
    twin: None,
    extends: None,
    doc: "The whole answer of the recovery status query, which has its own envelope: `code` 201 while running, 200 done, 500 every track failed; `task_id` beside `data`.",
    fields: &[
        wire("code", Ty::Int, "201 still running, 200 done, 500 every track failed."),
        wire("msg", STR, "The service's message."),
        wire("task_id", STR, "The recovery task's id."),
        wire("data", Ty::Null(&Ty::List(&Ty::Ref(&RECOVERED_TRACK))), "The tracks; null while running."),
    ],
};

pub static RECOVERY_TASK: Record = Record {
    name: "RecoveryTask",
    rust: None,
    twin: None,
    extends: None,
    doc: "Status of an audio recovery (`getRecovery`). The service answers this query with its own envelope (`{code, msg, task_id, data}`, code 201 while running); the client turns it into this record.",
    fields: &[
        client("taskId", STR, "The recovery task's id (the envelope's `task_id`)."),
        client("code", Ty::Int, "The envelope's code: 201 still running, 200 done, 500 every track failed."),
        client("msg", STR, "The envelope's message."),
        client("tracks", Ty::List(&Ty::Ref(&RECOVERED_TRACK)), "The recovered tracks; empty while running."),
        state("Normalized state: `running` on 201, `succeeded` on 200, `failed` on 500."),
    ],
};

pub static RECOVERY_CALLBACK_DATA: Record = Record {
    name: "RecoveryCallbackData",
    rust: Some("RecoveryCallbackData"),
    twin: None,
    extends: None,
    doc: "`data` of a recovery callback.",
    fields: &[
        wire("task_id", STR, "The task's id."),
        wire(
            "recovery_data",
            Ty::Null(&Ty::List(&Ty::Ref(&RECOVERED_TRACK))),
            "The tracks; null on failure.",
        ),
    ],
};

pub static VOICE_VALIDATION_TASK: Record = Record {
    name: "VoiceValidationTask",
    rust: Some("VoiceValidationRecord"),
    twin: None,
    extends: None,
    doc: "Status of a voice validation (`getVoiceValidation`): the phrase the singer must record. Its state is `succeeded` once the phrase is ready (status `wait_validating`).",
    fields: &[
        wire("taskId", STR, "The validation task's id: pass it to `createVoice` or `regenerateVoicePhrase`."),
        wire("validateInfo", NULL_STR, "The phrase the singer must record and upload as `verifyUrl`; null until ready."),
        wire("status", Ty::Enum(&VOICE_STATUS), "The service's own status, lower case."),
        ERROR_CODE,
        ERROR_MESSAGE,
        state("Normalized state of the task."),
    ],
};

pub static VOICE_TASK: Record = Record {
    name: "VoiceTask",
    rust: Some("VoiceRecord"),
    twin: None,
    extends: None,
    doc: "Status of a custom voice (`getVoice`): once `succeeded`, pass `voiceId` as `personaId` with `personaModel: \"voice_persona\"`.",
    fields: &[
        wire("taskId", STR, "The voice task's id."),
        wire("voiceId", NULL_STR, "The voice's id; null until ready."),
        wire("status", Ty::Enum(&VOICE_STATUS), "The service's own status, lower case."),
        ERROR_CODE,
        ERROR_MESSAGE,
        state("Normalized state of the task."),
    ],
};

pub static VOICE_CALLBACK_DATA: Record = Record {
    name: "VoiceCallbackData",
    rust: Some("VoiceCallbackData"),
    twin: None,
    extends: None,
    doc: "`data` of a voice-validation or voice callback: the record as `getVoiceValidation` or `getVoice` gives it.",
    fields: &[
        wire("taskId", STR, "The task's id."),
        wire_opt("validateInfo", NULL_STR, "The phrase (validation callbacks)."),
        wire_opt("voiceId", NULL_STR, "The voice (voice callbacks)."),
        wire("status", Ty::Enum(&VOICE_STATUS), "The service's own status."),
    ],
};

pub static VOICE_AVAILABILITY: Record = Record {
    name: "VoiceAvailability",
    rust: Some("VoiceAvailability"),
    twin: None,
    extends: None,
    doc: "Whether a created voice can be used (`checkVoice`, answered at once).",
    fields: &[wire(
        "isAvailable",
        Ty::Bool,
        "True when the voice can sing.",
    )],
};

// ---- Callback events (what `parseCallback` returns) -------------------------------------------

pub static CALLBACK_EVENT_BASE: Record = Record {
    name: "CallbackEventBase",
    rust: None,
    twin: None,
    extends: None,
    doc: "What every callback event has.",
    fields: &[
        client("family", Ty::Enum(&TASK_FAMILY), "Which kind of task called back; the discriminant of `CallbackEvent`."),
        client("taskId", STR, "The task id the create call returned (the service writes `task_id` or `taskId`)."),
        client("stage", Ty::Enum(&CALLBACK_STAGE), "`text` and `first` (music only), then `complete` or `error`."),
        client("state", STATE, "`running` for `text` and `first`, `succeeded` for `complete`, `failed` for `error`."),
        client("code", Ty::Int, "The callback's code: 200 success; 400 bad request or content violation; 451 source files could not be downloaded; 500 server error."),
        client("msg", STR, "The callback's message."),
        client("raw", Ty::Unknown, "The body as received (parsed)."),
    ],
};

const fn event(name: &'static str, doc: &'static str, fields: &'static [Field]) -> Record {
    Record {
        name,
        rust: None,
        twin: None,
        extends: Some(&CALLBACK_EVENT_BASE),
        doc,
        fields,
    }
}

pub static MUSIC_CALLBACK_EVENT: Record = event(
    "MusicCallbackEvent",
    "A generation callback (generate, extend, uploadCover, uploadExtend, addInstrumental, addVocals).",
    &[
        client("family", Ty::Lit("music"), ""),
        client("tracks", Ty::List(&Ty::Ref(&TRACK)), "The tracks so far, in the same camelCase `Track` shape as `getTask`: usually none at `text`, the first at `first`, all at `complete`; empty on `error`."),
    ],
);

pub static COVER_CALLBACK_EVENT: Record = event(
    "CoverCallbackEvent",
    "A cover callback.",
    &[
        client("family", Ty::Lit("cover"), ""),
        client(
            "images",
            Ty::List(&STR),
            "Cover image URLs (normally 2); empty on failure.",
        ),
    ],
);

pub static WAV_CALLBACK_EVENT: Record = event(
    "WavCallbackEvent",
    "A WAV conversion callback.",
    &[
        client("family", Ty::Lit("wav"), ""),
        client("audioWavUrl", NULL_STR, "The WAV file; null on failure."),
    ],
);

pub static LYRICS_CALLBACK_EVENT: Record = event(
    "LyricsCallbackEvent",
    "A lyrics callback.",
    &[
        client("family", Ty::Lit("lyrics"), ""),
        client(
            "lyrics",
            Ty::List(&Ty::Ref(&LYRICS_TEXT)),
            "The texts written (keys camelCased); empty on failure.",
        ),
    ],
);

pub static VOCAL_SEPARATION_CALLBACK_EVENT: Record = event(
    "VocalSeparationCallbackEvent",
    "A vocal-separation callback.",
    &[
        client("family", Ty::Lit("vocal_separation"), ""),
        client("stems", Ty::Null(&Ty::Ref(&STEMS)), "Stem URLs, camelCased as in `getVocalSeparation` (`vocalUrl`, `instrumentalUrl`, ...); null on failure."),
    ],
);

pub static VIDEO_CALLBACK_EVENT: Record = event(
    "VideoCallbackEvent",
    "A music-video callback.",
    &[
        client("family", Ty::Lit("video"), ""),
        client("videoUrl", NULL_STR, "The MP4 file; null on failure."),
    ],
);

pub static MIDI_CALLBACK_EVENT: Record = event(
    "MidiCallbackEvent",
    "A MIDI callback.",
    &[
        client("family", Ty::Lit("midi"), ""),
        client(
            "midiData",
            Ty::Null(&Ty::Ref(&MIDI_DATA)),
            "The notes; null on failure.",
        ),
    ],
);

pub static RECOVERY_CALLBACK_EVENT: Record = event(
    "RecoveryCallbackEvent",
    "An audio-recovery callback.",
    &[
        client("family", Ty::Lit("recovery"), ""),
        client(
            "tracks",
            Ty::List(&Ty::Ref(&RECOVERED_TRACK)),
            "The recovered tracks; empty on failure.",
        ),
    ],
);

pub static VOICE_VALIDATION_CALLBACK_EVENT: Record = event(
    "VoiceValidationCallbackEvent",
    "A voice-validation callback: the phrase is ready (or the recording was refused).",
    &[
        client("family", Ty::Lit("voice_validation"), ""),
        client(
            "validateInfo",
            NULL_STR,
            "The phrase to record; null on failure.",
        ),
    ],
);

pub static VOICE_CALLBACK_EVENT: Record = event(
    "VoiceCallbackEvent",
    "A voice callback: the custom voice is ready (or failed).",
    &[
        client("family", Ty::Lit("voice"), ""),
        client("voiceId", NULL_STR, "The voice's id; null on failure."),
    ],
);

pub static CALLBACK_EVENT: Union = Union {
    name: "CallbackEvent",
    doc: "A callback, classified and normalized by `parseCallback`; switch on `family`.",
    tag: "family",
    members: &[
        &MUSIC_CALLBACK_EVENT,
        &COVER_CALLBACK_EVENT,
        &WAV_CALLBACK_EVENT,
        &LYRICS_CALLBACK_EVENT,
        &VOCAL_SEPARATION_CALLBACK_EVENT,
        &VIDEO_CALLBACK_EVENT,
        &MIDI_CALLBACK_EVENT,
        &RECOVERY_CALLBACK_EVENT,
        &VOICE_VALIDATION_CALLBACK_EVENT,
        &VOICE_CALLBACK_EVENT,
    ],
};

/// Every record, in the order the generated files list them.
pub static RECORDS: &[&Record] = &[
    &TASK_CREATED,
    &CREDITS,
    &TRACK,
    &MUSIC_RESPONSE,
    &MUSIC_TASK,
    &MUSIC_CALLBACK_DATA,
    &COVER_RESPONSE,
    &COVER_TASK,
    &COVER_CALLBACK_DATA,
    &WAV_RESPONSE,
    &WAV_TASK,
    &WAV_CALLBACK_DATA,
    &ORIGIN_STEM,
    &STEMS,
    &VOCAL_SEPARATION_TASK,
    &VOCAL_CALLBACK_DATA,
    &VIDEO_RESPONSE,
    &VIDEO_TASK,
    &VIDEO_CALLBACK_DATA,
    &LYRICS_TEXT,
    &LYRICS_RESPONSE,
    &LYRICS_TASK,
    &LYRICS_CALLBACK_DATA,
    &STYLE_BOOST,
    &ALIGNED_WORD,
    &TIMESTAMPED_LYRICS,
    &UPLOADED_FILE,
    &PERSONA,
    &MIDI_NOTE,
    &MIDI_INSTRUMENT,
    &MIDI_DATA,
    &MIDI_TASK,
    &MIDI_CALLBACK_DATA,
    &RECOVERED_TRACK,
    &RECOVERY_ENVELOPE,
    &RECOVERY_TASK,
    &RECOVERY_CALLBACK_DATA,
    &VOICE_VALIDATION_TASK,
    &VOICE_TASK,
    &VOICE_CALLBACK_DATA,
    &VOICE_AVAILABILITY,
    &CALLBACK_EVENT_BASE,
    &MUSIC_CALLBACK_EVENT,
    &COVER_CALLBACK_EVENT,
    &WAV_CALLBACK_EVENT,
    &LYRICS_CALLBACK_EVENT,
    &VOCAL_SEPARATION_CALLBACK_EVENT,
    &VIDEO_CALLBACK_EVENT,
    &MIDI_CALLBACK_EVENT,
    &RECOVERY_CALLBACK_EVENT,
    &VOICE_VALIDATION_CALLBACK_EVENT,
    &VOICE_CALLBACK_EVENT,
];

pub static UNIONS: &[&Union] = &[&CALLBACK_EVENT];
