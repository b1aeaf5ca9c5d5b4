//! What transformers' `generate()` samples from: its processors, in its order, with its math.
//!
//! Scores stay f32 wherever transformers keeps them f32 (penalty, temperature, top-k), so that
//! ties are the ties torch sees. Mass thresholds (top-p, min-p, typical, epsilon, eta) are
//! evaluated in f64; a decision that lies within float noise of its threshold, or a cut through
//! a group of tied tokens (torch's unstable sort decides those), is recorded as an ambiguity:
//! the corrected port's report entry lists them (`ambiguities`).

use super::causes::{Cause, Rule};
use super::repetition_penalty::penalise;
use super::thresholds::{Behaviour, Threshold};
use super::torch_f32::{divide_by_temperature, torch_argmax};
use super::{Column, ColumnName, Engine, ExactSampler, StepView, TokenSampler};
use crate::arguments::params::{EffectiveParams, Field, GenerateArgs, Source};
use crate::arguments::pyvalue::{float_repr, PyValue};
use crate::distribution::{log_softmax_f64, Distribution, VANISHING};
use crate::text::Message;
use crate::truncation::{ban_ngrams, top_k, Warper};
use crate::SamplingError;
use serde::Serialize;
use serde_json::{json, Map, Value};

/// The reference column: every other column is compared with it.
pub const NAME: ColumnName = ColumnName::new("hf");

/// The hf column's registry entry.
pub static COLUMN: Column = Column {
    catalogs: super::catalogs!("hf"),
    name: NAME,
    code: None,
    draws: false,
    from_call: |call| Box::new(HfColumn(HfSampling::from_params(&call.effective))),
    thresholds,
    rules: &[UNDRAWABLE],
};

const UNDRAWABLE: Rule = Rule::new("hf_undrawable", NAME);

/// One of transformers' logits processors.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Processor {
    /// `RepetitionPenaltyLogitsProcessor`: the score of each token of the context divided by the
    /// penalty (multiplied, when negative), in f32 as torch computes it.
    RepetitionPenalty(f32),
    /// `NoRepeatNGramLogitsProcessor` with its n.
    NoRepeatNGram(usize),
    /// `TemperatureLogitsWarper`, dividing the f32 scores by the temperature rounded to f32.
    Temperature(f64),
    /// A truncating warper (top-k, top-p, min-p, typical, ε, η).
    Truncate(Warper),
}

impl Processor {
    /// transformers' class name, as `generate()` lists it.
    pub fn class_name(&self) -> &'static str {
        match self {
            Processor::RepetitionPenalty(_) => "RepetitionPenaltyLogitsProcessor",
            Processor::NoRepeatNGram(_) => "NoRepeatNGramLogitsProcessor",
            Processor::Temperature(_) => "TemperatureLogitsWarper",
            Processor::Truncate(step) => step.class_name(),
        }
    }

    /// The processor as `Class(argument)`, for the pipeline's one line.
    fn describe(&self) -> String {
        let arg = match self {
            Processor::RepetitionPenalty(x) => float_repr(f64::from(*x)),
            Processor::NoRepeatNGram(n) => n.to_string(),
            Processor::Temperature(x) => float_repr(*x),
            Processor::Truncate(step) => step.argument(),
        };
        format!("{}({arg})", self.class_name())
    }

    /// The `generate()` argument this processor comes from.
    pub fn field(&self) -> Field {
        match self {
            Processor::RepetitionPenalty(_) => Field::RepetitionPenalty,
            Processor::NoRepeatNGram(_) => Field::NoRepeatNgramSize,
            Processor::Temperature(_) => Field::Temperature,
            Processor::Truncate(step) => step.field(),
        }
    }
}

/// hf's processors as `name=value`, those `lacks` picks, each marked when transformers filled it
/// in by default: a list for a sentence.
pub(crate) fn processors_as_arguments(step: &StepView, lacks: impl Fn(&Processor) -> bool) -> Vec<Message> {
    let Ok((hf, _)) = step.hf else { return Vec::new() };
    hf.processors
        .iter()
        .filter(|p| lacks(p))
        .map(|p| {
            let field = p.field();
            let id = if step.effective.source(field) == Source::Default {
                "argument-implicit"
            } else {
                "argument"
            };
            Message::new(id).verbatim(
                "argument",
                format!("{}={}", field.name(), step.effective.get(field).repr()),
            )
        })
        .collect()
}

/// A decision torch may take differently for reasons of floating point or sort order.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct Ambiguity {
    /// transformers' class of the processor that took the decision.
    pub processor: &'static str,
    /// The decision and why torch may take it otherwise, with the numbers.
    pub reason: Message,
}

/// transformers' sampling pipeline for one set of effective parameters.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct HfSampling {
    /// The processors `generate()` runs, in its order (the warpers only when sampling).
    pub processors: Vec<Processor>,
    /// Whether it draws (softmax, then `torch.multinomial`) or takes the argmax.
    pub do_sample: bool,
}

/// The result of running the pipeline on one set of logits.
#[derive(Clone, Debug)]
pub(crate) struct HfOutcome {
    /// What one draw comes from (the argmax alone when greedy): the reference distribution.
    pub distribution: Distribution,
    /// The decisions torch's float arithmetic or sort order may take otherwise, if any: where
    /// no port can be held to these probabilities exactly.
    pub ambiguities: Vec<Ambiguity>,
}

impl HfSampling {
    /// `_get_logits_processor` with the checks of each processor's constructor, in the order
    /// transformers runs them, so the first error raised is the one transformers raises.
    pub fn from_params(p: &EffectiveParams) -> Result<Self, SamplingError> {
        let mut processors = Vec::new();
        let penalty = p.get(Field::RepetitionPenalty);
        if let Some(r) = penalty.number().filter(|x| *x != 1.0) {
            // transformers checks `not penalty > 0`, which a NaN fails too.
            if !penalty.is_float() || r.is_nan() || r <= 0.0 {
                return Err(SamplingError::Refused(format!(
                    "`penalty` has to be a strictly positive float, but is {}",
                    penalty.repr()
                )));
            }
            processors.push(Processor::RepetitionPenalty(r as f32));
        }
        let ngram = p.get(Field::NoRepeatNgramSize);
        if ngram.number().is_some_and(|x| x > 0.0) {
            if !ngram.is_int() {
                return Err(SamplingError::Refused(format!(
                    "`ngram_size` has to be a strictly positive integer, but is {}",
                    ngram.repr()
                )));
            }
            processors.push(Processor::NoRepeatNGram(ngram.number().unwrap() as usize));
        }
        let do_sample = p.get(Field::DoSample).truthy();
        if do_sample {
            push_warpers(p, &mut processors)?;
        }
        Ok(HfSampling { processors, do_sample })
    }

    /// The pipeline in one line: the report entry's `sampling`.
    fn describe(&self) -> String {
        let steps: Vec<String> = self.processors.iter().map(Processor::describe).collect();
        let pipeline = if steps.is_empty() {
            "LogitsProcessorList([])".to_string()
        } else {
            steps.join(" → ")
        };
        let draw = if self.do_sample {
            "softmax → multinomial"
        } else {
            "argmax"
        };
        format!("{pipeline} → {draw}")
    }

    /// The temperature it divides by (1 when no temperature warper runs).
    pub(crate) fn temperature(&self) -> f64 {
        self.processors
            .iter()
            .find_map(|p| match p {
                Processor::Temperature(t) => Some(*t),
                _ => None,
            })
            .unwrap_or(1.0)
    }

    /// Runs the processors on raw logits; `context` is the whole `input_ids`, prompt included.
    pub fn apply(&self, logits: &[f32], context: &[u32]) -> HfOutcome {
        let mut scores = logits.to_vec();
        let mut ambiguities = Vec::new();
        for processor in &self.processors {
            apply_processor(processor, &mut scores, context, &mut ambiguities);
        }
        let distribution = if self.do_sample {
            Distribution::softmax_of_finite(&scores)
        } else {
            Distribution::one_hot(torch_argmax(&scores), scores.len())
        };
        HfOutcome {
            distribution,
            ambiguities,
        }
    }
}

/// The sampling warpers, in `_get_logits_processor`'s order and with its conditions.
fn push_warpers(p: &EffectiveParams, processors: &mut Vec<Processor>) -> Result<(), SamplingError> {
    let temperature = p.get(Field::Temperature);
    if temperature.number().is_some_and(|t| t != 1.0) {
        let t = temperature.number().unwrap();
        // `not temperature > 0`, which a NaN fails too.
        if !temperature.is_float() || t.is_nan() || t <= 0.0 {
            let mut msg = format!(
                "`temperature` (={}) has to be a strictly positive float, otherwise your next token scores will be invalid.",
                temperature.repr()
            );
            if temperature.is_float() && t == 0.0 {
                msg.push_str(" If you're looking for greedy decoding strategies, set `do_sample=False`.");
            }
            return Err(SamplingError::Refused(msg));
        }
        processors.push(Processor::Temperature(t));
    }
    // Field::ALL lists the truncation warpers in `_get_logits_processor`'s order.
    for field in Field::ALL {
        if let Some(step) = Warper::from_argument(field, p.get(field))? {
            processors.push(Processor::Truncate(step));
        }
    }
    Ok(())
}

fn apply_processor(processor: &Processor, scores: &mut [f32], context: &[u32], amb: &mut Vec<Ambiguity>) {
    let kept = match *processor {
        // torch computes the penalty in the f32 of the scores, over the whole context.
        Processor::RepetitionPenalty(penalty) => return penalise(scores, context, penalty),
        Processor::NoRepeatNGram(n) => return ban_ngrams(scores, context, n),
        Processor::Temperature(t) => return divide_by_temperature(scores, t),
        // Top-k compares the f32 scores themselves: ties are exact equalities of scores.
        Processor::Truncate(Warper::TopK(k)) => {
            top_k::keep(&scores.iter().map(|s| f64::from(*s)).collect::<Vec<_>>(), k)
        }
        Processor::Truncate(step) => step.keep(&probs_f64(scores)),
    };
    let name = processor.class_name();
    amb.extend(kept.notes.into_iter().map(|reason| Ambiguity {
        processor: name,
        reason,
    }));
    scores
        .iter_mut()
        .zip(kept.mask)
        .filter(|(_, k)| !k)
        .for_each(|(s, _)| *s = f32::NEG_INFINITY);
}

fn probs_f64(scores: &[f32]) -> Vec<f64> {
    log_softmax_f64(scores).into_iter().map(f64::exp).collect()
}

/// The hf column: transformers' pipeline for the call, or the `ValueError` it raises.
struct HfColumn(Result<HfSampling, SamplingError>);

impl Engine for HfColumn {
    fn distribution(&self, logits: &[f32], context: &[u32]) -> Result<Distribution, SamplingError> {
        let hf = self.0.as_ref().map_err(Clone::clone)?;
        Ok(hf.apply(logits, context).distribution)
    }

    fn describe(&self) -> String {
        match &self.0 {
            Ok(hf) => hf.describe(),
            Err(_) => "generate() raises ValueError".into(),
        }
    }

    fn details(&self, step: &StepView) -> Map<String, Value> {
        let (processors, greedy_token) = match (&self.0, step.distribution) {
            (Ok(hf), Ok(d)) => (
                hf.processors.iter().map(Processor::class_name).collect(),
                (!hf.do_sample).then(|| d.support()[0].0),
            ),
            _ => (Vec::new(), None),
        };
        let mut details = Map::new();
        details.insert("processors".into(), json!(processors));
        details.insert("greedy_token".into(), json!(greedy_token));
        details
    }

    /// Tokens transformers keeps (finite scores) that no draw reaches: why its kept count can be
    /// far above another column's while the distributions agree.
    fn causes(&self, step: &StepView) -> Vec<Cause> {
        let Ok(d) = step.distribution else { return Vec::new() };
        let undrawable = d.support().iter().filter(|(_, p)| *p < VANISHING).count();
        if undrawable == 0 {
            return Vec::new();
        }
        vec![UNDRAWABLE.says(
            Message::new("cause-hf-undrawable")
                .count("count", d.kept())
                .count("undrawable", undrawable)
                .count("drawable", d.kept() - undrawable),
        )]
    }

    fn sampler(&self, seed: u64) -> Result<Box<dyn TokenSampler>, SamplingError> {
        let hf = self.0.clone()?;
        Ok(Box::new(ExactSampler::new(
            move |logits: &[f32], context: &[u32]| Ok(hf.apply(logits, context).distribution),
            seed,
        )))
    }
}

/// transformers with sampling on (its validation decides) and without (the temperature is only
/// warned about).
fn thresholds(temperature: PyValue, _logits: &[f32]) -> Vec<Threshold> {
    let Some(t) = temperature.number() else {
        return Vec::new();
    };
    let mut args = GenerateArgs::default();
    args.set(Field::DoSample, PyValue::Bool(true));
    args.set(Field::Temperature, temperature);
    args.set(Field::TopK, PyValue::Int(0));
    let sampling = match HfSampling::from_params(&EffectiveParams::resolve(&args, None)) {
        Ok(_) => (Behaviour::Sample, Message::new("threshold-hf-samples")),
        Err(message) => (
            Behaviour::Error,
            Message::new("threshold-value-error").verbatim("error", message.to_string()),
        ),
    };
    let greedy = if t == 1.0 {
        Message::new("threshold-hf-greedy")
    } else {
        Message::new("threshold-hf-greedy-warned").verbatim("temperature", temperature.repr())
    };
    vec![
        Threshold::new("transformers generate(do_sample=True)", sampling.0, sampling.1),
        Threshold::new("transformers generate(do_sample=False)", Behaviour::Argmax, greedy),
    ]
}
