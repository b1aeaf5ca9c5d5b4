//! Why mlx-lm departs from transformers at a step, in plain words.

use super::request::PENALTY_WINDOW as WINDOW;
use super::{
    MlxLm, ACCEPTS, ARITHMETIC, EXACTLY_K, GREEDY_DEFAULT, IGNORED, INVERTED, NO_DO_SAMPLE, NO_TOP_K, ORDER,
    PENALTY_WINDOW, REFUSED, TOP_P_SKIPPED, VERSION,
};
use crate::arguments::params::{Field, Source};
use crate::arguments::pyvalue::{float_repr, PyValue};
use crate::columns::causes::{departs, listed, Cause};
use crate::columns::port_request::{self, Opening};
use crate::columns::StepView;
use crate::distribution::ties_at_k;
use crate::text::Message;

pub(super) fn causes(mlx: &MlxLm, step: &StepView) -> Vec<Cause> {
    if !departs(step.compare) {
        return Vec::new();
    }
    let refused = |e: &dyn std::fmt::Display| {
        let refusal = Message::new("mlx_lm-raises")
            .verbatim("version", VERSION)
            .verbatim("error", e.to_string());
        port_request::refused(step, REFUSED, refusal)
    };
    let params = match &mlx.params {
        Ok(p) => p,
        Err(e) => return refused(e),
    };
    if let Err(e) = step.distribution {
        return refused(e);
    }
    let sampling = (!params.is_greedy()).then(|| format!("temp {}", float_repr(params.temp)));
    let Opening {
        what,
        hf,
        kept,
        hf_kept,
    } = match port_request::opening(step, "mlx-lm", sampling, ACCEPTS) {
        Ok(opening) => opening,
        Err(causes) => return causes,
    };
    let mut out = Vec::new();
    if hf.do_sample && params.is_greedy() && params.temp_by_default {
        out.push(GREEDY_DEFAULT.says(Message::new("cause-mlx_lm-greedy-default").count("hf_kept", hf_kept)));
    }
    if !hf.do_sample && !params.is_greedy() {
        out.push(
            NO_DO_SAMPLE.says(
                Message::new("cause-runtime-no-do-sample")
                    .verbatim("runtime", "mlx-lm")
                    .arg("what", what),
            ),
        );
    }
    if params.temp < 0.0 {
        out.push(INVERTED.says(Message::new("cause-mlx_lm-inverted").verbatim("temperature", float_repr(params.temp))));
    }
    if hf.do_sample && !params.is_greedy() {
        let filters: Vec<String> = params
            .chain()
            .into_iter()
            .filter(|(name, _)| matches!(*name, "apply_top_p" | "apply_min_p"))
            .map(|(name, value)| format!("{} {value}", name.trim_start_matches("apply_")))
            .collect();
        if params.temp > 0.0 && params.temp != 1.0 && !filters.is_empty() && kept != hf_kept {
            out.push(
                ORDER.says(
                    Message::new("cause-mlx_lm-order")
                        .verbatim("filters", listed(&filters))
                        .verbatim("temperature", float_repr(params.temp))
                        .count("kept", kept)
                        .count("hf_kept", hf_kept),
                ),
            );
        }
        let implicit = step.effective.source(Field::TopK) == Source::Default;
        if implicit && !params.top_k_applies() && hf_kept < kept {
            out.push(
                NO_TOP_K.says(
                    Message::new("cause-mlx_lm-no-top-k")
                        .count("kept", kept)
                        .count("hf_kept", hf_kept),
                ),
            );
        }
        if mlx.request.get(Field::TopP).and_then(PyValue::number) == Some(0.0) {
            out.push(TOP_P_SKIPPED.says(Message::new("cause-mlx_lm-top-p-zero")));
        }
        if params.top_k_applies() {
            let k = params.top_k.number().expect("a number") as usize;
            if ties_at_k(&step.input.logits, k).is_some() {
                out.push(EXACTLY_K.says(Message::new("cause-mlx_lm-exactly-k").count("k", k)));
            }
        }
    }
    if params.repetition_penalty.is_some() && step.input.context_ids.len() > WINDOW {
        out.push(
            PENALTY_WINDOW.says(
                Message::new("cause-mlx_lm-penalty-window")
                    .count("context", step.input.context_ids.len())
                    .count("last", WINDOW),
            ),
        );
    }
    if !mlx.request.ignored.is_empty() {
        out.push(
            IGNORED.says(Message::new("cause-mlx_lm-no-parameter").verbatim("ignored", listed(&mlx.request.ignored))),
        );
    }
    if out.is_empty() {
        out.push(
            ARITHMETIC.says(
                Message::new("cause-runtime-arithmetic")
                    .verbatim("runtime", "mlx-lm")
                    .count("kept", kept),
            ),
        );
    }
    out
}
