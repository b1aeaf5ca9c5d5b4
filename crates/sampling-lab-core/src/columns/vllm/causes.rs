//! Why vLLM departs from transformers at a step, in plain words.

use super::{
    Vllm, ACCEPTS, ARITHMETIC, FLOOR, GENERATION_CONFIG, IGNORED, MIN_P_FIRST, NO_DO_SAMPLE, NO_TOP_K, REFUSED, VERSION,
};
use crate::arguments::params::{Field, Source};
use crate::arguments::pyvalue::float_repr;
use crate::columns::causes::{departs, listed, Cause};
use crate::columns::port_request::{self, Opening};
use crate::columns::StepView;
use crate::text::Message;

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
                Message::new("vllm-refuses")
                    .verbatim("version", VERSION)
                    .verbatim("error", e.to_string()),
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
        out.push(
            NO_DO_SAMPLE.says(
                Message::new("cause-runtime-no-do-sample")
                    .verbatim("runtime", "vLLM")
                    .arg("what", what),
            ),
        );
    }
    if hf.do_sample {
        if let Some(t) = params.raised {
            out.push(
                FLOOR.says(
                    Message::new("cause-vllm-floor")
                        .verbatim("temperature", float_repr(t))
                        .count("kept", kept)
                        .count("hf_kept", hf_kept),
                ),
            );
        }
        let implicit = step.effective.source(Field::TopK) == Source::Default;
        if implicit && params.top_k <= 0 && hf_kept < kept {
            out.push(
                NO_TOP_K.says(
                    Message::new("cause-vllm-no-top-k")
                        .count("kept", kept)
                        .count("hf_kept", hf_kept),
                ),
            );
        }
        if params.min_p != 0.0 && params.top_p < 1.0 {
            out.push(
                MIN_P_FIRST.says(
                    Message::new("cause-vllm-min-p-first")
                        .verbatim("min_p", float_repr(params.min_p))
                        .count("kept", kept)
                        .count("hf_kept", hf_kept),
                ),
            );
        }
    }
    if !params.from_generation_config.is_empty() {
        out.push(GENERATION_CONFIG.says(
            Message::new("cause-vllm-generation-config").verbatim("fields", listed(&params.from_generation_config)),
        ));
    }
    if !vllm.request.ignored.is_empty() {
        out.push(
            IGNORED.says(
                Message::new("cause-runtime-no-field")
                    .verbatim("runtime", "vLLM")
                    .verbatim("ignored", listed(&vllm.request.ignored)),
            ),
        );
    }
    if out.is_empty() {
        out.push(
            ARITHMETIC.says(
                Message::new("cause-runtime-arithmetic")
                    .verbatim("runtime", "vLLM")
                    .count("kept", kept),
            ),
        );
    }
    out
}
