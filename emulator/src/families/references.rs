//! generate's references (`imageUrls`, `videoUrls`, `audioUrls`, non-custom mode, V6): what each
//! list takes, judged by a file's first bytes, its size and (where its header tells) its length,
//! as the service documents them. Fetching them is the handler's business.

use tunesmith_protocol::upload::{is_audio, sniff_mime};
use tunesmith_protocol::{RuleKind, ValidationError};

const MB: u64 = 1024 * 1024;

/// Above this size a file is not read whole to find its length (a WAV's is in its first bytes).
pub const MAX_READ_WHOLE: u64 = 100 * MB;

/// The kind of file a reference list takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reference {
    Image,
    Video,
    Audio,
}

/// The lists, in the order they are checked.
pub const FIELDS: [(&str, Reference); 3] = [
    ("imageUrls", Reference::Image),
    ("videoUrls", Reference::Video),
    ("audioUrls", Reference::Audio),
];

impl Reference {
    /// The largest file the list takes: 10 MB an image, 100 MB a video, 500 MB an audio.
    pub const fn max_bytes(self) -> u64 {
        match self {
            Reference::Image => 10 * MB,
            Reference::Video => 100 * MB,
            Reference::Audio => 500 * MB,
        }
    }

    /// The shortest and longest file the list takes, in seconds.
    pub const fn seconds(self) -> (Option<f64>, Option<f64>) {
        match self {
            Reference::Image => (None, None),
            Reference::Video => (None, Some(241.0)),
            Reference::Audio => (Some(6.0), Some(30.0 * 60.0)),
        }
    }

    pub const fn what(self) -> &'static str {
        match self {
            Reference::Image => "an image (jpeg, png, webp or bmp)",
            Reference::Video => "a video (mp4, mov or webm)",
            Reference::Audio => "audio (mp3, wav, m4a, flac, ogg and the like)",
        }
    }

    /// Whether a file starting with `head` is of the kind the list takes.
    pub fn accepts(self, head: &[u8]) -> bool {
        match self {
            Reference::Image => {
                matches!(sniff_mime(head), "image/jpeg" | "image/png" | "image/webp")
                    || is_bmp(head)
            }
            Reference::Video => is_iso_media(head) || is_webm(head),
            Reference::Audio => is_audio(head),
        }
    }
}

/// "BM", then the file size and two reserved zero words.
fn is_bmp(head: &[u8]) -> bool {
    head.starts_with(b"BM") && head.get(6..10) == Some(&[0, 0, 0, 0])
}

/// MP4 and QuickTime (`.mov`): an `ftyp` box first, or (older QuickTime) one of its top boxes.
fn is_iso_media(head: &[u8]) -> bool {
    matches!(
        head.get(4..8),
        Some(b"ftyp" | b"moov" | b"mdat" | b"wide" | b"free")
    )
}

/// An EBML file whose document type is `webm` (not any Matroska file).
fn is_webm(head: &[u8]) -> bool {
    head.starts_with(b"\x1a\x45\xdf\xa3") && head.windows(4).any(|w| w == b"webm")
}

/// Whether the length of a file starting with `head` is read from the whole file (MP4, MOV).
pub fn needs_whole(head: &[u8]) -> bool {
    is_iso_media(head)
}

/// How long a file lasts when its header says so: a WAV from its first bytes and its size, an
/// MP4 or MOV from its `mvhd` box (in `whole`, when read). `None` for the rest, which get the
/// benefit of the doubt.
pub fn seconds_of(head: &[u8], size: u64, whole: Option<&[u8]>) -> Option<f64> {
    if head.starts_with(b"RIFF") && head.get(8..12) == Some(b"WAVE") {
        return wav_seconds(head, size);
    }
    mp4_seconds(whole?)
}

fn le32(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

fn be32(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

fn be64(b: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_be_bytes(b.get(at..at + 8)?.try_into().ok()?))
}

/// A WAV's length from its chunks (within `head`): the data's bytes (as declared, at most what
/// the file holds) over the byte rate of its `fmt ` chunk.
fn wav_seconds(head: &[u8], size: u64) -> Option<f64> {
    let (mut at, mut rate) = (12usize, None);
    while at + 8 <= head.len() {
        let id = head.get(at..at + 4)?;
        let len = le32(head, at + 4)?;
        let data = at + 8;
        if id == b"fmt " {
            rate = le32(head, data + 8).filter(|r| *r > 0);
        } else if id == b"data" {
            let held = size.saturating_sub(data as u64);
            let declared = if len == 0 || len == u32::MAX {
                held
            } else {
                u64::from(len).min(held)
            };
            return Some(declared as f64 / f64::from(rate?));
        }
        at = data
            .checked_add(len as usize)?
            .checked_add(len as usize & 1)?;
    }
    None
}

/// The boxes of `bytes`: (type, payload).
fn boxes(bytes: &[u8]) -> impl Iterator<Item = (&[u8], &[u8])> {
    let mut at = 0usize;
    std::iter::from_fn(move || {
        let size = be32(bytes, at)? as usize;
        let kind = bytes.get(at + 4..at + 8)?;
        let (header, total) = match size {
            0 => (8, bytes.len() - at),
            1 => (16, usize::try_from(be64(bytes, at + 8)?).ok()?),
            n => (8, n),
        };
        let payload = bytes.get(at + header..at.checked_add(total)?)?;
        at += total.max(header);
        Some((kind, payload))
    })
}

/// An MP4's or MOV's length: duration over time scale of the movie header (`moov`/`mvhd`).
fn mp4_seconds(bytes: &[u8]) -> Option<f64> {
    let (_, moov) = boxes(bytes).find(|(k, _)| *k == b"moov")?;
    let (_, mvhd) = boxes(moov).find(|(k, _)| *k == b"mvhd")?;
    let (scale, duration) = if mvhd.first() == Some(&1) {
        (be32(mvhd, 20)?, be64(mvhd, 24)?)
    } else {
        (be32(mvhd, 12)?, u64::from(be32(mvhd, 16)?))
    };
    (scale > 0).then(|| duration as f64 / f64::from(scale))
}

/// Item `n` (from 1) of list `field`, at `url`, checked: its kind by its first bytes, then its
/// length where its header tells. (Its size was held to [`Reference::max_bytes`] as it came.)
pub fn check(
    field: &str,
    kind: Reference,
    n: usize,
    head: &[u8],
    size: u64,
    whole: Option<&[u8]>,
) -> Result<(), ValidationError> {
    if !kind.accepts(head) {
        let is = match sniff_mime(head) {
            "text/plain" => "text".to_owned(),
            "application/octet-stream" => "of a kind it does not recognize".to_owned(),
            mime => mime.to_owned(),
        };
        return Err(ValidationError::new(
            field,
            RuleKind::Type,
            format!(
                "item {n} must be {}: its file is {is} (by its first bytes)",
                kind.what()
            ),
        ));
    }
    let Some(seconds) = seconds_of(head, size, whole) else {
        return Ok(());
    };
    let (min, max) = kind.seconds();
    let round = (seconds * 100.0).round() / 100.0;
    if let Some(min) = min.filter(|m| seconds < *m) {
        return Err(ValidationError::new(
            field,
            RuleKind::Range,
            format!("item {n} must last at least {min} s (got {round} s)"),
        ));
    }
    if let Some(max) = max.filter(|m| seconds > *m) {
        return Err(ValidationError::new(
            field,
            RuleKind::Range,
            format!("item {n} must last at most {max} s (got {round} s)"),
        ));
    }
    Ok(())
}

/// The refusal of item `n` of `field` larger than its kind takes.
pub fn too_large(field: &str, kind: Reference, n: usize) -> ValidationError {
    ValidationError::new(
        field,
        RuleKind::MaxSize,
        format!(
            "item {n} must be at most {} MB (its file is larger)",
            kind.max_bytes() / MB
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wav(rate: u32, data_bytes: u32) -> Vec<u8> {
        let mut w = b"RIFF\0\0\0\0WAVE".to_vec();
        w.extend_from_slice(b"LIST\x04\0\0\0abcd");
        w.extend_from_slice(b"fmt \x10\0\0\0\x01\0\x01\0");
        w.extend_from_slice(&(rate / 2).to_le_bytes());
        w.extend_from_slice(&rate.to_le_bytes());
        w.extend_from_slice(b"\x02\0\x10\0data");
        w.extend_from_slice(&data_bytes.to_le_bytes());
        w
    }

    fn mp4(scale: u32, duration: u32) -> Vec<u8> {
        let mut mvhd = vec![0u8; 12];
        mvhd.extend_from_slice(&scale.to_be_bytes());
        mvhd.extend_from_slice(&duration.to_be_bytes());
        mvhd.extend_from_slice(&[0; 80]);
        let boxed = |kind: &[u8], payload: &[u8]| {
            let mut b = ((payload.len() + 8) as u32).to_be_bytes().to_vec();
            b.extend_from_slice(kind);
            b.extend_from_slice(payload);
            b
        };
        let mut out = boxed(b"ftyp", b"isom\0\0\x02\0isom");
        out.extend(boxed(b"moov", &boxed(b"mvhd", &mvhd)));
        out
    }

    #[test]
    fn lengths_come_from_the_headers() {
        let w = wav(16_000, 16_000 * 7);
        let size = w.len() as u64 + 16_000 * 7;
        assert_eq!(seconds_of(&w, size, None), Some(7.0));
        // A truncated file lasts what it holds.
        assert_eq!(seconds_of(&w, w.len() as u64 + 16_000, None), Some(1.0));
        let m = mp4(1000, 250_500);
        assert_eq!(seconds_of(&m, m.len() as u64, Some(&m)), Some(250.5));
        assert_eq!(seconds_of(&m, m.len() as u64, None), None);
        assert_eq!(seconds_of(b"ID3\x04", 10, None), None);
    }

    #[test]
    fn kinds_come_from_the_first_bytes() {
        assert!(Reference::Image.accepts(b"\x89PNG\r\n\x1a\n...."));
        assert!(Reference::Image.accepts(b"\xFF\xD8\xFF\xE0"));
        assert!(Reference::Image.accepts(b"RIFF\0\0\0\0WEBPVP8 "));
        assert!(Reference::Image.accepts(b"BM\x36\0\x0c\0\0\0\0\0\x36\0"));
        assert!(!Reference::Image.accepts(b"GIF89a"));
        assert!(!Reference::Image.accepts(b"BMW is a car"));
        assert!(Reference::Video.accepts(&mp4(1, 1)));
        assert!(Reference::Video.accepts(b"\0\0\0\x14ftypqt  \0\0\0\0qt  "));
        assert!(Reference::Video.accepts(b"\x1a\x45\xdf\xa3\x9f\x42\x82\x84webm"));
        assert!(!Reference::Video.accepts(b"\x1a\x45\xdf\xa3\x9f\x42\x82\x88matroska"));
        assert!(!Reference::Video.accepts(b"\x89PNG\r\n\x1a\n"));
        assert!(Reference::Audio.accepts(&wav(8000, 0)));
        assert!(Reference::Audio.accepts(b"ID3\x04rest"));
        assert!(!Reference::Audio.accepts(b"plain words"));
        let e = check("audioUrls", Reference::Audio, 2, b"plain words", 11, None).unwrap_err();
        assert_eq!(e.rule, RuleKind::Type);
        assert!(
            e.message.contains("`audioUrls` item 2 must be audio"),
            "{}",
            e.message
        );
    }
}
