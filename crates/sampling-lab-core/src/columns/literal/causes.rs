//! Why the literal port departs from transformers at a step, most fundamental first.

use super::{
    LiteralPort, DROPPED, GENERATION_CONFIG, IMPLICIT_TOP_K, PENALTY_WINDOW, REFUSED, TIES, TOP_P_NOT_RENORMALISED,
    TOP_P_SKIPPED,
};
use crate::arguments::params::{Field, Source};
use crate::arguments::pyvalue::float_repr;
use crate::columns::candle_port::{sampling_text, PenaltyWindow, REPEAT_LAST_N};
use crate::columns::causes::{departs, listed, source_key, Cause};
use crate::columns::hf::Processor;
use crate::columns::StepView;
use crate::distribution::{ties_at_k, Distribution};
use crate::text::Message;
use crate::truncation::Warper;
use crate::SamplingError;
use candle_transformers::generation::Sampling;

/// The causes that make the literal port differ, most fundamental first; empty when it agrees.
pub(super) fn causes(literal: &LiteralPort, step: &StepView) -> Vec<Cause> {
    let sampling = &literal.port.sampling;
    let (hf, outcome) = match step.hf {
        Ok(pair) => pair,
        Err(message) => return vec![refused(message.to_string(), sampling)],
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
            out.push(
                IMPLICIT_TOP_K.says(
                    Message::new("cause-literal-implicit-top-k")
                        .count("k", k)
                        .verbatim("source", source_key(e.source(Field::TopK)))
                        .count("kept", kept(step.distribution)),
                ),
            );
        }
    }
    let from_gc: Vec<String> = [
        Field::DoSample,
        Field::Temperature,
        Field::TopP,
        Field::MinP,
        Field::TypicalP,
        Field::RepetitionPenalty,
    ]
    .into_iter()
    .filter(|f| e.source(*f) == Source::GenerationConfig)
    .map(|f| f.name().to_string())
    .collect();
    if !from_gc.is_empty() {
        out.push(
            GENERATION_CONFIG
                .says(Message::new("cause-literal-generation-config").verbatim("fields", listed(&from_gc))),
        );
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
            out.push(
                TIES.says(
                    Message::new("cause-literal-ties")
                        .count("tied", tied)
                        .count("k", k)
                        .count("kept", k - 1 + tied),
                ),
            );
        }
    }
    if !literal.dropped.is_empty() {
        out.push(
            DROPPED.says(
                Message::new("cause-literal-dropped")
                    .verbatim("dropped", listed(&literal.dropped))
                    .count("count", literal.dropped.len()),
            ),
        );
    }
    if let Some((_, PenaltyWindow::Last(n))) = literal.port.penalty {
        if step.input.context_ids.len() > n {
            out.push(
                PENALTY_WINDOW.says(
                    Message::new("cause-literal-penalty-window")
                        .count("context", step.input.context_ids.len())
                        .count("last", REPEAT_LAST_N),
                ),
            );
        }
    }
    out
}

fn refused(message: String, sampling: &Sampling) -> Cause {
    let candle = match sampling {
        Sampling::ArgMax => Message::new("cause-literal-refused-argmax"),
        _ => Message::new("cause-literal-refused-samples").verbatim("sampling", sampling_text(sampling)),
    };
    REFUSED.says(
        Message::new("cause-literal-refused")
            .verbatim("error", message)
            .arg("candle", candle),
    )
}

fn top_k_then_top_p(logits: &[f32], k: usize, p: f64, temperature: f64, hf: &Distribution) -> Cause {
    let mass = top_k_mass(logits, k, temperature);
    let rule = if mass < p {
        TOP_P_SKIPPED
    } else {
        TOP_P_NOT_RENORMALISED
    };
    let id = if mass < p {
        "cause-literal-top-p-skipped"
    } else {
        "cause-literal-top-p-not-renormalised"
    };
    rule.says(
        Message::new(id)
            .count("k", k)
            .number("mass", mass)
            .verbatim("p", float_repr(p))
            .count("hf_kept", hf.kept()),
    )
}

/// The probability mass of the `k` highest logits under `temperature`.
pub(crate) fn top_k_mass(logits: &[f32], k: usize, temperature: f64) -> f64 {
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

fn kept(dist: &Result<Distribution, SamplingError>) -> usize {
    dist.as_ref().map_or(0, Distribution::kept)
}
