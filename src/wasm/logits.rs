//! Model-free entry points: the core over logits the caller already has (a `.npy` file, a
//! synthetic row such as the ties lab's `[3, 2, 2, 1]`).

use super::{args, generation_config, to_js};
use crate::logits_file;
use crate::sampling::{Analysis, Inspection};
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

/// `draws` seeded draws of both ports with the real candle `LogitsProcessor`.
#[wasm_bindgen(js_name = monteCarlo)]
pub fn monte_carlo(
    logits: Vec<f32>,
    params_json: &str,
    generation_config_json: Option<String>,
    context_ids: Vec<u32>,
    draws: usize,
    seed: u64,
) -> Result<JsValue, JsError> {
    let input = inspection(logits, params_json, generation_config_json, context_ids)?;
    let result = Analysis::run(&input)
        .monte_carlo(&input, draws, seed)
        .map_err(|e| JsError::new(&e))?;
    to_js(&result)
}

/// Logits from `.npy` (1-D float32) or JSON-array bytes.
#[wasm_bindgen(js_name = parseLogits)]
pub fn parse_logits(bytes: &[u8]) -> Result<Vec<f32>, JsError> {
    logits_file::parse_logits(bytes).map_err(|e| JsError::new(&e))
}
