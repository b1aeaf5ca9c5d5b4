//! The literal port: `generate()` keyword arguments copied one by one onto candle's
//! `Sampling`, the way candle's own examples wire their flags.
//!
//! It sees only what the user passed: no implicit `top_k=50`, no `generation_config.json`, no
//! validation (a `temperature=0` is silently greedy), a repetition penalty over the last 64 tokens,
//! and nothing for the warpers candle lacks.

mod causes;
mod thresholds;

pub(crate) use causes::top_k_mass;

use super::candle_port::{CandlePort, PenaltyWindow, REPEAT_LAST_N};
use super::causes::{Cause, Rule};
use super::rust_code::{port_program, port_text};
use super::{Column, ColumnName, Drawing, Engine, StepView, TokenSampler};
use crate::arguments::params::{Field, GenerateArgs};
use crate::arguments::pyvalue::PyValue;
use crate::distribution::Distribution;
use crate::text::Message;
use crate::SamplingError;
use candle_transformers::generation::Sampling;

/// The literal port's column.
pub const NAME: ColumnName = ColumnName::new("literal");

const IMPLICIT_TOP_K: Rule = Rule::new("implicit_top_k", NAME);
const GENERATION_CONFIG: Rule = Rule::new("generation_config", NAME);
const TIES: Rule = Rule::new("ties", NAME);
const DROPPED: Rule = Rule::new("dropped", NAME);
const PENALTY_WINDOW: Rule = Rule::new("penalty_window", NAME);
const REFUSED: Rule = Rule::new("refused", NAME);
const TOP_P_SKIPPED: Rule = Rule::new("top_p_skipped", NAME);
const TOP_P_NOT_RENORMALISED: Rule = Rule::new("top_p_not_renormalised", NAME);

/// The literal port's registry entry.
pub static COLUMN: Column = Column {
    catalogs: super::catalogs!("literal"),
    name: NAME,
    code: Some("Rust"),
    draws: true,
    from_call: |call| Box::new(LiteralPort::from_args(call.args)),
    thresholds: thresholds::thresholds,
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
    /// The candle set-up the copied flags make, drawn by a real `LogitsProcessor`.
    pub port: CandlePort,
    /// Arguments with no candle counterpart, as `name=value`.
    pub dropped: Vec<String>,
}

impl LiteralPort {
    /// The port of the call's arguments as passed: what a candle program that copies the flags
    /// runs, even for a call transformers refuses.
    ///
    /// ```
    /// use sampling_lab_core::{GenerateArgs, LiteralPort};
    ///
    /// let args = GenerateArgs::from_json_str(r#"{"do_sample": true, "temperature": 0.7, "top_k": 40, "top_p": 0.9}"#)?;
    /// let literal = LiteralPort::from_args(&args);
    /// assert_eq!(literal.port.to_string(), "Sampling::TopKThenTopP { k: 40, p: 0.9, temperature: 0.7 }");
    ///
    /// // transformers raises a ValueError for temperature 0 when sampling; candle silently goes greedy,
    /// // and has no min_p to copy.
    /// let args = GenerateArgs::from_json_str(r#"{"do_sample": true, "temperature": 0.0, "min_p": 0.1}"#)?;
    /// let literal = LiteralPort::from_args(&args);
    /// assert_eq!(literal.port.to_string(), "Sampling::ArgMax");
    /// assert_eq!(literal.dropped, ["min_p=0.1"]);
    /// # Ok::<(), sampling_lab_core::SamplingError>(())
    /// ```
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

    fn notes(&self, _step: &StepView) -> Vec<Message> {
        let mut notes: Vec<Message> = self
            .dropped
            .iter()
            .map(|d| Message::new("note-literal-dropped").verbatim("argument", d.clone()))
            .collect();
        if self.port.penalty.is_some() {
            notes.push(Message::new("note-literal-penalty-window").count("last", REPEAT_LAST_N));
        }
        notes
    }

    fn causes(&self, step: &StepView) -> Vec<Cause> {
        causes::causes(self, step)
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
        let text = crate::Render::render(&Analysis::run(&input).causes_of(NAME)[0].message, crate::Lang::En);
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
