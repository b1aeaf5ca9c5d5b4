//! `TopPLogitsWarper`: a token stays while the mass ranked above it is below p, so the token
//! that crosses p stays and `top_p=0` keeps the top one. After top-k it measures the mass top-k
//! left, renormalised. `top_p ≥ 1` (or NaN) adds no warper; a negative one is refused.

use super::closure::{descending, normalised, retain};
use super::kept::{tie_split, Kept, NEAR_THRESHOLD};
use crate::arguments::{Field, PyValue};
use crate::text::Message;
use crate::SamplingError;

pub(crate) const FIELD: Field = Field::TopP;
pub(crate) const CLASS: &str = "TopPLogitsWarper";
pub(crate) const HELPER: &str = "top_p";
pub(crate) use self::top_p as apply;

/// The warper `top_p = value` adds under `do_sample` (only `if top_p < 1.0`: a NaN adds none),
/// or transformers' `ValueError`.
pub(crate) fn from_argument(value: PyValue) -> Result<Option<f64>, SamplingError> {
    match value.number() {
        Some(p) if p < 0.0 => Err(SamplingError::Refused(format!(
            "`top_p` has to be a float > 0 and < 1, but is {}",
            value.float_repr()
        ))),
        Some(p) if p < 1.0 => Ok(Some(p)),
        _ => Ok(None),
    }
}

/// What stays of `probs`; tokens whose mass above lies within float noise of p, and tied tokens
/// split by the cut (torch's unstable sort, not the values, decides those), are noted.
pub(crate) fn keep(probs: &[f64], p: f64) -> Kept {
    let mut mask = vec![false; probs.len()];
    let mut notes = Vec::new();
    let mut above = 0.0;
    for (rank, &i) in descending(probs).iter().enumerate() {
        if probs[i] > 0.0 && rank > 0 && (above - p).abs() <= NEAR_THRESHOLD * p.max(1e-3) {
            notes.push(
                Message::new("ambiguity-near-top-p")
                    .verbatim("token", i.to_string())
                    .verbatim("above", format!("{above:.9}"))
                    .verbatim("p", p.to_string()),
            );
        }
        mask[i] = rank == 0 || above < p;
        above += probs[i];
    }
    notes.extend(tie_split(probs, &mask));
    Kept { mask, notes }
}

// copy:begin
/// `TopPLogitsWarper`: keeps a token while the mass ranked above it is below `top_p`.
pub fn top_p(prs: &mut [f32], top_p: f64) {
    let probs = normalised(prs);
    let mut keep = vec![false; probs.len()];
    let mut above = 0.0;
    for (rank, &i) in descending(&probs).iter().enumerate() {
        keep[i] = rank == 0 || above < top_p;
        above += probs[i];
    }
    retain(prs, |i| keep[i]);
}
// copy:end

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_keeps_only_the_top_token() {
        assert_eq!(keep(&[0.2, 0.5, 0.3], 0.0).mask, vec![false, true, false]);
    }

    #[test]
    fn the_token_that_crosses_p_stays() {
        assert_eq!(keep(&[0.5, 0.3, 0.2], 0.6).mask, vec![true, true, false]);
    }

    #[test]
    fn a_cut_through_ties_is_noted() {
        assert_eq!(keep(&[0.4, 0.3, 0.3], 0.5).notes.len(), 1);
    }
}
