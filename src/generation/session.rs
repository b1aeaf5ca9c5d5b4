//! A generation: prefill once, then one token per step with a KV cache, keeping every step's raw
//! logits so that any position of the answer can be inspected afterwards — and branched: another
//! token chosen at any step, the cache cut back to it (no new prefill), the branch left behind
//! kept so that the user can go back to it.

use super::sampler::Sampler;
use super::GenerationError;
use super::StepLogits;
use crate::model::{KvCache, Model};
use sampling_lab_core::Message;
use serde::Serialize;
use std::collections::VecDeque;
use std::sync::Arc;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Finish {
    /// The model emitted an end-of-sequence token (`<|im_end|>` for SmolLM2).
    Eos,
    MaxNewTokens,
    /// The next position would not fit in the model's context.
    ContextFull,
    /// The caller stopped it (a speculative run, between two rounds).
    Cancelled,
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
    pub fn run(model: &Model, ids: Vec<u32>) -> Result<Self, GenerationError> {
        model.check_ids(&ids)?;
        let mut cache = model.new_cache()?;
        let logits = model.forward(&mut cache, &ids, 0)?;
        Ok(Prefill { ids, cache, logits })
    }
}

/// The steps from `fork` on, as they were before another token was chosen there.
struct Saved {
    fork: usize,
    steps: Vec<Step>,
    step_logits: Vec<Vec<f32>>,
    next_logits: Vec<f32>,
    finish: Option<Finish>,
}

/// A branch the user left, as the page lists it.
#[derive(Clone, Debug, Serialize)]
pub struct Branch {
    /// The generated token where this branch and the current one part.
    pub fork: usize,
    /// The branch's tokens from the fork on, and their text (the end-of-sequence token's own
    /// text, `<|im_end|>`, left out: `eos` says the branch ended there).
    pub tokens: Vec<u32>,
    pub text: String,
    pub eos: bool,
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
    /// Every step of the current branch, as returned.
    steps: Vec<Step>,
    branches: Vec<Saved>,
    /// Tokens the next steps take instead of drawing: an answer written elsewhere (the page's
    /// shipped answer), read again on this model.
    forced: VecDeque<u32>,
}

impl Session {
    /// Prefills the prompt; no token is chosen yet.
    pub fn start(
        model: Arc<Model>,
        prompt: Vec<u32>,
        sampler: Sampler,
        max_new_tokens: usize,
    ) -> Result<Self, GenerationError> {
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
            steps: Vec::new(),
            branches: Vec::new(),
            forced: VecDeque::new(),
        }
    }

    /// The next steps take `tokens`, in order, rather than drawing (each with the probability it
    /// has under the sampler's distribution there); drawing goes on after them. The answer ends
    /// where they do unless the session has steps left.
    pub fn force(&mut self, tokens: &[u32]) -> Result<(), GenerationError> {
        let vocab = self.next_logits.len();
        if let Some(token) = tokens.iter().find(|t| **t as usize >= vocab) {
            return Err(GenerationError::invalid(
                Message::new("generation-token-outside")
                    .verbatim("token", token.to_string())
                    .count("vocab", vocab),
            ));
        }
        self.forced.extend(tokens);
        Ok(())
    }

    /// Chooses the next token and runs it through the model; `None` once finished.
    pub fn step(&mut self) -> Result<Option<Step>, GenerationError> {
        if self.finish.is_some() {
            return Ok(None);
        }
        let (token, probability) = match self.forced.pop_front() {
            Some(token) => {
                let distribution = self.sampler.distribution(&self.next_logits, &self.ids)?;
                (token, distribution.prob(token))
            }
            None => self.sampler.next_with_probability(&self.next_logits, &self.ids)?,
        };
        self.take(token, probability).map(Some)
    }

    /// Commits `token` as the next step and runs it through the model.
    fn take(&mut self, token: u32, probability: f64) -> Result<Step, GenerationError> {
        self.ids.push(token);
        self.step_logits.push(std::mem::take(&mut self.next_logits));
        let index = self.step_logits.len() - 1;
        self.finish = self.finish_after(token);
        if self.finish.is_none() {
            let pos = self.ids.len() - 1;
            self.next_logits = self.model.forward(&mut self.cache, &[token], pos)?;
        }
        let step = Step {
            index,
            token,
            token_text: self.model.tokenizer.token_text(token),
            text: self.new_text()?,
            probability,
            finish: self.finish,
        };
        self.steps.push(step.clone());
        Ok(step)
    }

    /// Chooses `token` at generated step `index` instead of what was drawn there: the cache is
    /// cut back to that step, the steps after it are kept as a branch to go back to, and the
    /// forced step is returned with the probability the token had there. `step` goes on from it.
    pub fn branch(&mut self, index: usize, token: u32) -> Result<Step, GenerationError> {
        self.check_step(index)?;
        let vocab = self.step_logits[index].len();
        if token as usize >= vocab {
            return Err(GenerationError::invalid(
                Message::new("generation-token-outside")
                    .verbatim("token", token.to_string())
                    .count("vocab", vocab),
            ));
        }
        let saved = self.cut(index)?;
        self.branches.push(saved);
        let context = &self.ids;
        let probability = self.sampler.distribution(&self.next_logits, context)?.prob(token);
        self.take(token, probability)
    }

    /// Goes back to branch `number` of [`Session::branches`]: the current steps after its fork
    /// become a branch in turn, its tokens are run through the cache in one batched pass, and
    /// its steps are returned.
    pub fn restore(&mut self, number: usize) -> Result<&[Step], GenerationError> {
        if number >= self.branches.len() {
            return Err(GenerationError::invalid(
                Message::new("generation-branch-missing")
                    .verbatim("number", number.to_string())
                    .count("count", self.branches.len()),
            ));
        }
        let fork = self.branches[number].fork;
        let current = self.cut(fork)?;
        let back = std::mem::replace(&mut self.branches[number], current);
        let tokens: Vec<u32> = back.steps.iter().map(|s| s.token).collect();
        // The last token enters the cache only when the branch had not finished on it.
        let cached = if back.finish.is_some() {
            tokens.len() - 1
        } else {
            tokens.len()
        };
        if cached > 0 {
            let pos = self.ids.len();
            self.model.forward_all(&mut self.cache, &tokens[..cached], pos)?;
        }
        self.ids.extend(&tokens);
        self.step_logits.extend(back.step_logits);
        self.next_logits = back.next_logits;
        self.finish = back.finish;
        self.steps.extend(back.steps);
        self.emitted_text = self.steps.iter().map(|s| s.text.as_str()).collect();
        Ok(&self.steps[fork..])
    }

    /// Generated step `index`'s logits and context, for everything asked about that step.
    pub fn step_logits(&self, index: usize) -> Result<StepLogits, GenerationError> {
        self.check_step(index)?;
        let (logits, context) = self.at(index).expect("checked above");
        Ok(StepLogits::new(self.model.clone(), logits.to_vec(), context.to_vec()))
    }

    fn check_step(&self, index: usize) -> Result<(), GenerationError> {
        if index < self.steps() {
            return Ok(());
        }
        Err(GenerationError::invalid(
            Message::new("generation-step-missing")
                .verbatim("index", index.to_string())
                .count("count", self.steps()),
        ))
    }

    /// The branches left behind, in the order they were left.
    pub fn branches(&self) -> Vec<Branch> {
        self.branches
            .iter()
            .map(|b| Branch {
                fork: b.fork,
                tokens: b.steps.iter().map(|s| s.token).collect(),
                text: b
                    .steps
                    .iter()
                    .filter(|s| s.finish != Some(Finish::Eos))
                    .map(|s| s.text.as_str())
                    .collect(),
                eos: b.finish == Some(Finish::Eos),
            })
            .collect()
    }

    /// Takes the steps from `index` on out of the session, leaving it as it was just before
    /// step `index` was chosen (cache included).
    fn cut(&mut self, index: usize) -> Result<Saved, GenerationError> {
        self.cache.truncate(self.prompt_len + index)?;
        // Tokens still to be replayed belonged to the answer this cut leaves.
        self.forced.clear();
        let steps = self.steps.split_off(index);
        // The logits that produced step `index` are again the ones to choose from.
        let step_logits = self.step_logits.split_off(index);
        let next_logits = std::mem::replace(&mut self.next_logits, step_logits[0].clone());
        self.ids.truncate(self.prompt_len + index);
        self.emitted_text = self.steps.iter().map(|s| s.text.as_str()).collect();
        Ok(Saved {
            fork: index,
            steps,
            step_logits,
            next_logits,
            finish: self.finish.take(),
        })
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
    fn new_text(&mut self) -> Result<String, GenerationError> {
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

    /// Every generated step of the current branch, as [`Session::step`] returned it.
    pub fn generated_steps(&self) -> &[Step] {
        &self.steps
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
