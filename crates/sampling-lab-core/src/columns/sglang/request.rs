//! `/generate`'s parameter layer, for the request a port sends: the HTTP contract gate
//! (`srt/entrypoints/api_contract.py` → `api/v1/api_types.py` `decode_SamplingParams`: unknown
//! keys and wrong JSON types refused with serde's words, the 400 body `{"error": text}`), then
//! `SamplingParams(**sampling_params)` (`srt/sampling/sampling_params.py:140-250`: what is not
//! sent takes the class default — temperature 1, `top_k` −1 = `TOP_K_ALL`, top_p 1, min_p 0,
//! repetition_penalty 1; `0 <= temperature < 1e-6` becomes temperature 1 with top_k 1) and its
//! `verify` (`:252-330`, the body `{"error": {"message": text}}`). `/generate` never reads the
//! model's `generation_config.json`.

use crate::arguments::params::Field;
use crate::arguments::pyvalue::PyValue;
use crate::columns::port_request::PortRequest;
use crate::SamplingError;

/// `_SAMPLING_EPS`: a temperature in [0, this) is greedy (top_k 1).
pub(super) const GREEDY_BELOW: f64 = 1e-6;
/// `TOP_K_ALL = 1 << 30`: top-k off.
pub(super) const TOP_K_ALL: i64 = 1 << 30;

/// What `SamplingParams` holds for the request after `__post_init__`.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Params {
    /// 1 when the temperature made the request greedy.
    pub(super) temperature: f64,
    /// `TOP_K_ALL`: off; 1: greedy.
    pub(super) top_k: i64,
    /// 1: off (yet compared all the same when another filter runs).
    pub(super) top_p: f64,
    /// 0: off.
    pub(super) min_p: f64,
    /// 1: off; only tokens SGLang generated are penalised.
    pub(super) repetition_penalty: f64,
    /// The temperature as sent, when it was below 1e-6 and turned into top_k 1.
    pub(super) greedy_temperature: Option<PyValue>,
}

impl Params {
    /// `is_all_greedy`: top_k ≤ 1, which a temperature below 1e-6 also sets.
    pub(super) fn is_greedy(&self) -> bool {
        self.top_k <= 1
    }

    /// Whether the sampler runs `top_k_top_p_min_p_sampling_from_probs_torch` rather than a
    /// plain multinomial of the softmax.
    pub(super) fn filters(&self) -> bool {
        self.top_p != 1.0 || self.top_k != TOP_K_ALL || self.min_p > 0.0
    }
}

/// The parameters SGLang runs the request with, or its refusal word for word.
pub(super) fn params(request: &PortRequest) -> Result<Params, SamplingError> {
    for (_, field, value) in &request.sent {
        contract(*field, *value)?;
    }
    let sent = |field: Field, default: PyValue| request.get(field).unwrap_or(default);
    let mut temperature = sent(Field::Temperature, PyValue::Float(1.0));
    let mut top_k = sent(Field::TopK, PyValue::Int(-1)).number().expect("a number") as i64;
    let top_p = sent(Field::TopP, PyValue::Float(1.0));
    let min_p = sent(Field::MinP, PyValue::Float(0.0));
    let repetition_penalty = sent(Field::RepetitionPenalty, PyValue::Float(1.0));
    let t = temperature.number().expect("a number");
    let mut greedy_temperature = None;
    if (0.0..GREEDY_BELOW).contains(&t) {
        greedy_temperature = Some(temperature);
        temperature = PyValue::Float(1.0);
        top_k = 1;
    }
    if top_k == -1 {
        top_k = TOP_K_ALL;
    }
    verify(temperature, top_p, min_p, top_k, repetition_penalty)?;
    Ok(Params {
        temperature: temperature.number().expect("a number"),
        top_k,
        top_p: top_p.number().expect("a number"),
        min_p: min_p.number().expect("a number"),
        repetition_penalty: repetition_penalty.number().expect("a number"),
        greedy_temperature,
    })
}

/// `decode_SamplingParams`: an f64 field takes any JSON number, `top_k` an integer only.
fn contract(field: Field, value: PyValue) -> Result<(), SamplingError> {
    let expected = if field == Field::TopK { "i64" } else { "f64" };
    let unexpected = match value {
        PyValue::Bool(b) => format!("boolean `{b}`"),
        PyValue::Float(_) if field == Field::TopK => format!("floating point `{}`", value.repr()),
        _ => return Ok(()),
    };
    Err(SamplingError::Refused(format!(
        "invalid type: {unexpected}, expected {expected}"
    )))
}

/// `SamplingParams.verify`, in its order, for the fields a port sends; each value printed as
/// Python prints it (an int as an int).
fn verify(
    temperature: PyValue,
    top_p: PyValue,
    min_p: PyValue,
    top_k: i64,
    penalty: PyValue,
) -> Result<(), SamplingError> {
    let refuse = |message: String| Err(SamplingError::Refused(message));
    let t = temperature.number().expect("a number");
    if !t.is_finite() || t < 0.0 {
        return refuse(format!(
            "temperature must be a non-negative finite number, got {}.",
            temperature.repr()
        ));
    }
    let p = top_p.number().expect("a number");
    if !(0.0 < p && p <= 1.0) {
        return refuse(format!("top_p must be in (0, 1], got {}.", top_p.repr()));
    }
    if !(0.0..=1.0).contains(&min_p.number().expect("a number")) {
        return refuse(format!("min_p must be in [0, 1], got {}.", min_p.repr()));
    }
    if top_k < 1 {
        return refuse(format!("top_k must be -1 (disable) or at least 1, got {top_k}."));
    }
    let r = penalty.number().expect("a number");
    if !(0.0 < r && r <= 2.0) {
        return refuse(format!(
            "repetition_penalty must be in (0, 2] (1.0 = no penalty), got {}.",
            penalty.repr()
        ));
    }
    Ok(())
}

/// SGLang's refusal of a temperature alone (empty when it accepts it): the "temperature zero"
/// table's row.
pub(super) fn refusal_of_temperature(temperature: PyValue) -> String {
    let t = temperature.number().unwrap_or(f64::NAN);
    if !t.is_finite() || t < 0.0 {
        verify(
            temperature,
            PyValue::Float(1.0),
            PyValue::Float(0.0),
            1,
            PyValue::Float(1.0),
        )
        .err()
        .map_or_else(String::new, |e| e.to_string())
    } else {
        String::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::columns::port_request::SAME_NAMES;
    use crate::GenerateArgs;

    fn params_of(kwargs: &str) -> Result<Params, SamplingError> {
        params(&PortRequest::new(
            &GenerateArgs::from_json_str(kwargs).unwrap(),
            &SAME_NAMES,
        ))
    }

    #[test]
    fn a_temperature_below_a_millionth_is_top_k_one() {
        let p = params_of(r#"{"temperature": 5e-7, "top_k": 40}"#).unwrap();
        assert!(p.is_greedy());
        assert_eq!(p.temperature, 1.0);
    }

    #[test]
    fn top_k_zero_is_refused_and_minus_one_is_every_token() {
        assert_eq!(
            params_of(r#"{"top_k": 0}"#).unwrap_err().to_string(),
            "top_k must be -1 (disable) or at least 1, got 0."
        );
        assert_eq!(params_of(r#"{"top_k": -1}"#).unwrap().top_k, TOP_K_ALL);
    }

    #[test]
    fn a_float_top_k_is_refused_by_the_contract_in_serde_s_words() {
        assert_eq!(
            params_of(r#"{"top_k": 40.0}"#).unwrap_err().to_string(),
            "invalid type: floating point `40.0`, expected i64"
        );
    }

    #[test]
    fn refusals_print_values_as_python_does() {
        assert_eq!(
            params_of(r#"{"temperature": -1}"#).unwrap_err().to_string(),
            "temperature must be a non-negative finite number, got -1."
        );
        assert_eq!(
            params_of(r#"{"repetition_penalty": 2.5}"#).unwrap_err().to_string(),
            "repetition_penalty must be in (0, 2] (1.0 = no penalty), got 2.5."
        );
    }
}
