//! The sampler a port of the call builds with mlx-lm's own functions (`mlx_lm/sample_utils.py`
//! 0.32.2): `make_sampler(temp, top_p, min_p, top_k)` with what the request sends — the rest keeps
//! `make_sampler`'s defaults, temp 0.0 (greedy), top_p 0.0, min_p 0.0, top_k 0 (all off) — and
//! `make_logits_processors(repetition_penalty=…)`, as `mlx_lm.generate`'s `generate_step` runs them.
//! Nothing reads the model's `generation_config.json` but its `eos_token_id` (`utils.py` `load`).
//!
//! Neither builder checks its values: `make_repetition_penalty` raises at once for a negative
//! penalty; `apply_min_p` and `apply_top_k` raise when the sampler first runs, which greedy
//! decoding never does.

use crate::arguments::params::Field;
use crate::arguments::pyvalue::PyValue;
use crate::columns::port_request::{Names, PortRequest};
use crate::SamplingError;

/// The arguments `make_sampler` and `make_logits_processors` take, by their names.
pub(super) const NAMES: [(Field, &str); 5] = [
    (Field::Temperature, "temp"),
    (Field::TopK, "top_k"),
    (Field::TopP, "top_p"),
    (Field::MinP, "min_p"),
    (Field::RepetitionPenalty, "repetition_penalty"),
];

/// The penalty's window (`repetition_context_size`), prompt tokens included.
pub(super) const PENALTY_WINDOW: usize = 20;

/// The sampler and processors the request builds.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Params {
    /// `temp`: 0 is greedy; a negative one inverts the order.
    pub(super) temp: f64,
    /// Applied only when `0 < top_p < 1`.
    pub(super) top_p: f64,
    /// Applied only when not 0 (and checked then).
    pub(super) min_p: PyValue,
    /// Applied only when positive (and checked then).
    pub(super) top_k: PyValue,
    /// The repetition penalty processor's factor, when one is made (not None and not 0).
    pub(super) repetition_penalty: Option<f32>,
    /// The temperature was not sent: `make_sampler`'s default, greedy.
    pub(super) temp_by_default: bool,
}

impl Params {
    /// `make_sampler` returns `greedy_sampler`.
    pub(super) fn is_greedy(&self) -> bool {
        self.temp == 0.0
    }

    /// Whether `0 < top_p < 1` adds `apply_top_p`.
    pub(super) fn top_p_applies(&self) -> bool {
        0.0 < self.top_p && self.top_p < 1.0
    }

    /// Whether `min_p != 0.0` adds `apply_min_p`.
    pub(super) fn min_p_applies(&self) -> bool {
        self.min_p.number() != Some(0.0)
    }

    /// Whether `top_k > 0` adds `apply_top_k`.
    pub(super) fn top_k_applies(&self) -> bool {
        self.top_k.number().is_some_and(|k| k > 0.0)
    }

    /// What `apply_min_p` and `apply_top_k` raise on a vocabulary of `vocab`, in the chain's
    /// order, when the sampler runs.
    pub(super) fn raised(&self, vocab: usize) -> Option<SamplingError> {
        if self.is_greedy() {
            return None;
        }
        let min_p = self.min_p.number().expect("a number");
        if self.min_p_applies() && !(0.0..=1.0).contains(&min_p) {
            return Some(SamplingError::Refused(format!(
                "ValueError: `min_p` has to be a float in the [0, 1] interval, but is {}",
                self.min_p.repr()
            )));
        }
        let k = self.top_k.number().expect("a number");
        let integer = matches!(self.top_k, PyValue::Int(_) | PyValue::Bool(_));
        if self.top_k_applies() && !(integer && k < vocab as f64) {
            return Some(SamplingError::Refused(format!(
                "ValueError: `top_k` has to be an integer in the (0, {vocab}) interval, but is {}.",
                self.top_k.repr()
            )));
        }
        None
    }
}

/// The sampler the request builds, or what building it raises.
pub(super) fn params(request: &PortRequest) -> Result<Params, SamplingError> {
    let sent = |field: Field, default: PyValue| request.get(field).unwrap_or(default);
    let penalty = request
        .get(Field::RepetitionPenalty)
        .filter(|r| r.number() != Some(0.0));
    if let Some(r) = penalty {
        if r.number().expect("a number") < 0.0 {
            return Err(SamplingError::Refused(format!(
                "ValueError: penalty must be a non-negative float, got {}",
                r.repr()
            )));
        }
    }
    Ok(Params {
        temp: sent(Field::Temperature, PyValue::Float(0.0))
            .number()
            .expect("a number"),
        top_p: sent(Field::TopP, PyValue::Float(0.0)).number().expect("a number"),
        min_p: sent(Field::MinP, PyValue::Float(0.0)),
        top_k: sent(Field::TopK, PyValue::Int(0)),
        repetition_penalty: penalty.map(|r| r.number().expect("a number") as f32),
        temp_by_default: request.get(Field::Temperature).is_none(),
    })
}

/// mlx-lm's argument names, for the request.
pub(super) fn names() -> &'static Names {
    &NAMES
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::GenerateArgs;

    fn params_of(kwargs: &str) -> Result<Params, SamplingError> {
        params(&PortRequest::new(
            &GenerateArgs::from_json_str(kwargs).unwrap(),
            names(),
        ))
    }

    #[test]
    fn nothing_sent_is_greedy_and_checks_nothing() {
        let p = params_of(r#"{"do_sample": true, "top_k": 100000, "min_p": 1.5}"#).unwrap();
        assert!(p.is_greedy() && p.temp_by_default);
        assert_eq!(p.raised(49152), None);
    }

    #[test]
    fn a_sampling_request_raises_where_its_filters_check() {
        let p = params_of(r#"{"temperature": 0.7, "top_k": 100000}"#).unwrap();
        assert_eq!(
            p.raised(49152).unwrap().to_string(),
            "ValueError: `top_k` has to be an integer in the (0, 49152) interval, but is 100000."
        );
        let p = params_of(r#"{"temperature": 0.7, "min_p": 1.5, "top_k": 0.5}"#).unwrap();
        assert!(p
            .raised(10)
            .unwrap()
            .to_string()
            .starts_with("ValueError: `min_p` has to be"));
    }

    #[test]
    fn a_negative_penalty_raises_at_once_and_zero_makes_no_processor() {
        assert_eq!(
            params_of(r#"{"repetition_penalty": -1.0}"#).unwrap_err().to_string(),
            "ValueError: penalty must be a non-negative float, got -1.0"
        );
        assert_eq!(
            params_of(r#"{"repetition_penalty": 0.0}"#).unwrap().repetition_penalty,
            None
        );
    }
}
