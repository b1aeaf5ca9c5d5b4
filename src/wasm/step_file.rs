//! A step as a file (`crate::step_file`), for the worker: read and checked before anything is
//! drawn from it, or written from a step the model computed. Both run on the sampling core's
//! build: an embed reads a writer's step before (or without) the model.

use super::{to_js, Failure};
use crate::step_file::{self, StepChat, StepCompletion, StepFile, StepModel};
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// What reading a step file gives: the step, or why it cannot be used as a message of the page's
/// catalog (`{id, args}`), never a thrown error: the page says it where the figures would be.
#[derive(Serialize)]
#[serde(rename_all = "snake_case")]
enum Read {
    Step(StepFile),
    Refused { id: &'static str, args: serde_json::Value },
}

/// Reads `bytes` as a step of the model with sha256 `model_sha256` and a vocabulary of `vocab`
/// tokens, for the chat `chat_json` (the link's; none for any): `{step: {model, chat,
/// context_ids, logits, completions}}` or `{refused: {id, args}}`.
#[wasm_bindgen(js_name = readStep)]
pub fn read_step(
    bytes: &[u8],
    model_sha256: &str,
    vocab: usize,
    chat_json: Option<String>,
) -> Result<JsValue, Failure> {
    let chat: Option<StepChat> = chat_json
        .map(|text| serde_json::from_str(&text))
        .transpose()
        .map_err(|e| Failure::verbatim(format!("the chat to check a step against: {e}")))?;
    let read = match step_file::read(bytes, model_sha256, vocab, chat.as_ref()) {
        Ok(step) => Read::Step(step),
        Err(e) => {
            let (id, args) = e.message();
            Read::Refused { id, args }
        }
    };
    to_js(&read)
}

/// The step file of a step the model computed: its chat, the ids it followed, its logits, the
/// completions of its byte tokens (JSON, as `StepLogits.completions` gives them), and the model.
#[wasm_bindgen(js_name = writeStep)]
pub fn write_step(
    chat_json: &str,
    context_ids: Vec<u32>,
    logits: Vec<f32>,
    completions_json: &str,
    model_sha256: &str,
    model_name: &str,
) -> Result<String, Failure> {
    let parse = |what: &str, e: serde_json::Error| Failure::verbatim(format!("{what}: {e}"));
    let chat: StepChat = serde_json::from_str(chat_json).map_err(|e| parse("the step's chat", e))?;
    let completions: Vec<StepCompletion> =
        serde_json::from_str(completions_json).map_err(|e| parse("the step's completions", e))?;
    Ok(step_file::write(&StepFile {
        model: StepModel {
            sha256: model_sha256.to_string(),
            name: model_name.to_string(),
        },
        chat,
        context_ids,
        logits,
        completions,
    }))
}
