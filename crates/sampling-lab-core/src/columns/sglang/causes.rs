//! Why SGLang departs from transformers at a step, in plain words.

use super::request::TOP_K_ALL;
use super::{
    Sglang, ACCEPTS, ARITHMETIC, EXACTLY_K, GREEDY, IGNORED, JOINT_TOP_P, NO_DO_SAMPLE, NO_TOP_K, OUTPUT_PENALTY,
    REFUSED, VERSION,
};
use crate::arguments::params::{Field, Source};
use crate::arguments::pyvalue::float_repr;
use crate::columns::causes::{departs, listed, Cause};
use crate::columns::port_request::{self, Opening};
use crate::columns::StepView;
use crate::distribution::ties_at_k;
use crate::text::Message;

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
                Message::new("sglang-refuses")
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
    } = match port_request::opening(step, "SGLang", sampling, ACCEPTS) {
        Ok(opening) => opening,
        Err(causes) => return causes,
    };
    let mut out = Vec::new();
    if !hf.do_sample && !params.is_greedy() {
        out.push(
            NO_DO_SAMPLE.says(
                Message::new("cause-runtime-no-do-sample")
                    .verbatim("runtime", "SGLang")
                    .arg("what", what),
            ),
        );
    }
    if hf.do_sample && params.is_greedy() {
        let message = match params.greedy_temperature {
            Some(t) => Message::new("cause-sglang-greedy-temperature").verbatim("temperature", t.repr()),
            None => Message::new("cause-sglang-greedy-top-k"),
        };
        out.push(GREEDY.says(message.count("hf_kept", hf_kept)));
    }
    if hf.do_sample && !params.is_greedy() {
        let implicit = step.effective.source(Field::TopK) == Source::Default;
        if implicit && params.top_k == TOP_K_ALL && hf_kept < kept {
            out.push(
                NO_TOP_K.says(
                    Message::new("cause-sglang-no-top-k")
                        .count("kept", kept)
                        .count("hf_kept", hf_kept),
                ),
            );
        }
        if params.top_k != TOP_K_ALL && params.top_p < 1.0 && kept > hf_kept {
            out.push(
                JOINT_TOP_P.says(
                    Message::new("cause-sglang-joint-top-p")
                        .verbatim("top_p", float_repr(params.top_p))
                        .verbatim("top_k", params.top_k.to_string())
                        .count("kept", kept)
                        .count("hf_kept", hf_kept),
                ),
            );
        }
        let k = usize::try_from(params.top_k).unwrap_or(usize::MAX);
        let scaled: Vec<f32> = step
            .input
            .logits
            .iter()
            .map(|l| l / params.temperature as f32)
            .collect();
        if params.top_k != TOP_K_ALL && ties_at_k(&scaled, k).is_some() {
            out.push(EXACTLY_K.says(Message::new("cause-sglang-exactly-k").count("k", k)));
        }
    }
    if params.repetition_penalty != 1.0 && !step.input.context_ids.is_empty() {
        out.push(OUTPUT_PENALTY.says(
            Message::new("cause-sglang-output-penalty").verbatim("penalty", float_repr(params.repetition_penalty)),
        ));
    }
    if !sglang.request.ignored.is_empty() {
        out.push(
            IGNORED.says(Message::new("cause-sglang-no-field").verbatim("ignored", listed(&sglang.request.ignored))),
        );
    }
    if out.is_empty() {
        out.push(
            ARITHMETIC.says(
                Message::new("cause-runtime-arithmetic")
                    .verbatim("runtime", "SGLang")
                    .count("kept", kept),
            ),
        );
    }
    out
}
