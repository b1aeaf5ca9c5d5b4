//! A generation: prefill once, then one token per step with a KV cache, keeping every step's raw
//! logits so that any position of the answer can be inspected afterwards.

use super::sampler::Sampler;
use crate::model::{KvCache, Model};
use serde::Serialize;
use std::sync::Arc;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Finish {
    /// The model emitted an end-of-sequence token (`<|im_end|>` for SmolLM2).
    Eos,
    MaxNewTokens,
    /// The next position would not fit in the model's context.
    ContextFull,
}

/// One generated token.
#[derive(Clone, Debug, Serialize)]
pub struct Step {
    /// 0 for the first generated token.
    pub index: usize,
    pub token: u32,
    /// The token's display text (lone bytes escaped).
    pub token_text: String,
    /// Text that became complete with this token: a character split over several tokens is
    /// emitted once its last byte arrives.
    pub text: String,
    /// The probability the token had where it was drawn, under the generation's semantics.
    pub probability: f64,
    pub finish: Option<Finish>,
}

/// A prompt run through the model: the cache it filled and the logits for the next token.
pub struct Prefill {
    pub ids: Vec<u32>,
    pub cache: KvCache,
    pub logits: Vec<f32>,
}

impl Prefill {
    pub fn run(model: &Model, ids: Vec<u32>) -> Result<Self, String> {
        model.check_ids(&ids)?;
        let mut cache = model.new_cache()?;
        let logits = model.forward(&mut cache, &ids, 0)?;
        Ok(Prefill { ids, cache, logits })
    }
}

pub struct Session {
    model: Arc<Model>,
    cache: KvCache,
    sampler: Sampler,
    ids: Vec<u32>,
    prompt_len: usize,
    /// `step_logits[i]` produced generated token i.
    step_logits: Vec<Vec<f32>>,
    next_logits: Vec<f32>,
    max_new_tokens: usize,
    emitted_text: String,
    finish: Option<Finish>,
}

impl Session {
    /// Prefills the prompt; no token is chosen yet.
    pub fn start(model: Arc<Model>, prompt: Vec<u32>, sampler: Sampler, max_new_tokens: usize) -> Result<Self, String> {
        let prefill = Prefill::run(&model, prompt)?;
        Ok(Self::resume(model, prefill, sampler, max_new_tokens))
    }

    /// Goes on from a prompt already run through `model` (its cache is taken over, unchanged).
    pub fn resume(model: Arc<Model>, prefill: Prefill, sampler: Sampler, max_new_tokens: usize) -> Self {
        Session {
            model,
            cache: prefill.cache,
            sampler,
            prompt_len: prefill.ids.len(),
            ids: prefill.ids,
            step_logits: Vec::new(),
            next_logits: prefill.logits,
            max_new_tokens,
            emitted_text: String::new(),
            finish: (max_new_tokens == 0).then_some(Finish::MaxNewTokens),
        }
    }

    /// Chooses the next token and runs it through the model; `None` once finished.
    pub fn step(&mut self) -> Result<Option<Step>, String> {
        if self.finish.is_some() {
            return Ok(None);
        }
        let (token, probability) = self.sampler.next_with_probability(&self.next_logits, &self.ids)?;
        self.ids.push(token);
        self.step_logits.push(std::mem::take(&mut self.next_logits));
        let index = self.step_logits.len() - 1;
        self.finish = self.finish_after(token);
        if self.finish.is_none() {
            let pos = self.ids.len() - 1;
            self.next_logits = self.model.forward(&mut self.cache, &[token], pos)?;
        }
        Ok(Some(Step {
            index,
            token,
            token_text: self.model.tokenizer.token_text(token),
            text: self.new_text()?,
            probability,
            finish: self.finish,
        }))
    }

    fn finish_after(&self, token: u32) -> Option<Finish> {
        if self.model.is_eos(token) {
            Some(Finish::Eos)
        } else if self.step_logits.len() >= self.max_new_tokens {
            Some(Finish::MaxNewTokens)
        } else if self.ids.len() >= self.model.info.max_positions {
            Some(Finish::ContextFull)
        } else {
            None
        }
    }

    /// Decodes the whole answer and returns what was not emitted yet, holding back a trailing
    /// replacement character (an incomplete UTF-8 sequence) until the sequence completes or ends.
    fn new_text(&mut self) -> Result<String, String> {
        let text = self.model.tokenizer.decode(self.generated())?;
        let stable = match self.finish {
            None => text.trim_end_matches('\u{FFFD}'),
            Some(_) => &text,
        };
        let piece = stable.get(self.emitted_text.len()..).unwrap_or_default().to_string();
        if stable.starts_with(&self.emitted_text) {
            self.emitted_text = stable.to_string();
        }
        Ok(piece)
    }

    pub fn prompt(&self) -> &[u32] {
        &self.ids[..self.prompt_len]
    }

    pub fn generated(&self) -> &[u32] {
        &self.ids[self.prompt_len..]
    }

    pub fn finish(&self) -> Option<Finish> {
        self.finish
    }

    pub fn steps(&self) -> usize {
        self.step_logits.len()
    }

    /// The raw logits and the context (every id before it) of generated token `index`.
    pub fn at(&self, index: usize) -> Option<(&[f32], &[u32])> {
        let logits = self.step_logits.get(index)?;
        Some((logits, &self.ids[..self.prompt_len + index]))
    }

    pub fn model(&self) -> &Arc<Model> {
        &self.model
    }
}
