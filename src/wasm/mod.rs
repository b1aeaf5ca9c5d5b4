//! The `wasm-bindgen` edge: thin wrappers that take what a Web Worker has (bytes, typed arrays and
//! JSON text) and return plain JS objects with the field names of the CLI's JSON. Errors become JS
//! `Error`s carrying the text in every language the catalogs have ([`Failure`]).
//!
//! Parameters travel as JSON *text*, as on the CLI: `temperature: 1` and `temperature: 1.0` are
//! different Python values to transformers' validation, and a JS object cannot tell them apart.

mod failure;
#[cfg(feature = "model")]
mod generation;
#[cfg(feature = "model")]
mod lab;
mod logits;
#[cfg(feature = "model")]
mod pool;
#[cfg(feature = "model")]
mod step;
mod step_file;

pub use failure::Failure;
#[cfg(feature = "model")]
pub use generation::Generation;
#[cfg(feature = "model")]
pub use lab::{Lab, SpeculationRun};
pub use logits::{answer_report, answer_step, inspect, monte_carlo, parse_logits, DrawJob, MonteCarloRun};
#[cfg(feature = "model")]
pub use pool::{pool_rows, threaded, threads, trap_pool};
#[cfg(feature = "model")]
pub use step::StepLogits;
pub use step_file::{read_step, write_step};

use sampling_lab_core::columns::{self, causes::Rule};
use sampling_lab_core::output::ColumnInfo;
use sampling_lab_core::{GenerateArgs, GenerationConfig, Lang, ReportOptions};
use serde::Serialize;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

/// Whether this build runs wasm SIMD kernels (it is built with `+simd128`, so it only loads
/// where the browser supports them).
#[wasm_bindgen]
pub fn simd() -> bool {
    cfg!(target_feature = "simd128")
}

fn to_js<T: Serialize>(value: &T) -> Result<JsValue, Failure> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(Failure::from)
}

fn args(params_json: &str) -> Result<GenerateArgs, Failure> {
    Ok(GenerateArgs::from_json_str(params_json)?)
}

/// An absent or blank `generation_config.json` is "the model has none".
fn generation_config(json: Option<String>) -> Result<Option<GenerationConfig>, Failure> {
    json.filter(|text| !text.trim().is_empty())
        .map(|text| GenerationConfig::from_json_str(&text))
        .transpose()
        .map_err(Failure::from)
}

/// How a report is written (`{"lang", "compared"}`); absent or blank: English, the default pair.
fn report_options(json: Option<String>) -> Result<ReportOptions, Failure> {
    Ok(ReportOptions::from_json_str(json.as_deref().unwrap_or(""))?)
}

/// The rules the core names as causes (`report.causes[].rule`), for checking exercise sets.
#[wasm_bindgen(js_name = causeRules)]
pub fn cause_rules() -> Vec<String> {
    Rule::all().map(|r| r.name().to_string()).collect()
}

/// The columns, in the order the report lists them: `[{name, label, short, definition, code,
/// draws}]` in `lang` (`en` or `zh-Hans`; `code`: the language of the column's code, or null;
/// `draws`: whether Monte Carlo draws it).
#[wasm_bindgen]
pub fn columns(lang: &str) -> Result<JsValue, Failure> {
    let lang: Lang = lang.parse()?;
    let infos: Vec<ColumnInfo> = columns::REGISTRY.iter().map(|c| c.info(lang)).collect();
    to_js(&infos)
}

/// Aborts the instance exactly as a Rust panic does, so that the worker's crash recovery can be
/// exercised without a bug to trigger it.
#[wasm_bindgen]
pub fn trap() {
    panic!("trap requested");
}

/// Reserves memory until the instance has none left (wasm32 stops at 4 GiB, or at the module's
/// maximum): Rust then aborts as on any out-of-memory, for the recovery tests.
#[wasm_bindgen(js_name = exhaustMemory)]
pub fn exhaust_memory() {
    let mut hoard: Vec<Vec<u8>> = Vec::new();
    loop {
        hoard.push(Vec::with_capacity(64 << 20));
        std::hint::black_box(&hoard);
    }
}
