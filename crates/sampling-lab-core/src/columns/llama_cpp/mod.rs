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
//!
//! ```text
//! generate(do_sample=True, temperature=1.5) on "The capital of France is"
//!   transformers: T 1.5, then top_k 50                        → 50 tokens
//!   llama.cpp:    top_k 40, top_p .95, min_p .05 at T 1, then T 1.5 → 2 tokens
//! ```

use super::causes::{count, departs, ordinal, Cause, Rule};
use super::thresholds::{Behaviour, Threshold};
use super::{Call, Engine, DrawSource, Drawing, Column, ColumnName, StepView, TokenSampler};
use crate::arguments::params::{EffectiveParams, Field, GenerateArgs, Source};
use crate::arguments::pyvalue::PyValue;
use crate::columns::hf::HfSampling;
use crate::distribution::{ties_at_k, Distribution};
use crate::SamplingError;
use rand_mt::Mt;
use serde::Serialize;
use serde_json::{json, Map, Value};

mod chain;
mod libcxx;

pub use chain::Candidates;
use chain::Prepared;

pub const NAME: ColumnName = ColumnName::new("llama_cpp");

/// The libllama build wllama 3.13.0 bundles (`Wllama.getLibllamaVersion()`).
pub const VERSION: &str = "b12211-7d7f028";

pub const ACCEPTS: Rule = Rule::new("llama_cpp_accepts", NAME);
pub const DEFAULTS: Rule = Rule::new("llama_cpp_defaults", NAME);
pub const NO_DO_SAMPLE: Rule = Rule::new("llama_cpp_no_do_sample", NAME);
pub const ORDER: Rule = Rule::new("llama_cpp_order", NAME);
pub const EXACTLY_K: Rule = Rule::new("llama_cpp_exactly_k", NAME);
pub const PENALTY_WINDOW: Rule = Rule::new("llama_cpp_penalty_window", NAME);
pub const IGNORED: Rule = Rule::new("llama_cpp_ignored", NAME);
pub const ARITHMETIC: Rule = Rule::new("llama_cpp_arithmetic", NAME);

pub static COLUMN: Column = Column {
    name: NAME,
    label: "llama.cpp (wllama 3.13)",
    short: "llama.cpp",
    definition: "llama.cpp's sampler chain as wllama 3.13.0 runs it (libllama b12211): top_k 40, top_p 0.95 and \
        min_p 0.05 unless sent, all at temperature 1, then the temperature, then a std::mt19937 draw.",
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

/// `common_params_sampling`'s defaults, which a request's missing keys keep.
const DEFAULT_TEMPERATURE: f32 = 0.8;
const DEFAULT_TOP_K: i32 = 40;
const DEFAULT_TOP_P: f32 = 0.95;
const DEFAULT_MIN_P: f32 = 0.05;
/// The penalty's window (`repeat_last_n`), prompt tokens included.
pub const REPEAT_LAST_N: usize = 64;

/// A request's argument as llama.cpp reads it, and where it came from.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Carried {
    /// The `generate()` argument as the call wrote it (`None` when not passed).
    pub python: Option<String>,
    /// The key and value sent to wllama (`None`: nothing sent, llama.cpp's default applies).
    pub sent: Option<String>,
    /// How it carried over, in words.
    pub how: String,
}

/// A value llama.cpp clamped instead of refusing.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Clamped {
    pub argument: String,
    pub became: String,
    /// transformers' `ValueError` for the same value, if it raises one.
    pub transformers: Option<String>,
}

/// llama.cpp's sampling parameters for one request, after its schema's clamps.
#[derive(Clone, Debug, PartialEq)]
pub struct LlamaCpp {
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
    pub clamped: Vec<Clamped>,
    /// The request's keys as a port sends them.
    pub request: Map<String, Value>,
}

impl LlamaCpp {
    /// The request a port of `args` sends, as llama.cpp's schema reads it.
    pub fn from_args(args: &GenerateArgs, generation_config: Option<&crate::GenerationConfig>) -> Self {
        Self::from_call(&Call::new(args, generation_config))
    }

    fn from_call(call: &Call) -> Self {
        let mut request = Request::default();
        let greedy = call
            .args
            .get(Field::DoSample)
            .is_some_and(|v| !v.is_none() && !v.truthy());
        let temperature = if greedy {
            request.carry(
                Field::DoSample,
                call,
                Some(("temperature", json!(0))),
                "llama.cpp has no do_sample: greedy is temperature 0",
            );
            0.0
        } else {
            if let Some(v) = call.args.get(Field::DoSample) {
                request.note(
                    Field::DoSample,
                    v,
                    "nothing to send: llama.cpp samples unless the temperature is 0 or less",
                );
            }
            request.number(
                Field::Temperature,
                call,
                "temperature",
                DEFAULT_TEMPERATURE,
                1.0,
                0.0,
                f32::INFINITY,
            )
        };
        let top_k = request.number(
            Field::TopK,
            call,
            "top_k",
            DEFAULT_TOP_K as f32,
            0.0,
            0.0,
            i32::MAX as f32,
        ) as i32;
        let typical_p = request.number(
            Field::TypicalP,
            call,
            "typical_p",
            1.0,
            1.0,
            f32::NEG_INFINITY,
            f32::INFINITY,
        );
        let top_p = request.number(Field::TopP, call, "top_p", DEFAULT_TOP_P, 1.0, 0.0, 1.0);
        let min_p = request.number(Field::MinP, call, "min_p", DEFAULT_MIN_P, 0.0, 0.0, 1.0);
        let repeat_penalty = request.number(
            Field::RepetitionPenalty,
            call,
            "repeat_penalty",
            1.0,
            1.0,
            f32::NEG_INFINITY,
            f32::INFINITY,
        );
        for field in [Field::NoRepeatNgramSize, Field::EpsilonCutoff, Field::EtaCutoff] {
            if let Some(v) = call.args.get(field).filter(|v| v.number().is_some_and(|x| x != 0.0)) {
                request.ignored.push(format!("{}={}", field.name(), v.repr()));
            }
        }
        let unread: Vec<String> = Field::ALL
            .into_iter()
            .filter(|f| call.effective.source(*f) == Source::GenerationConfig)
            .map(|f| format!("{}={}", f.name(), call.effective.get(f).repr()))
            .collect();
        if !unread.is_empty() {
            request
                .ignored
                .push(format!("generation_config.json ({})", unread.join(", ")));
        }
        LlamaCpp {
            temperature,
            top_k,
            top_p,
            min_p,
            typical_p,
            repeat_penalty,
            carried: request.carried,
            ignored: request.ignored,
            clamped: request.clamped,
            request: request.sent,
        }
    }

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

    pub fn is_greedy(&self) -> bool {
        self.temperature <= 0.0
    }

    pub fn describe(&self) -> String {
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

/// The request being built from a call: what is sent, and how each argument carried over.
#[derive(Default)]
struct Request {
    sent: Map<String, Value>,
    carried: Vec<Carried>,
    ignored: Vec<String>,
    clamped: Vec<Clamped>,
}

impl Request {
    /// A numeric parameter: passed (clamped to `[low, high]` as the schema does), passed as
    /// None (`off`, which a port means by None), or not passed (llama.cpp's `default`).
    #[allow(clippy::too_many_arguments)] // one parameter's whole description, read in one place
    fn number(
        &mut self,
        field: Field,
        call: &Call,
        key: &str,
        default: f32,
        off: f32,
        low: f32,
        high: f32,
    ) -> f32 {
        let Some(value) = call.args.get(field) else {
            // A default that is the off value changes nothing worth listing.
            if default != off {
                self.carried.push(Carried {
                    python: None,
                    sent: None,
                    how: format!("not passed: llama.cpp's default {key} {}", short(default)),
                });
            }
            return default;
        };
        let Some(x) = value.number() else {
            self.carry(
                field,
                call,
                Some((key, json!(off))),
                "None means off: sent as llama.cpp's off value (JSON null would give its default)",
            );
            return off;
        };
        let sent = if value.is_int() { json!(x as i64) } else { json!(x) };
        let clamped = (x as f32).clamp(low, high);
        if clamped != x as f32 {
            self.clamped.push(Clamped {
                argument: format!("{}={}", field.name(), value.repr()),
                became: format!(
                    "{key} {}{}",
                    short(clamped),
                    if is_off(key, clamped) { " (off)" } else { "" }
                ),
                transformers: transformers_refusal(field, value),
            });
            self.carry(
                field,
                call,
                Some((key, sent)),
                &format!("clamped to {}", short(clamped)),
            );
        } else if key == field.name() {
            self.carry(field, call, Some((key, sent)), "same name");
        } else {
            self.carry(
                field,
                call,
                Some((key, sent)),
                &format!("renamed, over the last {REPEAT_LAST_N} tokens"),
            );
        }
        clamped
    }

    fn carry(&mut self, field: Field, call: &Call, sent: Option<(&str, Value)>, how: &str) {
        let python = call.args.get(field).map(|v| format!("{}={}", field.name(), v.repr()));
        let sent = sent.map(|(key, value)| {
            self.sent.insert(key.into(), value.clone());
            format!("{key}: {value}")
        });
        self.carried.push(Carried {
            python,
            sent,
            how: how.into(),
        });
    }

    fn note(&mut self, field: Field, value: PyValue, how: &str) {
        self.carried.push(Carried {
            python: Some(format!("{}={}", field.name(), value.repr())),
            sent: None,
            how: how.into(),
        });
    }
}

fn is_off(key: &str, value: f32) -> bool {
    match key {
        "top_k" | "min_p" => value <= 0.0,
        "top_p" | "typical_p" => value >= 1.0,
        _ => false,
    }
}

/// An f32 as JSON, in its shortest decimal form (`0.95`, not `0.949999988079071`).
fn number(x: f32) -> Value {
    short(x).parse::<f64>().map_or(Value::Null, |v| json!(v))
}

/// An f32 as a person writes it (`0.95`, not `0.949999988079071`).
fn short(x: f32) -> String {
    if x.is_infinite() {
        return if x > 0.0 { "inf".into() } else { "-inf".into() };
    }
    format!("{x}")
}

/// The `ValueError` transformers raises for this one argument when sampling, if any.
fn transformers_refusal(field: Field, value: PyValue) -> Option<String> {
    let mut args = GenerateArgs::default();
    args.set(Field::DoSample, PyValue::Bool(true));
    args.set(field, value);
    HfSampling::from_params(&EffectiveParams::resolve(&args, None))
        .err()
        .map(|e| e.to_string())
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
    fn notes(&self, step: &StepView) -> Vec<String> {
        let mut notes: Vec<String> = self
            .carried
            .iter()
            .map(|c| match (&c.python, &c.sent) {
                (Some(python), Some(sent)) => format!("{python} → {sent} ({})", c.how),
                (Some(python), None) => format!("{python}: {}", c.how),
                (None, _) => c.how.clone(),
            })
            .collect();
        notes.extend(self.clamped.iter().filter_map(|c| {
            c.transformers.as_ref().map(|t| {
                format!(
                    "{} clamped to {}, where transformers raises “{t}”",
                    c.argument, c.became
                )
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
        details.insert("version".into(), json!(VERSION));
        let chain: Vec<Value> = self
            .chain()
            .into_iter()
            .map(|(name, value)| json!({"sampler": name, "value": value}))
            .collect();
        details.insert("chain".into(), json!(chain));
        details.insert("request".into(), Value::Object(self.request.clone()));
        details.insert("ignored".into(), json!(self.ignored));
        details.insert("clamped".into(), json!(self.clamped));
        details
    }

    fn causes(&self, step: &StepView) -> Vec<Cause> {
        causes(self, step)
    }

    fn code(&self) -> Option<String> {
        Some(request_code(self))
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

/// The wllama call a port of these arguments makes.
fn request_code(chain: &LlamaCpp) -> String {
    let mut code = String::from(
        "// wllama 3.13.0: the request a port of these generate() arguments sends (the server's key names).\n",
    );
    code += "const completion = await wllama.createChatCompletion({\n  messages,\n";
    for (key, value) in &chain.request {
        code += &format!("  {key}: {value},\n");
    }
    code += "  seed,\n});\n";
    let defaults: Vec<String> = chain
        .carried
        .iter()
        .filter(|c| c.python.is_none())
        .map(|c| c.how.trim_start_matches("not passed: llama.cpp's default ").to_string())
        .collect();
    if !defaults.is_empty() {
        code += &format!("// Not sent, so llama.cpp's defaults apply: {}.\n", defaults.join(", "));
    }
    if !chain.ignored.is_empty() {
        code += &format!("// Nothing in llama.cpp reads {}.\n", chain.ignored.join(", "));
    }
    code
}

fn causes(chain: &LlamaCpp, step: &StepView) -> Vec<Cause> {
    if !departs(step.compare) {
        return Vec::new();
    }
    let kept = step.distribution.as_ref().map_or(0, Distribution::kept);
    let hf_kept = step.hf_distribution().map_or(0, Distribution::kept);
    let (hf, _) = match step.hf {
        Ok(pair) => pair,
        Err(message) => {
            let clamps: Vec<String> = chain
                .clamped
                .iter()
                .map(|c| format!("{} to {}", c.argument, c.became))
                .collect();
            let what = match (clamps.is_empty(), chain.is_greedy()) {
                (true, true) => "decodes greedily".to_string(),
                (true, false) => format!("samples from {}", count(kept, "token")),
                (false, true) => format!("clamps {} and decodes greedily", clamps.join(", ")),
                (false, false) => format!("clamps {} and samples from {}", clamps.join(", "), count(kept, "token")),
            };
            return vec![ACCEPTS.says(format!(
                "transformers refuses these arguments (“{message}”); llama.cpp {what}."
            ))];
        }
    };
    let mut out = Vec::new();
    if !hf.do_sample && !chain.is_greedy() {
        out.push(NO_DO_SAMPLE.says(format!(
            "generate() without do_sample=True decodes greedily; llama.cpp has no do_sample and samples at temperature {} from {}.",
            short(chain.temperature),
            count(kept, "token")
        )));
    }
    let filled: Vec<String> = chain
        .carried
        .iter()
        .filter(|c| c.python.is_none())
        .filter(|c| !(c.how.contains("top_k") && chain.top_k <= 0))
        .map(|c| c.how.trim_start_matches("not passed: llama.cpp's default ").to_string())
        .collect();
    if hf.do_sample && !filled.is_empty() {
        out.push(DEFAULTS.says(format!(
            "what is not passed takes llama.cpp's defaults, not transformers': {} (transformers: temperature 1.0, top_k 50, no top_p, no min_p).",
            filled.join(", ")
        )));
    }
    let truncates: Vec<String> = chain
        .chain()
        .into_iter()
        .filter(|(name, _)| matches!(*name, "typical" | "top_p" | "min_p"))
        .map(|(name, value)| format!("{name} {value}"))
        .collect();
    if hf.do_sample && !chain.is_greedy() && chain.temperature != 1.0 && !truncates.is_empty() {
        let passed = LlamaCpp {
            temperature: 1.0,
            ..chain.clone()
        }
        .distribution(&step.input.logits, &step.input.context_ids);
        out.push(ORDER.says(format!(
            "llama.cpp cuts with {} at temperature 1, where {} pass, and divides by the temperature {} only then; transformers divides first, and {} pass its cuts.",
            truncates.join(", "),
            count(passed.kept(), "token"),
            short(chain.temperature),
            count(hf_kept, "token")
        )));
    }
    if chain.top_k > 0 && hf.do_sample && ties_at_k(&step.input.logits, chain.top_k as usize).is_some() {
        out.push(EXACTLY_K.says(format!(
            "scores tie at the {} place: transformers keeps every tied token, llama.cpp keeps exactly {} (libc++'s heap decides which).",
            ordinal(chain.top_k as usize),
            chain.top_k
        )));
    }
    if chain.repeat_penalty != 1.0 && step.input.context_ids.len() > REPEAT_LAST_N {
        out.push(PENALTY_WINDOW.says(format!(
            "transformers' repetition penalty covers all {} tokens of the context; llama.cpp's repeat_penalty only the last {REPEAT_LAST_N}.",
            step.input.context_ids.len()
        )));
    }
    if !chain.ignored.is_empty() {
        out.push(IGNORED.says(format!("llama.cpp never reads {}.", chain.ignored.join(", "))));
    }
    if out.is_empty() {
        out.push(ARITHMETIC.says(format!(
            "llama.cpp runs the same rules in f32 (keeping {}); the distributions differ by more than 1e-6.",
            count(kept, "token")
        )));
    }
    out
}

fn thresholds(temperature: PyValue, _logits: &[f32]) -> Vec<Threshold> {
    let Some(t) = temperature.number() else {
        return Vec::new();
    };
    let system = "llama.cpp (wllama 3.13) temperature";
    vec![if t <= 0.0 {
        Threshold::new(
            system,
            Behaviour::Argmax,
            "temperature ≤ 0: the first maximum, silently (a negative one is clamped to 0)".into(),
        )
    } else {
        Threshold::new(
            system,
            Behaviour::Sample,
            format!(
                "logits / {} in f32 after top_k, top_p and min_p at temperature 1; no threshold",
                short(t as f32)
            ),
        )
    }]
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(d.support, [(1, 1.0)]);
    }

    #[test]
    fn top_p_zero_keeps_one_token() {
        let d = chain(r#"{"temperature": 1.0, "top_k": 0, "top_p": 0.0, "min_p": 0.0}"#)
            .distribution(&[0.5, 2.0, 1.0], &[]);
        assert_eq!(d.support, [(1, 1.0)]);
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
