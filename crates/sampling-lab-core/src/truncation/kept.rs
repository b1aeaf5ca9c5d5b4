//! What a rule keeps when transformers evaluates it on normalised probabilities (f64), and the
//! decisions it took within float noise of a threshold: torch's f32 arithmetic, or its unstable
//! sort among tied tokens, may take those the other way.

/// Relative distance to a threshold below which torch's f32 arithmetic may decide otherwise.
pub const NEAR_THRESHOLD: f64 = 1e-5;

/// What a rule keeps (`true` for tokens that stay), and the decisions it took within float noise.
pub struct Kept {
    /// One entry per token: whether it stays.
    pub mask: Vec<bool>,
    /// The decisions torch may take otherwise, in words (the hf column's ambiguities).
    pub notes: Vec<String>,
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
                notes.push(format!(
                    "token {i}: probability {p:.9e} is within float noise of the cut {threshold:.9e}"
                ));
            }
            p >= threshold || Some(i) == spared
        })
        .collect();
    Kept { mask, notes }
}

/// A note if equal probabilities fall on both sides of a cut.
pub(crate) fn tie_split(probs: &[f64], mask: &[bool]) -> Option<String> {
    let dropped_max = probs
        .iter()
        .zip(mask)
        .filter(|(p, k)| !**k && **p > 0.0)
        .map(|(p, _)| *p)
        .fold(0.0, f64::max);
    let split = dropped_max > 0.0 && probs.iter().zip(mask).any(|(p, k)| *k && *p == dropped_max);
    split.then(|| {
        format!(
            "tied tokens with probability {dropped_max:.9e} straddle the cut; torch's sort order decides which survive"
        )
    })
}
