//! vLLM 0.33.0 (the `vllm` wheel on PyPI, v1 engine): what its OpenAI-compatible server samples
//! from for the request a `generate()` port sends (`columns::port_request`), held to the wheel's
//! own sampler code by `tests/fixtures/runtimes/vllm.json` (`reference/runtimes/`).
//!
//! - **Defaults.** The server runs with `--generation-config auto`: a field the request leaves
//!   out takes the model's `generation_config.json` (its temperature, top_k, top_p, min_p and
//!   repetition_penalty, never its `do_sample`: `config/model.py` `get_diff_sampling_param`),
//!   else `_DEFAULT_SAMPLING_PARAMS` (`entrypoints/openai/chat_completion/protocol.py:705-713`):
//!   temperature 1, top_k 0 — the whole vocabulary, where transformers has its implicit 50 —,
//!   top_p 1, min_p 0, repetition_penalty 1.
//! - **Temperature.** `SamplingParams.__post_init__` (`sampling_params.py:559-620`) raises a
//!   temperature in (0, 0.01) to 0.01 (a logged warning); greedy only below 1e-5, i.e. at 0.
//! - **Order** (`v1/sample/sampler.py`): penalties (prompt and output) → temperature →
//!   **min_p** → top_k (ties at the k-th kept) → top_p on the renormalised survivors → an
//!   exponential race on the f32 probabilities.
//! - **Refusals** (`_verify_args`, `:634-690`): temperature outside [0, 2], top_p outside (0, 1]
//!   (so `top_p=0`, which transformers reads as top-1), top_k below −1, min_p outside [0, 1], a
//!   repetition penalty ≤ 0 — the server's `error.message`, word for word.
//!
//! ```text
//! generate(do_sample=True, temperature=0.7)          # vLLM: T 0.7 over all 49152 tokens (transformers: top 50)
//! generate(do_sample=True, temperature=1e-6)         # vLLM: samples at 0.01
//! generate(do_sample=True, top_k=1, temperature=0.6) # DFlash's benchmark: vLLM keeps the top token
//! ```

use super::causes::{Cause, Rule};
use super::port_request::{PortRequest, SAME_NAMES};
use super::thresholds::{Behaviour, Threshold};
use super::{BlockDraws, Column, ColumnName, Drawing, Engine, StepView, TokenSampler};
use crate::arguments::pyvalue::{float_repr, PyValue};
use crate::distribution::Distribution;
use crate::text::Message;
use crate::{GenerateArgs, SamplingError};
use rand::rngs::StdRng;
use rand::SeedableRng;
use request::Params;
use serde_json::{json, Map, Value};

mod causes;
mod request;
mod sampler;

/// vLLM's column.
pub const NAME: ColumnName = ColumnName::new("vllm");

/// The vLLM release this column reproduces.
pub const VERSION: &str = "0.33.0";

const REFUSED: Rule = Rule::new("vllm_refused", NAME);
const ACCEPTS: Rule = Rule::new("vllm_accepts", NAME);
const NO_DO_SAMPLE: Rule = Rule::new("vllm_no_do_sample", NAME);
/// vLLM raises a temperature in (0, 0.01) to 0.01, where transformers divides by it.
pub(crate) const FLOOR: Rule = Rule::new("vllm_temperature_floor", NAME);
/// vLLM's top_k defaults to the whole vocabulary, where transformers fills in 50.
pub(crate) const NO_TOP_K: Rule = Rule::new("vllm_no_top_k", NAME);
const MIN_P_FIRST: Rule = Rule::new("vllm_min_p_first", NAME);
const GENERATION_CONFIG: Rule = Rule::new("vllm_generation_config", NAME);
const IGNORED: Rule = Rule::new("vllm_ignored", NAME);
const ARITHMETIC: Rule = Rule::new("vllm_arithmetic", NAME);

/// vLLM's registry entry.
pub static COLUMN: Column = Column {
    catalogs: super::catalogs!("vllm"),
    name: NAME,
    code: Some("Python"),
    draws: true,
    from_call: |call| Box::new(Vllm::new(call.args, call.generation_config)),
    thresholds,
    rules: &[
        REFUSED,
        ACCEPTS,
        NO_DO_SAMPLE,
        FLOOR,
        NO_TOP_K,
        MIN_P_FIRST,
        GENERATION_CONFIG,
        IGNORED,
        ARITHMETIC,
    ],
};

/// vLLM's sampler for the request a port of one call sends.
struct Vllm {
    request: PortRequest,
    /// How each argument carried over, for the notes.
    carried: Vec<Message>,
    /// What `SamplingParams` holds, or the server's refusal.
    params: Result<Params, SamplingError>,
}

impl Vllm {
    fn new(args: &GenerateArgs, config: Option<&crate::GenerationConfig>) -> Self {
        let request = PortRequest::new(args, &SAME_NAMES);
        Vllm {
            carried: request.notes(args, "vLLM"),
            params: request::params(&request, config),
            request,
        }
    }
}

impl Params {
    /// The samplers that act, in order, with their values.
    fn chain(&self) -> Vec<(&'static str, Value)> {
        let mut chain = Vec::new();
        if self.repetition_penalty != 1.0 {
            chain.push(("repetition_penalty", json!(self.repetition_penalty)));
        }
        if self.is_greedy() {
            chain.push(("argmax", json!("temperature 0")));
            return chain;
        }
        chain.push(("temperature", json!(self.temperature)));
        if self.min_p != 0.0 {
            chain.push(("min_p", json!(self.min_p)));
        }
        if self.top_k > 0 {
            chain.push(("top_k", json!(self.top_k)));
        }
        if self.top_p < 1.0 {
            chain.push(("top_p", json!(self.top_p)));
        }
        chain.push(("random_sample", json!("exponential race on the f32 probabilities")));
        chain
    }
}

impl Engine for Vllm {
    fn distribution(&self, logits: &[f32], context: &[u32]) -> Result<Distribution, SamplingError> {
        Ok(self
            .params
            .as_ref()
            .map_err(Clone::clone)?
            .step(logits, context)
            .distribution())
    }

    fn describe(&self) -> String {
        match &self.params {
            Ok(p) => super::port_request::describe_chain(p.chain()),
            Err(_) => "POST /v1/completions → 400".into(),
        }
    }

    fn notes(&self, step: &StepView) -> Vec<Message> {
        let mut notes = self.carried.clone();
        if let Ok(p) = &self.params {
            if let Some(t) = p.raised {
                notes.push(Message::new("note-vllm-raised").verbatim("temperature", float_repr(t)));
            }
            if !p.from_generation_config.is_empty() {
                notes.push(
                    Message::new("note-vllm-generation-config").verbatim("fields", p.from_generation_config.join(", ")),
                );
            }
            notes.extend(p.step(&step.input.logits, &step.input.context_ids).notes);
        }
        notes
    }

    /// The version, the request a port sends in vLLM's field names, the chain that acts and the
    /// arguments it has no field for.
    fn details(&self, _step: &StepView) -> Map<String, Value> {
        let chain = self.params.as_ref().map(|p| p.chain()).unwrap_or_default();
        self.request.details(VERSION, chain)
    }

    /// The request as a vLLM user writes it: `SamplingParams`, whose fields the OpenAI server's
    /// body takes by the same names.
    fn code(&self) -> Option<String> {
        let r = &self.request;
        Some(format!(
            "from vllm import SamplingParams\n\nparams = SamplingParams({})\n\
             # The OpenAI server's body takes the same fields: {}\n{}",
            r.python_kwargs(),
            r.python_dict(),
            r.ignored_comment("vLLM", "#")
        ))
    }

    fn causes(&self, step: &StepView) -> Vec<Cause> {
        causes::causes(self, step)
    }

    /// Each block of draws races its own seeded noise, as `random_sample` does per request.
    fn draws(&self, logits: &[f32], context: &[u32], seed: u64) -> Option<Result<Drawing, SamplingError>> {
        let step = self.params.as_ref().ok()?.step(logits, context);
        let race = step.race();
        Some(Ok(Drawing {
            exact: step.distribution(),
            source: Box::new(BlockDraws::new(move |rng: &mut StdRng| race.draw(rng), seed)),
        }))
    }

    fn sampler(&self, seed: u64) -> Result<Box<dyn TokenSampler>, SamplingError> {
        Ok(Box::new(VllmSampler {
            params: self.params.clone()?,
            rng: StdRng::seed_from_u64(seed),
        }))
    }
}

/// A generation under vLLM: one seeded generator for the whole answer, as a request's own
/// `torch.Generator`.
struct VllmSampler {
    params: Params,
    rng: StdRng,
}

impl TokenSampler for VllmSampler {
    fn distribution(&self, logits: &[f32], context: &[u32]) -> Result<Distribution, SamplingError> {
        Ok(self.params.step(logits, context).distribution())
    }

    fn next(&mut self, logits: &[f32], context: &[u32]) -> Result<u32, SamplingError> {
        Ok(self.params.step(logits, context).race().draw(&mut self.rng))
    }
}

fn thresholds(temperature: PyValue, _logits: &[f32]) -> Vec<Threshold> {
    let Some(t) = temperature.number() else {
        return Vec::new();
    };
    let system = "vLLM 0.33 SamplingParams(temperature)";
    let repr = float_repr(t);
    vec![if !(0.0..=2.0).contains(&t) {
        let message = request::refusal_of_temperature(t);
        Threshold::new(
            system,
            Behaviour::Error,
            Message::new("threshold-library-error").verbatim("error", message),
        )
    } else if t == 0.0 {
        Threshold::new(system, Behaviour::Argmax, Message::new("threshold-vllm-argmax"))
    } else if t < request::FLOOR {
        Threshold::new(
            system,
            Behaviour::Sample,
            Message::new("threshold-vllm-raised").verbatim("temperature", repr),
        )
    } else {
        Threshold::new(
            system,
            Behaviour::Sample,
            Message::new("threshold-vllm-samples").verbatim("temperature", repr),
        )
    }]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vllm(kwargs: &str) -> Vllm {
        Vllm::new(&GenerateArgs::from_json_str(kwargs).unwrap(), None)
    }

    #[test]
    fn nothing_passed_samples_at_temperature_one_over_the_whole_vocabulary() {
        let logits: Vec<f32> = (0..100).map(|i| -(i as f32) * 0.05).collect();
        assert_eq!(vllm("{}").distribution(&logits, &[]).unwrap().kept(), 100);
    }

    #[test]
    fn dflash_s_benchmark_call_keeps_the_top_token() {
        let v = vllm(r#"{"do_sample": true, "temperature": 0.6, "top_p": 1.0, "top_k": 1}"#);
        assert_eq!(v.distribution(&[1.0, 3.0, 2.0], &[]).unwrap().support(), [(1, 1.0)]);
    }

    #[test]
    fn a_refused_request_is_the_column_s_error() {
        let err = vllm(r#"{"do_sample": true, "top_p": 0.0}"#)
            .distribution(&[1.0, 0.0], &[])
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "top_p must be in (0, 1], got 0.0. (parameter=top_p, value=0.0)"
        );
    }

    #[test]
    fn temperatures_below_a_hundredth_sample_and_only_zero_is_greedy() {
        let rows = |t| thresholds(PyValue::Float(t), &[]).remove(0).behaviour;
        assert_eq!(rows(0.0), Behaviour::Argmax);
        assert_eq!(rows(1e-6), Behaviour::Sample);
        assert_eq!(rows(2.5), Behaviour::Error);
    }
}
