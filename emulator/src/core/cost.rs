//! Credits an operation costs (documented in `--help` and /openapi.json).

use serde_json::{Map, Value};
use tunesmith_protocol::Op;

pub fn cost(op: Op, param: &Map<String, Value>) -> i64 {
    match op {
        Op::Generate
        | Op::Extend
        | Op::UploadCover
        | Op::UploadExtend
        | Op::AddInstrumental
        | Op::AddVocals
        | Op::Mashup
        | Op::CreateVoice => 10,
        Op::SeparateVocals
            if matches!(
                param.get("type").and_then(Value::as_str),
                Some("split_stem" | "split_stem_advanced")
            ) =>
        {
            10
        }
        Op::GenerateSounds => 6,
        Op::SeparateVocals | Op::GenerateVideo | Op::ReplaceSection | Op::GenerateMidi => 5,
        Op::GenerateCover | Op::ConvertToWav | Op::ValidateVoice => 2,
        Op::GenerateLyrics | Op::BoostStyle | Op::RecoverAudio | Op::RegenerateVoicePhrase => 1,
        _ => 0,
    }
}
