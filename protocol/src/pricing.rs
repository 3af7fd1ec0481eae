//! What a call costs, in credits, on the emulator. The service publishes no price list ("credit
//! cost of each operation: not shown"), so `Op::price` (`endpoints.rs`) states the emulator's own:
//! the emulator charges it, and its `/openapi.json` and the README's table of operations show it.

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
    // The emulator's price list (never in the shipped wasm): `format!` may be used.
    #[allow(clippy::disallowed_macros)]
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
    use crate::Op;

    #[test]
    fn queries_and_uploads_are_free_and_only_creates_cost_more_than_one() {
        for op in Op::ALL {
            let e = op.endpoint();
            if !e.creates_task() && op.price() != Price::Free {
                assert_eq!(
                    op,
                    Op::BoostStyle,
                    "{op:?}: only the style boost costs without a task"
                );
            }
        }
        assert_eq!(Op::SeparateVocals.price().credits(Some("split_stem")), 10);
        assert_eq!(Op::SeparateVocals.price().credits(None), 5);
        assert_eq!(Op::GetTask.price().describe(), "free");
    }
}
