//! What a rule keeps when transformers evaluates it on normalised probabilities (f64), and the
//! decisions it took within float noise of a threshold: torch's f32 arithmetic, or its unstable
//! sort among tied tokens, may take those the other way.

use crate::text::Message;

/// Relative distance to a threshold below which torch's f32 arithmetic may decide otherwise.
pub(crate) const NEAR_THRESHOLD: f64 = 1e-5;

/// What a rule keeps (`true` for tokens that stay), and the decisions it took within float noise.
pub(crate) struct Kept {
    /// One entry per token: whether it stays.
    pub mask: Vec<bool>,
    /// The decisions torch may take otherwise (the hf column's ambiguities).
    pub notes: Vec<Message>,
}

impl Kept {
    pub(crate) fn new(mask: Vec<bool>) -> Self {
        Kept {
            mask,
            notes: Vec::new(),
        }
    }
}

/// Every token at or above `threshold` stays, and `spared` (the top one, for the cutoffs that
/// never drop it); decisions within float noise of the threshold are noted.
pub(crate) fn at_least(probs: &[f64], threshold: f64, spared: Option<usize>) -> Kept {
    let mut notes = Vec::new();
    let mask = probs
        .iter()
        .enumerate()
        .map(|(i, &p)| {
            if p > 0.0 && (p - threshold).abs() <= NEAR_THRESHOLD * threshold {
                notes.push(
                    Message::new("ambiguity-near-cut")
                        .verbatim("token", i.to_string())
                        .verbatim("probability", format!("{p:.9e}"))
                        .verbatim("threshold", format!("{threshold:.9e}")),
                );
            }
            p >= threshold || Some(i) == spared
        })
        .collect();
    Kept { mask, notes }
}

/// A note if equal probabilities fall on both sides of a cut.
pub(crate) fn tie_split(probs: &[f64], mask: &[bool]) -> Option<Message> {
    let dropped_max = probs
        .iter()
        .zip(mask)
        .filter(|(p, k)| !**k && **p > 0.0)
        .map(|(p, _)| *p)
        .fold(0.0, f64::max);
    let split = dropped_max > 0.0 && probs.iter().zip(mask).any(|(p, k)| *k && *p == dropped_max);
    split.then(|| Message::new("ambiguity-tie-split").verbatim("probability", format!("{dropped_max:.9e}")))
}
