//! Why llama.cpp's chain departs from transformers at a step, in plain words.

use super::{short, LlamaCpp, REPEAT_LAST_N};
use crate::columns::causes::{departs, listed, Cause};
use crate::columns::StepView;
use crate::distribution::{ties_at_k, Distribution};
use crate::text::{list, Message};

pub(super) fn causes(chain: &LlamaCpp, step: &StepView) -> Vec<Cause> {
    if !departs(step.compare) {
        return Vec::new();
    }
    let (name, rules) = (chain.server.name, &chain.server.rules);
    let kept = step.distribution.as_ref().map_or(0, Distribution::kept);
    let hf_kept = step.hf_distribution().map_or(0, Distribution::kept);
    let (hf, _) = match step.hf {
        Ok(pair) => pair,
        Err(message) => {
            let clamps: Vec<Message> = chain
                .clamped
                .iter()
                .map(|c| {
                    Message::new("llama_cpp-clamp")
                        .verbatim("argument", c.argument.clone())
                        .verbatim("became", c.became.clone())
                })
                .collect();
            let id = match (clamps.is_empty(), chain.is_greedy()) {
                (true, true) => "cause-llama_cpp-accepts-greedy",
                (true, false) => "cause-llama_cpp-accepts-samples",
                (false, true) => "cause-llama_cpp-accepts-clamps-greedy",
                (false, false) => "cause-llama_cpp-accepts-clamps-samples",
            };
            return vec![rules.accepts.says(
                Message::new(id)
                    .verbatim("error", message.to_string())
                    .verbatim("server", name)
                    .arg("clamps", list(clamps))
                    .count("kept", kept),
            )];
        }
    };
    let mut out = Vec::new();
    if !hf.do_sample && !chain.is_greedy() {
        out.push(
            rules.no_do_sample.says(
                Message::new("cause-llama_cpp-no-do-sample")
                    .verbatim("server", name)
                    .verbatim("temperature", short(chain.temperature))
                    .count("kept", kept),
            ),
        );
    }
    let filled: Vec<String> = chain
        .carried
        .iter()
        .filter_map(|c| c.default.as_ref())
        .filter(|(key, _)| !(key == "top_k" && chain.top_k <= 0))
        .map(|(key, value)| format!("{key} {value}"))
        .collect();
    if hf.do_sample && !filled.is_empty() {
        out.push(
            rules.defaults.says(
                Message::new("cause-llama_cpp-defaults")
                    .verbatim("server", name)
                    .verbatim("filled", listed(&filled)),
            ),
        );
    }
    let truncates: Vec<String> = chain
        .chain()
        .into_iter()
        .filter(|(name, _)| matches!(*name, "typical" | "top_p" | "min_p"))
        .map(|(name, value)| format!("{name} {value}"))
        .collect();
    if hf.do_sample && !chain.is_greedy() && chain.temperature != 1.0 && !truncates.is_empty() {
        let passed = LlamaCpp {
            temperature: 1.0,
            ..chain.clone()
        }
        .distribution(&step.input.logits, &step.input.context_ids);
        out.push(
            rules.order.says(
                Message::new("cause-llama_cpp-order")
                    .verbatim("server", name)
                    .verbatim("filters", listed(&truncates))
                    .count("passed", passed.kept())
                    .verbatim("temperature", short(chain.temperature))
                    .count("hf_kept", hf_kept),
            ),
        );
    }
    if chain.top_k > 0 && hf.do_sample && ties_at_k(&step.input.logits, chain.top_k as usize).is_some() {
        out.push(
            rules.exactly_k.says(
                Message::new("cause-llama_cpp-exactly-k")
                    .verbatim("server", name)
                    .count("k", chain.top_k as usize),
            ),
        );
    }
    if chain.repeat_penalty != 1.0 && step.input.context_ids.len() > REPEAT_LAST_N {
        out.push(
            rules.penalty_window.says(
                Message::new("cause-llama_cpp-penalty-window")
                    .verbatim("server", name)
                    .count("context", step.input.context_ids.len())
                    .count("last", REPEAT_LAST_N),
            ),
        );
    }
    if !chain.ignored.is_empty() {
        out.push(
            rules.ignored.says(
                Message::new("cause-llama_cpp-ignored")
                    .verbatim("server", name)
                    .verbatim("ignored", listed(&chain.ignored)),
            ),
        );
    }
    if out.is_empty() {
        out.push(
            rules.arithmetic.says(
                Message::new("cause-llama_cpp-arithmetic")
                    .verbatim("server", name)
                    .count("kept", kept),
            ),
        );
    }
    out
}
