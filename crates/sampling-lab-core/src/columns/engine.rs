//! What every column's engine answers: the [`Engine`] a call sets up (its distribution at a
//! step, its report entry, its causes, its code, its draws), and the samplers and draw sources it
//! hands to generation and Monte Carlo.

use super::causes::Cause;
use super::StepView;
use crate::distribution::Distribution;
use crate::text::Message;
use crate::SamplingError;
use rand::distr::weighted::WeightedIndex;
use rand::distr::Distribution as _;
use rand::rngs::StdRng;
use rand::SeedableRng;
use serde_json::{Map, Value};

/// One library's sampler, set up for one call. A column that its library refuses still answers
/// every question: its distribution is the refusal, and it says so in its entry and causes.
pub(crate) trait Engine {
    /// The distribution one draw comes from, given a step's raw logits and every id so far
    /// (prompt included), or what the library raises there.
    fn distribution(&self, logits: &[f32], context: &[u32]) -> Result<Distribution, SamplingError>;

    /// The set-up in one line: the report entry's `sampling`.
    fn describe(&self) -> String;

    /// Notes for the report entry at this step.
    fn notes(&self, _step: &StepView) -> Vec<Message> {
        Vec::new()
    }

    /// The column's own fields of its report entry, after the ones every entry has.
    fn details(&self, _step: &StepView) -> Map<String, Value> {
        Map::new()
    }

    /// Why it departs from hf at this step, in plain words; empty where it does not.
    fn causes(&self, _step: &StepView) -> Vec<Cause> {
        Vec::new()
    }

    /// The code a user writes for this set-up, in the registered language.
    fn code(&self) -> Option<String> {
        None
    }

    /// Seeded draws with the engine's own generator and the exact distribution they are checked
    /// against, for a column that Monte Carlo draws; `None` when it cannot be set up.
    fn draws(&self, _logits: &[f32], _context: &[u32], _seed: u64) -> Option<Result<Drawing, SamplingError>> {
        None
    }

    /// A sampler that picks generated tokens as this library would, seeded with `seed`.
    fn sampler(&self, seed: u64) -> Result<Box<dyn TokenSampler>, SamplingError>;
}

/// Picks each generated token as one library would, seeded once for a whole generation: what
/// [`Column::sampler`](crate::Column::sampler) and [`CandlePort::sampler`](crate::CandlePort::sampler)
/// hand out.
pub trait TokenSampler {
    /// The exact distribution [`TokenSampler::next`] draws from at this step.
    fn distribution(&self, logits: &[f32], context: &[u32]) -> Result<Distribution, SamplingError>;

    /// The next token given the step's raw logits and every id so far (prompt included).
    fn next(&mut self, logits: &[f32], context: &[u32]) -> Result<u32, SamplingError>;

    /// The next token and the probability it had under this sampler's distribution.
    fn next_with_probability(&mut self, logits: &[f32], context: &[u32]) -> Result<(u32, f64), SamplingError> {
        let distribution = self.distribution(logits, context)?;
        let token = self.next(logits, context)?;
        Ok((token, distribution.prob(token)))
    }
}

/// Monte Carlo runs are made, and shared out between threads, in blocks of this many draws; a
/// [`DrawSource`] may seed its generator per block, so that the draws do not depend on the
/// sharing.
pub(crate) const DRAW_BLOCK: usize = 1000;

/// The draws of a Monte Carlo run, one at a time, as the engine's own generator makes them.
pub(crate) trait DrawSource {
    /// Draw `index` of the run; within a part of a run, indices come in order, from the start of
    /// a block.
    fn draw(&mut self, index: usize) -> Result<u32, SamplingError>;
}

/// What Monte Carlo draws for a column: its draws and the exact distribution they must match.
pub(crate) struct Drawing {
    /// The draws, made on demand so that a run can be chunked and shared out.
    pub source: Box<dyn DrawSource>,
    /// The distribution the draws are checked against: the column's exact one.
    pub exact: Distribution,
}

/// Draws made with a column's own draw algorithm on this crate's seeded generator: block `b` of a
/// run comes from a generator seeded by `(seed, b)`, so threads that share the blocks out make
/// exactly the draws of one thread.
pub(crate) struct BlockDraws<F> {
    draw: F,
    seed: u64,
    /// The generator of the block being drawn, and that block's number.
    rng: Option<(usize, StdRng)>,
}

impl<F: FnMut(&mut StdRng) -> u32> BlockDraws<F> {
    /// Draws `draw(rng)` for a run seeded `seed`.
    pub(crate) fn new(draw: F, seed: u64) -> Self {
        BlockDraws { draw, seed, rng: None }
    }
}

impl<F: FnMut(&mut StdRng) -> u32> DrawSource for BlockDraws<F> {
    fn draw(&mut self, index: usize) -> Result<u32, SamplingError> {
        let block = index / DRAW_BLOCK;
        if self.rng.as_ref().is_none_or(|(b, _)| *b != block) {
            self.rng = Some((block, StdRng::seed_from_u64(block_seed(self.seed, block))));
        }
        let (_, rng) = self.rng.as_mut().expect("seeded above");
        Ok((self.draw)(rng))
    }
}

/// A seed per block, well apart for neighbouring blocks and seeds (SplitMix64's finaliser).
pub(crate) fn block_seed(seed: u64, block: usize) -> u64 {
    let mut z = seed ^ (block as u64).wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A sampler for the columns whose draw is not the library's own generator (transformers' and
/// transformers.js' distributions, drawn with a seeded generator of this crate).
pub(crate) struct ExactSampler<F> {
    distribution: F,
    rng: StdRng,
}

impl<F: Fn(&[f32], &[u32]) -> Result<Distribution, SamplingError>> ExactSampler<F> {
    /// Draws from what `distribution` gives at each step, with a generator seeded by `seed`.
    pub(crate) fn new(distribution: F, seed: u64) -> Self {
        ExactSampler {
            distribution,
            rng: StdRng::seed_from_u64(seed),
        }
    }
}

impl<F: Fn(&[f32], &[u32]) -> Result<Distribution, SamplingError>> TokenSampler for ExactSampler<F> {
    fn distribution(&self, logits: &[f32], context: &[u32]) -> Result<Distribution, SamplingError> {
        (self.distribution)(logits, context)
    }

    fn next(&mut self, logits: &[f32], context: &[u32]) -> Result<u32, SamplingError> {
        Ok(self.next_with_probability(logits, context)?.0)
    }

    fn next_with_probability(&mut self, logits: &[f32], context: &[u32]) -> Result<(u32, f64), SamplingError> {
        let distribution = (self.distribution)(logits, context)?;
        let support = &distribution.support();
        let index = WeightedIndex::new(support.iter().map(|(_, p)| *p))
            .map_err(|e| SamplingError::invalid(Message::new("invalid-weights").verbatim("detail", e.to_string())))?;
        let (token, p) = support[index.sample(&mut self.rng)];
        Ok((token, p))
    }
}
