//! The `wasm-bindgen` edge: thin wrappers that take what a Web Worker has (typed arrays and JSON
//! text) and return plain JS objects with the field names of `sampling-lab inspect`'s JSON.
//! Errors become JS `Error`s carrying the Rust message.

use crate::logits_file;
use crate::sampling::{Analysis, GenerateArgs, GenerationConfig, Inspection};
use serde::Serialize;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsError> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| JsError::new(&e.to_string()))
}

fn inspection(
    logits: Vec<f32>,
    params_json: &str,
    generation_config_json: Option<String>,
    context_ids: Vec<u32>,
) -> Result<Inspection, JsError> {
    let args = GenerateArgs::from_json_str(params_json).map_err(|e| JsError::new(&e))?;
    let generation_config = generation_config_json
        .filter(|text| !text.trim().is_empty())
        .map(|text| GenerationConfig::from_json_str(&text))
        .transpose()
        .map_err(|e| JsError::new(&e))?;
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
