//! transformers' truncation rules as masks over normalised probabilities.
//!
//! The hf pipeline evaluates them on softmax(scores); the corrected candle port's closure
//! (`closure.rs`) applies the same rules to candle's probabilities, and the parity tests hold the
//! two together. Each returns `true` for tokens that stay, plus notes for decisions within float
//! noise of a threshold.

/// Relative distance to a threshold below which torch's f32 arithmetic may decide otherwise.
pub const NEAR_THRESHOLD: f64 = 1e-5;

/// What a rule keeps, and the decisions it took within float noise.
pub struct Kept {
    pub mask: Vec<bool>,
    pub notes: Vec<String>,
}

impl Kept {
    fn new(mask: Vec<bool>) -> Self {
        Kept {
            mask,
            notes: Vec::new(),
        }
    }
}

/// Most probable first, ties by id: the order both sides walk for mass cuts. Tokens an earlier
/// warper removed (probability 0, most of the vocabulary after a top-k) come last in id order
/// without being sorted.
pub fn descending(values: &[f64]) -> Vec<usize> {
    let (mut order, zeros): (Vec<usize>, Vec<usize>) = (0..values.len()).partition(|&i| values[i] > 0.0);
    order.sort_unstable_by(|&a, &b| values[b].total_cmp(&values[a]).then(a.cmp(&b)));
    order.extend(zeros);
    order
}

fn top_index(values: &[f64]) -> usize {
    descending(values)[0]
}

/// `TopKLogitsWarper`: every value ≥ the k-th largest stays, so ties with the k-th stay too.
pub fn top_k(values: &[f64], k: usize) -> Kept {
    let k = k.max(1).min(values.len());
    let mut scratch = values.to_vec();
    let (_, &mut kth, _) = scratch.select_nth_unstable_by(k - 1, |a, b| b.total_cmp(a));
    Kept::new(values.iter().map(|v| *v >= kth).collect())
}

/// `TopPLogitsWarper`: a token stays iff the mass ranked above it is < p; the top one always
/// stays (so p = 0 keeps one token). Tied tokens split by the cut are reported: torch's unstable
/// sort, not the values, decides which of them survive.
pub fn top_p(probs: &[f64], p: f64) -> Kept {
    let order = descending(probs);
    let mut mask = vec![false; probs.len()];
    let mut notes = Vec::new();
    let mut above = 0.0;
    for (rank, &i) in order.iter().enumerate() {
        if probs[i] > 0.0 && rank > 0 && (above - p).abs() <= NEAR_THRESHOLD * p.max(1e-3) {
            notes.push(format!(
                "token {i}: the mass above it, {above:.9}, is within float noise of top_p = {p}"
            ));
        }
        mask[i] = rank == 0 || above < p;
        above += probs[i];
    }
    if let Some(note) = tie_split(probs, &mask) {
        notes.push(note);
    }
    Kept { mask, notes }
}

/// `MinPLogitsWarper`: drops tokens below `min_p` × the top probability.
pub fn min_p(probs: &[f64], m: f64) -> Kept {
    let top = probs.iter().cloned().fold(0.0, f64::max);
    below(probs, m * top, None)
}

/// `EpsilonLogitsWarper`: drops tokens below ε, never the top one.
pub fn epsilon(probs: &[f64], e: f64) -> Kept {
    below(probs, e, Some(top_index(probs)))
}

/// `EtaLogitsWarper`: drops tokens below min(ε, √ε·e^(−H)), never the top one.
pub fn eta(probs: &[f64], e: f64) -> Kept {
    let eta = e.min(e.sqrt() * (-entropy(probs)).exp());
    below(probs, eta, Some(top_index(probs)))
}

/// `TypicalLogitsWarper`: tokens ranked by |−log p − H|, kept until their mass reaches `mass`.
pub fn typical(probs: &[f64], mass: f64) -> Kept {
    let ent = entropy(probs);
    let shifted: Vec<f64> = probs.iter().map(|p| (-p.ln() - ent).abs()).collect();
    let mut order: Vec<usize> = (0..probs.len()).collect();
    order.sort_unstable_by(|&a, &b| shifted[a].total_cmp(&shifted[b]).then(a.cmp(&b)));
    let mut notes = Vec::new();
    let mut cum = 0.0;
    let mut last = 0;
    for (pos, &i) in order.iter().enumerate() {
        cum += probs[i];
        if probs[i] > 0.0 && (cum - mass).abs() <= NEAR_THRESHOLD {
            notes.push(format!(
                "token {i}: cumulative mass {cum:.9} is within float noise of typical_p = {mass}"
            ));
        }
        if cum < mass {
            last = pos + 1;
        }
    }
    let cutoff = shifted[order[last.min(probs.len() - 1)]];
    let mut mask: Vec<bool> = shifted.iter().map(|s| *s <= cutoff).collect();
    mask[order[0]] = true;
    Kept { mask, notes }
}

fn below(probs: &[f64], threshold: f64, spared: Option<usize>) -> Kept {
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
fn tie_split(probs: &[f64], mask: &[bool]) -> Option<String> {
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

/// Entropy in nats; zero-probability tokens contribute nothing (torch's nansum / Categorical).
pub fn entropy(probs: &[f64]) -> f64 {
    -probs.iter().filter(|p| **p > 0.0).map(|p| p * p.ln()).sum::<f64>()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn top_k_keeps_every_token_tied_with_the_kth() {
        let kept = top_k(&[3.0, 2.0, 2.0, 1.0], 2);
        assert_eq!(kept.mask, vec![true, true, true, false]);
    }

    #[test]
    fn top_p_zero_keeps_only_the_top_token() {
        let kept = top_p(&[0.2, 0.5, 0.3], 0.0);
        assert_eq!(kept.mask, vec![false, true, false]);
    }

    #[test]
    fn top_p_keeps_the_token_that_crosses_p() {
        let kept = top_p(&[0.5, 0.3, 0.2], 0.6);
        assert_eq!(kept.mask, vec![true, true, false]);
    }

    #[test]
    fn a_top_p_cut_through_ties_is_reported() {
        let kept = top_p(&[0.4, 0.3, 0.3], 0.5);
        assert_eq!(kept.notes.len(), 1, "{:?}", kept.notes);
    }
}
