//! One step's logits and the ids they came after, with the model that gave them: the token after
//! a chat, or any generated token. Whatever is asked about a step — the report, the Monte Carlo
//! input, the tokens a branch can choose from — is asked of this one type, whichever the step.

use super::token_texts;
use crate::model::Model;
use sampling_lab_core::{
    Analysis, Distribution, GenerateArgs, GenerationConfig, Inspection, Report, ReportOptions, SamplingError,
};
use serde::Serialize;
use serde_json::{Map, Value};
use std::collections::BTreeSet;
use std::sync::Arc;

#[derive(Clone)]
pub struct StepLogits {
    model: Arc<Model>,
    pub logits: Vec<f32>,
    pub context_ids: Vec<u32>,
}

impl StepLogits {
    pub fn new(model: Arc<Model>, logits: Vec<f32>, context_ids: Vec<u32>) -> Self {
        StepLogits {
            model,
            logits,
            context_ids,
        }
    }

    /// The core's input for this step: the model's own `generation_config.json` applies unless
    /// the caller gives one, as `generate()` starts from the checkpoint's.
    pub fn inspection(
        &self,
        args: GenerateArgs,
        generation_config: Option<GenerationConfig>,
    ) -> Result<Inspection, SamplingError> {
        let generation_config = self.model.generation_config_or(generation_config);
        Inspection::new(self.logits.clone(), args, generation_config, self.context_ids.clone())
    }

    /// The report of this step's `analysis`, written as `options` say, with the text of every
    /// token it lists.
    pub fn report(&self, analysis: &Analysis, options: &ReportOptions) -> StepReport {
        let report = analysis.report_with(options);
        let mut ids = BTreeSet::new();
        for (_, entry) in &report.entries {
            ids.extend(entry.support.iter().map(|(id, _)| *id));
        }
        StepReport {
            report,
            context_ids: self.context_ids.clone(),
            tokens: token_texts(&self.model, ids),
        }
    }

    /// The characters the byte tokens among `tokens` begin, as the model completes them here.
    pub fn completions(&self, tokens: &[u32]) -> Result<Vec<super::Completion>, super::GenerationError> {
        super::completion::complete(&self.model, &self.context_ids, tokens)
    }

    /// `token`'s probability under the model's own distribution (the softmax of the raw logits,
    /// nothing truncated): what a branch lists, beside what a column gave it.
    pub fn model_probability(&self, token: u32) -> f64 {
        let logp = sampling_lab_core::log_softmax_f64(&self.logits);
        logp.get(token as usize).map_or(0.0, |l| l.exp())
    }

    /// The `n` most probable tokens under the model's own distribution (softmax of the raw
    /// logits, nothing truncated): what a branch can choose from, whatever a generation's
    /// arguments kept. `(token, probability, text)`.
    pub fn candidates(&self, n: usize) -> Vec<(u32, f64, String)> {
        let model = Distribution::softmax_of_finite(&self.logits);
        let top = model.support().iter().copied().take(n);
        top.map(|(id, p)| (id, p, self.model.tokenizer.token_text(id)))
            .collect()
    }
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
