//! `TypicalLogitsWarper`: tokens ranked by how far their surprise is from the entropy,
//! `|−log p − H|`, kept until their mass reaches `typical_p`; the most typical always stays.
//! `typical_p ≥ 1` (or NaN) adds no warper; transformers refuses one that is not above 0.

use super::closure::{entropy, normalised, retain};
use super::kept::{Kept, NEAR_THRESHOLD};
use crate::arguments::{Field, PyValue};
use crate::text::Message;
use crate::SamplingError;

pub(crate) const FIELD: Field = Field::TypicalP;
pub(crate) const CLASS: &str = "TypicalLogitsWarper";
pub(crate) const HELPER: &str = "typical";
pub(crate) use self::typical as apply;

/// The warper `typical_p = value` adds under `do_sample`, or transformers' `ValueError`.
pub(crate) fn from_argument(value: PyValue) -> Result<Option<f64>, SamplingError> {
    match value.number() {
        Some(x) if x <= 0.0 => Err(SamplingError::Refused(format!(
            "`typical_p` has to be a float > 0 and < 1, but is {}",
            value.float_repr()
        ))),
        Some(x) if x < 1.0 => Ok(Some(x)),
        _ => Ok(None),
    }
}

pub(crate) fn keep(probs: &[f64], mass: f64) -> Kept {
    let h = entropy(probs);
    let shifted: Vec<f64> = probs.iter().map(|p| (-p.ln() - h).abs()).collect();
    let order = typical_order(&shifted);
    let mut notes = Vec::new();
    let mut cum = 0.0;
    let mut last = 0;
    for (pos, &i) in order.iter().enumerate() {
        cum += probs[i];
        if probs[i] > 0.0 && (cum - mass).abs() <= NEAR_THRESHOLD {
            notes.push(
                Message::new("ambiguity-near-typical-p")
                    .verbatim("token", i.to_string())
                    .verbatim("cumulative", format!("{cum:.9}"))
                    .verbatim("mass", mass.to_string()),
            );
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

// copy:begin
/// Token ids by `shifted` ascending (ties by id): the most typical first.
fn typical_order(shifted: &[f64]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..shifted.len()).collect();
    order.sort_by(|&a, &b| shifted[a].total_cmp(&shifted[b]).then(a.cmp(&b)));
    order
}

/// `TypicalLogitsWarper`: tokens ranked by |−log p − entropy|, kept until their mass reaches `mass`.
pub fn typical(prs: &mut [f32], mass: f64) {
    let probs = normalised(prs);
    let h = entropy(&probs);
    let shifted: Vec<f64> = probs.iter().map(|p| (-p.ln() - h).abs()).collect();
    let order = typical_order(&shifted);
    let mut cumulative = 0.0;
    let mut last = 0;
    for (position, &i) in order.iter().enumerate() {
        cumulative += probs[i];
        if cumulative < mass {
            last = position + 1;
        }
    }
    let cutoff = shifted[order[last.min(probs.len() - 1)]];
    let first = order[0];
    retain(prs, |i| shifted[i] <= cutoff || i == first);
}
// copy:end
