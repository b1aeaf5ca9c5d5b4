//! `EtaLogitsWarper`: drops tokens below `min(η, √η·e^(−H))`, never the most probable one. Only
//! an η strictly between 0 and 1 adds the warper.

use super::closure::{descending, entropy, normalised, retain};
use super::kept::{at_least, Kept};
use crate::arguments::{Field, PyValue};
use crate::SamplingError;

pub(crate) const FIELD: Field = Field::EtaCutoff;
pub(crate) const CLASS: &str = "EtaLogitsWarper";
pub(crate) const HELPER: &str = "eta_cutoff";
pub(crate) use self::eta_cutoff as apply;

pub(crate) fn from_argument(value: PyValue) -> Result<Option<f64>, SamplingError> {
    Ok(value.number().filter(|e| *e > 0.0 && *e < 1.0))
}

pub(crate) fn keep(probs: &[f64], e: f64) -> Kept {
    let cut = e.min(e.sqrt() * (-entropy(probs)).exp());
    at_least(probs, cut, Some(descending(probs)[0]))
}

// copy:begin
/// `EtaLogitsWarper`: drops tokens below min(η, √η·e^(−entropy)), never the most probable one.
pub fn eta_cutoff(prs: &mut [f32], eta: f64) {
    let probs = normalised(prs);
    let cut = eta.min(eta.sqrt() * (-entropy(&probs)).exp());
    let top = descending(&probs)[0];
    retain(prs, |i| probs[i] >= cut || i == top);
}
// copy:end
