//! Where a record holds files (tracks, stems, covers, WAV, video, uploads) and texts (lyrics), for
//! the faces that link, inline or save them (the MCP server, the CLI): one declaration per task
//! family and per answer of no task, from which `cargo xtask codegen` writes
//! `pkg-template/media.generated.js`. Matches with no wildcard arm: a new family or operation does
//! not compile until it says what its records hold, and the tests check every name against the
//! records' declarations.

use crate::{Op, TaskFamily};

/// What a file is, for the face that shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    Audio,
    Image,
    Video,
    /// A stored file: an image when its MIME type says so, else a file.
    Stored,
}

impl FileKind {
    pub const fn as_str(self) -> &'static str {
        match self {
            FileKind::Audio => "audio",
            FileKind::Image => "image",
            FileKind::Video => "video",
            FileKind::Stored => "stored",
        }
    }
}

/// How the items at a path are files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Items {
    /// A list of items, each one file (a track, a stem, a cover's URL).
    Each,
    /// One object, one file.
    One,
    /// One object whose every field named `…Url` (but these) is a file named by the field
    /// (`vocalUrl`: `vocal`): the stems, whose set grows with the service.
    UrlFields(&'static [&'static str]),
}

/// What names a file (its id, its title).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Name {
    /// This field of the item.
    Field(&'static str),
    /// The task's id; `-N` after it for the Nth item of a list.
    Task,
    /// These words; ` N` after them for the Nth item of a list.
    Words(&'static str),
}

/// Files of a record: the items found at `at`.
#[derive(Clone, Copy, Debug)]
pub struct Files {
    /// Field names from the record to the items (`["tracks"]`, `["response", "images"]`).
    pub at: &'static [&'static str],
    pub items: Items,
    pub kind: FileKind,
    /// The item's fields that hold its URL, the first non-empty one winning; none: the item is
    /// the URL itself.
    pub url: &'static [&'static str],
    pub id: Name,
    pub title: Name,
    /// The item's fields of its length in seconds, style tags, size in bytes and MIME type.
    pub duration: Option<&'static str>,
    pub tags: Option<&'static str>,
    pub size: Option<&'static str>,
    pub mime_type: Option<&'static str>,
}

/// Texts of a record worth reading as text.
#[derive(Clone, Copy, Debug)]
pub enum Texts {
    /// Each item of the list at `at` is a text (its `text`, under its `title` when it has one).
    Each {
        at: &'static [&'static str],
        text: &'static str,
        title: &'static str,
    },
    /// The list at `at` holds words (`word`, each with the line break after it), read as one text.
    Words {
        at: &'static [&'static str],
        word: &'static str,
    },
}

/// What a record holds: the files of the first group that finds any, and its texts.
#[derive(Clone, Copy, Debug)]
pub struct Media {
    pub files: &'static [&'static [Files]],
    pub texts: &'static [Texts],
}

const NONE: Media = Media {
    files: &[],
    texts: &[],
};

/// A file with only what every one has: fill in the rest with `..`.
const FILE: Files = Files {
    at: &[],
    items: Items::One,
    kind: FileKind::Audio,
    url: &[],
    id: Name::Task,
    title: Name::Task,
    duration: None,
    tags: None,
    size: None,
    mime_type: None,
};

/// What the records of a task family (its status query's answers and waiters') hold.
pub const fn of_family(family: TaskFamily) -> Media {
    match family {
        TaskFamily::Music => Media {
            files: &[&[Files {
                at: &["tracks"],
                items: Items::Each,
                url: &["audioUrl", "streamAudioUrl"],
                id: Name::Field("id"),
                title: Name::Field("title"),
                duration: Some("duration"),
                tags: Some("tags"),
                ..FILE
            }]],
            texts: &[],
        },
        TaskFamily::Recovery => Media {
            files: &[&[Files {
                at: &["tracks"],
                items: Items::Each,
                url: &["audio_url"],
                id: Name::Field("id"),
                title: Name::Field("title"),
                ..FILE
            }]],
            texts: &[],
        },
        TaskFamily::Wav => Media {
            files: &[&[Files {
                at: &["response"],
                url: &["audioWavUrl"],
                title: Name::Words("wav"),
                ..FILE
            }]],
            texts: &[],
        },
        TaskFamily::Video => Media {
            files: &[&[Files {
                at: &["response"],
                kind: FileKind::Video,
                url: &["videoUrl"],
                title: Name::Words("video"),
                ..FILE
            }]],
            texts: &[],
        },
        TaskFamily::Cover => Media {
            files: &[&[Files {
                at: &["response", "images"],
                items: Items::Each,
                kind: FileKind::Image,
                title: Name::Words("cover"),
                ..FILE
            }]],
            texts: &[],
        },
        // Every separated track with its id when the service lists them, else the stems' URLs.
        TaskFamily::VocalSeparation => Media {
            files: &[
                &[Files {
                    at: &["response", "originData"],
                    items: Items::Each,
                    url: &["audio_url"],
                    id: Name::Field("id"),
                    title: Name::Field("stem_type_group_name"),
                    duration: Some("duration"),
                    ..FILE
                }],
                &[Files {
                    at: &["response"],
                    items: Items::UrlFields(&["originUrl"]),
                    ..FILE
                }],
            ],
            texts: &[],
        },
        TaskFamily::Lyrics => Media {
            files: &[],
            texts: &[Texts::Each {
                at: &["lyrics"],
                text: "text",
                title: "title",
            }],
        },
        // Notes, a phrase to record and a voice's id: no file, and nothing to read but the record.
        TaskFamily::Midi | TaskFamily::VoiceValidation | TaskFamily::Voice => NONE,
    }
}

/// What the answer of an operation that starts no task and queries none holds (`None` for the
/// others: a create answers a task id, a status query its family's record).
pub const fn of_answer(op: Op) -> Option<Media> {
    Some(match op {
        Op::UploadFromUrl | Op::UploadStream | Op::UploadBase64 => Media {
            files: &[&[Files {
                kind: FileKind::Stored,
                url: &["downloadUrl"],
                id: Name::Field("fileId"),
                title: Name::Field("fileName"),
                size: Some("fileSize"),
                mime_type: Some("mimeType"),
                ..FILE
            }]],
            texts: &[],
        },
        Op::GetTimestampedLyrics => Media {
            files: &[],
            texts: &[Texts::Words {
                at: &["alignedWords"],
                word: "word",
            }],
        },
        Op::BoostStyle | Op::GetCredits | Op::GeneratePersona | Op::CheckVoice => NONE,
        Op::Generate
        | Op::Extend
        | Op::UploadCover
        | Op::UploadExtend
        | Op::AddInstrumental
        | Op::AddVocals
        | Op::GetTask
        | Op::GenerateCover
        | Op::GetCover
        | Op::ConvertToWav
        | Op::GetWav
        | Op::GenerateLyrics
        | Op::GetLyrics
        | Op::SeparateVocals
        | Op::GetVocalSeparation
        | Op::GenerateVideo
        | Op::GetVideo
        | Op::GenerateSounds
        | Op::ReplaceSection
        | Op::Mashup
        | Op::GenerateMidi
        | Op::GetMidi
        | Op::RecoverAudio
        | Op::GetRecovery
        | Op::ValidateVoice
        | Op::GetVoiceValidation
        | Op::RegenerateVoicePhrase
        | Op::CreateVoice
        | Op::GetVoice => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::{Record, Ty};

    /// The record a field of `record` holds (through lists and nulls), if it holds one.
    fn inner(ty: &Ty) -> Option<&'static Record> {
        match *ty {
            Ty::Ref(r) | Ty::Twin(r) => Some(r),
            Ty::List(t) | Ty::Null(t) => inner(t),
            _ => None,
        }
    }

    fn field<'a>(record: &'a Record, name: &str) -> Option<&'a crate::schema::Field> {
        record
            .fields
            .iter()
            .chain(record.extends.into_iter().flat_map(|e| e.fields))
            .find(|f| f.name == name)
    }

    /// The type at `path` in `record`, failing the test with `what` when a name is not declared.
    fn at(record: &'static Record, path: &[&str], what: &str) -> Ty {
        let (last, init) = path.split_last().expect("a path");
        let mut here = record;
        for name in init {
            let f =
                field(here, name).unwrap_or_else(|| panic!("{what}: {} has no {name}", here.name));
            here = inner(&f.ty).unwrap_or_else(|| panic!("{what}: {name} holds no record"));
        }
        field(here, last)
            .unwrap_or_else(|| panic!("{what}: {} has no {last}", here.name))
            .ty
    }

    fn check(record: &'static Record, media: Media, what: &str) {
        for files in media.files.iter().flat_map(|g| g.iter()) {
            let item = match files.items {
                // The record itself.
                _ if files.at.is_empty() => Some(record),
                Items::Each => {
                    let Ty::List(item) = (match at(record, files.at, what) {
                        Ty::Null(t) => *t,
                        t => t,
                    }) else {
                        panic!("{what}: {:?} is not a list", files.at)
                    };
                    inner(item)
                }
                Items::One | Items::UrlFields(_) => inner(&at(record, files.at, what)),
            };
            let names = files.url.iter().copied().chain(
                [files.duration, files.tags, files.size, files.mime_type]
                    .into_iter()
                    .flatten(),
            );
            let names = names.chain([files.id, files.title].into_iter().filter_map(|n| match n {
                Name::Field(f) => Some(f),
                Name::Task | Name::Words(_) => None,
            }));
            match item {
                Some(item) => {
                    for name in names {
                        assert!(
                            field(item, name).is_some(),
                            "{what}: {} has no {name}",
                            item.name
                        );
                    }
                    if let Items::UrlFields(except) = files.items {
                        let urls = item.fields.iter().filter(|f| f.name.ends_with("Url"));
                        assert!(urls.count() > except.len(), "{what}: no URL field");
                    }
                }
                // A list of URLs: nothing else to name.
                None => assert_eq!(names.count(), 0, "{what}: items are plain values"),
            }
        }
        for texts in media.texts {
            let (path, names): (&[&str], Vec<&str>) = match *texts {
                Texts::Each { at, text, title } => (at, vec![text, title]),
                Texts::Words { at, word } => (at, vec![word]),
            };
            let Ty::List(item) = at(record, path, what) else {
                panic!("{what}: {path:?} is not a list")
            };
            let item = inner(item).expect("items of a text list are records");
            for name in names {
                assert!(
                    field(item, name).is_some(),
                    "{what}: {} has no {name}",
                    item.name
                );
            }
        }
    }

    #[test]
    fn every_declared_name_is_a_field_of_the_record() {
        for family in TaskFamily::ALL {
            check(family.query().output(), of_family(family), family.as_str());
        }
        for op in Op::ALL {
            let answers_now = op.creates().is_none() && op.queries().is_none();
            match of_answer(op) {
                Some(media) => {
                    assert!(
                        answers_now,
                        "{op:?} answers a task: declare its family's media"
                    );
                    check(op.output(), media, op.endpoint().name);
                }
                None => assert!(
                    !answers_now,
                    "{op:?} answers now: say what its answer holds"
                ),
            }
        }
    }
}
