//! One `Track` shape whatever casing the service used: callbacks send snake_case, queries camelCase.

use std::borrow::Cow;

/// `audio_url` → `audioUrl`; keys without underscores come back borrowed and unchanged.
pub fn camel_key(key: &str) -> Cow<'_, str> {
    if !crate::text::has_any(key, b"_") {
        return Cow::Borrowed(key);
    }
    let mut out = String::with_capacity(key.len());
    let mut upper = false;
    for c in key.chars() {
        if c == '_' {
            upper = !out.is_empty();
        } else if upper {
            out.push(c.to_ascii_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Fields of a record or a track holding a time value, normalized with [`crate::time`]; one text,
/// comma-separated, so that the client hands the list to JavaScript as it is.
pub const TIME_KEYS: &str = "createTime,completeTime,uploadTime,expiresAt,uploadedAt";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snake_becomes_camel() {
        assert_eq!(camel_key("audio_url"), "audioUrl");
        assert_eq!(camel_key("source_stream_audio_url"), "sourceStreamAudioUrl");
        assert_eq!(camel_key("createTime"), "createTime");
        assert_eq!(camel_key("id"), "id");
        assert_eq!(camel_key("_private"), "private");
    }
}
