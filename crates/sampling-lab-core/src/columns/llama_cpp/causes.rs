//! Why llama.cpp's chain departs from transformers at a step, in plain words.

use super::request::defaults_of;
use super::{short, LlamaCpp, REPEAT_LAST_N};
use crate::columns::causes::{count, departs, ordinal, Cause};
use crate::columns::StepView;
use crate::distribution::{ties_at_k, Distribution};

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
            let clamps: Vec<String> = chain
                .clamped
                .iter()
                .map(|c| format!("{} to {}", c.argument, c.became))
                .collect();
            let what = match (clamps.is_empty(), chain.is_greedy()) {
                (true, true) => "decodes greedily".to_string(),
                (true, false) => format!("samples from {}", count(kept, "token")),
                (false, true) => format!("clamps {} and decodes greedily", clamps.join(", ")),
                (false, false) => format!("clamps {} and samples from {}", clamps.join(", "), count(kept, "token")),
            };
            return vec![rules.accepts.says(format!(
                "transformers refuses these arguments (“{message}”); {name} {what}."
            ))];
        }
    };
    let mut out = Vec::new();
    if !hf.do_sample && !chain.is_greedy() {
        out.push(rules.no_do_sample.says(format!(
            "generate() without do_sample=True decodes greedily; {name} has no do_sample and samples at temperature {} from {}.",
            short(chain.temperature),
            count(kept, "token")
        )));
    }
    let not_passed = format!("not passed: {} ", defaults_of(chain.server));
    let filled: Vec<String> = chain
        .carried
        .iter()
        .filter(|c| c.python.is_none())
        .filter(|c| !(c.how.contains("top_k") && chain.top_k <= 0))
        .map(|c| c.how.trim_start_matches(&not_passed).to_string())
        .collect();
    if hf.do_sample && !filled.is_empty() {
        out.push(rules.defaults.says(format!(
            "what is not passed takes {name}'s defaults, not transformers': {} (transformers: temperature 1.0, top_k 50, no top_p, no min_p).",
            filled.join(", ")
        )));
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
        out.push(rules.order.says(format!(
            "{name} cuts with {} at temperature 1, where {} pass, and divides by the temperature {} only then; transformers divides first, and {} pass its cuts.",
            truncates.join(", "),
            count(passed.kept(), "token"),
            short(chain.temperature),
            count(hf_kept, "token")
        )));
    }
    if chain.top_k > 0 && hf.do_sample && ties_at_k(&step.input.logits, chain.top_k as usize).is_some() {
        out.push(rules.exactly_k.says(format!(
            "scores tie at the {} place: transformers keeps every tied token, {name} keeps exactly {} (libc++'s heap decides which).",
            ordinal(chain.top_k as usize),
            chain.top_k
        )));
    }
    if chain.repeat_penalty != 1.0 && step.input.context_ids.len() > REPEAT_LAST_N {
        out.push(rules.penalty_window.says(format!(
            "transformers' repetition penalty covers all {} tokens of the context; {name}'s repeat_penalty only the last {REPEAT_LAST_N}.",
            step.input.context_ids.len()
        )));
    }
    if !chain.ignored.is_empty() {
        out.push(
            rules
                .ignored
                .says(format!("{name} never reads {}.", chain.ignored.join(", "))),
        );
    }
    if out.is_empty() {
        out.push(rules.arithmetic.says(format!(
            "{name} runs the same rules in f32 (keeping {}); the distributions differ by more than 1e-6.",
            count(kept, "token")
        )));
    }
    out
}
