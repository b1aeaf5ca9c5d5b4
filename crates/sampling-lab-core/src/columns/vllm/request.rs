//! The server's parameter layer, for the request a port sends: the OpenAI request model
//! (`entrypoints/openai/chat_completion/protocol.py`: `temperature: float | None`, `top_k: int |
//! None`, … validated by pydantic), the priority rule of `to_sampling_params` (`:748-761`: the
//! request's value, else the model's `generation_config.json` under `--generation-config auto`,
//! else `_DEFAULT_SAMPLING_PARAMS`), then `SamplingParams.__post_init__` (`sampling_params.py:559-620`:
//! a temperature in (0, 0.01) raised to 0.01; below 1e-5, i.e. 0, greedy) and its `_verify_args`
//! (`:634-690`), whose `VLLMValidationError` text the server returns as `error.message`, with the
//! ` (parameter=…, value=…)` its `__str__` adds where the check names them (`vllm/exceptions.py`).

use crate::arguments::params::{Field, GenerationConfig};
use crate::arguments::pyvalue::{float_repr, PyValue};
use crate::columns::port_request::PortRequest;
use crate::SamplingError;

/// `_SAMPLING_EPS`: below this temperature `SamplingParams` is greedy.
pub(super) const GREEDY_BELOW: f64 = 1e-5;
/// `_MAX_TEMP`: a temperature in (0, 0.01) is raised to it, with a warning.
pub(super) const FLOOR: f64 = 1e-2;

/// What `SamplingParams` holds for the request.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Params {
    /// After the 0.01 floor; 0: greedy.
    pub(super) temperature: f64,
    /// 0 and −1 (and any k ≥ V): off.
    pub(super) top_k: i64,
    /// 1: off.
    pub(super) top_p: f64,
    /// 0: off.
    pub(super) min_p: f64,
    /// 1: off; over the prompt and the output.
    pub(super) repetition_penalty: f64,
    /// The temperature as sent, when the floor raised it.
    pub(super) raised: Option<f64>,
    /// Fields the model's `generation_config.json` filled, `name=value`.
    pub(super) from_generation_config: Vec<String>,
}

impl Params {
    /// Greedy: `sampling_type` GREEDY, the argmax of the penalised logits.
    pub(super) fn is_greedy(&self) -> bool {
        self.temperature < GREEDY_BELOW
    }
}

/// `ChatCompletionRequest._DEFAULT_SAMPLING_PARAMS`: what an omitted field takes when the model's
/// file has nothing for it.
const OPENAI_DEFAULTS: [(Field, PyValue); 5] = [
    (Field::RepetitionPenalty, PyValue::Float(1.0)),
    (Field::Temperature, PyValue::Float(1.0)),
    (Field::TopP, PyValue::Float(1.0)),
    (Field::TopK, PyValue::Int(0)),
    (Field::MinP, PyValue::Float(0.0)),
];

/// The parameters vLLM runs the request with, or its refusal word for word.
pub(super) fn params(request: &PortRequest, config: Option<&GenerationConfig>) -> Result<Params, SamplingError> {
    let mut from_generation_config = Vec::new();
    let mut value = |field: Field| -> Result<f64, SamplingError> {
        if let Some(v) = request.get(field) {
            return pydantic(field, v);
        }
        if let Some(v) = config.and_then(|c| c.value(field)).filter(|v| !v.is_none()) {
            from_generation_config.push(format!("{}={}", field.name(), v.repr()));
            return Ok(v.number().expect("not None"));
        }
        let default = OPENAI_DEFAULTS.iter().find(|(f, _)| *f == field).expect("a default").1;
        Ok(default.number().expect("a number"))
    };
    let repetition_penalty = value(Field::RepetitionPenalty)?;
    let sent_temperature = value(Field::Temperature)?;
    let top_p = value(Field::TopP)?;
    let top_k = value(Field::TopK)?;
    let min_p = value(Field::MinP)?;
    let raised = (0.0 < sent_temperature && sent_temperature < FLOOR).then_some(sent_temperature);
    let temperature = if raised.is_some() { FLOOR } else { sent_temperature };
    verify(repetition_penalty, temperature, top_p, top_k, min_p)?;
    let greedy = temperature < GREEDY_BELOW;
    Ok(Params {
        temperature,
        // Greedy sampling resets the filters (`__post_init__`).
        top_k: if greedy { 0 } else { top_k as i64 },
        top_p: if greedy { 1.0 } else { top_p },
        min_p: if greedy { 0.0 } else { min_p },
        repetition_penalty,
        raised,
        from_generation_config,
    })
}

/// The server's refusal of a temperature alone (empty when it accepts it): the "temperature
/// zero" table's row.
pub(super) fn refusal_of_temperature(t: f64) -> String {
    verify(1.0, t, 1.0, 0.0, 0.0)
        .err()
        .map_or_else(String::new, |e| e.to_string())
}

/// What pydantic makes of a sent value: an int for `top_k` (a float without a fraction becomes
/// one; with a fraction the request is refused), a float for the others.
fn pydantic(field: Field, value: PyValue) -> Result<f64, SamplingError> {
    let x = value.number().expect("None is never sent");
    if field == Field::TopK && x.fract() != 0.0 {
        // FastAPI's RequestValidationError, as `handlers/validation.py` formats it.
        return Err(SamplingError::Refused(format!(
            "1 validation error:\n  {{'type': 'int_from_float', 'loc': 'body.top_k', 'msg': 'Input should be a valid \
             integer, got a number with a fractional part', 'input': '{}'}}",
            value.repr()
        )));
    }
    Ok(x)
}

/// `_verify_args`, in its order, for the fields a port sends.
fn verify(repetition_penalty: f64, temperature: f64, top_p: f64, top_k: f64, min_p: f64) -> Result<(), SamplingError> {
    let refuse = |message: String| Err(SamplingError::Refused(message));
    let with = |message: String, parameter: &str, value: f64| {
        Err(SamplingError::Refused(format!(
            "{message} (parameter={parameter}, value={})",
            float_repr(value)
        )))
    };
    let r = float_repr(repetition_penalty);
    if !repetition_penalty.is_finite() {
        return refuse(format!("repetition_penalty must be a finite number, got {r}."));
    }
    if repetition_penalty <= 0.0 {
        return refuse(format!("repetition_penalty must be greater than zero, got {r}."));
    }
    let t = float_repr(temperature);
    if !temperature.is_finite() {
        return with(
            format!("temperature must be a finite number, got {t}."),
            "temperature",
            temperature,
        );
    }
    if temperature < 0.0 {
        return with(
            format!("temperature must be non-negative, got {t}."),
            "temperature",
            temperature,
        );
    }
    if temperature > 2.0 {
        return with(
            format!("temperature must be in [0, 2], got {t}."),
            "temperature",
            temperature,
        );
    }
    if !(0.0 < top_p && top_p <= 1.0) {
        return with(
            format!("top_p must be in (0, 1], got {}.", float_repr(top_p)),
            "top_p",
            top_p,
        );
    }
    if top_k < -1.0 {
        return refuse(format!(
            "top_k must be 0 (disable), or at least 1, got {}.",
            top_k as i64
        ));
    }
    if !(0.0..=1.0).contains(&min_p) {
        return refuse(format!("min_p must be in [0, 1], got {}.", float_repr(min_p)));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::columns::port_request::SAME_NAMES;
    use crate::GenerateArgs;

    fn params_of(kwargs: &str) -> Result<Params, SamplingError> {
        params(
            &PortRequest::new(&GenerateArgs::from_json_str(kwargs).unwrap(), &SAME_NAMES),
            None,
        )
    }

    #[test]
    fn a_temperature_below_a_hundredth_is_raised_to_it_and_only_zero_is_greedy() {
        let p = params_of(r#"{"temperature": 5e-7}"#).unwrap();
        assert_eq!((p.temperature, p.raised, p.is_greedy()), (0.01, Some(5e-7), false));
        assert!(params_of(r#"{"temperature": 0}"#).unwrap().is_greedy());
    }

    #[test]
    fn refusals_carry_the_parameter_suffix_only_where_vllm_adds_it() {
        let err = |kwargs| params_of(kwargs).unwrap_err().to_string();
        assert_eq!(
            err(r#"{"temperature": 3}"#),
            "temperature must be in [0, 2], got 3.0. (parameter=temperature, value=3.0)"
        );
        assert_eq!(
            err(r#"{"top_p": 0.0}"#),
            "top_p must be in (0, 1], got 0.0. (parameter=top_p, value=0.0)"
        );
        assert_eq!(
            err(r#"{"top_k": -2}"#),
            "top_k must be 0 (disable), or at least 1, got -2."
        );
        assert_eq!(err(r#"{"min_p": 1.5}"#), "min_p must be in [0, 1], got 1.5.");
    }

    #[test]
    fn the_model_file_fills_what_the_request_leaves_out_do_sample_aside() {
        let config =
            GenerationConfig::from_json_str(r#"{"do_sample": false, "temperature": 0.6, "top_k": 20}"#).unwrap();
        let request = PortRequest::new(&GenerateArgs::from_json_str(r#"{"top_k": 5}"#).unwrap(), &SAME_NAMES);
        let p = params(&request, Some(&config)).unwrap();
        assert_eq!((p.temperature, p.top_k), (0.6, 5));
        assert_eq!(p.from_generation_config, ["temperature=0.6"]);
    }
}
