//! One speculative round after another: draft a block, verify it in one forward, keep what the
//! target drew the same, cut the cache back to what was committed.

use super::acceptance::expected_acceptance;
use super::draft::{continuation, prompt_lookup, DraftSource};
use super::{Rejection, Round, Speculation, Speculative, State, Target, REJECTION_TOP};
use crate::generation::session::Finish;
use crate::generation::{GenerationError, Sampler};
use sampling_lab_core::columns::torch_argmax;
use sampling_lab_core::ColumnName;
use sampling_lab_core::Message;

impl Speculative {
    /// Generates after `prompt`, whose logits `prefill_logits` the target has just produced
    /// (its cache holds the prompt). `sampler` draws the posterior under the chosen semantics;
    /// `drafter` draws the sampled draft.
    pub fn run<T: Target>(
        &self,
        target: &mut T,
        prompt: &[u32],
        prefill_logits: &[f32],
        semantics: ColumnName,
        sampler: &mut Sampler,
        drafter: &mut Sampler,
    ) -> Result<Speculation, GenerationError> {
        let mut state = self.start(target, prompt, prefill_logits, sampler)?;
        while state.finish.is_none() {
            let round = self.round(target, &mut state, sampler, drafter)?;
            state.rounds.push(round);
        }
        Ok(self.summary(state, semantics))
    }

    /// The loop's state after the first token, drawn from the prefill's logits.
    pub(super) fn start<T: Target>(
        &self,
        target: &T,
        prompt: &[u32],
        prefill_logits: &[f32],
        sampler: &mut Sampler,
    ) -> Result<State, GenerationError> {
        if self.block_size == 0 {
            return Err(GenerationError::invalid(Message::new("generation-block-size")));
        }
        if self.max_new_tokens == 0 {
            return Err(GenerationError::invalid(Message::new("generation-max-new-tokens")));
        }
        let mut state = State {
            ids: prompt.to_vec(),
            prompt_len: prompt.len(),
            rounds: Vec::new(),
            draft_forwards: 0,
            finish: None,
        };
        let first = sampler.next(prefill_logits, prompt)?;
        state.commit(&[first], target, self.max_new_tokens);
        Ok(state)
    }

    pub(super) fn summary(&self, state: State, semantics: ColumnName) -> Speculation {
        let lengths: Vec<f64> = state.rounds.iter().map(|r| r.acceptance_length as f64).collect();
        Speculation {
            ids: state.ids[state.prompt_len..].to_vec(),
            text: String::new(),
            block_size: self.block_size,
            draft: self.draft,
            semantics: semantics.name(),
            mean_acceptance_length: lengths.iter().sum::<f64>() / lengths.len().max(1) as f64,
            target_forwards: 1 + state.rounds.len(),
            draft_forwards: state.draft_forwards,
            rounds: state.rounds,
            finish: state.finish.unwrap_or(Finish::Cancelled),
            tokens: Default::default(),
        }
    }

    pub(super) fn round<T: Target>(
        &self,
        target: &mut T,
        state: &mut State,
        sampler: &mut Sampler,
        drafter: &mut Sampler,
    ) -> Result<Round, GenerationError> {
        // The block never drafts past the answer's length: a round commits at most draft + 1.
        let room = self.max_new_tokens - state.generated() - 1;
        let want = (self.block_size - 1).min(room);
        let cached = state.ids.len() - 1;
        let draft = match self.draft {
            DraftSource::PromptLookup => prompt_lookup(&state.ids, want, |id| target.is_eos(id)),
            DraftSource::Greedy => continuation(target, state, want, &mut |logits, _| Ok(torch_argmax(logits) as u32))?,
            DraftSource::Sampled => continuation(target, state, want, &mut |logits, context| {
                drafter.next(logits, context)
            })?,
        };
        target.truncate(cached)?;
        let mut block = vec![*state.ids.last().expect("the anchor")];
        block.extend(&draft);
        let logits = target.extend(&block)?;
        let expected = expected_acceptance(sampler, &logits, &state.ids, &draft)?;
        let mut context = state.ids.clone();
        let mut posterior = Vec::with_capacity(logits.len());
        for (i, step_logits) in logits.iter().enumerate() {
            posterior.push(sampler.next(step_logits, &context)?);
            context.extend(draft.get(i));
        }
        let accepted = draft.iter().zip(&posterior).take_while(|(d, p)| d == p).count();
        let rejection = match draft.get(accepted) {
            Some(&drafted) => {
                let context = [&state.ids[..], &draft[..accepted]].concat();
                let there = sampler.distribution(&logits[accepted], &context)?;
                Some(Rejection {
                    draft: (drafted, there.prob(drafted)),
                    drawn: (posterior[accepted], there.prob(posterior[accepted])),
                    top: there.support().iter().take(REJECTION_TOP).copied().collect(),
                })
            }
            None => None,
        };
        let mut committed = draft[..accepted].to_vec();
        committed.push(posterior[accepted]);
        let before = state.ids.len();
        state.commit(&committed, target, self.max_new_tokens);
        target.truncate(state.ids.len() - 1)?;
        Ok(Round {
            draft,
            posterior,
            acceptance_length: accepted + 1,
            expected_acceptance_length: expected,
            rejection,
            emitted: state.ids.len() - before,
        })
    }
}

impl State {
    pub(super) fn generated(&self) -> usize {
        self.ids.len() - self.prompt_len
    }

    /// Appends tokens up to and including an end of sequence, or up to the answer's length.
    fn commit<T: Target>(&mut self, tokens: &[u32], target: &T, max_new_tokens: usize) {
        for &token in tokens {
            self.ids.push(token);
            if target.is_eos(token) {
                self.finish = Some(Finish::Eos);
            } else if self.generated() >= max_new_tokens {
                self.finish = Some(Finish::MaxNewTokens);
            }
            if self.finish.is_some() {
                return;
            }
        }
    }
}
