//! The literal port: `generate()` keyword arguments copied one by one onto candle's
//! `Sampling`, the way candle's own examples wire their flags.
//!
//! It sees only what the user passed: no implicit `top_k=50`, no `generation_config.json`, no
//! validation (a `temperature=0` is silently greedy), a repetition penalty over the last 64 tokens,
//! and nothing for the warpers candle lacks.

use super::candle_port::{sampling_text, CandlePort, PenaltyWindow, REPEAT_LAST_N};
use super::causes::{count, departs, ordinal, source_name, Cause, Rule};
use super::rust_code::{port_program, port_text};
use super::thresholds::{Behaviour, Threshold};
use super::{Engine, Drawing, Column, ColumnName, StepView, TokenSampler};
use crate::arguments::params::{Field, GenerateArgs, Source};
use crate::arguments::pyvalue::PyValue;
use crate::columns::hf::Processor;
use crate::distribution::{ties_at_k, Distribution};
use crate::truncation::Warper;
use crate::SamplingError;
use candle_core::{Device, Tensor};
use candle_transformers::generation::{LogitsProcessor, Sampling};

pub const NAME: ColumnName = ColumnName::new("literal");

pub const IMPLICIT_TOP_K: Rule = Rule::new("implicit_top_k", NAME);
pub const GENERATION_CONFIG: Rule = Rule::new("generation_config", NAME);
pub const TIES: Rule = Rule::new("ties", NAME);
pub const DROPPED: Rule = Rule::new("dropped", NAME);
pub const PENALTY_WINDOW: Rule = Rule::new("penalty_window", NAME);
pub const REFUSED: Rule = Rule::new("refused", NAME);
pub const TOP_P_SKIPPED: Rule = Rule::new("top_p_skipped", NAME);
pub const TOP_P_NOT_RENORMALISED: Rule = Rule::new("top_p_not_renormalised", NAME);

pub static COLUMN: Column = Column {
    name: NAME,
    label: "literal candle port",
    short: "literal",
    definition: "The arguments copied one by one onto candle 0.11.1's Sampling, as candle's examples wire \
        their flags, drawn by its real LogitsProcessor: no implicit top_k, no generation_config.json.",
    code: Some("Rust"),
    draws: true,
    from_call: |call| Box::new(LiteralPort::from_args(call.args)),
    thresholds,
    rules: &[
        IMPLICIT_TOP_K,
        GENERATION_CONFIG,
        TIES,
        DROPPED,
        PENALTY_WINDOW,
        REFUSED,
        TOP_P_SKIPPED,
        TOP_P_NOT_RENORMALISED,
    ],
};


/// The literal port and what it silently leaves out.
#[derive(Clone, Debug, PartialEq)]
pub struct LiteralPort {
    pub port: CandlePort,
    /// Arguments with no candle counterpart, as `name=value`.
    pub dropped: Vec<String>,
}

impl LiteralPort {
    pub fn from_args(args: &GenerateArgs) -> Self {
        // A literal port writes nothing for a None: it is read as "not passed".
        let passed = |field: Field| args.get(field).filter(|v| !v.is_none());
        let temperature = passed(Field::Temperature).and_then(PyValue::number).unwrap_or(1.0);
        let do_sample = passed(Field::DoSample).is_some_and(PyValue::truthy);
        let top_k = passed(Field::TopK)
            .and_then(PyValue::number)
            .filter(|k| *k > 0.0)
            .map(|k| k as usize);
        let top_p = passed(Field::TopP).and_then(PyValue::number);
        let sampling = if !do_sample || temperature <= 0.0 {
            Sampling::ArgMax
        } else {
            match (top_k, top_p) {
                (None, None) => Sampling::All { temperature },
                (Some(k), None) => Sampling::TopK { k, temperature },
                (None, Some(p)) => Sampling::TopP { p, temperature },
                (Some(k), Some(p)) => Sampling::TopKThenTopP { k, p, temperature },
            }
        };
        let penalty = passed(Field::RepetitionPenalty)
            .and_then(PyValue::number)
            .filter(|r| *r != 1.0)
            .map(|r| (r as f32, PenaltyWindow::Last(REPEAT_LAST_N)));
        let dropped = [
            Field::MinP,
            Field::TypicalP,
            Field::EpsilonCutoff,
            Field::EtaCutoff,
            Field::NoRepeatNgramSize,
        ]
        .into_iter()
        .filter_map(|f| passed(f).map(|v| format!("{}={}", f.name(), v.repr())))
        .collect();
        LiteralPort {
            port: CandlePort {
                sampling,
                steps: Vec::new(),
                penalty,
                ban_ngrams: None,
            },
            dropped,
        }
    }
}

impl Engine for LiteralPort {
    fn distribution(&self, logits: &[f32], context: &[u32]) -> Result<Distribution, SamplingError> {
        self.port.distribution(logits, context)
    }

    fn describe(&self) -> String {
        port_text(&self.port)
    }

    fn notes(&self, _step: &StepView) -> Vec<String> {
        let mut notes: Vec<String> = self
            .dropped
            .iter()
            .map(|d| format!("{d} has no candle counterpart and is dropped"))
            .collect();
        if self.port.penalty.is_some() {
            notes.push("repetition penalty over the last 64 tokens, as candle's examples apply it".into());
        }
        notes
    }

    fn causes(&self, step: &StepView) -> Vec<Cause> {
        causes(self, step)
    }

    fn code(&self) -> Option<String> {
        Some(port_program(&self.port))
    }

    fn draws(&self, logits: &[f32], context: &[u32], seed: u64) -> Option<Result<Drawing, SamplingError>> {
        Some(self.port.drawing(logits, context, seed))
    }

    fn sampler(&self, seed: u64) -> Result<Box<dyn TokenSampler>, SamplingError> {
        // Like the candle program it mirrors, the literal port accepts whatever it is given.
        Ok(self.port.sampler(seed))
    }
}

/// The causes that make the literal port differ, most fundamental first; empty when it agrees.
fn causes(literal: &LiteralPort, step: &StepView) -> Vec<Cause> {
    let sampling = &literal.port.sampling;
    let (hf, outcome) = match step.hf {
        Ok(pair) => pair,
        Err(message) => return vec![refused(&message.to_string(), sampling)],
    };
    // A rule that changes nothing drawable here is not why anything differs.
    if !departs(step.compare) {
        return Vec::new();
    }
    let mut out = Vec::new();
    let e = step.effective;
    let literal_has_k = matches!(sampling, Sampling::TopK { .. } | Sampling::TopKThenTopP { .. });
    let hf_k = hf.processors.iter().find_map(|p| match p {
        Processor::Truncate(Warper::TopK(k)) => Some(*k),
        _ => None,
    });
    if let (Some(k), false, true) = (hf_k, literal_has_k, hf.do_sample) {
        if e.source(Field::TopK) != Source::Passed {
            out.push(IMPLICIT_TOP_K.says(format!(
                "top_k was not passed, so transformers uses top_k={k} (from {}); the literal port has no top_k and keeps {}.",
                source_name(e.source(Field::TopK)),
                kept(step.distribution)
            )));
        }
    }
    let from_gc: Vec<&str> = [
        Field::DoSample,
        Field::Temperature,
        Field::TopP,
        Field::MinP,
        Field::TypicalP,
        Field::RepetitionPenalty,
    ]
    .into_iter()
    .filter(|f| e.source(*f) == Source::GenerationConfig)
    .map(Field::name)
    .collect();
    if !from_gc.is_empty() {
        out.push(GENERATION_CONFIG.says(format!(
            "transformers takes {} from the model's generation_config.json; a candle port never reads that file.",
            from_gc.join(", ")
        )));
    }
    if let Sampling::TopKThenTopP { k, p, temperature } = sampling {
        out.push(top_k_then_top_p(
            &step.input.logits,
            *k,
            *p,
            *temperature,
            &outcome.distribution,
        ));
    }
    if let Some(k) = hf_k.filter(|_| literal_has_k) {
        if let Some(tied) = ties_at_k(&step.input.logits, k) {
            out.push(TIES.says(format!(
                "{tied} tokens share the {} highest score: transformers' top-k keeps every one of them ({}), candle keeps exactly {k}.",
                ordinal(k),
                k - 1 + tied
            )));
        }
    }
    if !literal.dropped.is_empty() {
        out.push(DROPPED.says(format!(
            "candle has no counterpart for {}: the literal port drops it.",
            literal.dropped.join(", ")
        )));
    }
    if let Some((_, PenaltyWindow::Last(n))) = literal.port.penalty {
        if step.input.context_ids.len() > n {
            out.push(PENALTY_WINDOW.says(format!(
                "transformers' repetition penalty covers all {} tokens of the context; candle's examples pass only the last {REPEAT_LAST_N}.",
                step.input.context_ids.len()
            )));
        }
    }
    out
}

fn refused(message: &str, sampling: &Sampling) -> Cause {
    let candle = match sampling {
        Sampling::ArgMax => "silently decodes greedily (Sampling::ArgMax)".to_string(),
        _ => format!("samples with {}", sampling_text(sampling)),
    };
    REFUSED.says(format!(
        "transformers refuses these arguments (“{message}”); the literal port {candle}."
    ))
}

fn top_k_then_top_p(logits: &[f32], k: usize, p: f64, temperature: f64, hf: &Distribution) -> Cause {
    let mass = top_k_mass(logits, k, temperature);
    if mass < p {
        TOP_P_SKIPPED.says(format!(
            "the top {k} tokens hold {mass:.3} of the mass, less than top_p={p}: candle's TopKThenTopP then skips the nucleus and keeps all {k}; transformers renormalises the top {k} and cuts at {p} of that, keeping {}.",
            hf.kept()
        ))
    } else {
        TOP_P_NOT_RENORMALISED.says(format!(
            "candle's TopKThenTopP measures top_p={p} against the whole mass; transformers renormalises the top {k} first and measures against that, keeping {}.",
            hf.kept()
        ))
    }
}

/// The probability mass of the `k` highest logits under `temperature`.
fn top_k_mass(logits: &[f32], k: usize, temperature: f64) -> f64 {
    let scaled: Vec<f64> = logits.iter().map(|&l| f64::from(l) / temperature).collect();
    let max = scaled.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mut weights: Vec<f64> = scaled.iter().map(|s| (s - max).exp()).collect();
    let total: f64 = weights.iter().sum();
    let k = k.min(weights.len());
    if k < weights.len() {
        weights.select_nth_unstable_by(k, |a, b| b.total_cmp(a));
    }
    weights[..k].iter().sum::<f64>() / total
}

fn kept(dist: &Result<Distribution, SamplingError>) -> String {
    dist.as_ref()
        .map_or_else(|_| "no tokens".into(), |d| count(d.kept(), "token"))
}

/// candle's two ways to set a temperature, each called for real.
fn thresholds(temperature: PyValue, logits: &[f32]) -> Vec<Threshold> {
    match temperature.number() {
        Some(t) => vec![candle_new(t), candle_all(t, logits)],
        None => Vec::new(),
    }
}

/// `LogitsProcessor::new(seed, Some(t), None)`, asked which branch it took: on two equal logits
/// `ArgMax` always answers 0, and any sampling answers 1 about half the time.
fn candle_new(t: f64) -> Threshold {
    let system = "candle LogitsProcessor::new(seed, Some(t), None)";
    let mut processor = LogitsProcessor::new(0, Some(t), None);
    let probe = Tensor::new(&[0f32, 0.0], &Device::Cpu).expect("a two-element tensor");
    let answers: Result<Vec<u32>, _> = (0..64).map(|_| processor.sample(&probe)).collect();
    match answers {
        Err(e) => Threshold::new(system, Behaviour::Error, SamplingError::from(e).to_string()),
        Ok(ids) if ids.contains(&1) => {
            Threshold::new(system, Behaviour::Sample, "Sampling::All at this temperature".into())
        }
        Ok(_) => Threshold::new(
            system,
            Behaviour::Argmax,
            "below 1e-7 it builds Sampling::ArgMax".into(),
        ),
    }
}

/// `from_sampling(seed, Sampling::All { temperature: t })` on this step's logits.
fn candle_all(t: f64, logits: &[f32]) -> Threshold {
    let system = "candle from_sampling(Sampling::All { temperature: t })";
    let sampling = Sampling::All { temperature: t };
    let drawn = Tensor::new(logits, &Device::Cpu)
        .and_then(|tensor| LogitsProcessor::from_sampling(0, sampling.clone()).sample(&tensor));
    if let Err(e) = drawn {
        return Threshold::new(
            system,
            Behaviour::Error,
            format!("sample() returns Err: {}", SamplingError::from(e)),
        );
    }
    let detail = match CandlePort::plain(sampling).drawable(logits) {
        Ok(ids) if ids.len() == 1 => format!("samples, but only token {} has a nonzero f32 weight", ids[0]),
        Ok(ids) => format!("samples from {}", count(ids.len(), "token")),
        Err(e) => e.to_string(),
    };
    Threshold::new(system, Behaviour::Sample, detail)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::analysis::Analysis;
    use crate::Inspection;
    use serde_json::json;

    fn sampling(kwargs: serde_json::Value) -> Sampling {
        LiteralPort::from_args(&GenerateArgs::from_json(&kwargs).unwrap())
            .port
            .sampling
    }

    #[test]
    fn temperature_alone_keeps_the_whole_vocabulary() {
        assert_eq!(
            sampling(json!({"do_sample": true, "temperature": 0.7})),
            Sampling::All { temperature: 0.7 }
        );
    }

    #[test]
    fn top_k_and_top_p_map_to_top_k_then_top_p() {
        let s = sampling(json!({"do_sample": true, "temperature": 0.7, "top_k": 40, "top_p": 0.9}));
        assert_eq!(
            s,
            Sampling::TopKThenTopP {
                k: 40,
                p: 0.9,
                temperature: 0.7
            }
        );
    }

    #[test]
    fn temperature_zero_is_silently_greedy() {
        assert_eq!(
            sampling(json!({"do_sample": true, "temperature": 0.0})),
            Sampling::ArgMax
        );
    }

    fn rules_for(logits: Vec<f32>, kwargs: &str) -> Vec<&'static str> {
        let input = Inspection {
            logits,
            args: GenerateArgs::from_json_str(kwargs).unwrap(),
            ..Default::default()
        };
        Analysis::run(&input)
            .causes_of(NAME)
            .into_iter()
            .map(|c| c.rule.name())
            .collect()
    }

    fn spread(n: usize) -> Vec<f32> {
        (0..n).map(|i| -(i as f32) * 0.01).collect()
    }

    #[test]
    fn an_unpassed_top_k_is_named_as_implicit() {
        assert_eq!(
            rules_for(spread(100), r#"{"do_sample": true, "temperature": 0.7}"#),
            ["implicit_top_k"]
        );
    }

    #[test]
    fn top_k_then_top_p_names_the_skip_when_the_top_k_mass_is_below_p() {
        let rules = rules_for(spread(100), r#"{"do_sample": true, "top_k": 10, "top_p": 0.9}"#);
        assert_eq!(rules, ["top_p_skipped"]);
    }

    #[test]
    fn top_k_then_top_p_names_the_missing_renormalisation_otherwise() {
        // p = .3, .2, .1 and .4 spread over the rest: the top 3 hold .6 ≥ top_p .55, so candle
        // cuts on the absolute mass (keeping all 3) where transformers cuts on .5, .33, .17 (2).
        let mut logits = vec![(0.4f32 / 97.0).ln(); 100];
        logits[..3].copy_from_slice(&[0.3f32.ln(), 0.2f32.ln(), 0.1f32.ln()]);
        let rules = rules_for(logits, r#"{"do_sample": true, "top_k": 3, "top_p": 0.55}"#);
        assert_eq!(rules, ["top_p_not_renormalised"]);
    }

    #[test]
    fn ties_at_the_k_th_score_are_named() {
        assert_eq!(
            rules_for(vec![3.0, 2.0, 2.0, 1.0], r#"{"do_sample": true, "top_k": 2}"#),
            ["ties"]
        );
    }

    #[test]
    fn the_ties_sentence_says_2nd_not_2_th() {
        let input = Inspection {
            logits: vec![3.0, 2.0, 2.0, 1.0],
            args: GenerateArgs::from_json_str(r#"{"do_sample": true, "top_k": 2}"#).unwrap(),
            ..Default::default()
        };
        let text = Analysis::run(&input).causes_of(NAME)[0].text.clone();
        assert!(text.starts_with("2 tokens share the 2nd highest score"), "{text}");
    }

    #[test]
    fn refused_arguments_say_what_candle_does_instead() {
        assert_eq!(
            rules_for(spread(10), r#"{"do_sample": true, "temperature": 0.0}"#),
            ["refused"]
        );
    }

    #[test]
    fn a_rule_that_changes_nothing_drawable_is_not_named() {
        // top_k 3 then top_p 0.5 keeps the top token on the absolute mass as on the renormalised.
        let mut logits = vec![-20.0f32; 100];
        logits[..5].copy_from_slice(&[5.0, 4.0, 3.0, 2.0, 1.0]);
        assert!(rules_for(logits, r#"{"do_sample": true, "top_k": 3, "top_p": 0.5}"#).is_empty());
    }

    #[test]
    fn agreeing_settings_have_no_cause() {
        assert!(rules_for(spread(100), r#"{"do_sample": true, "temperature": 0.7, "top_k": 40}"#).is_empty());
    }
}
