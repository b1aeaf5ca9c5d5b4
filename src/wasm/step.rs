//! One step of a model — the token after a chat (`Lab.nextStep`) or a generated token
//! (`Generation.stepAt`) — and everything the page asks about it, whichever the step.

use super::{args, generation_config, report_options, to_js, DrawJob, Failure};
use crate::generation;
use sampling_lab_core::{Analysis, Inspection};
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
pub struct StepLogits {
    step: generation::StepLogits,
}

impl StepLogits {
    fn inspection(&self, params_json: &str, generation_config_json: Option<String>) -> Result<Inspection, Failure> {
        let (args, gc) = (args(params_json)?, generation_config(generation_config_json)?);
        Ok(self.step.inspection(args, gc)?)
    }
}

impl From<generation::StepLogits> for StepLogits {
    fn from(step: generation::StepLogits) -> Self {
        StepLogits { step }
    }
}

#[wasm_bindgen]
impl StepLogits {
    /// The report of `sampling-lab inspect --model` for this step, written as `options_json`
    /// says (`{"lang", "compared"}`), without `tokens` and `context_ids`: a page has the whole
    /// vocabulary once (`Lab.vocabulary()`), and naming every token of a 49152-token support
    /// again at each step cost more than the report itself.
    pub fn inspect(
        &self,
        params_json: &str,
        generation_config_json: Option<String>,
        options_json: Option<String>,
    ) -> Result<JsValue, Failure> {
        let options = report_options(options_json)?;
        let input = self.inspection(params_json, generation_config_json)?;
        to_js(&Analysis::run(&input).report_with(&options))
    }

    /// The Monte Carlo input for this step, for workers without the model.
    #[wasm_bindgen(js_name = drawJob)]
    pub fn draw_job(&self, params_json: &str, generation_config_json: Option<String>) -> Result<DrawJob, Failure> {
        let input = self.inspection(params_json, generation_config_json)?;
        Ok(DrawJob::new(input, params_json))
    }

    /// The characters the byte tokens among `tokens` begin, as the model completes them after
    /// this step's context: `[{token, text, probability, continuation}]` (only the tokens that
    /// leave a character open).
    pub fn completions(&self, tokens: Vec<u32>) -> Result<JsValue, Failure> {
        to_js(&self.step.completions(&tokens)?)
    }

    /// The `n` most probable tokens under the model's own softmax: `[[token, p, text], …]`.
    pub fn candidates(&self, n: usize) -> Result<JsValue, Failure> {
        to_js(&self.step.candidates(n))
    }

    /// `token`'s probability under the model's own softmax of the raw logits.
    #[wasm_bindgen(js_name = modelProbability)]
    pub fn model_probability(&self, token: u32) -> f64 {
        self.step.model_probability(token)
    }

    /// The raw logits of this step.
    #[wasm_bindgen(getter)]
    pub fn logits(&self) -> Vec<f32> {
        self.step.logits.clone()
    }

    /// The ids the logits came after (prompt and any generated tokens before this step).
    #[wasm_bindgen(getter, js_name = contextIds)]
    pub fn context_ids(&self) -> Vec<u32> {
        self.step.context_ids.clone()
    }
}
