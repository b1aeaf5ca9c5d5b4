//! The corrected port: a real candle `LogitsProcessor` set up so that it draws from the
//! distribution transformers samples from.
//!
//! Penalty and n-gram bans go on the raw logits over the whole context; temperature goes to
//! `Sampling`; the warpers run in the `sample_f` closure, each followed by a renormalisation.
//! When top-p is the last warper it is left to candle's own `Sampling::TopP`, which then cuts
//! on the renormalised mass the closure hands it — the same rule as transformers'.

use super::candle_port::{CandlePort, PenaltyWindow};
use super::hf::{HfSampling, Processor};
use super::rust_code::{port_program, port_text};
use super::{thresholds, Column, ColumnName, Drawing, Engine, StepView, TokenSampler};
use crate::arguments::{EffectiveParams, GenerateArgs, GenerationConfig};
use crate::distribution::{Distribution, EXACT_TOLERANCE};
use crate::truncation::Warper;
use crate::SamplingError;
use candle_transformers::generation::Sampling;
use serde::Serialize;
use serde_json::{json, Map, Value};

/// The corrected port's column, held to hf exactly.
pub const NAME: ColumnName = ColumnName::new("corrected");

/// The corrected port's registry entry.
pub static COLUMN: Column = Column {
    catalogs: super::catalogs!("corrected"),
    name: NAME,
    code: Some("Rust"),
    draws: true,
    from_call: |call| {
        Box::new(CorrectedColumn(
            HfSampling::from_params(&call.effective).map(|hf| corrected_port(&hf)),
        ))
    },
    thresholds: thresholds::none,
    rules: &[],
};

/// How the corrected port's distribution stands to transformers'.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
enum Exactness {
    /// Every probability within [`EXACT_TOLERANCE`] of transformers'.
    Exact,
    /// Ties at a cut that f32 arithmetic resolves either way (see `ambiguities`).
    InexactByNature,
    /// It differs with no ambiguity to explain it: the port is wrong here (the fixture tests fail
    /// on it).
    Mismatch,
    /// transformers refuses the call, so there is nothing to port.
    NotRun,
}

/// The corrected port, or transformers' refusal of the call (there is then nothing to port).
struct CorrectedColumn(Result<CandlePort, SamplingError>);

impl Engine for CorrectedColumn {
    fn distribution(&self, logits: &[f32], context: &[u32]) -> Result<Distribution, SamplingError> {
        self.0.as_ref().map_err(Clone::clone)?.distribution(logits, context)
    }

    fn describe(&self) -> String {
        match &self.0 {
            Ok(port) => port_text(port),
            Err(_) => "not run: transformers rejects these parameters".into(),
        }
    }

    /// The closure's steps, how the port stands to transformers here, and the decisions of
    /// transformers' own that float arithmetic or sort order could take either way.
    fn details(&self, step: &StepView) -> Map<String, Value> {
        let ambiguities = step.hf.as_ref().map(|(_, o)| o.ambiguities.clone()).unwrap_or_default();
        let exactness = match (&self.0, step.compare) {
            (Err(_), _) => Exactness::NotRun,
            (Ok(_), Some(c)) if c.agrees_within(EXACT_TOLERANCE) => Exactness::Exact,
            _ if !ambiguities.is_empty() => Exactness::InexactByNature,
            _ => Exactness::Mismatch,
        };
        let closure = self.0.as_ref().map(|p| p.steps.clone()).unwrap_or_default();
        let mut details = Map::new();
        details.insert("closure".into(), json!(closure));
        details.insert("exactness".into(), json!(exactness));
        details.insert("ambiguities".into(), json!(ambiguities));
        details
    }

    fn code(&self) -> Option<String> {
        self.0.as_ref().ok().map(port_program)
    }

    fn draws(&self, logits: &[f32], context: &[u32], seed: u64) -> Option<Result<Drawing, SamplingError>> {
        Some(self.0.as_ref().ok()?.drawing(logits, context, seed))
    }

    fn sampler(&self, seed: u64) -> Result<Box<dyn TokenSampler>, SamplingError> {
        Ok(self.0.as_ref().map_err(Clone::clone)?.sampler(seed))
    }
}

impl CandlePort {
    /// The port of a call that samples what transformers samples, or transformers' `ValueError`
    /// for a call it refuses.
    pub fn corrected(args: &GenerateArgs, generation_config: Option<&GenerationConfig>) -> Result<Self, SamplingError> {
        let effective = EffectiveParams::resolve(args, generation_config);
        Ok(corrected_port(&HfSampling::from_params(&effective)?))
    }
}

/// transformers' pipeline as a candle set-up: penalty and n-gram bans on the logits, the
/// temperature in `Sampling`, the warpers in the `sample_f` closure.
pub(crate) fn corrected_port(hf: &HfSampling) -> CandlePort {
    let mut port = CandlePort::plain(Sampling::ArgMax);
    let mut steps = Vec::new();
    for processor in &hf.processors {
        match *processor {
            Processor::RepetitionPenalty(r) => port.penalty = Some((r, PenaltyWindow::Whole)),
            Processor::NoRepeatNGram(n) => port.ban_ngrams = Some(n),
            Processor::Temperature(_) => {}
            Processor::Truncate(step) => steps.push(step),
        }
    }
    if !hf.do_sample {
        return port;
    }
    let temperature = hf.temperature();
    port.sampling = match steps.last() {
        // candle's TopP treats p ≤ 0 as "keep everything" where transformers keeps the top token,
        // so p = 0 stays in the closure.
        Some(&Warper::TopP(p)) if p > 0.0 => {
            steps.pop();
            Sampling::TopP { p, temperature }
        }
        _ => Sampling::All { temperature },
    };
    port.steps = steps;
    port
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arguments::params::{EffectiveParams, GenerateArgs};
    use serde_json::json;

    fn port(kwargs: serde_json::Value) -> CandlePort {
        let args = GenerateArgs::from_json(&kwargs).unwrap();
        corrected_port(&HfSampling::from_params(&EffectiveParams::resolve(&args, None)).unwrap())
    }

    #[test]
    fn the_implicit_top_k_becomes_a_closure_step() {
        let p = port(json!({"do_sample": true, "temperature": 0.7}));
        assert_eq!(
            (p.sampling, p.steps),
            (Sampling::All { temperature: 0.7 }, vec![Warper::TopK(50)])
        );
    }

    #[test]
    fn top_k_then_top_p_is_top_p_over_a_renormalising_top_k_closure() {
        let p = port(json!({"do_sample": true, "temperature": 0.7, "top_k": 40, "top_p": 0.9}));
        assert_eq!(
            (p.sampling, p.steps),
            (
                Sampling::TopP {
                    p: 0.9,
                    temperature: 0.7
                },
                vec![Warper::TopK(40)]
            )
        );
    }

    #[test]
    fn greedy_is_argmax_after_the_penalty_over_the_whole_context() {
        let p = port(json!({"repetition_penalty": 1.3}));
        assert_eq!(
            (p.sampling, p.penalty),
            (Sampling::ArgMax, Some((1.3, PenaltyWindow::Whole)))
        );
    }
}
