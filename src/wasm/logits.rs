//! Model-free entry points: the core over logits the caller already has (a `.npy` file, a
//! synthetic row such as the ties lab's `[3, 2, 2, 1]`).

use super::{args, error, generation_config, to_js};
use crate::logits_file;
use crate::sampling::{report, Analysis, Inspection};
use wasm_bindgen::prelude::*;

fn inspection(
    logits: Vec<f32>,
    params_json: &str,
    generation_config_json: Option<String>,
    context_ids: Vec<u32>,
) -> Result<Inspection, JsError> {
    let args = args(params_json)?;
    let generation_config = generation_config(generation_config_json)?;
    if logits.is_empty() {
        return Err(JsError::new("logits are empty"));
    }
    Ok(Inspection {
        logits,
        args,
        generation_config,
        context_ids,
    })
}

/// The hf / literal / corrected report for one step's logits.
#[wasm_bindgen]
pub fn inspect(
    logits: Vec<f32>,
    params_json: &str,
    generation_config_json: Option<String>,
    context_ids: Vec<u32>,
) -> Result<JsValue, JsError> {
    let input = inspection(logits, params_json, generation_config_json, context_ids)?;
    to_js(&Analysis::run(&input).report())
}

/// `draws` seeded draws of both ports with the real candle `LogitsProcessor`, to be made in
/// chunks with `advance`.
#[wasm_bindgen(js_name = monteCarlo)]
pub fn monte_carlo(
    logits: Vec<f32>,
    params_json: &str,
    generation_config_json: Option<String>,
    context_ids: Vec<u32>,
    draws: usize,
    seed: u64,
) -> Result<MonteCarloRun, JsError> {
    let input = inspection(logits, params_json, generation_config_json, context_ids)?;
    Ok(MonteCarloRun::new(&input, draws, seed))
}

/// Monte Carlo draws in progress: `advance(n)` makes up to n more, `finish()` gives the result
/// (frequencies, distinct tokens, share outside the hf support, the statistical check).
#[wasm_bindgen]
pub struct MonteCarloRun {
    run: report::MonteCarloRun,
}

#[wasm_bindgen]
impl MonteCarloRun {
    pub(super) fn new(input: &Inspection, draws: usize, seed: u64) -> MonteCarloRun {
        MonteCarloRun {
            run: Analysis::run(input).monte_carlo_run(input, draws, seed),
        }
    }

    /// Makes up to `draws` more draws (both ports together); the number done so far.
    pub fn advance(&mut self, draws: usize) -> Result<usize, JsError> {
        self.run.advance(draws).map_err(error)
    }

    #[wasm_bindgen(getter)]
    pub fn done(&self) -> usize {
        self.run.done()
    }

    #[wasm_bindgen(getter)]
    pub fn total(&self) -> usize {
        self.run.total()
    }

    /// The result of the draws made (all of them, unless the run was stopped early).
    pub fn finish(self) -> Result<JsValue, JsError> {
        to_js(&self.run.finish())
    }
}

/// Logits from `.npy` (1-D float32) or JSON-array bytes.
#[wasm_bindgen(js_name = parseLogits)]
pub fn parse_logits(bytes: &[u8]) -> Result<Vec<f32>, JsError> {
    logits_file::parse_logits(bytes).map_err(|e| JsError::new(&e))
}
