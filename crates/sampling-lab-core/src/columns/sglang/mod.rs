//! SGLang 0.5.23 (the `sglang` wheel on PyPI): what its `/generate` endpoint samples from for
//! the request a `generate()` port sends (`columns::port_request`) as `sampling_params`, with the
//! pytorch sampling backend, held to the wheel's own code by
//! `tests/fixtures/runtimes/sglang.json` (`reference/runtimes/`).
//!
//! - **Defaults** (`srt/sampling/sampling_params.py:140-250`): temperature 1, top_k −1 (the whole
//!   vocabulary, where transformers has its implicit 50), top_p 1, min_p 0; `/generate` never
//!   reads the model's `generation_config.json`.
//! - **Greedy**: a temperature in [0, 1e-6) becomes top_k 1, and any request with top_k 1 is
//!   greedy whatever its temperature (`sampling_batch_info.py` `is_all_greedy`).
//! - **Order** (`srt/layers/sampler.py`): temperature → softmax → top_k (exactly k)
//!   and top_p measured **jointly on the whole distribution** → min_p against the top
//!   probability → `torch.multinomial`. The repetition penalty only sees tokens SGLang generated.
//! - **Refusals**: the contract gate refuses a float `top_k` in serde's words
//!   (`invalid type: floating point `40.0`, expected i64`) and any unknown field (so a port never
//!   sends `typical_p`); `verify` refuses top_k 0 (transformers' "off"), top_p outside (0, 1],
//!   min_p outside [0, 1], a negative temperature, a repetition penalty outside (0, 2].
//!
//! ```text
//! generate(do_sample=True, temperature=0.7, top_k=40, top_p=0.9)  # transformers 24 tokens, SGLang 40
//! generate(do_sample=True, top_k=1, temperature=0.6)              # DFlash's benchmark: greedy
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
use request::{Params, TOP_K_ALL};
use serde_json::{json, Map, Value};

mod causes;
mod request;
mod sampler;

/// SGLang's column.
pub const NAME: ColumnName = ColumnName::new("sglang");

/// The SGLang release this column reproduces.
pub const VERSION: &str = "0.5.23";

const REFUSED: Rule = Rule::new("sglang_refused", NAME);
const ACCEPTS: Rule = Rule::new("sglang_accepts", NAME);
const NO_DO_SAMPLE: Rule = Rule::new("sglang_no_do_sample", NAME);
/// SGLang decodes greedily below a temperature of 1e-6 and at top_k 1, where transformers samples.
pub(crate) const GREEDY: Rule = Rule::new("sglang_greedy", NAME);
const NO_TOP_K: Rule = Rule::new("sglang_no_top_k", NAME);
/// SGLang measures top_p on the whole distribution, not on what top_k left.
pub(crate) const JOINT_TOP_P: Rule = Rule::new("sglang_joint_top_p", NAME);
const EXACTLY_K: Rule = Rule::new("sglang_exactly_k", NAME);
const OUTPUT_PENALTY: Rule = Rule::new("sglang_output_penalty", NAME);
const IGNORED: Rule = Rule::new("sglang_ignored", NAME);
const ARITHMETIC: Rule = Rule::new("sglang_arithmetic", NAME);

/// SGLang's registry entry.
pub static COLUMN: Column = Column {
    catalogs: super::catalogs!("sglang"),
    name: NAME,
    code: Some("Python"),
    draws: true,
    from_call: |call| Box::new(Sglang::new(call.args)),
    thresholds,
    rules: &[
        REFUSED,
        ACCEPTS,
        NO_DO_SAMPLE,
        GREEDY,
        NO_TOP_K,
        JOINT_TOP_P,
        EXACTLY_K,
        OUTPUT_PENALTY,
        IGNORED,
        ARITHMETIC,
    ],
};

/// SGLang's sampler for the request a port of one call sends.
struct Sglang {
    request: PortRequest,
    /// How each argument carried over, for the notes.
    carried: Vec<Message>,
    /// What `SamplingParams` holds, or the server's refusal.
    params: Result<Params, SamplingError>,
}

impl Sglang {
    fn new(args: &GenerateArgs) -> Self {
        let request = PortRequest::new(args, &SAME_NAMES);
        Sglang {
            carried: request.notes(args, "SGLang"),
            params: request::params(&request),
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
            chain.push(("argmax", json!("top_k 1")));
            return chain;
        }
        chain.push(("temperature", json!(self.temperature)));
        if self.filters() {
            if self.top_k != TOP_K_ALL {
                chain.push(("top_k", json!(self.top_k)));
            }
            if self.top_p != 1.0 {
                chain.push(("top_p", json!(self.top_p)));
            }
            if self.min_p > 0.0 {
                chain.push(("min_p", json!(self.min_p)));
            }
        }
        chain.push(("multinomial", json!("torch.multinomial")));
        chain
    }
}

impl Engine for Sglang {
    fn distribution(&self, logits: &[f32], _context: &[u32]) -> Result<Distribution, SamplingError> {
        Ok(self
            .params
            .as_ref()
            .map_err(Clone::clone)?
            .step(logits, &[])
            .distribution())
    }

    fn describe(&self) -> String {
        match &self.params {
            Ok(p) => super::port_request::describe_chain(p.chain()),
            Err(_) => "POST /generate → 400".into(),
        }
    }

    fn notes(&self, step: &StepView) -> Vec<Message> {
        let mut notes = self.carried.clone();
        if let Ok(p) = &self.params {
            if let Some(t) = p.greedy_temperature {
                notes.push(Message::new("note-sglang-greedy-temperature").verbatim("temperature", t.repr()));
            }
            if p.repetition_penalty != 1.0 {
                notes.push(Message::new("note-sglang-output-penalty"));
            }
            notes.extend(p.step(&step.input.logits, &[]).notes);
        }
        notes
    }

    /// The version, the `sampling_params` a port sends, the chain that acts and the arguments
    /// it has no field for.
    fn details(&self, _step: &StepView) -> Map<String, Value> {
        let chain = self.params.as_ref().map(|p| p.chain()).unwrap_or_default();
        self.request.details(VERSION, chain)
    }

    /// The request as an SGLang user sends it to `/generate`.
    fn code(&self) -> Option<String> {
        let r = &self.request;
        Some(format!(
            "import requests\n\nserver = \"http://127.0.0.1:30000\"  # where sglang.launch_server listens\n\
             prompt = \"Your prompt\"  # the text the model continues\n\
             sampling_params = {}\n\
             requests.post(f\"{{server}}/generate\", json={{\"text\": prompt, \"sampling_params\": sampling_params}})\n{}",
            r.python_dict(),
            r.ignored_comment("SGLang", "#")
        ))
    }

    fn causes(&self, step: &StepView) -> Vec<Cause> {
        causes::causes(self, step)
    }

    /// Each block of draws is a seeded run of weighted draws, as `torch.multinomial` makes them.
    fn draws(&self, logits: &[f32], _context: &[u32], seed: u64) -> Option<Result<Drawing, SamplingError>> {
        let step = self.params.as_ref().ok()?.step(logits, &[]);
        let multinomial = step.multinomial();
        Some(Ok(Drawing {
            exact: step.distribution(),
            source: Box::new(BlockDraws::new(move |rng: &mut StdRng| multinomial.draw(rng), seed)),
        }))
    }

    fn sampler(&self, seed: u64) -> Result<Box<dyn TokenSampler>, SamplingError> {
        Ok(Box::new(SglangSampler {
            params: self.params.clone()?,
            rng: StdRng::seed_from_u64(seed),
            prompt: None,
        }))
    }
}

/// A generation under SGLang: one seeded generator for the whole answer; the context at the
/// first step is the prompt, whose tokens the repetition penalty never sees.
struct SglangSampler {
    params: Params,
    rng: StdRng,
    prompt: Option<usize>,
}

impl SglangSampler {
    fn generated<'a>(&self, context: &'a [u32]) -> &'a [u32] {
        &context[self.prompt.unwrap_or(context.len()).min(context.len())..]
    }
}

impl TokenSampler for SglangSampler {
    fn distribution(&self, logits: &[f32], context: &[u32]) -> Result<Distribution, SamplingError> {
        Ok(self.params.step(logits, self.generated(context)).distribution())
    }

    fn next(&mut self, logits: &[f32], context: &[u32]) -> Result<u32, SamplingError> {
        self.prompt.get_or_insert(context.len());
        let step = self.params.step(logits, self.generated(context));
        Ok(step.multinomial().draw(&mut self.rng))
    }
}

fn thresholds(temperature: PyValue, _logits: &[f32]) -> Vec<Threshold> {
    let Some(t) = temperature.number() else {
        return Vec::new();
    };
    let system = "SGLang 0.5.23 /generate temperature";
    vec![if t < 0.0 {
        Threshold::new(
            system,
            Behaviour::Error,
            Message::new("threshold-library-error").verbatim("error", request::refusal_of_temperature(temperature)),
        )
    } else if t < request::GREEDY_BELOW {
        Threshold::new(
            system,
            Behaviour::Argmax,
            Message::new("threshold-sglang-argmax").verbatim("temperature", float_repr(t)),
        )
    } else {
        Threshold::new(
            system,
            Behaviour::Sample,
            Message::new("threshold-sglang-samples").verbatim("temperature", temperature.repr()),
        )
    }]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sglang(kwargs: &str) -> Sglang {
        Sglang::new(&GenerateArgs::from_json_str(kwargs).unwrap())
    }

    #[test]
    fn nothing_passed_samples_at_temperature_one_over_the_whole_vocabulary() {
        let logits: Vec<f32> = (0..100).map(|i| -(i as f32) * 0.05).collect();
        assert_eq!(sglang("{}").distribution(&logits, &[]).unwrap().kept(), 100);
    }

    #[test]
    fn the_penalty_of_a_generation_sees_only_generated_tokens() {
        let mut sampler = sglang(r#"{"repetition_penalty": 2.0, "top_k": 1}"#).sampler(0).unwrap();
        // Token 0 is in the prompt: not penalised, still the argmax.
        assert_eq!(sampler.next(&[2.0, 1.5], &[0]).unwrap(), 0);
        // Once generated, it is: 2.0 / 2 < 1.5.
        assert_eq!(sampler.next(&[2.0, 1.5], &[0, 0]).unwrap(), 1);
    }

    #[test]
    fn below_a_millionth_the_temperature_is_greedy_and_below_zero_refused() {
        let row = |t| thresholds(PyValue::Float(t), &[]).remove(0).behaviour;
        assert_eq!(
            (row(5e-7), row(1e-6), row(-0.5)),
            (Behaviour::Argmax, Behaviour::Sample, Behaviour::Error)
        );
    }
}
