//! `MinPLogitsWarper`: drops tokens below `min_p` times the top probability. It has no default
//! (None adds no warper); transformers refuses a value outside [0, 1].

use super::closure::{normalised, retain};
use super::kept::{at_least, Kept};
use crate::arguments::{Field, PyValue};
use crate::SamplingError;

pub(crate) const FIELD: Field = Field::MinP;
pub(crate) const CLASS: &str = "MinPLogitsWarper";
pub(crate) const HELPER: &str = "min_p";
pub(crate) use self::min_p as apply;

/// The warper `min_p = value` adds under `do_sample`, or transformers' `ValueError`.
pub(crate) fn from_argument(value: PyValue) -> Result<Option<f64>, SamplingError> {
    match value.number() {
        None => Ok(None),
        Some(m) if !(0.0..=1.0).contains(&m) => Err(SamplingError::Refused(format!(
            "`min_p` has to be a float in the [0, 1] interval, but is {}",
            value.repr()
        ))),
        Some(m) => Ok(Some(m)),
    }
}

pub(crate) fn keep(probs: &[f64], m: f64) -> Kept {
    let top = probs.iter().cloned().fold(0.0, f64::max);
    at_least(probs, m * top, None)
}

// copy:begin
/// `MinPLogitsWarper`: drops tokens below `min_p` times the top probability.
pub fn min_p(prs: &mut [f32], min_p: f64) {
    let probs = normalised(prs);
    let cut = min_p * probs.iter().copied().fold(0.0, f64::max);
    retain(prs, |i| probs[i] >= cut);
}
// copy:end
