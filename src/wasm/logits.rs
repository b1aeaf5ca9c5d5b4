//! Model-free entry points: the core over logits the caller already has (a `.npy` file, a
//! synthetic row such as the ties lab's `[3, 2, 2, 1]`).

use super::{args, generation_config, report_options, to_js, Failure};
use crate::logits_file;
use sampling_lab_core::output::monte_carlo::{self, Part};
use sampling_lab_core::{Analysis, Answer, Inspection, Port};
use wasm_bindgen::prelude::*;

fn inspection(
    logits: Vec<f32>,
    params_json: &str,
    generation_config_json: Option<String>,
    context_ids: Vec<u32>,
) -> Result<Inspection, Failure> {
    let args = args(params_json)?;
    let generation_config = generation_config(generation_config_json)?;
    Ok(Inspection::new(logits, args, generation_config, context_ids)?)
}

/// The report of every column for one step's logits, written as `options_json` says
/// (`{"lang", "compared"}`: the core's `ReportOptions`).
#[wasm_bindgen]
pub fn inspect(
    logits: Vec<f32>,
    params_json: &str,
    generation_config_json: Option<String>,
    context_ids: Vec<u32>,
    options_json: Option<String>,
) -> Result<JsValue, Failure> {
    let options = report_options(options_json)?;
    let input = inspection(logits, params_json, generation_config_json, context_ids)?;
    to_js(&Analysis::run(&input).report_with(&options))
}

/// One step of an answer under every column: the figures `inspect` gives on these logits for the
/// token written after them (`{token, hf_entropy, columns: {<column>: {kept, tv, mass_outside_hf,
/// p_token}}}`), as a worker without the model computes them beside the model's decoding.
#[wasm_bindgen(js_name = answerStep)]
pub fn answer_step(
    logits: Vec<f32>,
    params_json: &str,
    generation_config_json: Option<String>,
    context_ids: Vec<u32>,
    token: u32,
) -> Result<JsValue, Failure> {
    let input = inspection(logits, params_json, generation_config_json, context_ids)?;
    let mut answer = Answer::default();
    to_js(answer.push_step(&input, token))
}

/// An answer's report from its steps' figures as `answerStep` wrote them (a generation's, or the
/// answer a site ships): the steps, every column's summary and the sentences, written as
/// `options_json` says (`{"lang", "compared"}`), and `call`: the call it was written under
/// (`params_json`) as Python source.
#[wasm_bindgen(js_name = answerReport)]
pub fn answer_report(steps_json: &str, params_json: &str, options_json: Option<String>) -> Result<JsValue, Failure> {
    let options = report_options(options_json)?;
    let report = Answer::from_json_str(steps_json)?.report(options.lang, &options.compared);
    let mut value = serde_json::to_value(report)?;
    value["call"] = args(params_json)?.python_call().into();
    to_js(&value)
}

/// Each column's request that samples from transformers' distribution at this step, checked
/// (`sampling-lab port`): `[{column, fixed, this_step, verdict}]`, the verdicts in the options'
/// language.
#[wasm_bindgen]
pub fn port(
    logits: Vec<f32>,
    params_json: &str,
    generation_config_json: Option<String>,
    context_ids: Vec<u32>,
    options_json: Option<String>,
) -> Result<JsValue, Failure> {
    let options = report_options(options_json)?;
    let input = inspection(logits, params_json, generation_config_json, context_ids)?;
    to_js(&Port::all(&input, options.lang)?)
}

/// `draws` seeded draws of every drawing column with its library's own generator, to be made in
/// chunks with `advance`; or part `part` of `parts` of them, when threads share the work (the
/// parts' counts, added up with `absorb`, are the whole run's).
#[wasm_bindgen(js_name = monteCarlo)]
#[allow(clippy::too_many_arguments)] // a wasm-bindgen function: JS passes them one by one
pub fn monte_carlo(
    logits: Vec<f32>,
    params_json: &str,
    generation_config_json: Option<String>,
    context_ids: Vec<u32>,
    draws: usize,
    seed: u64,
    part: Option<usize>,
    parts: Option<usize>,
) -> Result<MonteCarloRun, Failure> {
    let part = Part::new(part.unwrap_or(0), parts.unwrap_or(1))?;
    let input = inspection(logits, params_json, generation_config_json, context_ids)?;
    Ok(MonteCarloRun {
        run: monte_carlo::MonteCarloRun::new(&Analysis::run(&input), draws, seed, part),
    })
}

/// Everything a Monte Carlo run needs, without the model: a model's step as plain data that a
/// worker without the model can draw from (`monteCarlo(job.logits, job.params, …)`).
#[wasm_bindgen]
pub struct DrawJob {
    input: Inspection,
    params_json: String,
}

impl DrawJob {
    #[cfg(feature = "model")]
    pub(super) fn new(input: Inspection, params_json: &str) -> DrawJob {
        DrawJob {
            input,
            params_json: params_json.to_string(),
        }
    }
}

#[wasm_bindgen]
impl DrawJob {
    #[wasm_bindgen(getter)]
    pub fn logits(&self) -> Vec<f32> {
        self.input.logits.clone()
    }

    #[wasm_bindgen(getter)]
    pub fn params(&self) -> String {
        self.params_json.clone()
    }

    /// The `generation_config.json` that applies: the caller's, else the model's own.
    #[wasm_bindgen(getter, js_name = generationConfig)]
    pub fn generation_config(&self) -> Option<String> {
        self.input.generation_config.as_ref().map(|gc| gc.to_json_string())
    }

    #[wasm_bindgen(getter, js_name = contextIds)]
    pub fn context_ids(&self) -> Vec<u32> {
        self.input.context_ids.clone()
    }
}

/// Monte Carlo draws in progress: `advance(n)` makes up to n more, `finish()` gives the result
/// (frequencies, distinct tokens, share outside the hf support, the statistical check).
#[wasm_bindgen]
pub struct MonteCarloRun {
    run: monte_carlo::MonteCarloRun,
}

#[wasm_bindgen]
impl MonteCarloRun {
    /// Makes up to `draws` more draws (every drawing column's together); the number done so far.
    pub fn advance(&mut self, draws: usize) -> Result<usize, Failure> {
        Ok(self.run.advance(draws)?)
    }

    #[wasm_bindgen(getter)]
    pub fn done(&self) -> usize {
        self.run.done()
    }

    #[wasm_bindgen(getter)]
    pub fn total(&self) -> usize {
        self.run.total()
    }

    /// Both ports' counts per token, for `absorb` in the thread that finishes the run.
    pub fn counts(&self) -> Vec<u64> {
        self.run.counts()
    }

    /// Adds the `counts` of another part of the same run.
    pub fn absorb(&mut self, counts: Vec<u64>) -> Result<(), Failure> {
        Ok(self.run.absorb(&counts)?)
    }

    /// Each port's `[port, draws, tv_to_exact, bound]` so far, for a convergence picture.
    pub fn convergence(&self) -> Result<JsValue, Failure> {
        to_js(&self.run.convergence())
    }

    /// The result of the draws made (all of them, unless the run was stopped early).
    pub fn finish(self) -> Result<JsValue, Failure> {
        to_js(&self.run.finish())
    }
}

/// Logits from `.npy` (1-D float32) or JSON-array bytes.
#[wasm_bindgen(js_name = parseLogits)]
pub fn parse_logits(bytes: &[u8]) -> Result<Vec<f32>, Failure> {
    Ok(logits_file::parse_logits(bytes)?)
}
