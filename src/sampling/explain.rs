//! Which rule makes the literal port differ from transformers for one step, in plain words, so
//! that the page can say *why* next to *how much*.

use super::distribution::Distribution;
use super::hf::Processor;
use super::literal::REPEAT_LAST_N;
use super::params::Source;
use super::port::PenaltyWindow;
use super::report::{Analysis, Inspection};
use super::steps::ProbStep;
use candle_transformers::generation::Sampling;
use serde::Serialize;

/// One reason for a difference: a stable `rule` name and a sentence for readers.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Cause {
    pub rule: &'static str,
    pub text: String,
}

fn cause(rule: &'static str, text: String) -> Cause {
    Cause { rule, text }
}

/// The causes that apply to this step, most fundamental first; empty when the ports agree.
pub fn causes(input: &Inspection, analysis: &Analysis) -> Vec<Cause> {
    let mut out = Vec::new();
    let (hf, outcome) = match &analysis.hf {
        Ok(pair) => pair,
        Err(message) => {
            out.push(refused(message, &analysis.literal.port.sampling));
            return out;
        }
    };
    let e = &analysis.effective;
    let sampling = &analysis.literal.port.sampling;
    let literal_has_k = matches!(sampling, Sampling::TopK { .. } | Sampling::TopKThenTopP { .. });
    let hf_k = hf.processors.iter().find_map(|p| match p {
        Processor::Truncate(ProbStep::TopK(k)) => Some(*k),
        _ => None,
    });
    if let (Some(k), false, true) = (hf_k, literal_has_k, hf.do_sample) {
        if e.source("top_k") != Source::Passed {
            out.push(cause("implicit_top_k", format!(
                "top_k was not passed, so transformers uses top_k={k} (from {}); the literal port has no top_k and keeps {} tokens.",
                source_name(e.source("top_k")), kept(&analysis.literal_dist))));
        }
    }
    let from_gc: Vec<&str> = [
        "do_sample",
        "temperature",
        "top_p",
        "min_p",
        "typical_p",
        "repetition_penalty",
    ]
    .into_iter()
    .filter(|f| e.source(f) == Source::GenerationConfig)
    .collect();
    if !from_gc.is_empty() {
        out.push(cause(
            "generation_config",
            format!(
                "transformers takes {} from the model's generation_config.json; a candle port never reads that file.",
                from_gc.join(", ")
            ),
        ));
    }
    if let Sampling::TopKThenTopP { k, p, temperature } = sampling {
        out.push(top_k_then_top_p(input, *k, *p, *temperature, &outcome.distribution));
    }
    if let Some(k) = hf_k.filter(|_| literal_has_k) {
        if let Some(tied) = ties_at_k(&input.logits, k) {
            out.push(cause("ties", format!(
                "{tied} tokens share the {k}-th highest score: transformers' top-k keeps every one of them ({}), candle keeps exactly {k}.",
                k - 1 + tied)));
        }
    }
    if !analysis.literal.dropped.is_empty() {
        out.push(cause(
            "dropped",
            format!(
                "candle has no counterpart for {}: the literal port drops it.",
                analysis.literal.dropped.join(", ")
            ),
        ));
    }
    if let Some((_, PenaltyWindow::Last(n))) = analysis.literal.port.penalty {
        if input.context_ids.len() > n {
            out.push(cause("penalty_window", format!(
                "transformers' repetition penalty covers all {} tokens of the context; candle's examples pass only the last {REPEAT_LAST_N}.",
                input.context_ids.len())));
        }
    }
    out
}

fn refused(message: &str, sampling: &Sampling) -> Cause {
    let candle = match sampling {
        Sampling::ArgMax => "silently decodes greedily (Sampling::ArgMax)".to_string(),
        _ => format!("samples with {}", super::port::sampling_text(sampling)),
    };
    cause(
        "refused",
        format!("transformers refuses these arguments (“{message}”); the literal port {candle}."),
    )
}

fn top_k_then_top_p(input: &Inspection, k: usize, p: f64, temperature: f64, hf: &Distribution) -> Cause {
    let mass = top_k_mass(&input.logits, k, temperature);
    if mass < p {
        cause("top_p_skipped", format!(
            "the top {k} tokens hold {mass:.3} of the mass, less than top_p={p}: candle's TopKThenTopP then skips the nucleus and keeps all {k}; transformers renormalises the top {k} and cuts at {p} of that, keeping {}.",
            hf.kept()))
    } else {
        cause("top_p_not_renormalised", format!(
            "candle's TopKThenTopP measures top_p={p} against the whole mass; transformers renormalises the top {k} first and measures against that, keeping {}.",
            hf.kept()))
    }
}

/// The probability mass of the `k` highest logits under `temperature`.
fn top_k_mass(logits: &[f32], k: usize, temperature: f64) -> f64 {
    let scaled: Vec<f64> = logits.iter().map(|&l| f64::from(l) / temperature).collect();
    let max = scaled.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mut weights: Vec<f64> = scaled.iter().map(|s| (s - max).exp()).collect();
    let total: f64 = weights.iter().sum();
    weights.sort_by(|a, b| b.total_cmp(a));
    weights.iter().take(k).sum::<f64>() / total
}

/// How many tokens tie with the k-th highest score when some of them fall past k.
fn ties_at_k(logits: &[f32], k: usize) -> Option<usize> {
    if k == 0 || k >= logits.len() {
        return None;
    }
    let mut sorted = logits.to_vec();
    sorted.sort_by(|a, b| b.total_cmp(a));
    let kth = sorted[k - 1];
    let tied = sorted.iter().filter(|&&s| s == kth).count();
    let above = sorted.iter().filter(|&&s| s > kth).count();
    (above + tied > k).then_some(tied)
}

fn kept(dist: &Result<Distribution, String>) -> String {
    dist.as_ref().map_or_else(|_| "no".into(), |d| d.kept().to_string())
}

fn source_name(source: Source) -> &'static str {
    match source {
        Source::GenerationConfig => "the model's generation_config.json",
        _ => "transformers' default",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sampling::GenerateArgs;

    fn rules_for(logits: Vec<f32>, kwargs: &str) -> Vec<&'static str> {
        let input = Inspection {
            logits,
            args: GenerateArgs::from_json_str(kwargs).unwrap(),
            ..Default::default()
        };
        causes(&input, &Analysis::run(&input)).iter().map(|c| c.rule).collect()
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
        let mut logits = vec![-20.0f32; 100];
        logits[..5].copy_from_slice(&[5.0, 4.0, 3.0, 2.0, 1.0]);
        let rules = rules_for(logits, r#"{"do_sample": true, "top_k": 3, "top_p": 0.5}"#);
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
    fn refused_arguments_say_what_candle_does_instead() {
        assert_eq!(
            rules_for(spread(10), r#"{"do_sample": true, "temperature": 0.0}"#),
            ["refused"]
        );
    }

    #[test]
    fn agreeing_settings_have_no_cause() {
        assert!(rules_for(spread(100), r#"{"do_sample": true, "temperature": 0.7, "top_k": 40}"#).is_empty());
    }
}
