//! Where a block's drafted tokens come from: the target's own greedy or sampled continuation, or
//! transformers' prompt lookup.

use super::{State, Target};
use crate::generation::GenerationError;
use sampling_lab_core::Message;
use serde::Serialize;

/// transformers' `prompt_lookup_num_tokens` and `max_matching_ngram_size` defaults.
pub const PROMPT_LOOKUP_TOKENS: usize = 10;
pub const PROMPT_LOOKUP_NGRAM: usize = 2;

/// Where the drafted tokens come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum DraftSource {
    /// The target's own greedy continuation: the best a greedy drafter (DFlash's rule for the
    /// draft: `sample(draft_logits)` with no temperature) can propose.
    Greedy,
    /// n-gram matches in the context, as transformers' prompt lookup.
    PromptLookup,
    /// The target's continuation drawn at the call's temperature, as DFlash's MLX path, which
    /// shares one sampler between draft and target.
    Sampled,
}

impl std::str::FromStr for DraftSource {
    type Err = GenerationError;
    fn from_str(s: &str) -> Result<Self, GenerationError> {
        match s {
            "greedy" => Ok(DraftSource::Greedy),
            "prompt-lookup" => Ok(DraftSource::PromptLookup),
            "sampled" => Ok(DraftSource::Sampled),
            other => Err(GenerationError::invalid(
                Message::new("generation-draft").verbatim("draft", other),
            )),
        }
    }
}

/// Mixed into the seed of the sampled draft's generator, so that it never replays the posterior's.
pub(super) const DRAFTER_SEED: u64 = 0xD4AF_7E5D_0000_0001;

/// How a drafter picks a token from `(logits, context)`.
pub(super) type Choose<'a> = dyn FnMut(&[f32], &[u32]) -> Result<u32, GenerationError> + 'a;

/// `n` tokens of the target's own continuation from the anchor, one forward each, chosen by
/// `choose(logits, context)`; the cache is cut back by the caller.
pub(super) fn continuation<T: Target>(
    target: &mut T,
    state: &mut State,
    n: usize,
    choose: &mut Choose,
) -> Result<Vec<u32>, GenerationError> {
    let mut context = state.ids.clone();
    let mut draft = Vec::with_capacity(n);
    for _ in 0..n {
        let logits = target.extend(&context[context.len() - 1..])?;
        state.draft_forwards += 1;
        let token = choose(&logits[0], &context)?;
        draft.push(token);
        context.push(token);
    }
    Ok(draft)
}

/// transformers' `PromptLookupCandidateGenerator`: the tokens that followed the first earlier
/// occurrence of the context's last n-gram (n = 2, then 1), at most `n_tokens`, cut before an
/// end of sequence.
pub(super) fn prompt_lookup(ids: &[u32], n_tokens: usize, is_eos: impl Fn(u32) -> bool) -> Vec<u32> {
    for size in (1..=PROMPT_LOOKUP_NGRAM.min(ids.len().saturating_sub(1))).rev() {
        let tail = &ids[ids.len() - size..];
        for start in 0..=ids.len() - size {
            let follow = start + size;
            let end = (follow + PROMPT_LOOKUP_TOKENS.min(n_tokens)).min(ids.len());
            if &ids[start..follow] == tail && follow < end {
                let candidate = &ids[follow..end];
                let cut = candidate.iter().position(|&t| is_eos(t)).unwrap_or(candidate.len());
                return candidate[..cut].to_vec();
            }
        }
    }
    Vec::new()
}
