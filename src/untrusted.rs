//! Every way bytes or text from outside reach the crate, one function each, driven as far as the
//! input lets it go. Each returns the error a user would see, and must never panic nor reserve
//! memory a file only claims: the fuzz targets (`fuzz/`, `make fuzz`) call these, and
//! `tests/untrusted.rs` replays every input a fuzzer ever stopped on.

use crate::generation::GenerationError;
use crate::logits_file::parse_logits;
use crate::model::hub::HubFiles;
use crate::model::{Chat, Model, Precision};
use sampling_lab_core::output::monte_carlo::{MonteCarloRun, Part};
use sampling_lab_core::DEFAULT_PAIR;
use sampling_lab_core::{Analysis, GenerateArgs, GenerationConfig, Inspection, Lang};
use serde::Serialize;

/// Draws a Monte Carlo pass makes on fuzzed input: enough to run every drawing column's own
/// generator (the candle ports' real `LogitsProcessor` among them), few enough to keep a fuzzer's
/// executions fast.
const DRAWS: usize = 16;

/// A step file a link names (the page reads it before any model): read against a vocabulary of
/// 4 tokens and of the default model's 49152, for any chat, and written back bit for bit.
pub fn step_file(bytes: &[u8]) -> Result<(), GenerationError> {
    for vocab in [4, 49152] {
        match crate::step_file::read(bytes, STEP_MODEL, vocab, None) {
            Ok(step) => {
                let again = crate::step_file::read(
                    crate::step_file::write(&step).as_bytes(),
                    STEP_MODEL,
                    vocab,
                    Some(&step.chat),
                )?;
                assert_eq!(again, step, "a step file reads back as it was written");
                inspect(Inspection::new(
                    step.logits,
                    GenerateArgs::default(),
                    None,
                    step.context_ids,
                )?)?;
            }
            Err(e) => return Err(e.into()),
        }
    }
    Ok(())
}

/// The model the step fuzzer's files name: the site's default (the sha256 of its GGUF).
pub const STEP_MODEL: &str = "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53";

/// A pasted or dropped logits file (`.npy` or JSON), inspected under transformers' defaults.
pub fn logits(bytes: &[u8]) -> Result<(), GenerationError> {
    let args = GenerateArgs::from_json_str(r#"{"do_sample": true}"#)?;
    inspect(Inspection::new(parse_logits(bytes)?, args, None, Vec::new())?)
}

/// The `generate()` arguments and `generation_config.json` a user typed or a link carried, over
/// logits of their choosing: the whole analysis, the report's JSON and a Monte Carlo pass.
pub fn generate_call(
    params_json: &str,
    generation_config_json: &str,
    logits: Vec<f32>,
    context_ids: Vec<u32>,
) -> Result<(), GenerationError> {
    let generation_config = match generation_config_json.trim() {
        "" => None,
        text => Some(GenerationConfig::from_json_str(text)?),
    };
    let args = GenerateArgs::from_json_str(params_json)?;
    inspect(Inspection::new(logits, args, generation_config, context_ids)?)
}

fn inspect(input: Inspection) -> Result<(), GenerationError> {
    let analysis = Analysis::run(&input);
    // The Chinese catalog too: every message the step's report names must render in it.
    as_json(&analysis.report(Lang::ZhHans, &DEFAULT_PAIR))?;
    let mut run = MonteCarloRun::new(&analysis, DRAWS, 0, Part::new(0, 1)?);
    run.advance(DRAWS)?;
    as_json(&run.finish())
}

/// What the page and the CLI do with a result: serialize it (a result that cannot be is a bug,
/// which the fuzzer reports as a crash).
fn as_json(value: &impl Serialize) -> Result<(), GenerationError> {
    serde_json::to_string(value).expect("a result serializes");
    Ok(())
}

/// A GGUF file someone dropped: header, metadata, the tokenizer built from it, the chat template,
/// the tensor table, the weights, then one chat through the template and a forward pass.
pub fn gguf(bytes: &[u8]) -> Result<(), GenerationError> {
    use_model(&Model::from_gguf(bytes, Precision::Exact)?)
}

/// The Hub layout's five files, as a page fetches them for a repo id.
pub fn hub(files: &HubFiles) -> Result<(), GenerationError> {
    use_model(&Model::from_hub(files)?)
}

fn use_model(model: &Model) -> Result<(), GenerationError> {
    let chat = Chat::single(Some("Be brief."), "Hi <|im_end|> ☃", "A");
    let ids = model.chat_ids(&chat)?;
    let logits = model.next_logits(&ids)?;
    model.tokenizer.decode(&ids)?;
    generate_call("{}", "", logits, ids)
}
