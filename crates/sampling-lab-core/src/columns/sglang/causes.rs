//! Why SGLang departs from transformers at a step, in plain words.

use super::request::TOP_K_ALL;
use super::{
    Sglang, ACCEPTS, ARITHMETIC, EXACTLY_K, GREEDY, IGNORED, JOINT_TOP_P, NO_DO_SAMPLE, NO_TOP_K, OUTPUT_PENALTY,
    REFUSED, VERSION,
};
use crate::arguments::params::{Field, Source};
use crate::arguments::pyvalue::float_repr;
use crate::columns::causes::{count, departs, ordinal, Cause};
use crate::columns::port_request::{self, Opening};
use crate::columns::StepView;
use crate::distribution::ties_at_k;

pub(super) fn causes(sglang: &Sglang, step: &StepView) -> Vec<Cause> {
    if !departs(step.compare) {
        return Vec::new();
    }
    let params = match &sglang.params {
        Ok(p) => p,
        Err(e) => {
            return port_request::refused(
                step,
                REFUSED,
                format!("SGLang {VERSION} refuses the request a port sends (“{e}”)"),
            )
        }
    };
    let sampling = (!params.is_greedy()).then(|| format!("temperature {}", float_repr(params.temperature)));
    let Opening {
        what,
        hf,
        kept,
        hf_kept,
    } = match port_request::opening(step, "SGLang", sampling, ACCEPTS) {
        Ok(opening) => opening,
        Err(causes) => return causes,
    };
    let mut out = Vec::new();
    if !hf.do_sample && !params.is_greedy() {
        out.push(NO_DO_SAMPLE.says(format!(
            "generate() without do_sample=True decodes greedily; SGLang has no do_sample and {what}."
        )));
    }
    if hf.do_sample && params.is_greedy() {
        let why = match params.greedy_temperature {
            Some(t) => format!(
                "its temperature {} is below 1e-6, which SGLang turns into top_k 1",
                t.repr()
            ),
            None => "SGLang treats any request with top_k 1 as greedy".into(),
        };
        out.push(GREEDY.says(format!(
            "SGLang takes the argmax here ({why}); transformers samples from {}.",
            count(hf_kept, "token")
        )));
    }
    if hf.do_sample && !params.is_greedy() {
        let implicit = step.effective.source(Field::TopK) == Source::Default;
        if implicit && params.top_k == TOP_K_ALL && hf_kept < kept {
            out.push(NO_TOP_K.says(format!(
                "top_k was not passed: transformers fills in top_k=50, SGLang's default is the whole vocabulary, so it keeps {} where transformers keeps {hf_kept}.",
                count(kept, "token")
            )));
        }
        if params.top_k != TOP_K_ALL && params.top_p < 1.0 && kept > hf_kept {
            out.push(JOINT_TOP_P.says(format!(
                "SGLang measures top_p {} on the whole distribution, not on the {} tokens top_k left, so it cuts later: it keeps {}, transformers (top_p on the renormalised top_k) {hf_kept}.",
                float_repr(params.top_p),
                params.top_k,
                count(kept, "token")
            )));
        }
        let k = usize::try_from(params.top_k).unwrap_or(usize::MAX);
        let scaled: Vec<f32> = step
            .input
            .logits
            .iter()
            .map(|l| l / params.temperature as f32)
            .collect();
        if params.top_k != TOP_K_ALL && ties_at_k(&scaled, k).is_some() {
            out.push(EXACTLY_K.says(format!(
                "scores tie at the {} place: transformers keeps every tied token, SGLang exactly {k} (torch's sort decides which).",
                ordinal(k)
            )));
        }
    }
    if params.repetition_penalty != 1.0 && !step.input.context_ids.is_empty() {
        out.push(OUTPUT_PENALTY.says(format!(
            "transformers' repetition penalty covers the prompt; SGLang's only the tokens it generated, so at the step after the prompt repetition_penalty={} changes nothing.",
            float_repr(params.repetition_penalty)
        )));
    }
    if !sglang.request.ignored.is_empty() {
        out.push(IGNORED.says(format!(
            "SGLang has no field for {} (/generate refuses unknown fields): a port cannot send it.",
            sglang.request.ignored.join(", ")
        )));
    }
    if out.is_empty() {
        out.push(ARITHMETIC.says(format!(
            "SGLang runs these rules in f32 (keeping {}); the distributions differ by more than 1e-6.",
            count(kept, "token")
        )));
    }
    out
}
