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

use super::sampler::{Decoding, Sampler};
use super::session::Finish;
use super::{token_texts, GenerationError};
use crate::model::{KvCache, Model};
use sampling_lab_core::columns::dflash;
use sampling_lab_core::columns::hf::torch_argmax;
use sampling_lab_core::GenerateArgs;
use sampling_lab_core::ColumnName;
use serde::Serialize;
use std::sync::Arc;

/// Slots of a block in DFlash's published checkpoints: the anchor and 15 drafted tokens.
pub const DEFAULT_BLOCK: usize = 16;
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
            other => Err(GenerationError::Invalid(format!(
                "--draft must be greedy, prompt-lookup or sampled, not `{other}`"
            ))),
        }
    }
}

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
const REJECTION_TOP: usize = 8;

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
    fn start<T: Target>(
        &self,
        target: &T,
        prompt: &[u32],
        prefill_logits: &[f32],
        sampler: &mut Sampler,
    ) -> Result<State, GenerationError> {
        if self.block_size == 0 {
            return Err(GenerationError::invalid(
                "the block size must be at least 1 (the anchor)",
            ));
        }
        if self.max_new_tokens == 0 {
            return Err(GenerationError::invalid("max_new_tokens must be at least 1"));
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

    fn summary(&self, state: State, semantics: ColumnName) -> Speculation {
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

    fn round<T: Target>(
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
                    top: there.support.into_iter().take(REJECTION_TOP).collect(),
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

/// The exact expected acceptance length of one greedy draft under DFlash's sampler, over
/// `temperatures`: the anchor is the greedy first token, the draft its greedy continuation of
/// B−1 tokens, and each drafted token's probability comes from the logits the continuation ran
/// into (the same a verification forward computes).
pub fn acceptance_curve(
    model: Arc<Model>,
    prompt: &[u32],
    block_size: usize,
    temperatures: &[f64],
) -> Result<Vec<(f64, f64)>, GenerationError> {
    let (mut target, logits) = ModelTarget::prefill(model, prompt)?;
    let anchor = torch_argmax(&logits) as u32;
    let mut context = [prompt, &[anchor]].concat();
    let (mut draft, mut step_logits) = (Vec::new(), Vec::new());
    for _ in 1..block_size.max(1) {
        let next = target.extend(&context[context.len() - 1..])?.remove(0);
        let token = torch_argmax(&next) as u32;
        step_logits.push(next);
        draft.push(token);
        context.push(token);
    }
    let context = [prompt, &[anchor]].concat();
    temperatures
        .iter()
        .map(|&t| {
            let mut args = GenerateArgs::default();
            args.set(sampling_lab_core::Field::Temperature, sampling_lab_core::PyValue::Float(t));
            let sampler = Sampler::new(dflash::NAME, &args, None, 0)?;
            Ok((t, expected_acceptance(&sampler, &step_logits, &context, &draft)?))
        })
        .collect()
}

/// Mixed into the seed of the sampled draft's generator, so that it never replays the posterior's.
const DRAFTER_SEED: u64 = 0xD4AF_7E5D_0000_0001;

/// The exact expected acceptance length of `draft` (accepted + 1): `logits[i]` are the target's
/// logits after `context` and the first i drafted tokens; a drafted token survives with its
/// probability under `sampler`'s distribution there, and only while every one before it did.
pub fn expected_acceptance(
    sampler: &Sampler,
    logits: &[Vec<f32>],
    context: &[u32],
    draft: &[u32],
) -> Result<f64, GenerationError> {
    let mut context = context.to_vec();
    let (mut expected, mut surviving) = (1.0, 1.0);
    for (step_logits, &drafted) in logits.iter().zip(draft) {
        surviving *= sampler.distribution(step_logits, &context)?.prob(drafted);
        expected += surviving;
        context.push(drafted);
    }
    Ok(expected)
}

struct State {
    ids: Vec<u32>,
    prompt_len: usize,
    rounds: Vec<Round>,
    draft_forwards: usize,
    finish: Option<Finish>,
}

impl State {
    fn generated(&self) -> usize {
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

/// How a drafter picks a token from `(logits, context)`.
type Choose<'a> = dyn FnMut(&[f32], &[u32]) -> Result<u32, GenerationError> + 'a;

/// `n` tokens of the target's own continuation from the anchor, one forward each, chosen by
/// `choose(logits, context)`; the cache is cut back by the caller.
fn continuation<T: Target>(
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
fn prompt_lookup(ids: &[u32], n_tokens: usize, is_eos: impl Fn(u32) -> bool) -> Vec<u32> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use sampling_lab_core::GenerateArgs;

    const V: usize = 5;
    const EOS: u32 = 4;

    /// A small deterministic target: each position's logits are a function of the ids before it.
    struct Toy {
        cached: Vec<u32>,
    }

    /// The end of sequence becomes certain once the context reaches 30 ids.
    fn toy_logits(context: &[u32]) -> Vec<f32> {
        let h = context
            .iter()
            .fold(17u64, |h, &t| h.wrapping_mul(31).wrapping_add(u64::from(t) + 1));
        let eos = if context.len() >= 30 { 90.0 } else { -30.0 };
        (0..V)
            .map(|j| {
                if j as u32 == EOS {
                    eos
                } else {
                    ((h.wrapping_mul(j as u64 + 7) % 97) as f32) / 40.0
                }
            })
            .collect()
    }

    impl Target for Toy {
        fn extend(&mut self, ids: &[u32]) -> Result<Vec<Vec<f32>>, GenerationError> {
            Ok(ids
                .iter()
                .map(|&id| {
                    self.cached.push(id);
                    toy_logits(&self.cached)
                })
                .collect())
        }
        fn truncate(&mut self, len: usize) -> Result<(), GenerationError> {
            self.cached.truncate(len);
            Ok(())
        }
        fn is_eos(&self, id: u32) -> bool {
            id == EOS
        }
    }

    fn sampler(kwargs: &str, seed: u64) -> Sampler {
        Sampler::new(
            dflash::NAME,
            &GenerateArgs::from_json_str(kwargs).unwrap(),
            None,
            seed,
        )
        .unwrap()
    }

    fn speculate(kwargs: &str, draft: DraftSource, block: usize, max: usize, seed: u64) -> Speculation {
        let prompt = [0, 1, 2, 3, 1, 2];
        let mut toy = Toy {
            cached: prompt.to_vec(),
        };
        let logits = toy_logits(&prompt);
        let settings = Speculative {
            block_size: block,
            draft,
            max_new_tokens: max,
        };
        let (mut s, mut d) = (sampler(kwargs, seed), sampler(kwargs, seed ^ 0xD4AF7));
        settings
            .run(&mut toy, &prompt, &logits, dflash::NAME, &mut s, &mut d)
            .unwrap()
    }

    fn greedy(max: usize) -> Vec<u32> {
        let mut ids = vec![0, 1, 2, 3, 1, 2];
        let mut out = Vec::new();
        while out.len() < max {
            let t = torch_argmax(&toy_logits(&ids)) as u32;
            ids.push(t);
            out.push(t);
            if t == EOS {
                break;
            }
        }
        out
    }

    #[test]
    fn the_rounds_emit_the_answer_and_nothing_matched_after_its_end() {
        // The toy's end of sequence is certain from 30 ids on: a greedy block of 16 drafts
        // past it, and the target matches those drafts too.
        let s = speculate("{}", DraftSource::Greedy, 16, 100, 1);
        assert_eq!(s.finish, Finish::Eos);
        let emitted: usize = s.rounds.iter().map(|r| r.emitted).sum();
        assert_eq!(emitted + 1, s.ids.len(), "the first token comes from the prefill");
        let last = s.rounds.last().unwrap();
        assert!(last.emitted < last.acceptance_length, "{last:?}");
    }

    #[test]
    fn at_temperature_zero_every_draft_source_gives_the_greedy_answer() {
        for draft in [DraftSource::Greedy, DraftSource::PromptLookup, DraftSource::Sampled] {
            for block in [1, 4, 16] {
                let s = speculate("{}", draft, block, 40, 1);
                assert_eq!(
                    (s.ids.clone(), s.finish),
                    (greedy(40), Finish::Eos),
                    "{draft:?}, B={block}"
                );
                assert_eq!(
                    speculate("{}", draft, block, 9, 1).ids,
                    greedy(9),
                    "{draft:?}, B={block}, 9 tokens"
                );
            }
        }
    }

    #[test]
    fn a_greedy_draft_at_temperature_zero_is_accepted_whole() {
        let s = speculate("{}", DraftSource::Greedy, 8, 33, 1);
        assert!(
            s.rounds.iter().all(|r| r.acceptance_length == r.draft.len() + 1),
            "{:?}",
            s.rounds
        );
        assert!(s
            .rounds
            .iter()
            .all(|r| (r.expected_acceptance_length - (r.draft.len() + 1) as f64).abs() < 1e-12));
    }

    #[test]
    fn a_rejection_gives_the_target_distribution_at_the_first_mismatch() {
        let prompt = vec![0u32, 1, 2, 3, 1, 2];
        let s = speculate(r#"{"temperature": 1.0}"#, DraftSource::Greedy, 6, 40, 3);
        let probe = sampler(r#"{"temperature": 1.0}"#, 0);
        // The first token is drawn from the prefill, before any round.
        let mut context = [&prompt[..], &s.ids[..1]].concat();
        let mut rejections = 0;
        for round in &s.rounds {
            let kept = round.acceptance_length - 1;
            match &round.rejection {
                Some(r) => {
                    rejections += 1;
                    let at = [&context[..], &round.draft[..kept]].concat();
                    let there = probe.distribution(&toy_logits(&at), &at).unwrap();
                    assert_eq!(r.draft, (round.draft[kept], there.prob(round.draft[kept])));
                    assert_eq!(r.drawn, (round.posterior[kept], there.prob(round.posterior[kept])));
                    assert!(r.drawn.1 > 0.0 && r.drawn.0 != r.draft.0);
                    assert_eq!(r.top, there.support[..r.top.len()]);
                }
                None => assert_eq!(kept, round.draft.len(), "no rejection: the whole draft was kept"),
            }
            context.extend(&round.draft[..kept]);
            context.push(round.posterior[kept]);
        }
        assert!(rejections > 0, "at temperature 1 some greedy drafts are rejected");
    }

    #[test]
    fn an_empty_block_or_answer_is_refused_by_name() {
        let prompt = [0u32, 1, 2];
        let run = |block, max| {
            let settings = Speculative {
                block_size: block,
                draft: DraftSource::Greedy,
                max_new_tokens: max,
            };
            let (mut s, mut d) = (sampler("{}", 0), sampler("{}", 1));
            settings.run(
                &mut Toy {
                    cached: prompt.to_vec(),
                },
                &prompt,
                &toy_logits(&prompt),
                dflash::NAME,
                &mut s,
                &mut d,
            )
        };
        assert!(run(0, 4).unwrap_err().to_string().contains("block size"));
        assert!(run(4, 0).unwrap_err().to_string().contains("max_new_tokens"));
        assert_eq!(run(4, 1).unwrap().ids.len(), 1);
    }

    #[test]
    fn prompt_lookup_proposes_what_followed_the_last_bigram() {
        assert_eq!(prompt_lookup(&[5, 6, 7, 8, 9, 5, 6], 10, |_| false), [7, 8, 9, 5, 6]);
        assert_eq!(
            prompt_lookup(&[5, 6, 7, 8, 6], 2, |_| false),
            [7, 8],
            "falls back to the last token"
        );
        assert_eq!(
            prompt_lookup(&[5, 6, 7, 2, 5, 6], 10, |t| t == 2),
            [7],
            "cut before an end of sequence"
        );
        assert!(prompt_lookup(&[1, 2, 3], 10, |_| false).is_empty());
    }

    /// The first two emitted tokens over many seeded runs against the target's exact joint
    /// probabilities: TV under ½ Σ √(p(1−p)/N) + √(ln(1/δ)/2N), δ = 1e-9.
    #[test]
    fn above_zero_the_emitted_tokens_are_exact_draws_from_the_target() {
        let kwargs = r#"{"temperature": 0.9}"#;
        let probe = sampler(kwargs, 0);
        let prompt = [0u32, 1, 2, 3, 1, 2];
        let first = probe.distribution(&toy_logits(&prompt), &prompt).unwrap().dense();
        let exact: Vec<f64> = (0..V * V)
            .map(|k| {
                let (a, b) = (k / V, k % V);
                let context = [&prompt[..], &[a as u32]].concat();
                first[a] * probe.distribution(&toy_logits(&context), &context).unwrap().dense()[b]
            })
            .collect();
        let n = 20_000;
        for draft in [DraftSource::Greedy, DraftSource::Sampled, DraftSource::PromptLookup] {
            let mut counts = vec![0u64; V * V];
            let (mut observed_tau, mut expected_tau) = (0.0, 0.0);
            for seed in 0..n as u64 {
                let s = speculate(kwargs, draft, 4, 6, seed);
                counts[s.ids[0] as usize * V + s.ids[1] as usize] += 1;
                observed_tau += s.rounds[0].acceptance_length as f64;
                expected_tau += s.rounds[0].expected_acceptance_length;
            }
            let tv = 0.5
                * counts
                    .iter()
                    .zip(&exact)
                    .map(|(&c, p)| (c as f64 / n as f64 - p).abs())
                    .sum::<f64>();
            let bound = 0.5 * exact.iter().map(|p| (p * (1.0 - p) / n as f64).sqrt()).sum::<f64>()
                + ((1.0f64 / 1e-9).ln() / (2.0 * n as f64)).sqrt();
            assert!(tv <= bound, "{draft:?}: TV {tv} above {bound}");
            // Hoeffding on the per-run difference, which lies in [−(B−1), B−1].
            let gap = (observed_tau - expected_tau).abs() / n as f64;
            let allowed = 2.0 * 3.0 * ((2.0f64 / 1e-9).ln() / (2.0 * n as f64)).sqrt();
            assert!(
                gap <= allowed,
                "{draft:?}: mean τ {} vs expected {}",
                observed_tau / n as f64,
                expected_tau / n as f64
            );
        }
    }

    #[test]
    fn a_higher_temperature_lowers_the_expected_acceptance_of_one_greedy_draft() {
        let prompt = vec![0u32, 1, 2, 3, 1, 2];
        let draft = greedy(7);
        let logits: Vec<Vec<f32>> = (0..draft.len())
            .map(|i| toy_logits(&[&prompt[..], &draft[..i]].concat()))
            .collect();
        let tau = |t: f64| {
            expected_acceptance(
                &sampler(&format!(r#"{{"temperature": {t}}}"#), 0),
                &logits,
                &prompt,
                &draft,
            )
            .unwrap()
        };
        assert_eq!(tau(0.0), 8.0, "a greedy draft is accepted whole at temperature zero");
        assert!(
            tau(0.3) > tau(0.8) && tau(0.8) > tau(1.5),
            "{} {} {}",
            tau(0.3),
            tau(0.8),
            tau(1.5)
        );
    }
}
