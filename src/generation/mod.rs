//! Driving the model: sessions that generate token by token under a chosen semantics, and the
//! inspection of any step's logits with the sampling core.

pub mod prompt_cache;
pub mod sampler;
pub mod session;
pub mod speculative;

pub use prompt_cache::PromptCache;
pub use sampler::{Sampler, Semantics};
pub use session::{Finish, Prefill, Session, Step};

use crate::model::Model;
use crate::sampling::{Analysis, GenerateArgs, GenerationConfig, Inspection, Report, SamplingError};
use serde::Serialize;
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
) -> Result<Inspection, SamplingError> {
    let generation_config = model.generation_config_or(generation_config);
    Inspection::new(logits, args, generation_config, context_ids.to_vec())
}

/// The core's report for one step of a model: the ids it saw and each listed token's text.
#[derive(Serialize)]
pub struct StepReport {
    #[serde(flatten)]
    pub report: Report,
    pub context_ids: Vec<u32>,
    /// Each support token's text, by id.
    pub tokens: Map<String, Value>,
}

impl StepReport {
    pub fn new(model: &Model, input: &Inspection, analysis: &Analysis) -> Self {
        let report = analysis.report();
        let mut ids = BTreeSet::new();
        for (_, entry) in report.entries() {
            ids.extend(entry.support.iter().map(|(id, _)| *id));
        }
        StepReport {
            report,
            context_ids: input.context_ids.clone(),
            tokens: ids
                .into_iter()
                .map(|id| (id.to_string(), Value::String(model.tokenizer.token_text(id))))
                .collect(),
        }
    }
}
