//! One answer in the browser: a `Generation` streams its tokens, each of whose steps can be
//! inspected afterwards, and can branch and go back. Its steps' figures under every column are the
//! core's `answerStep`, computed beside it by a worker without the model.

use super::{to_js, Failure, StepLogits};
use crate::generation::Session;
use wasm_bindgen::prelude::*;

/// One answer being generated with a KV cache.
#[wasm_bindgen]
pub struct Generation {
    session: Session,
    prompt_reused: bool,
}

impl Generation {
    pub(super) fn new(session: Session, prompt_reused: bool) -> Self {
        Generation { session, prompt_reused }
    }
}

#[wasm_bindgen]
impl Generation {
    /// Chooses and runs the next token: `{index, token, token_text, text, probability, finish}`,
    /// or `null` once finished. Call it in a loop that yields between steps so that a cancel can
    /// arrive.
    pub fn step(&mut self) -> Result<JsValue, Failure> {
        match self.session.step()? {
            Some(step) => to_js(&step),
            None => Ok(JsValue::NULL),
        }
    }

    /// Chooses `token` at generated step `index` instead: the cache is cut back to it and the
    /// forced step returned (`step` goes on from there); the steps after it become a branch.
    pub fn branch(&mut self, index: usize, token: u32) -> Result<JsValue, Failure> {
        to_js(&self.session.branch(index, token)?)
    }

    /// Goes back to left branch `number`: its steps from its fork on.
    pub fn restore(&mut self, number: usize) -> Result<JsValue, Failure> {
        to_js(&self.session.restore(number)?)
    }

    /// The branches left behind: `[{fork, tokens, text, eos}]`.
    pub fn branches(&self) -> Result<JsValue, Failure> {
        to_js(&self.session.branches())
    }

    /// `eos`, `max_new_tokens`, `context_full`, or `null` while running.
    pub fn finish(&self) -> Result<JsValue, Failure> {
        to_js(&self.session.finish())
    }

    #[wasm_bindgen(getter)]
    pub fn steps(&self) -> usize {
        self.session.steps()
    }

    /// Whether the prompt's forward pass was the one the last inspect of it already ran.
    #[wasm_bindgen(getter, js_name = promptReused)]
    pub fn prompt_reused(&self) -> bool {
        self.prompt_reused
    }

    #[wasm_bindgen(js_name = promptIds)]
    pub fn prompt_ids(&self) -> Vec<u32> {
        self.session.prompt().to_vec()
    }

    #[wasm_bindgen(js_name = generatedIds)]
    pub fn generated_ids(&self) -> Vec<u32> {
        self.session.generated().to_vec()
    }

    /// Generated token `index`: the logits the model gave at that step and the ids before it.
    #[wasm_bindgen(js_name = stepAt)]
    pub fn step_at(&self, index: usize) -> Result<StepLogits, Failure> {
        Ok(StepLogits::from(self.session.step_logits(index)?))
    }
}
