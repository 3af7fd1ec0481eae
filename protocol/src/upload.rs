//! Upload rules: Base64 size limit, data URLs, MIME sniffing and names, file lifetime.

/// Base64 uploads carry at most this many bytes of file; larger files must use the stream upload.
pub const MAX_BASE64_FILE_BYTES: u64 = 10 * 1024 * 1024;
/// Uploaded files are deleted this long after upload.
pub const UPLOAD_RETENTION_MS: i64 = 3 * 24 * 3600 * 1000;
/// Remote downloads of file-url-upload give up after this long.
pub const URL_DOWNLOAD_TIMEOUT_MS: u64 = 30_000;

/// Splits `data:<mime>;base64,<payload>` into its MIME type and payload; `None` for bare Base64.
pub fn split_data_url(s: &str) -> Option<(&str, &str)> {
    let rest = s.strip_prefix("data:")?;
    let (meta, payload) = crate::text::split_once(rest, b',')?;
    let mime = meta.strip_suffix(";base64")?;
    Some((mime, payload))
}

/// Bytes that a Base64 text of `len` characters (padding included, no whitespace) decodes to, at most.
pub const fn decoded_len(len: u64) -> u64 {
    len / 4 * 3 + (len % 4) * 3 / 4
}

/// The refusal of an over-large Base64 upload, for client and emulator alike.
pub fn base64_too_large(field: &str, bytes: u64) -> crate::ValidationError {
    crate::ValidationError::new(
        field,
        crate::RuleKind::MaxSize,
        crate::text!(
            "holds ",
            crate::num::int(bytes as i64),
            " bytes; Base64 uploads are limited to ",
            crate::num::int(MAX_BASE64_FILE_BYTES as i64),
            " bytes (10 MB): use the stream upload for larger files"
        ),
    )
}

/// MIME type from the first bytes of a file; `application/octet-stream` when unknown.
pub fn sniff_mime(bytes: &[u8]) -> &'static str {
    let starts = |sig: &[u8]| bytes.starts_with(sig);
    let at = |range: std::ops::Range<usize>, sig: &[u8]| bytes.get(range) == Some(sig);
    if starts(b"RIFF") && at(8..12, b"WAVE") {
        "audio/wav"
    } else if starts(b"ID3")
        || matches!(bytes, [0xFF, second, ..] if second & 0xE0 == 0xE0 && second & 0x06 != 0)
    {
        "audio/mpeg"
    } else if starts(b"OggS") {
        "audio/ogg"
    } else if starts(b"fLaC") {
        "audio/flac"
    } else if bytes.len() >= 12 && at(4..8, b"ftyp") {
        if at(8..11, b"M4A") {
            "audio/mp4"
        } else {
            "video/mp4"
        }
    } else if matches!(bytes, [0xFF, second, ..] if second & 0xF6 == 0xF0) {
        "audio/aac"
    } else if starts(b"\x1a\x45\xdf\xa3") {
        "audio/webm"
    } else if starts(b"FORM") && (at(8..12, b"AIFF") || at(8..12, b"AIFC")) {
        "audio/aiff"
    } else if starts(b"\x89PNG\r\n\x1a\n") {
        "image/png"
    } else if starts(b"\xFF\xD8\xFF") {
        "image/jpeg"
    } else if starts(b"GIF8") {
        "image/gif"
    } else if starts(b"RIFF") && at(8..12, b"WEBP") {
        "image/webp"
    } else if starts(b"%PDF") {
        "application/pdf"
    } else if !bytes.is_empty()
        && std::str::from_utf8(bytes.get(..512).unwrap_or(bytes))
            .is_ok_and(|t| !crate::text::has_any(t, b"\0"))
    {
        "text/plain"
    } else {
        "application/octet-stream"
    }
}

/// Whether a file's first bytes are those of an audio format: WAV, MP3 (with or without ID3),
/// FLAC, OGG, M4A/MP4, AAC (ADTS), WebM or AIFF.
pub fn is_audio(bytes: &[u8]) -> bool {
    let mime = sniff_mime(bytes);
    mime.starts_with("audio/") || mime == "video/mp4"
}

/// File extension (without dot) for a MIME type, for generated names.
pub fn extension_for_mime(mime: &str) -> &'static str {
    match crate::text::before_any(mime, b";").trim() {
        "audio/wav" | "audio/x-wav" | "audio/wave" => "wav",
        "audio/mpeg" | "audio/mp3" => "mp3",
        "audio/ogg" => "ogg",
        "audio/flac" => "flac",
        "audio/mp4" => "m4a",
        "audio/aac" => "aac",
        "audio/webm" => "webm",
        "audio/aiff" => "aiff",
        "video/mp4" => "mp4",
        "image/png" => "png",
        "image/jpeg" => "jpg",
        "image/gif" => "gif",
        "image/webp" => "webp",
        "application/pdf" => "pdf",
        "text/plain" => "txt",
        _ => "bin",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_urls_split_and_sizes_compute() {
        assert_eq!(
            split_data_url("data:audio/wav;base64,UklG"),
            Some(("audio/wav", "UklG"))
        );
        assert_eq!(split_data_url("UklG"), None);
        assert_eq!(decoded_len(4), 3);
        assert_eq!(decoded_len(8), 6);
        assert_eq!(decoded_len(6), 4);
    }

    #[test]
    fn sniffing_finds_common_types() {
        assert_eq!(sniff_mime(b"RIFF\0\0\0\0WAVEfmt "), "audio/wav");
        assert_eq!(sniff_mime(b"ID3\x04"), "audio/mpeg");
        assert_eq!(sniff_mime(b"\x89PNG\r\n\x1a\n...."), "image/png");
        assert_eq!(sniff_mime(b"hello"), "text/plain");
        assert_eq!(sniff_mime(&[0, 1, 2, 0xfe]), "application/octet-stream");
        assert_eq!(extension_for_mime("audio/mpeg"), "mp3");
        assert_eq!(sniff_mime(&[0xFF, 0xF1, 0x50, 0x80]), "audio/aac");
        assert_eq!(sniff_mime(b"\x1a\x45\xdf\xa3\x01"), "audio/webm");
        assert_eq!(sniff_mime(b"FORM\0\0\0\x10AIFFCOMM"), "audio/aiff");
        assert!(is_audio(b"\0\0\0\x18ftypisom\0\0"));
        assert!(is_audio(&[0xFF, 0xFB, 0x90, 0x00]));
        assert!(!is_audio(b"hello, this is text"));
        assert!(!is_audio(b"\x89PNG\r\n\x1a\n...."));
    }
}
