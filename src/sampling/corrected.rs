//! The corrected port: a real candle `LogitsProcessor` set up so that it draws from the
//! distribution transformers samples from.
//!
//! Penalty and n-gram bans go on the raw logits over the whole context; temperature goes to
//! `Sampling`; the warpers run in the `sample_f` closure, each followed by a renormalisation.
//! When top-p is the last warper it is left to candle's own `Sampling::TopP`, which then cuts
//! on the renormalised mass the closure hands it — the same rule as transformers'.

use super::hf::{HfSampling, Processor};
use super::port::{CandlePort, PenaltyWindow};
use super::steps::ProbStep;
use candle_transformers::generation::Sampling;

pub fn corrected_port(hf: &HfSampling) -> CandlePort {
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
        Some(&ProbStep::TopP(p)) if p > 0.0 => {
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
    use crate::sampling::params::{EffectiveParams, GenerateArgs};
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
            (Sampling::All { temperature: 0.7 }, vec![ProbStep::TopK(50)])
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
                vec![ProbStep::TopK(40)]
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
