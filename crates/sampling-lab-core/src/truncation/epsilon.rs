//! `EpsilonLogitsWarper`: drops tokens below ε, never the most probable one. Only an ε strictly
//! between 0 and 1 adds the warper.

use super::closure::{descending, normalised, retain};
use super::kept::{at_least, Kept};
use crate::arguments::{Field, PyValue};
use crate::SamplingError;

pub(crate) const FIELD: Field = Field::EpsilonCutoff;
pub(crate) const CLASS: &str = "EpsilonLogitsWarper";
pub(crate) const HELPER: &str = "epsilon_cutoff";
pub(crate) use self::epsilon_cutoff as apply;

pub(crate) fn from_argument(value: PyValue) -> Result<Option<f64>, SamplingError> {
    Ok(value.number().filter(|e| *e > 0.0 && *e < 1.0))
}

pub(crate) fn keep(probs: &[f64], e: f64) -> Kept {
    at_least(probs, e, Some(descending(probs)[0]))
}

// copy:begin
/// `EpsilonLogitsWarper`: drops tokens below `epsilon`, never the most probable one.
pub fn epsilon_cutoff(prs: &mut [f32], epsilon: f64) {
    let probs = normalised(prs);
    let top = descending(&probs)[0];
    retain(prs, |i| probs[i] >= epsilon || i == top);
}
// copy:end
