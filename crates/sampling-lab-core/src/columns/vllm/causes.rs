//! Why vLLM departs from transformers at a step, in plain words.

use super::{
    Vllm, ACCEPTS, ARITHMETIC, FLOOR, GENERATION_CONFIG, IGNORED, MIN_P_FIRST, NO_DO_SAMPLE, NO_TOP_K, REFUSED, VERSION,
};
use crate::arguments::params::{Field, Source};
use crate::arguments::pyvalue::float_repr;
use crate::columns::causes::{count, departs, Cause};
use crate::columns::port_request::{self, Opening};
use crate::columns::StepView;

pub(super) fn causes(vllm: &Vllm, step: &StepView) -> Vec<Cause> {
    if !departs(step.compare) {
        return Vec::new();
    }
    let params = match &vllm.params {
        Ok(p) => p,
        Err(e) => {
            return port_request::refused(
                step,
                REFUSED,
                format!("vLLM {VERSION} refuses the request a port sends (“{e}”)"),
            )
        }
    };
    let sampling = (!params.is_greedy()).then(|| format!("temperature {}", float_repr(params.temperature)));
    let Opening {
        what,
        hf,
        kept,
        hf_kept,
    } = match port_request::opening(step, "vLLM", sampling, ACCEPTS) {
        Ok(opening) => opening,
        Err(causes) => return causes,
    };
    let mut out = Vec::new();
    if !hf.do_sample && !params.is_greedy() {
        out.push(NO_DO_SAMPLE.says(format!(
            "generate() without do_sample=True decodes greedily; vLLM has no do_sample and {what}."
        )));
    }
    if hf.do_sample {
        if let Some(t) = params.raised {
            out.push(FLOOR.says(format!(
                "vLLM raises temperature={} to 0.01 and samples there from {}, where transformers divides by {} and keeps {}.",
                float_repr(t),
                count(kept, "token"),
                float_repr(t),
                count(hf_kept, "token")
            )));
        }
        let implicit = step.effective.source(Field::TopK) == Source::Default;
        if implicit && params.top_k <= 0 && hf_kept < kept {
            out.push(NO_TOP_K.says(format!(
                "top_k was not passed: transformers fills in top_k=50, vLLM's server default is 0 (the whole vocabulary), so it keeps {} where transformers keeps {hf_kept}.",
                count(kept, "token")
            )));
        }
        if params.min_p != 0.0 && params.top_p < 1.0 {
            out.push(MIN_P_FIRST.says(format!(
                "vLLM cuts with min_p {} before top_p, which then measures what min_p left; transformers applies min_p last: vLLM keeps {}, transformers {hf_kept}.",
                float_repr(params.min_p),
                count(kept, "token")
            )));
        }
    }
    if !params.from_generation_config.is_empty() {
        out.push(GENERATION_CONFIG.says(format!(
            "vLLM's server takes {} from the model's generation_config.json but never its do_sample.",
            params.from_generation_config.join(", ")
        )));
    }
    if !vllm.request.ignored.is_empty() {
        out.push(IGNORED.says(format!(
            "vLLM has no field for {}: a port cannot send it.",
            vllm.request.ignored.join(", ")
        )));
    }
    if out.is_empty() {
        out.push(ARITHMETIC.says(format!(
            "vLLM runs these rules in f32 (keeping {}); the distributions differ by more than 1e-6.",
            count(kept, "token")
        )));
    }
    out
}
