//! The model in the browser: a `Lab` owns one loaded model; a `Generation` is one streamed answer
//! whose every step can be inspected afterwards.

use super::generation::Generation;
use super::{args, generation_config, to_js, Failure, StepLogits};
use crate::generation::speculative::{self, DraftSource, Speculative};
use crate::generation::{self, ColumnName, Decoding, PromptCache, Session};
use crate::model::{hub::HubFiles, Chat, Model, Precision};
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::sync::Arc;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** A conversation: optional system message, turns, and text the answer is forced to start with. */
export interface ChatInput {
  system?: string | null;
  messages: { role: string; content: string }[];
  answer_prefix?: string;
}
/** How a generation chooses its tokens: `semantics` is a column's name (see `columns()`; "hf" by
 * default); `params` / `generationConfig` are JSON text. */
export interface GenerationOptions {
  semantics?: string;
  params?: string;
  generationConfig?: string | null;
  seed?: number;
  maxNewTokens?: number;
}
"#;

/// One loaded model. The page fetches the bytes (and shows the download's progress); this parses.
#[wasm_bindgen]
pub struct Lab {
    model: Arc<Model>,
    prompts: RefCell<PromptCache>,
}

/// A chat rendered by the model's template, and its tokens.
#[derive(Serialize)]
struct Rendered {
    text: String,
    ids: Vec<u32>,
    /// Each id's display text, in order.
    tokens: Vec<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Options {
    /// A column's name, checked against the registry (its error names every column).
    #[serde(default)]
    semantics: Option<String>,
    #[serde(default = "empty_params")]
    params: String,
    #[serde(default)]
    generation_config: Option<String>,
    #[serde(default)]
    seed: Option<u64>,
    #[serde(default = "max_new_tokens")]
    max_new_tokens: usize,
    #[serde(default)]
    tokens: Vec<u32>,
}

struct CallOptions {
    call: Decoding,
    max_new_tokens: usize,
    tokens: Vec<u32>,
}

fn empty_params() -> String {
    "{}".into()
}
fn max_new_tokens() -> usize {
    256
}

#[wasm_bindgen]
impl Lab {
    /// A GGUF file's bytes; `precision` is `exact` (f32 arithmetic on the file's weights) or
    /// `fast` (candle's quantized matmuls, activations rounded to 8 bits).
    #[wasm_bindgen(js_name = fromGguf)]
    pub fn from_gguf(bytes: &[u8], precision: &str) -> Result<Lab, Failure> {
        let precision: Precision = precision.parse()?;
        Ok(Lab::new(Model::from_gguf(bytes, precision)?))
    }

    /// The Hugging Face Hub layout: `config.json`, `model.safetensors`, `tokenizer.json`, and the
    /// optional `tokenizer_config.json` (chat template) and `generation_config.json`.
    #[wasm_bindgen(js_name = fromHub)]
    pub fn from_hub(
        config: Vec<u8>,
        weights: Vec<u8>,
        tokenizer: Vec<u8>,
        tokenizer_config: Option<Vec<u8>>,
        generation_config: Option<Vec<u8>>,
    ) -> Result<Lab, Failure> {
        let files = HubFiles {
            config,
            weights,
            tokenizer,
            tokenizer_config,
            generation_config,
        };
        Ok(Lab::new(Model::from_hub(&files)?))
    }

    /// The call the options describe, and the answer's length.
    fn call(&self, options: JsValue) -> Result<CallOptions, Failure> {
        let options = parse_options(options)?;
        let (args, gc) = (args(&options.params)?, generation_config(options.generation_config)?);
        let semantics = match options.semantics {
            Some(name) => name.parse::<ColumnName>()?,
            None => sampling_lab_core::columns::hf::NAME,
        };
        Ok(CallOptions {
            call: Decoding::on(&self.model, semantics, args, gc, options.seed),
            max_new_tokens: options.max_new_tokens,
            tokens: options.tokens,
        })
    }

    fn new(model: Model) -> Lab {
        Lab {
            model: Arc::new(model),
            prompts: RefCell::default(),
        }
    }

    /// What is running: name, format, precision, weight type, hyper-parameters, limits.
    pub fn info(&self) -> Result<JsValue, Failure> {
        to_js(&self.model.info)
    }

    /// Every token's display text, by id: what a page names tokens with.
    pub fn vocabulary(&self) -> Vec<String> {
        let tokenizer = &self.model.tokenizer;
        (0..tokenizer.vocab_size() as u32)
            .map(|id| tokenizer.token_text(id))
            .collect()
    }

    /// `text`'s ids and their display texts (no special tokens added).
    pub fn tokenize(&self, text: &str) -> Result<JsValue, Failure> {
        let ids = self.model.tokenizer.encode(text)?;
        to_js(&self.rendered(text.to_string(), ids))
    }

    /// The chat as the model's template renders it (with the generation prompt and the answer
    /// prefix), and the prompt ids the model runs on.
    #[wasm_bindgen(js_name = renderChat)]
    pub fn render_chat(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ChatInput")] chat: JsValue,
    ) -> Result<JsValue, Failure> {
        let chat = parse_chat(chat)?;
        let text = self.model.chat.conversation(&chat)? + &chat.answer_prefix;
        let ids = self.model.chat_ids(&chat)?;
        to_js(&self.rendered(text, ids))
    }

    fn rendered(&self, text: String, ids: Vec<u32>) -> Rendered {
        let tokens = ids.iter().map(|&id| self.model.tokenizer.token_text(id)).collect();
        Rendered { text, ids, tokens }
    }

    /// The token after the chat: its logits (from the prompt cache when the chat's tokens
    /// extend the last prompt) and the ids they came after.
    #[wasm_bindgen(js_name = nextStep)]
    pub fn next_step(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ChatInput")] chat: JsValue,
    ) -> Result<StepLogits, Failure> {
        let ids = self.model.chat_ids(&parse_chat(chat)?)?;
        let logits = self.prompts.borrow_mut().logits_after(&self.model, &ids)?;
        Ok(StepLogits::from(generation::StepLogits::new(
            self.model.clone(),
            logits,
            ids,
        )))
    }

    /// The raw next-token logits after any `ids`, from a fresh prefill (a generation's context
    /// checked against a forward that never saw its cache).
    #[wasm_bindgen(js_name = nextLogitsAfter)]
    pub fn next_logits_after(&self, ids: Vec<u32>) -> Result<Vec<f32>, Failure> {
        Ok(self.model.next_logits(&ids)?)
    }

    /// DFlash's speculative decode loop on the chat (exact precision): `draft` is `greedy`,
    /// `prompt-lookup` or `sampled`; the result has every round, the generated ids and text, the
    /// display text of every id it names (`tokens`) and the wall time (`ms`).
    pub fn speculate(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ChatInput")] chat: JsValue,
        #[wasm_bindgen(unchecked_param_type = "GenerationOptions")] options: JsValue,
        draft: &str,
        block_size: usize,
    ) -> Result<JsValue, Failure> {
        let mut run = self.start_speculation(chat, options, draft, block_size)?;
        while !run.next_round()?.is_null() {}
        run.finish()
    }

    /// The same loop one round at a time (`nextRound()` until it returns null, then `finish()`),
    /// so that a caller can show progress and stop it between two rounds.
    #[wasm_bindgen(js_name = startSpeculation)]
    pub fn start_speculation(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ChatInput")] chat: JsValue,
        #[wasm_bindgen(unchecked_param_type = "GenerationOptions")] options: JsValue,
        draft: &str,
        block_size: usize,
    ) -> Result<SpeculationRun, Failure> {
        let started = js_sys::Date::now();
        let call = self.call(options)?;
        let settings = Speculative {
            block_size,
            draft: draft.parse::<DraftSource>()?,
            max_new_tokens: call.max_new_tokens,
        };
        let prompt = self.model.chat_ids(&parse_chat(chat)?)?;
        let run = speculative::SpeculativeRun::start(self.model.clone(), &prompt, &call.call, settings)?;
        Ok(SpeculationRun { run, started })
    }

    /// The exact expected acceptance length of one greedy draft of `block_size` slots over
    /// `temperatures`, under DFlash's sampler: `[[temperature, τ], ...]`.
    #[wasm_bindgen(js_name = acceptanceCurve)]
    pub fn acceptance_curve(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ChatInput")] chat: JsValue,
        block_size: usize,
        temperatures: Vec<f64>,
    ) -> Result<JsValue, Failure> {
        let prompt = self.model.chat_ids(&parse_chat(chat)?)?;
        to_js(&speculative::acceptance_curve(
            self.model.clone(),
            &prompt,
            block_size,
            &temperatures,
        )?)
    }

    /// Prefills the chat and returns a generation to step through; nothing is sampled yet. With
    /// `options.tokens`, its first steps take those tokens (an answer read again on this model).
    #[wasm_bindgen(js_name = startGeneration)]
    pub fn start_generation(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ChatInput")] chat: JsValue,
        #[wasm_bindgen(unchecked_param_type = "GenerationOptions")] options: JsValue,
    ) -> Result<Generation, Failure> {
        let call = self.call(options)?;
        let prompt = self.model.chat_ids(&parse_chat(chat)?)?;
        let prompt_reused = self.prompts.borrow().holds_prefill_of(&prompt);
        let mut session = Session::resume(
            self.model.clone(),
            self.prompts.borrow_mut().prefill(&self.model, prompt)?,
            call.call.sampler(0)?,
            call.max_new_tokens,
        );
        session.force(&call.tokens)?;
        Ok(Generation::new(session, prompt_reused))
    }

    /// Generates to the end, calling `on_token(step)` after each token; the callback returning
    /// `false` stops the generation there. The generation is returned for inspection.
    pub fn generate(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ChatInput")] chat: JsValue,
        #[wasm_bindgen(unchecked_param_type = "GenerationOptions")] options: JsValue,
        #[wasm_bindgen(unchecked_param_type = "(step: any) => boolean | void")] on_token: &js_sys::Function,
    ) -> Result<Generation, Failure> {
        let mut generation = self.start_generation(chat, options)?;
        loop {
            let step = generation.step()?;
            if step.is_null() {
                break;
            }
            let go_on = on_token.call1(&JsValue::NULL, &step).map_err(Failure::thrown)?;
            if go_on == JsValue::FALSE {
                break;
            }
        }
        Ok(generation)
    }
}

/// A speculative run in progress.
#[wasm_bindgen]
pub struct SpeculationRun {
    run: speculative::SpeculativeRun,
    started: f64,
}

#[wasm_bindgen]
impl SpeculationRun {
    /// Runs one round: `{draft, posterior, acceptance_length, expected_acceptance_length,
    /// rejection, emitted}`, or `null` once the answer is finished.
    #[wasm_bindgen(js_name = nextRound)]
    pub fn next_round(&mut self) -> Result<JsValue, Failure> {
        match self.run.next_round()? {
            Some(round) => to_js(round),
            None => Ok(JsValue::NULL),
        }
    }

    /// `[generated tokens, max_new_tokens]` so far.
    pub fn progress(&self) -> Vec<usize> {
        let (done, total) = self.run.progress();
        vec![done, total]
    }

    /// The run's result (`finish: "cancelled"` when stopped before its end), with `ms`.
    pub fn finish(self) -> Result<JsValue, Failure> {
        let mut value = serde_json::to_value(self.run.finish()?)?;
        value["ms"] = (js_sys::Date::now() - self.started).into();
        to_js(&value)
    }
}

fn parse_options(options: JsValue) -> Result<Options, Failure> {
    if options.is_undefined() || options.is_null() {
        Ok(serde_json::from_str("{}")?)
    } else {
        serde_wasm_bindgen::from_value(options).map_err(|e| Failure::verbatim(format!("generation options: {e}")))
    }
}

fn parse_chat(chat: JsValue) -> Result<Chat, Failure> {
    serde_wasm_bindgen::from_value(chat).map_err(|e| Failure::verbatim(format!("chat: {e}")))
}
