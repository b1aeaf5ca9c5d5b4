//! Why the literal port departs from transformers at a step, most fundamental first.

use super::{
    LiteralPort, DROPPED, GENERATION_CONFIG, IMPLICIT_TOP_K, PENALTY_WINDOW, REFUSED, TIES, TOP_P_NOT_RENORMALISED,
    TOP_P_SKIPPED,
};
use crate::arguments::params::{Field, Source};
use crate::columns::candle_port::{sampling_text, PenaltyWindow, REPEAT_LAST_N};
use crate::columns::causes::{count, departs, ordinal, source_name, Cause};
use crate::columns::hf::Processor;
use crate::columns::StepView;
use crate::distribution::{ties_at_k, Distribution};
use crate::truncation::Warper;
use crate::SamplingError;
use candle_transformers::generation::Sampling;

/// The causes that make the literal port differ, most fundamental first; empty when it agrees.
pub(super) fn causes(literal: &LiteralPort, step: &StepView) -> Vec<Cause> {
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
