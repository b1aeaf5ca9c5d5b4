//! transformers.js (`@huggingface/transformers` 4.3.2, npm): the JavaScript port of the same
//! `generate()` arguments, read in its `models/modeling_utils.js` (`_prepare_generation_config`,
//! `_get_logits_processor`) and `generation/logits_sampler.js`, and held to its real sampler by
//! `tests/transformers_js/`.
//!
//! - The arguments are merged with `Object.assign`: the call over the model's
//!   `generation_config.json` over the class defaults (`top_k = 50`); a `null` is copied like
//!   any value, so `top_k: null` means no top-k.
//! - `temperature: 0` with `do_sample: true` is not an error: it logs a warning and decodes
//!   greedily.
//! - Only a repetition penalty, n-gram bans and the temperature warper run: the top-k and top-p
//!   warpers are commented out ("TODO"), so **top_p (and min_p, typical_p, ε, η) never apply**.
//! - `MultinomialSampler` keeps exactly `top_k` tokens (ONNX `TopK`: of equal scores the lower
//!   id first), then softmax and a weighted draw; `GreedySampler` takes the first maximum.
//!
//! ```text
//! generate({do_sample: true, temperature: 0.2, top_p: 0.9})   // top-50 at 0.2; top_p does nothing
//! generate({do_sample: true, top_k: 2}) on [3, 2, 2, 1]        // keeps ids 0 and 1, never 2
//! ```

use super::causes::{departs, listed, Cause, Rule};
use super::repetition_penalty::penalise;
use super::thresholds::{Behaviour, Threshold};
use super::{Column, ColumnName, Engine, ExactSampler, StepView, TokenSampler};
use crate::arguments::params::{Field, GenerateArgs, GenerationConfig};
use crate::arguments::pyvalue::{float_repr, PyValue};
use crate::distribution::Distribution;
use crate::text::Message;
use crate::truncation::ban_ngrams;
use crate::SamplingError;
use serde_json::{json, Map, Value};

/// transformers.js' column.
pub const NAME: ColumnName = ColumnName::new("transformers_js");

const REFUSED: Rule = Rule::new("transformers_js_refused", NAME);
const ACCEPTS: Rule = Rule::new("transformers_js_accepts", NAME);
const TOP_P_IGNORED: Rule = Rule::new("transformers_js_top_p_ignored", NAME);
const EXACTLY_K: Rule = Rule::new("transformers_js_exactly_k", NAME);
const ARITHMETIC: Rule = Rule::new("transformers_js_arithmetic", NAME);

/// transformers.js' registry entry.
pub static COLUMN: Column = Column {
    catalogs: super::catalogs!("transformers_js"),
    name: NAME,
    code: Some("JavaScript"),
    draws: false,
    from_call: |call| {
        Box::new(TransformersJsColumn(
            TransformersJs::from_args(call.args, call.generation_config),
            options_code(call.args),
        ))
    },
    thresholds,
    rules: &[REFUSED, ACCEPTS, TOP_P_IGNORED, EXACTLY_K, ARITHMETIC],
};

/// The version whose behaviour this column reproduces (pinned in `package-lock.json`).
pub const VERSION: &str = "4.3.2";

/// transformers.js' sampler set up for one call.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct TransformersJs {
    /// Whether `MultinomialSampler` draws; off, `GreedySampler` takes the first maximum.
    pub do_sample: bool,
    /// The temperature warper's divisor, when it runs.
    pub temperature: Option<f64>,
    /// Tokens `MultinomialSampler` keeps; `None` keeps the whole vocabulary.
    pub top_k: Option<usize>,
    /// The repetition penalty, when it is not 1; applied in JavaScript's f64 arithmetic.
    pub repetition_penalty: Option<f64>,
    /// The n of the n-gram ban, when it runs.
    pub no_repeat_ngram_size: Option<usize>,
    /// `temperature: 0` turned `do_sample` off (a warning, where transformers raises).
    pub switched_to_greedy: bool,
    /// Effective arguments transformers would apply and transformers.js never does.
    pub ignored: Vec<String>,
}

impl TransformersJs {
    /// The sampler `generate()` sets up for the call (the model's `generation_config.json`
    /// included, `null`s copied), or the error a fractional `top_k` or n-gram size gives.
    pub fn from_args(args: &GenerateArgs, config: Option<&GenerationConfig>) -> Result<Self, SamplingError> {
        let value = |field: Field| {
            args.get(field)
                .or_else(|| config.and_then(|c| c.value(field)))
                // transformers.js' `GenerationConfig` class has transformers' defaults for these.
                .unwrap_or_else(|| field.global_default())
        };
        let number = |field: Field| value(field).number();
        let mut do_sample = value(Field::DoSample).truthy();
        let switched_to_greedy = do_sample && number(Field::Temperature) == Some(0.0);
        do_sample &= !switched_to_greedy;
        let top_k = positive_whole(number(Field::TopK), |k| {
            SamplingError::Refused(format!(
                "RangeError: The number {k} cannot be converted to a BigInt because it is not an integer"
            ))
        })?;
        let ngram = positive_whole(number(Field::NoRepeatNgramSize), |n| {
            SamplingError::invalid(Message::new("invalid-ngram-not-whole").verbatim("n", n.to_string()))
        })?;
        let ignored = if do_sample { ignored_warpers(&value) } else { Vec::new() };
        Ok(TransformersJs {
            do_sample,
            temperature: number(Field::Temperature).filter(|t| do_sample && *t != 1.0),
            top_k,
            repetition_penalty: number(Field::RepetitionPenalty).filter(|r| *r != 1.0),
            no_repeat_ngram_size: ngram,
            switched_to_greedy,
            ignored,
        })
    }

    /// The processors and the sampler, in one line: the report entry's `sampling`.
    fn describe(&self) -> String {
        let mut steps = Vec::new();
        if let Some(r) = self.repetition_penalty {
            steps.push(format!("RepetitionPenaltyLogitsProcessor({})", float_repr(r)));
        }
        if let Some(n) = self.no_repeat_ngram_size {
            steps.push(format!("NoRepeatNGramLogitsProcessor({n})"));
        }
        if let Some(t) = self.temperature {
            steps.push(format!("TemperatureLogitsWarper({})", float_repr(t)));
        }
        steps.push(match (self.do_sample, self.top_k) {
            (false, _) => "GreedySampler".into(),
            (true, Some(k)) => format!("MultinomialSampler(topk {k} → softmax → draw)"),
            (true, None) => "MultinomialSampler(softmax → draw)".into(),
        });
        steps.join(" → ")
    }

    /// What one draw comes from, given the step's raw logits and every id so far.
    pub fn distribution(&self, logits: &[f32], context: &[u32]) -> Distribution {
        let scores = self.processed(logits, context);
        if !self.do_sample {
            return Distribution::one_hot(first_maximum(&scores), scores.len());
        }
        let kept = onnx_top_k(&scores, self.top_k.unwrap_or(scores.len()));
        let max = f64::from(scores[kept[0]]);
        // `softmax` maps a Float32Array: each exponential is stored as an f32.
        let weights = kept
            .iter()
            .map(|&i| (i as u32, f64::from(((f64::from(scores[i]) - max).exp()) as f32)));
        Distribution::from_weights(weights, scores.len())
    }

    /// The processors in `_get_logits_processor`'s order, with JavaScript's f64 arithmetic on
    /// the f32 scores.
    fn processed(&self, logits: &[f32], context: &[u32]) -> Vec<f32> {
        let mut scores = logits.to_vec();
        if let Some(r) = self.repetition_penalty {
            // JavaScript's numbers: the f64 of each score, stored back into the Float32Array.
            penalise(&mut scores, context, r);
        }
        if let Some(n) = self.no_repeat_ngram_size {
            ban_ngrams(&mut scores, context, n);
        }
        if let Some(t) = self.temperature {
            scores.iter_mut().for_each(|s| *s = (f64::from(*s) / t) as f32);
        }
        scores
    }
}

/// A count that only applies when positive (`> 0` in JavaScript), refused when fractional.
fn positive_whole(
    value: Option<f64>,
    fractional: impl Fn(f64) -> SamplingError,
) -> Result<Option<usize>, SamplingError> {
    match value {
        Some(x) if x > 0.0 && x.fract() != 0.0 => Err(fractional(x)),
        Some(x) if x > 0.0 => Ok(Some(x as usize)),
        _ => Ok(None),
    }
}

/// Effective arguments whose warper transformers runs when sampling and transformers.js lacks.
fn ignored_warpers(value: &dyn Fn(Field) -> PyValue) -> Vec<String> {
    let applies = |field: Field, v: f64| match field {
        Field::TopP | Field::TypicalP => v < 1.0,
        Field::MinP => true,
        _ => v > 0.0 && v < 1.0,
    };
    [
        Field::TopP,
        Field::MinP,
        Field::TypicalP,
        Field::EpsilonCutoff,
        Field::EtaCutoff,
    ]
    .into_iter()
    .filter(|f| value(*f).number().is_some_and(|v| applies(*f, v)))
    .map(|f| format!("{}={}", f.name(), value(f).repr()))
    .collect()
}

/// The ONNX `TopK` operator's choice: the k largest, of equal values the lower index first.
fn onnx_top_k(scores: &[f32], k: usize) -> Vec<usize> {
    let by_score = |a: &usize, b: &usize| scores[*b].total_cmp(&scores[*a]).then(a.cmp(b));
    let mut order: Vec<usize> = (0..scores.len()).collect();
    let k = k.min(scores.len());
    if k < order.len() {
        order.select_nth_unstable_by(k, by_score);
        order.truncate(k);
    }
    order.sort_unstable_by(by_score);
    order
}

/// `max()` of transformers.js' maths: the first maximum; a NaN wins only at index 0.
fn first_maximum(scores: &[f32]) -> usize {
    let mut best = 0;
    for (i, s) in scores.iter().enumerate().skip(1) {
        if *s > scores[best] {
            best = i;
        }
    }
    best
}

/// transformers.js' sampler for the call, or what it throws setting it up.
struct TransformersJsColumn(Result<TransformersJs, SamplingError>, String);

/// The call as a transformers.js user writes it: `generate()`'s own names, values as passed (a
/// None as `null`, which transformers.js copies over the model's value).
fn options_code(args: &GenerateArgs) -> String {
    let options: Vec<String> = args
        .passed()
        .map(|(field, value)| format!("{}: {}", field.name(), value.to_json()))
        .collect();
    let options = if options.is_empty() {
        String::new()
    } else {
        format!(" {},", options.join(", "))
    };
    format!(
        "// @huggingface/transformers {VERSION}\n\
         const output = await generator(messages, {{{options} max_new_tokens }});\n"
    )
}

impl Engine for TransformersJsColumn {
    fn distribution(&self, logits: &[f32], context: &[u32]) -> Result<Distribution, SamplingError> {
        Ok(self.0.as_ref().map_err(Clone::clone)?.distribution(logits, context))
    }

    fn describe(&self) -> String {
        match &self.0 {
            Ok(t) => t.describe(),
            Err(_) => "generate() throws".into(),
        }
    }

    fn notes(&self, _step: &StepView) -> Vec<Message> {
        let switched = self.0.as_ref().is_ok_and(|t| t.switched_to_greedy);
        switched
            .then(|| Message::new("note-transformers_js-switched-to-greedy"))
            .into_iter()
            .collect()
    }

    /// The version reproduced, the arguments it never applies, and whether it went greedy.
    fn details(&self, _step: &StepView) -> Map<String, Value> {
        let (ignored, switched) = match &self.0 {
            Ok(t) => (t.ignored.clone(), t.switched_to_greedy),
            Err(_) => (Vec::new(), false),
        };
        let mut details = Map::new();
        details.insert("version".into(), json!(VERSION));
        details.insert("ignored".into(), json!(ignored));
        details.insert("switched_to_greedy".into(), json!(switched));
        details
    }

    fn code(&self) -> Option<String> {
        Some(self.1.clone())
    }

    fn causes(&self, step: &StepView) -> Vec<Cause> {
        match &self.0 {
            Ok(tjs) => causes(tjs, step),
            Err(e) => vec![REFUSED.says(
                Message::new("cause-transformers_js-refused")
                    .verbatim("version", VERSION)
                    .verbatim("error", e.to_string()),
            )],
        }
    }

    fn sampler(&self, seed: u64) -> Result<Box<dyn TokenSampler>, SamplingError> {
        let tjs = self.0.clone()?;
        Ok(Box::new(ExactSampler::new(
            move |logits: &[f32], context: &[u32]| Ok(tjs.distribution(logits, context)),
            seed,
        )))
    }
}

fn causes(tjs: &TransformersJs, step: &StepView) -> Vec<Cause> {
    if !departs(step.compare) {
        return Vec::new();
    }
    if let Err(message) = step.hf {
        let id = if tjs.switched_to_greedy {
            "cause-transformers_js-accepts-greedy"
        } else {
            "cause-transformers_js-accepts"
        };
        return vec![ACCEPTS.says(
            Message::new(id)
                .verbatim("error", message.to_string())
                .verbatim("version", VERSION),
        )];
    }
    let kept = step.distribution.as_ref().map_or(0, Distribution::kept);
    let hf_kept = step.hf_distribution().map_or(0, Distribution::kept);
    let mut out = Vec::new();
    if !tjs.ignored.is_empty() {
        out.push(
            TOP_P_IGNORED.says(
                Message::new("cause-transformers_js-top-p-ignored")
                    .verbatim("version", VERSION)
                    .verbatim("ignored", listed(&tjs.ignored))
                    .count("kept", kept)
                    .count("hf_kept", hf_kept),
            ),
        );
    }
    if let Some(k) = tjs.top_k.filter(|_| tjs.do_sample) {
        if tjs.ignored.is_empty() && hf_kept > k {
            out.push(
                EXACTLY_K.says(
                    Message::new("cause-transformers_js-exactly-k")
                        .count("k", k)
                        .count("hf_kept", hf_kept),
                ),
            );
        }
    }
    if out.is_empty() {
        out.push(ARITHMETIC.says(Message::new("cause-transformers_js-arithmetic").verbatim("version", VERSION)));
    }
    out
}

fn thresholds(temperature: PyValue, _logits: &[f32]) -> Vec<Threshold> {
    let Some(t) = temperature.number() else {
        return Vec::new();
    };
    let system = "transformers.js generate({do_sample: true})";
    let repr = temperature.repr();
    vec![if t == 0.0 {
        Threshold::new(
            system,
            Behaviour::Argmax,
            Message::new("threshold-transformers_js-greedy"),
        )
    } else if t < 0.0 {
        Threshold::new(
            system,
            Behaviour::Sample,
            Message::new("threshold-transformers_js-inverted").verbatim("temperature", repr),
        )
    } else {
        Threshold::new(
            system,
            Behaviour::Sample,
            Message::new("threshold-transformers_js-samples").verbatim("temperature", repr),
        )
    }]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tjs(kwargs: &str) -> TransformersJs {
        TransformersJs::from_args(&GenerateArgs::from_json_str(kwargs).unwrap(), None).unwrap()
    }

    #[test]
    fn top_p_is_never_applied() {
        let t = tjs(r#"{"do_sample": true, "top_k": 0, "top_p": 0.5}"#);
        assert_eq!(t.distribution(&[3.0, 2.0, 1.0, 0.0], &[]).kept(), 4);
        assert_eq!(t.ignored, ["top_p=0.5"]);
    }

    #[test]
    fn top_k_keeps_exactly_k_preferring_the_lower_id_among_ties() {
        let d = tjs(r#"{"do_sample": true, "top_k": 2}"#).distribution(&[3.0, 2.0, 2.0, 1.0], &[]);
        let ids: Vec<u32> = d.support().iter().map(|(i, _)| *i).collect();
        assert_eq!(ids, [0, 1]);
    }

    #[test]
    fn an_unpassed_top_k_is_fifty_as_in_transformers() {
        let logits: Vec<f32> = (0..100).map(|i| -(i as f32) * 0.01).collect();
        assert_eq!(tjs(r#"{"do_sample": true}"#).distribution(&logits, &[]).kept(), 50);
        assert_eq!(
            tjs(r#"{"do_sample": true, "top_k": null}"#)
                .distribution(&logits, &[])
                .kept(),
            100
        );
    }

    #[test]
    fn temperature_zero_with_sampling_decodes_greedily_instead_of_raising() {
        let t = tjs(r#"{"do_sample": true, "temperature": 0}"#);
        assert!(t.switched_to_greedy && !t.do_sample);
        assert_eq!(t.distribution(&[1.0, 5.0, 5.0], &[]).support(), [(1, 1.0)]);
    }

    #[test]
    fn a_model_config_null_removes_the_default_top_k() {
        let config = GenerationConfig::from_json_str(r#"{"top_k": null}"#).unwrap();
        let args = GenerateArgs::from_json_str(r#"{"do_sample": true}"#).unwrap();
        assert_eq!(TransformersJs::from_args(&args, Some(&config)).unwrap().top_k, None);
    }
}
