//! Why mlx-lm departs from transformers at a step, in plain words.

use super::request::PENALTY_WINDOW as WINDOW;
use super::{
    MlxLm, ACCEPTS, ARITHMETIC, EXACTLY_K, GREEDY_DEFAULT, IGNORED, INVERTED, NO_DO_SAMPLE, NO_TOP_K, ORDER,
    PENALTY_WINDOW, REFUSED, TOP_P_SKIPPED, VERSION,
};
use crate::arguments::params::{Field, Source};
use crate::arguments::pyvalue::{float_repr, PyValue};
use crate::columns::causes::{count, departs, ordinal, Cause};
use crate::columns::port_request::{self, Opening};
use crate::columns::StepView;
use crate::distribution::ties_at_k;

pub(super) fn causes(mlx: &MlxLm, step: &StepView) -> Vec<Cause> {
    if !departs(step.compare) {
        return Vec::new();
    }
    let refused =
        |e: &dyn std::fmt::Display| port_request::refused(step, REFUSED, format!("mlx-lm {VERSION} raises “{e}”"));
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
        out.push(GREEDY_DEFAULT.says(format!(
            "no temperature was passed: make_sampler's default temp is 0, so mlx-lm decodes greedily where transformers samples from {}.",
            count(hf_kept, "token")
        )));
    }
    if !hf.do_sample && !params.is_greedy() {
        out.push(NO_DO_SAMPLE.says(format!(
            "generate() without do_sample=True decodes greedily; mlx-lm has no do_sample and {what}."
        )));
    }
    if params.temp < 0.0 {
        out.push(INVERTED.says(format!(
            "mlx-lm does not check the temperature: multiplying by 1 / {} inverts the order, so the least likely tokens are drawn most.",
            float_repr(params.temp)
        )));
    }
    if hf.do_sample && !params.is_greedy() {
        let filters: Vec<String> = params
            .chain()
            .into_iter()
            .filter(|(name, _)| matches!(*name, "apply_top_p" | "apply_min_p"))
            .map(|(name, value)| format!("{} {value}", name.trim_start_matches("apply_")))
            .collect();
        if params.temp > 0.0 && params.temp != 1.0 && !filters.is_empty() && kept != hf_kept {
            out.push(ORDER.says(format!(
                "mlx-lm cuts with {} on log-probabilities at temperature 1 and divides by the temperature {} only in the draw; transformers divides first: mlx-lm keeps {}, transformers {hf_kept}.",
                filters.join(", "),
                float_repr(params.temp),
                count(kept, "token")
            )));
        }
        let implicit = step.effective.source(Field::TopK) == Source::Default;
        if implicit && !params.top_k_applies() && hf_kept < kept {
            out.push(NO_TOP_K.says(format!(
                "top_k was not passed: transformers fills in top_k=50, mlx-lm has no such default, so it keeps {} where transformers keeps {hf_kept}.",
                count(kept, "token")
            )));
        }
        if mlx.request.get(Field::TopP).and_then(PyValue::number) == Some(0.0) {
            out.push(TOP_P_SKIPPED.says(
                "make_sampler applies top_p only when 0 < top_p < 1: top_p=0, which transformers reads as the top token alone, is no filter at all.".into(),
            ));
        }
        if params.top_k_applies() {
            let k = params.top_k.number().expect("a number") as usize;
            if ties_at_k(&step.input.logits, k).is_some() {
                out.push(EXACTLY_K.says(format!(
                    "scores tie at the {} place: transformers keeps every tied token, mlx-lm's argpartition exactly {k}.",
                    ordinal(k)
                )));
            }
        }
    }
    if params.repetition_penalty.is_some() && step.input.context_ids.len() > WINDOW {
        out.push(PENALTY_WINDOW.says(format!(
            "transformers' repetition penalty covers all {} tokens of the context; mlx-lm's only the last {WINDOW}.",
            step.input.context_ids.len()
        )));
    }
    if !mlx.request.ignored.is_empty() {
        out.push(IGNORED.says(format!(
            "make_sampler has no parameter for {}: a port cannot pass it.",
            mlx.request.ignored.join(", ")
        )));
    }
    if out.is_empty() {
        out.push(ARITHMETIC.says(format!(
            "mlx-lm runs these rules in f32 (keeping {}); the distributions differ by more than 1e-6.",
            count(kept, "token")
        )));
    }
    out
}
