//! Choosing each generated token under one of the semantics the core describes.

use super::GenerationError;
use crate::model::Model;
use sampling_lab_core::{ColumnName, Distribution, GenerateArgs, GenerationConfig, TokenSampler};

/// One `generate()` call on a model, with the two defaults every edge would otherwise write
/// again: the caller's `generation_config.json`, else the model's own; the caller's seed (a flag,
/// an option), else the call's `seed` argument, else 0.
pub struct Decoding {
    pub semantics: ColumnName,
    pub args: GenerateArgs,
    pub generation_config: Option<GenerationConfig>,
    pub seed: u64,
}

impl Decoding {
    pub fn on(
        model: &Model,
        semantics: ColumnName,
        args: GenerateArgs,
        generation_config: Option<GenerationConfig>,
        seed: Option<u64>,
    ) -> Self {
        Decoding {
            semantics,
            seed: args.seed_or(seed),
            generation_config: model.generation_config_or(generation_config),
            args,
        }
    }

    /// The call's sampler, seeded with `seed` mixed with `stream` (0 for the call's own draws).
    pub fn sampler(&self, stream: u64) -> Result<Sampler, GenerationError> {
        Sampler::new(
            self.semantics,
            &self.args,
            self.generation_config.as_ref(),
            self.seed ^ stream,
        )
    }
}

/// Picks each generated token under one column's semantics, seeded.
pub struct Sampler(Box<dyn TokenSampler>);

impl Sampler {
    /// Each column validates the call as its library does: hf and corrected refuse what
    /// transformers refuses; the literal port, like the candle program it mirrors, accepts
    /// whatever it is given.
    pub fn new(
        semantics: ColumnName,
        args: &GenerateArgs,
        generation_config: Option<&GenerationConfig>,
        seed: u64,
    ) -> Result<Self, GenerationError> {
        Ok(Sampler(semantics.column().sampler(args, generation_config, seed)?))
    }

    /// The exact distribution [`Sampler::next`] draws from at this step.
    pub fn distribution(&self, logits: &[f32], context: &[u32]) -> Result<Distribution, GenerationError> {
        Ok(self.0.distribution(logits, context)?)
    }

    /// The next token and the probability it had under this sampler's distribution.
    pub fn next_with_probability(&mut self, logits: &[f32], context: &[u32]) -> Result<(u32, f64), GenerationError> {
        Ok(self.0.next_with_probability(logits, context)?)
    }

    /// The next token given this step's raw logits and every id so far (prompt included).
    pub fn next(&mut self, logits: &[f32], context: &[u32]) -> Result<u32, GenerationError> {
        Ok(self.0.next(logits, context)?)
    }
}
