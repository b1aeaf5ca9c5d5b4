//! The body of the corrected port's `sample_f` closure: transformers' warpers, in transformers'
//! order, on candle's probabilities, each followed by a renormalisation.
//!
//! Renormalising after every step is the point: transformers' warpers work on scores, so each
//! one sees the softmax of what the previous one left (top-p measures the mass *after* top-k).

use super::closure;
use super::masks::{self, Kept};
use crate::sampling::arguments::params::Field;
use crate::sampling::arguments::pyvalue::{float_repr, rust_f64, PyValue};
use crate::sampling::SamplingError;
use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(tag = "step", content = "value", rename_all = "snake_case")]
pub enum ProbStep {
    TopK(usize),
    TopP(f64),
    MinP(f64),
    Typical(f64),
    Epsilon(f64),
    Eta(f64),
}

impl ProbStep {
    /// The warper `field = value` adds under `do_sample`, with the condition
    /// `_get_logits_processor` puts on it (`None`: no warper, and for every field that is not a
    /// truncation) and the `ValueError` its constructor raises, word for word.
    pub fn from_argument(field: Field, value: PyValue) -> Result<Option<ProbStep>, SamplingError> {
        let Some(x) = value.number() else {
            return Ok(None);
        };
        let refused = |message: String| Err(SamplingError::Refused(message));
        let in_open_unit = x > 0.0 && x < 1.0;
        // transformers adds top_p and typical_p only `if x < 1.0`: a NaN adds nothing.
        let below_one = x < 1.0;
        Ok(Some(match field {
            Field::TopK if x == 0.0 => return Ok(None),
            Field::TopK if !value.is_int() || x <= 0.0 => {
                return refused(format!(
                    "`top_k` has to be a strictly positive integer, but is {}",
                    value.repr()
                ))
            }
            Field::TopK => ProbStep::TopK(x as usize),
            Field::TopP if !below_one => return Ok(None),
            Field::TopP if x < 0.0 => {
                return refused(format!(
                    "`top_p` has to be a float > 0 and < 1, but is {}",
                    value.float_repr()
                ))
            }
            Field::TopP => ProbStep::TopP(x),
            Field::MinP if !(0.0..=1.0).contains(&x) => {
                return refused(format!(
                    "`min_p` has to be a float in the [0, 1] interval, but is {}",
                    value.repr()
                ))
            }
            Field::MinP => ProbStep::MinP(x),
            Field::TypicalP if !below_one => return Ok(None),
            Field::TypicalP if !(x > 0.0) => {
                return refused(format!(
                    "`typical_p` has to be a float > 0 and < 1, but is {}",
                    value.float_repr()
                ))
            }
            Field::TypicalP => ProbStep::Typical(x),
            Field::EpsilonCutoff if in_open_unit => ProbStep::Epsilon(x),
            Field::EtaCutoff if in_open_unit => ProbStep::Eta(x),
            _ => return Ok(None),
        }))
    }

    /// transformers' warper class for this step.
    pub fn class_name(&self) -> &'static str {
        match self {
            ProbStep::TopK(_) => "TopKLogitsWarper",
            ProbStep::TopP(_) => "TopPLogitsWarper",
            ProbStep::MinP(_) => "MinPLogitsWarper",
            ProbStep::Typical(_) => "TypicalLogitsWarper",
            ProbStep::Epsilon(_) => "EpsilonLogitsWarper",
            ProbStep::Eta(_) => "EtaLogitsWarper",
        }
    }

    /// The `generate()` argument this step comes from.
    pub fn field(&self) -> Field {
        match self {
            ProbStep::TopK(_) => Field::TopK,
            ProbStep::TopP(_) => Field::TopP,
            ProbStep::MinP(_) => Field::MinP,
            ProbStep::Typical(_) => Field::TypicalP,
            ProbStep::Epsilon(_) => Field::EpsilonCutoff,
            ProbStep::Eta(_) => Field::EtaCutoff,
        }
    }

    /// The argument as transformers prints it.
    pub fn argument(&self) -> String {
        match *self {
            ProbStep::TopK(k) => k.to_string(),
            ProbStep::TopP(x) | ProbStep::MinP(x) | ProbStep::Typical(x) | ProbStep::Epsilon(x) | ProbStep::Eta(x) => {
                float_repr(x)
            }
        }
    }

    pub(crate) fn keep(&self, probs: &[f64]) -> Kept {
        match *self {
            ProbStep::TopK(k) => masks::top_k(probs, k),
            ProbStep::TopP(p) => masks::top_p(probs, p),
            ProbStep::MinP(m) => masks::min_p(probs, m),
            ProbStep::Typical(mass) => masks::typical(probs, mass),
            ProbStep::Epsilon(e) => masks::epsilon(probs, e),
            ProbStep::Eta(e) => masks::eta(probs, e),
        }
    }

    /// The call as it reads in the closure's Rust code.
    pub fn rust_call(&self) -> String {
        match *self {
            ProbStep::TopK(k) => format!("top_k_keeping_ties(prs, {k})"),
            ProbStep::TopP(p) => format!("top_p(prs, {})", rust_f64(p)),
            ProbStep::MinP(m) => format!("min_p(prs, {})", rust_f64(m)),
            ProbStep::Typical(m) => format!("typical(prs, {})", rust_f64(m)),
            ProbStep::Epsilon(e) => format!("epsilon_cutoff(prs, {})", rust_f64(e)),
            ProbStep::Eta(e) => format!("eta_cutoff(prs, {})", rust_f64(e)),
        }
    }
}

/// Applies the steps in order to `prs` (which sums to 1), renormalising after each: the body of
/// the corrected port's `sample_f` closure, with the helpers users copy ([`closure`]).
pub fn apply_steps(steps: &[ProbStep], prs: &mut [f32]) {
    for step in steps {
        match *step {
            ProbStep::TopK(k) => closure::top_k_keeping_ties(prs, k),
            ProbStep::TopP(p) => closure::top_p(prs, p),
            ProbStep::MinP(m) => closure::min_p(prs, m),
            ProbStep::Typical(m) => closure::typical(prs, m),
            ProbStep::Epsilon(e) => closure::epsilon_cutoff(prs, e),
            ProbStep::Eta(e) => closure::eta_cutoff(prs, e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_nan_argument_adds_no_warper_where_transformers_compares_it_and_raises_where_it_validates() {
        let nan = PyValue::Float(f64::NAN);
        assert_eq!(ProbStep::from_argument(Field::TopP, nan), Ok(None));
        assert_eq!(ProbStep::from_argument(Field::TypicalP, nan), Ok(None));
        assert_eq!(ProbStep::from_argument(Field::EpsilonCutoff, nan), Ok(None));
        for field in [Field::TopK, Field::MinP] {
            assert!(
                matches!(ProbStep::from_argument(field, nan), Err(SamplingError::Refused(_))),
                "{field:?}"
            );
        }
    }

    #[test]
    fn top_p_after_top_k_measures_the_renormalised_mass() {
        // Top-2 renormalised is [0.625, 0.375]: the mass above the second token, 0.625, reaches
        // top_p = 0.6, so it goes (on the absolute mass, 0.5, it would stay).
        let mut prs = vec![0.5f32, 0.3, 0.1, 0.1];
        apply_steps(&[ProbStep::TopK(2), ProbStep::TopP(0.6)], &mut prs);
        assert_eq!(prs, vec![1.0, 0.0, 0.0, 0.0]);
    }
}
