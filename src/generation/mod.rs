//! Driving the model: sessions that generate token by token under a chosen semantics, and the
//! inspection of any step's logits with the sampling core.

pub mod sampler;
pub mod session;
pub mod speculative;

pub use sampler::{Sampler, Semantics};
pub use session::{Finish, Prefill, Session, Step};

use crate::model::Model;
use crate::sampling::{Analysis, GenerateArgs, GenerationConfig, Inspection};
use serde_json::{Map, Value};
use std::collections::BTreeSet;

/// The core's input for one step: the model's own `generation_config.json` applies unless the
/// caller gives one.
pub fn step_inspection(
    model: &Model,
    logits: Vec<f32>,
    context_ids: &[u32],
    args: GenerateArgs,
    generation_config: Option<GenerationConfig>,
) -> Inspection {
    Inspection {
        logits,
        args,
        generation_config: model.generation_config_or(generation_config),
        context_ids: context_ids.to_vec(),
    }
}

/// The core's report for one step, plus `context_ids` and `tokens` (each support id's text).
pub fn inspect_step(model: &Model, input: &Inspection) -> Result<Value, String> {
    let report = Analysis::run(input).report();
    let mut ids = BTreeSet::new();
    for (_, entry) in report.entries() {
        ids.extend(entry.support.iter().map(|(id, _)| *id));
    }
    let mut value = serde_json::to_value(report).map_err(|e| e.to_string())?;
    value["context_ids"] = serde_json::to_value(&input.context_ids).map_err(|e| e.to_string())?;
    value["tokens"] = token_texts(model, ids);
    Ok(value)
}

fn token_texts(model: &Model, ids: impl IntoIterator<Item = u32>) -> Value {
    let texts: Map<String, Value> = ids
        .into_iter()
        .map(|id| (id.to_string(), Value::String(model.tokenizer.token_text(id))))
        .collect();
    Value::Object(texts)
}
