//! llama.cpp's sampler chain, as wllama 3.13.0 runs it (libllama b12211-7d7f028, its server's
//! request schema and `common_sampler`), for the request a `generate()` port sends it.
//!
//! - **The request.** `temperature`, `top_k`, `top_p`, `min_p` and `typical_p` carry over by name,
//!   `repetition_penalty` becomes `repeat_penalty` (over `repeat_last_n = 64` tokens, prompt
//!   included), `do_sample=False` becomes `temperature: 0`, a None becomes the "off" value. What
//!   is not passed takes llama.cpp's defaults (temperature 0.8, top_k 40, top_p 0.95, min_p 0.05),
//!   not transformers'; `generation_config.json` is never read. Out-of-range values are clamped
//!   where transformers raises.
//! - **The chain**, on the f32 logits in token-id order: penalties → top_k (exactly k: libc++'s
//!   heap `partial_sort` for k ≤ 128, 128 value buckets above) → typical → top_p (softmax of what
//!   is left, f32 sums, the crossing token kept) → min_p (against the max logit) → temperature
//!   (≤ 0: the first maximum only) → `dist`: softmax, one `std::mt19937` draw per token.
//! - **Other servers.** The same chain runs behind Ollama ([`super::ollama`]), which fills every
//!   field with its own values first: a `Server` (`server.rs`) says what a request's missing
//!   fields take, what a None means, and how the column names itself.
//!
//! ```text
//! generate(do_sample=True, temperature=1.5) on "The capital of France is"
//!   transformers: T 1.5, then top_k 50                        → 50 tokens
//!   llama.cpp:    top_k 40, top_p .95, min_p .05 at T 1, then T 1.5 → 2 tokens
//! ```

use super::causes::{Cause, Rule};
use super::thresholds::{Behaviour, Threshold};
use super::{Column, ColumnName, DrawSource, Drawing, Engine, StepView, TokenSampler};
use crate::arguments::pyvalue::PyValue;
use crate::distribution::Distribution;
use crate::text::Message;
use crate::SamplingError;
use rand_mt::Mt;
use serde_json::{json, Map, Value};

mod causes;
mod chain;
mod libcxx;
mod request;
mod server;
mod sort;

pub(crate) use chain::Candidates;
use chain::Prepared;
use request::{number, short};
pub(crate) use request::{Carried, Clamped};
pub(crate) use server::{Defaults, Rules, Server};

/// llama.cpp's column.
pub const NAME: ColumnName = ColumnName::new("llama_cpp");

/// The libllama build wllama 3.13.0 bundles (`Wllama.getLibllamaVersion()`).
pub const VERSION: &str = "b12211-7d7f028";

const ACCEPTS: Rule = Rule::new("llama_cpp_accepts", NAME);
const DEFAULTS: Rule = Rule::new("llama_cpp_defaults", NAME);
const NO_DO_SAMPLE: Rule = Rule::new("llama_cpp_no_do_sample", NAME);
/// llama.cpp truncates at temperature 1 and divides by the temperature only afterwards, where
/// transformers divides first: why a hot call keeps fewer tokens under llama.cpp.
pub(crate) const ORDER: Rule = Rule::new("llama_cpp_order", NAME);
const EXACTLY_K: Rule = Rule::new("llama_cpp_exactly_k", NAME);
const PENALTY_WINDOW: Rule = Rule::new("llama_cpp_penalty_window", NAME);
const IGNORED: Rule = Rule::new("llama_cpp_ignored", NAME);
const ARITHMETIC: Rule = Rule::new("llama_cpp_arithmetic", NAME);

/// llama.cpp's registry entry.
pub static COLUMN: Column = Column {
    catalogs: super::catalogs!("llama_cpp"),
    name: NAME,
    code: Some("JavaScript"),
    draws: true,
    from_call: |call| Box::new(LlamaCpp::from_call(call)),
    thresholds,
    rules: &[
        ACCEPTS,
        DEFAULTS,
        NO_DO_SAMPLE,
        ORDER,
        EXACTLY_K,
        PENALTY_WINDOW,
        IGNORED,
        ARITHMETIC,
    ],
};

/// The penalty's window (`repeat_last_n`), prompt tokens included.
pub(crate) const REPEAT_LAST_N: usize = 64;

/// llama.cpp's sampling parameters for one request, after its schema's clamps.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct LlamaCpp {
    /// Who runs the chain: what a request's missing fields took, and how the column speaks.
    pub(crate) server: &'static Server,
    /// Applied after the truncations; ≤ 0: the first maximum only (llama.cpp's greedy decoding).
    pub temperature: f32,
    /// ≤ 0: off.
    pub top_k: i32,
    /// ≥ 1: off.
    pub top_p: f32,
    /// ≤ 0: off.
    pub min_p: f32,
    /// ≥ 1: off.
    pub typical_p: f32,
    /// 1: off.
    pub repeat_penalty: f32,
    /// How each argument carried over, in the order of the chain.
    pub carried: Vec<Carried>,
    /// Arguments with no llama.cpp counterpart, and `generation_config.json` values it never reads.
    pub ignored: Vec<String>,
    /// Values the schema clamped into range, where transformers may raise.
    pub clamped: Vec<Clamped>,
    /// The request's keys as a port sends them.
    pub request: Map<String, Value>,
}

impl LlamaCpp {
    /// The samplers that act, in order, with their values (`dist` always draws).
    pub fn chain(&self) -> Vec<(&'static str, Value)> {
        let mut chain = Vec::new();
        if self.repeat_penalty != 1.0 {
            let penalty = json!({"repeat_penalty": number(self.repeat_penalty), "repeat_last_n": REPEAT_LAST_N});
            chain.push(("penalties", penalty));
        }
        if self.top_k > 0 {
            chain.push(("top_k", json!(self.top_k)));
        }
        if self.typical_p < 1.0 {
            chain.push(("typical", number(self.typical_p)));
        }
        if self.top_p < 1.0 {
            chain.push(("top_p", number(self.top_p)));
        }
        if self.min_p > 0.0 {
            chain.push(("min_p", number(self.min_p)));
        }
        if self.temperature != 1.0 {
            chain.push(("temperature", number(self.temperature)));
        }
        chain.push(("dist", json!("std::mt19937(seed)")));
        chain
    }

    /// Whether the chain ends on the first maximum instead of a draw.
    fn is_greedy(&self) -> bool {
        self.temperature <= 0.0
    }

    /// The chain in one line: the report entry's `sampling`.
    fn describe(&self) -> String {
        let steps: Vec<String> = self
            .chain()
            .into_iter()
            .map(|(name, value)| match (name, &value) {
                ("temperature", _) if self.is_greedy() => "temperature(0: first maximum)".into(),
                ("penalties", _) => format!(
                    "penalties(repeat_penalty {}, last {REPEAT_LAST_N})",
                    self.repeat_penalty
                ),
                ("dist", _) => "dist".into(),
                _ => format!("{name}({value})"),
            })
            .collect();
        steps.join(" → ")
    }

    /// The chain on one step's logits: the candidates `dist` draws from, in its order.
    pub fn candidates(&self, logits: &[f32], context: &[u32]) -> Candidates {
        let mut c = Candidates::new(logits);
        if self.repeat_penalty != 1.0 {
            c.penalise(context, self.repeat_penalty);
        }
        if self.top_k > 0 {
            c.top_k(self.top_k as usize);
        }
        if self.typical_p < 1.0 {
            c.typical(self.typical_p);
        }
        if self.top_p < 1.0 {
            c.top_p(self.top_p);
        }
        if self.min_p > 0.0 {
            c.min_p(self.min_p);
        }
        if self.temperature != 1.0 {
            c.temperature(self.temperature);
        }
        c
    }

    /// What one draw comes from.
    pub fn distribution(&self, logits: &[f32], context: &[u32]) -> Distribution {
        self.candidates(logits, context).distribution(logits.len())
    }
}

/// llama.cpp's seed is 32 bits.
fn seed32(seed: u64) -> u32 {
    seed as u32
}

impl Engine for LlamaCpp {
    fn distribution(&self, logits: &[f32], context: &[u32]) -> Result<Distribution, SamplingError> {
        Ok(LlamaCpp::distribution(self, logits, context))
    }

    fn describe(&self) -> String {
        LlamaCpp::describe(self)
    }

    /// How each argument carried over, then what this step's arithmetic leaves undecided.
    fn notes(&self, step: &StepView) -> Vec<Message> {
        let mut notes: Vec<Message> = self
            .carried
            .iter()
            .map(|c| match (&c.python, &c.sent) {
                (Some(python), Some(sent)) => Message::new("note-carried-sent")
                    .verbatim("python", python.clone())
                    .verbatim("sent", sent.clone())
                    .arg("how", c.how.clone()),
                (Some(python), None) => Message::new("note-carried-not-sent")
                    .verbatim("python", python.clone())
                    .arg("how", c.how.clone()),
                (None, _) => c.how.clone(),
            })
            .collect();
        if self.server.fills_every_field {
            notes.push(Message::new("note-llama_cpp-fills-every-field").verbatim("server", self.server.name));
        }
        notes.extend(self.clamped.iter().filter_map(|c| {
            c.transformers.as_ref().map(|t| {
                Message::new("note-llama_cpp-clamped")
                    .verbatim("argument", c.argument.clone())
                    .verbatim("became", c.became.clone())
                    .verbatim("error", t.clone())
            })
        }));
        notes.extend(
            self.candidates(&step.input.logits, &step.input.context_ids)
                .finished_notes(),
        );
        notes
    }

    fn details(&self, _step: &StepView) -> Map<String, Value> {
        let mut details = Map::new();
        details.insert("version".into(), json!(self.server.version));
        let chain: Vec<Value> = self
            .chain()
            .into_iter()
            .map(|(name, value)| json!({"sampler": name, "value": value}))
            .collect();
        details.insert("chain".into(), json!(chain));
        details.insert("request".into(), Value::Object(self.request.clone()));
        if let Some(forwarded) = self.forwarded() {
            details.insert("llama_server".into(), Value::Object(forwarded));
        }
        details.insert("ignored".into(), json!(self.ignored));
        details.insert("clamped".into(), json!(self.clamped));
        details
    }

    fn causes(&self, step: &StepView) -> Vec<Cause> {
        causes::causes(self, step)
    }

    fn code(&self) -> Option<String> {
        Some((self.server.code)(self))
    }

    /// Draw `j` of a run seeded `s` is the first token a request with seed `s + j` draws (the
    /// seed's low 32 bits), so the draws can be checked one by one against llama.cpp's.
    fn draws(&self, logits: &[f32], context: &[u32], seed: u64) -> Option<Result<Drawing, SamplingError>> {
        let candidates = self.candidates(logits, context);
        Some(Ok(Drawing {
            exact: candidates.distribution(logits.len()),
            source: Box::new(FirstDraws {
                prepared: candidates.prepared(),
                seed,
            }),
        }))
    }

    fn sampler(&self, seed: u64) -> Result<Box<dyn TokenSampler>, SamplingError> {
        Ok(Box::new(LlamaCppSampler {
            chain: self.clone(),
            rng: Mt::new(seed32(seed)),
        }))
    }
}

/// A generation under llama.cpp: one generator for the whole answer, as a request's `dist` has.
struct LlamaCppSampler {
    chain: LlamaCpp,
    rng: Mt,
}

impl TokenSampler for LlamaCppSampler {
    fn distribution(&self, logits: &[f32], context: &[u32]) -> Result<Distribution, SamplingError> {
        Ok(self.chain.distribution(logits, context))
    }

    fn next(&mut self, logits: &[f32], context: &[u32]) -> Result<u32, SamplingError> {
        Ok(self.chain.candidates(logits, context).prepared().draw(&mut self.rng))
    }
}

/// Monte Carlo's draws: each the first draw of its own seed.
struct FirstDraws {
    prepared: Prepared,
    seed: u64,
}

impl DrawSource for FirstDraws {
    fn draw(&mut self, index: usize) -> Result<u32, SamplingError> {
        let mut rng = Mt::new(seed32(self.seed.wrapping_add(index as u64)));
        Ok(self.prepared.draw(&mut rng))
    }
}

fn thresholds(temperature: PyValue, _logits: &[f32]) -> Vec<Threshold> {
    let Some(t) = temperature.number() else {
        return Vec::new();
    };
    let system = "llama.cpp (wllama 3.13) temperature";
    vec![if t <= 0.0 {
        Threshold::new(system, Behaviour::Argmax, Message::new("threshold-llama_cpp-argmax"))
    } else {
        Threshold::new(
            system,
            Behaviour::Sample,
            Message::new("threshold-llama_cpp-samples").verbatim("temperature", short(t as f32)),
        )
    }]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::GenerateArgs;

    fn chain(kwargs: &str) -> LlamaCpp {
        LlamaCpp::from_args(&GenerateArgs::from_json_str(kwargs).unwrap(), None)
    }

    #[test]
    fn nothing_passed_is_top_k_40_top_p_0_95_min_p_0_05_at_temperature_0_8() {
        let c = chain("{}");
        assert_eq!((c.temperature, c.top_k, c.top_p, c.min_p), (0.8, 40, 0.95, 0.05));
        let names: Vec<&str> = c.chain().into_iter().map(|(n, _)| n).collect();
        assert_eq!(names, ["top_k", "top_p", "min_p", "temperature", "dist"]);
        assert!(c.request.is_empty());
    }

    #[test]
    fn out_of_range_values_are_clamped_where_transformers_raises() {
        let c = chain(r#"{"do_sample": true, "top_k": -5, "top_p": -0.1, "min_p": -0.2, "temperature": -3.0}"#);
        assert_eq!((c.top_k, c.top_p, c.min_p, c.temperature), (0, 0.0, 0.0, 0.0));
        let refused: Vec<bool> = c.clamped.iter().map(|c| c.transformers.is_some()).collect();
        assert_eq!(refused, [true, true, true, true], "{:?}", c.clamped);
        assert!(c.is_greedy());
    }

    #[test]
    fn a_top_p_above_one_is_clamped_to_off_which_transformers_does_not_refuse() {
        let c = chain(r#"{"top_p": 1.7}"#);
        assert_eq!(c.top_p, 1.0);
        assert_eq!(c.clamped[0].transformers, None);
    }

    #[test]
    fn do_sample_false_is_temperature_zero_and_none_is_off() {
        let c = chain(r#"{"do_sample": false, "temperature": 0.7, "top_k": null, "top_p": null}"#);
        assert_eq!((c.temperature, c.top_k, c.top_p), (0.0, 0, 1.0));
        assert_eq!(c.request["temperature"], json!(0));
    }

    #[test]
    fn the_filters_run_at_temperature_one_so_a_hot_call_keeps_fewer_tokens() {
        // Four tokens at p ≈ .64, .24, .09, .03: min_p 0.05 at T 1 drops the last one; at T 3
        // transformers would keep it.
        let logits = [2.0f32, 1.0, 0.0, -1.0];
        let d = chain(r#"{"temperature": 3.0, "top_k": 0, "top_p": 1.0}"#).distribution(&logits, &[]);
        assert_eq!(d.kept(), 3);
    }

    #[test]
    fn greedy_keeps_the_first_maximum_in_the_current_order() {
        let d = chain(r#"{"temperature": 0, "top_k": 0, "top_p": 1.0, "min_p": 0.0}"#)
            .distribution(&[1.0, 5.0, 5.0, 0.0], &[]);
        assert_eq!(d.support(), [(1, 1.0)]);
    }

    #[test]
    fn top_p_zero_keeps_one_token() {
        let d = chain(r#"{"temperature": 1.0, "top_k": 0, "top_p": 0.0, "min_p": 0.0}"#)
            .distribution(&[0.5, 2.0, 1.0], &[]);
        assert_eq!(d.support(), [(1, 1.0)]);
    }

    #[test]
    fn the_penalty_sees_the_last_64_tokens_only() {
        let logits = vec![1.0f32; 100];
        let penalised = |context: &[u32]| {
            let d = chain(r#"{"repetition_penalty": 2.0, "top_k": 0, "top_p": 1.0, "min_p": 0.0, "temperature": 1.0}"#)
                .distribution(&logits, context);
            d.prob(7) < d.prob(8)
        };
        let mut context: Vec<u32> = vec![7];
        assert!(penalised(&context));
        context.extend(std::iter::repeat_n(50, 64));
        assert!(!penalised(&context), "token 7 is 65 tokens back");
    }
}
