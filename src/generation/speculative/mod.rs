//! Speculative decoding as DFlash runs it (z-lab/dflash, `dflash/model.py` @ 44947fb,
//! `dflash_generate`): a block holds the last committed token (the anchor) and up to B−1
//! drafted tokens; the target runs the whole block in one batched forward and draws a posterior
//! token at every position; the drafted tokens that match the posterior before them are kept,
//! then the posterior at the first mismatch (the bonus token), and the KV cache is cut back to
//! what was committed.
//!
//! With a one-hot draft d this is speculative sampling's rule (accept with p(d); on a mismatch the
//! posterior drawn there is p restricted to tokens ≠ d): every emitted token is an exact draw from
//! the target, at any temperature. The acceptance length (accepted + 1, so 1..=B, as DFlash's
//! benchmark counts it) has the exact expectation `1 + Σₖ Πᵢ₍ᵢ₍ₖ₎ pᵢ(dᵢ₊₁)` given the drafted
//! tokens, which each round reports next to the observed one.

mod acceptance;
mod draft;
mod run;
#[cfg(test)]
mod tests;

pub use acceptance::{acceptance_curve, expected_acceptance};
use draft::DRAFTER_SEED;
pub use draft::{DraftSource, PROMPT_LOOKUP_NGRAM, PROMPT_LOOKUP_TOKENS};

use super::sampler::{Decoding, Sampler};
use super::session::Finish;
use super::{token_texts, GenerationError};
use crate::model::{KvCache, Model};
use sampling_lab_core::ColumnName;
use serde::Serialize;
use std::sync::Arc;

/// Slots of a block in DFlash's published checkpoints: the anchor and 15 drafted tokens.
pub const DEFAULT_BLOCK: usize = 16;

/// What the loop needs of the target: a KV cache that a block extends and that can be cut back.
pub trait Target {
    /// Runs `ids` after the cached positions in one pass; the logits at each of them.
    fn extend(&mut self, ids: &[u32]) -> Result<Vec<Vec<f32>>, GenerationError>;
    /// Keeps the first `len` cached positions.
    fn truncate(&mut self, len: usize) -> Result<(), GenerationError>;
    fn is_eos(&self, id: u32) -> bool;
}

/// The model as a target, on its own KV cache.
pub struct ModelTarget {
    model: Arc<Model>,
    cache: KvCache,
    len: usize,
}

impl ModelTarget {
    /// Runs the prompt; the target and the logits for the first token.
    pub fn prefill(model: Arc<Model>, prompt: &[u32]) -> Result<(Self, Vec<f32>), GenerationError> {
        model.check_ids(prompt)?;
        let mut cache = model.new_cache()?;
        // Fail before the prefill, not after it, where the cache could never be cut back.
        cache.truncate(0)?;
        let logits = model.forward(&mut cache, prompt, 0)?;
        let len = prompt.len();
        Ok((ModelTarget { model, cache, len }, logits))
    }
}

impl Target for ModelTarget {
    fn extend(&mut self, ids: &[u32]) -> Result<Vec<Vec<f32>>, GenerationError> {
        let logits = self.model.forward_all(&mut self.cache, ids, self.len)?;
        self.len += ids.len();
        Ok(logits)
    }

    fn truncate(&mut self, len: usize) -> Result<(), GenerationError> {
        self.cache.truncate(len)?;
        self.len = self.len.min(len);
        Ok(())
    }

    fn is_eos(&self, id: u32) -> bool {
        self.model.is_eos(id)
    }
}

/// One block: what was drafted, what the target drew, and how much was kept.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Round {
    pub draft: Vec<u32>,
    /// The target's draw at the anchor and at each drafted token.
    pub posterior: Vec<u32>,
    /// Drafted tokens kept, plus the bonus token: 1..=B.
    pub acceptance_length: usize,
    /// The exact expectation of `acceptance_length` given the drafted tokens.
    pub expected_acceptance_length: f64,
    /// Where the target drew another token than the draft: its distribution there.
    pub rejection: Option<Rejection>,
    /// The round's tokens that are in the answer: the kept drafts and the bonus token, cut after
    /// an end of sequence or at the answer's length (drafts matched past it are not emitted).
    pub emitted: usize,
}

/// The target's distribution (under the chosen semantics) at the first drafted token it did not
/// draw: what the draft proposed, what was drawn instead, and the most probable tokens.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rejection {
    /// `(token, probability)` of the drafted token, and of the token drawn instead.
    pub draft: (u32, f64),
    pub drawn: (u32, f64),
    /// The distribution's most probable tokens, most probable first.
    pub top: Vec<(u32, f64)>,
}

/// Tokens a rejection lists.
pub(super) const REJECTION_TOP: usize = 8;

/// A whole speculative generation.
#[derive(Clone, Debug, Serialize)]
pub struct Speculation {
    /// The generated ids (the prompt excluded), and their text.
    pub ids: Vec<u32>,
    pub text: String,
    pub block_size: usize,
    pub draft: DraftSource,
    pub semantics: &'static str,
    pub rounds: Vec<Round>,
    pub mean_acceptance_length: f64,
    /// The prefill and one batched forward per round.
    pub target_forwards: usize,
    /// Forwards run to draft (the greedy and sampled drafts are the target's own continuation).
    pub draft_forwards: usize,
    pub finish: Finish,
    /// The display text of every id the result names (drafts, draws, a rejection's
    /// alternatives, the answer), by id.
    pub tokens: serde_json::Map<String, serde_json::Value>,
}

impl Speculation {
    fn named_ids(&self) -> impl Iterator<Item = u32> + '_ {
        let rounds = self.rounds.iter().flat_map(|r| {
            let rejected = r.rejection.iter().flat_map(|x| x.top.iter().map(|(id, _)| id));
            r.draft.iter().chain(&r.posterior).chain(rejected)
        });
        rounds.chain(&self.ids).copied()
    }
}

/// The loop's settings.
pub struct Speculative {
    pub block_size: usize,
    pub draft: DraftSource,
    pub max_new_tokens: usize,
}

/// Speculative decoding of the model after `prompt`: the posterior drawn under the call's
/// semantics and arguments (seeded), the sampled draft by a second generator.
pub fn speculate(
    model: Arc<Model>,
    prompt: &[u32],
    call: &Decoding,
    settings: Speculative,
) -> Result<Speculation, GenerationError> {
    let mut run = SpeculativeRun::start(model, prompt, call, settings)?;
    while run.next_round()?.is_some() {}
    run.finish()
}

/// Speculative decoding on the model, one round at a time: a caller between two rounds can
/// report progress, draw the round, or stop.
pub struct SpeculativeRun {
    settings: Speculative,
    target: ModelTarget,
    sampler: Sampler,
    drafter: Sampler,
    state: State,
    semantics: ColumnName,
}

impl SpeculativeRun {
    /// Prefills the prompt and draws the first token.
    pub fn start(
        model: Arc<Model>,
        prompt: &[u32],
        call: &Decoding,
        settings: Speculative,
    ) -> Result<Self, GenerationError> {
        let (mut sampler, drafter) = (call.sampler(0)?, call.sampler(DRAFTER_SEED)?);
        let (target, logits) = ModelTarget::prefill(model, prompt)?;
        let state = settings.start(&target, prompt, &logits, &mut sampler)?;
        Ok(SpeculativeRun {
            settings,
            target,
            sampler,
            drafter,
            state,
            semantics: call.semantics,
        })
    }

    /// Runs one more round: the round, or `None` once the answer is finished.
    pub fn next_round(&mut self) -> Result<Option<&Round>, GenerationError> {
        if self.state.finish.is_some() {
            return Ok(None);
        }
        let round = self
            .settings
            .round(&mut self.target, &mut self.state, &mut self.sampler, &mut self.drafter)?;
        self.state.rounds.push(round);
        Ok(self.state.rounds.last())
    }

    /// Tokens generated so far, and how many the answer may have.
    pub fn progress(&self) -> (usize, usize) {
        (self.state.generated(), self.settings.max_new_tokens)
    }

    /// The whole run (`finish: cancelled` when stopped before its end), its text and the display
    /// text of every id it names.
    pub fn finish(self) -> Result<Speculation, GenerationError> {
        let model = self.target.model.clone();
        let mut speculation = self.settings.summary(self.state, self.semantics);
        speculation.text = model.tokenizer.decode(&speculation.ids)?;
        speculation.tokens = token_texts(&model, speculation.named_ids());
        Ok(speculation)
    }
}

pub(super) struct State {
    pub(super) ids: Vec<u32>,
    pub(super) prompt_len: usize,
    pub(super) rounds: Vec<Round>,
    pub(super) draft_forwards: usize,
    pub(super) finish: Option<Finish>,
}
