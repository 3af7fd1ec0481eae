//! What each operation costs, in credits: the emulator's price list. The service publishes none
//! ("credit cost of each operation: not shown"), so these are the emulator's own, declared once:
//! the emulator charges them, and its `/openapi.json` and the README's table of operations show them.

use crate::Op;

/// The price of one call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Price {
    Free,
    Flat(i64),
    /// A vocal separation: two stems cost less than a split into instruments.
    BySeparation {
        two_stems: i64,
        instruments: i64,
    },
}

pub const fn price(op: Op) -> Price {
    match op {
        Op::Generate
        | Op::Extend
        | Op::UploadCover
        | Op::UploadExtend
        | Op::AddInstrumental
        | Op::AddVocals
        | Op::Mashup
        | Op::CreateVoice => Price::Flat(10),
        Op::SeparateVocals => Price::BySeparation {
            two_stems: 5,
            instruments: 10,
        },
        Op::GenerateSounds => Price::Flat(6),
        Op::GenerateVideo | Op::ReplaceSection | Op::GenerateMidi => Price::Flat(5),
        Op::GenerateCover | Op::ConvertToWav | Op::ValidateVoice => Price::Flat(2),
        Op::GenerateLyrics | Op::BoostStyle | Op::RecoverAudio | Op::RegenerateVoicePhrase => {
            Price::Flat(1)
        }
        _ => Price::Free,
    }
}

impl Price {
    /// Credits of one call; `separation_type` is the request's `type` (vocal separation only).
    pub fn credits(self, separation_type: Option<&str>) -> i64 {
        match self {
            Price::Free => 0,
            Price::Flat(n) => n,
            Price::BySeparation {
                two_stems,
                instruments,
            } => match separation_type {
                Some("split_stem" | "split_stem_advanced") => instruments,
                _ => two_stems,
            },
        }
    }

    /// In words, for documents.
    pub fn describe(self) -> String {
        match self {
            Price::Free => "free".to_owned(),
            Price::Flat(n) => n.to_string(),
            Price::BySeparation {
                two_stems,
                instruments,
            } => format!("{two_stems} ({instruments} with `split_stem` or `split_stem_advanced`)"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries_and_uploads_are_free_and_only_creates_cost_more_than_one() {
        for op in Op::ALL {
            let e = op.endpoint();
            if !e.creates_task && price(op) != Price::Free {
                assert_eq!(
                    op,
                    Op::BoostStyle,
                    "{op:?}: only the style boost costs without a task"
                );
            }
        }
        assert_eq!(price(Op::SeparateVocals).credits(Some("split_stem")), 10);
        assert_eq!(price(Op::SeparateVocals).credits(None), 5);
        assert_eq!(price(Op::GetTask).describe(), "free");
    }
}
