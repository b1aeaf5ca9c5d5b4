//! `TopKLogitsWarper`: keeps every token scoring at least the k-th highest, so every token tied
//! with the k-th stays too (`top_k=2` on `[3, 2, 2, 1]` keeps three). `top_k=0` adds no warper;
//! transformers refuses a negative or non-integer one.

use super::closure::renormalise;
use super::kept::Kept;
use crate::arguments::{Field, PyValue};
use crate::SamplingError;

pub(crate) const FIELD: Field = Field::TopK;
pub(crate) const CLASS: &str = "TopKLogitsWarper";
pub(crate) const HELPER: &str = "top_k_keeping_ties";
pub(crate) use self::top_k_keeping_ties as apply;

/// The warper `top_k = value` adds under `do_sample`, or transformers' `ValueError`.
pub(crate) fn from_argument(value: PyValue) -> Result<Option<usize>, SamplingError> {
    match value.number() {
        None => Ok(None),
        Some(0.0) => Ok(None),
        Some(k) if !value.is_int() || k <= 0.0 => Err(SamplingError::Refused(format!(
            "`top_k` has to be a strictly positive integer, but is {}",
            value.repr()
        ))),
        Some(k) => Ok(Some(k as usize)),
    }
}

/// Every value at least the k-th largest stays (transformers compares the f32 scores themselves,
/// so ties are exact equalities).
pub(crate) fn keep(values: &[f64], k: usize) -> Kept {
    let k = k.max(1).min(values.len());
    let mut scratch = values.to_vec();
    let (_, &mut kth, _) = scratch.select_nth_unstable_by(k - 1, |a, b| b.total_cmp(a));
    Kept::new(values.iter().map(|v| *v >= kth).collect())
}

// copy:begin
/// `TopKLogitsWarper`: keeps every token at least as probable as the k-th, ties included.
pub fn top_k_keeping_ties(prs: &mut [f32], k: usize) {
    // The k-th largest value in linear time: a full sort would cost more than the draw itself.
    // Normalising first would not move the cut: one division by the same total keeps the order.
    let mut ranked = prs.to_vec();
    let (_, &mut kth, _) = ranked.select_nth_unstable_by(k.clamp(1, prs.len()) - 1, |a, b| b.total_cmp(a));
    for p in prs.iter_mut() {
        if *p < kth {
            *p = 0.0;
        }
    }
    renormalise(prs);
}
// copy:end

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_token_tied_with_the_kth_stays() {
        assert_eq!(keep(&[3.0, 2.0, 2.0, 1.0], 2).mask, vec![true, true, true, false]);
    }
}
