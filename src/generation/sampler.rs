//! Choosing each generated token under one of the semantics the core describes.

use super::GenerationError;
use crate::model::Model;
use crate::sampling::corrected::corrected_port;
use crate::sampling::dflash::DflashSampling;
use crate::sampling::distribution::Distribution;
use crate::sampling::port::CandlePort;
use crate::sampling::transformers_js::TransformersJs;
use crate::sampling::{EffectiveParams, GenerateArgs, GenerationConfig, HfSampling, LiteralPort};
use crate::sampling::{SamplingError, Semantics};
use candle_core::Tensor;
use candle_transformers::generation::LogitsProcessor;
use rand::distr::weighted::WeightedIndex;
use rand::distr::Distribution as _;
use rand::rngs::StdRng;
use rand::SeedableRng;

/// One `generate()` call on a model, with the two defaults every edge would otherwise write
/// again: the caller's `generation_config.json`, else the model's own; the caller's seed (a flag,
/// an option), else the call's `seed` argument, else 0.
pub struct Call {
    pub semantics: Semantics,
    pub args: GenerateArgs,
    pub generation_config: Option<GenerationConfig>,
    pub seed: u64,
}

impl Call {
    pub fn on(
        model: &Model,
        semantics: Semantics,
        args: GenerateArgs,
        generation_config: Option<GenerationConfig>,
        seed: Option<u64>,
    ) -> Self {
        Call {
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

pub enum Sampler {
    Hf {
        hf: HfSampling,
        rng: StdRng,
    },
    TransformersJs {
        tjs: TransformersJs,
        rng: StdRng,
    },
    Port {
        port: CandlePort,
        processor: LogitsProcessor,
    },
}

impl Sampler {
    /// transformers' validation applies to hf and corrected (both stand for the `generate()` call);
    /// the literal port, like the candle program it mirrors, accepts whatever it is given.
    pub fn new(
        semantics: Semantics,
        args: &GenerateArgs,
        generation_config: Option<&GenerationConfig>,
        seed: u64,
    ) -> Result<Self, GenerationError> {
        let hf = || HfSampling::from_params(&EffectiveParams::resolve(args, generation_config));
        Ok(match semantics {
            Semantics::Hf => Sampler::Hf {
                hf: hf()?,
                rng: StdRng::seed_from_u64(seed),
            },
            Semantics::Literal => Self::port(LiteralPort::from_args(args).port, seed),
            Semantics::Corrected => Self::port(corrected_port(&hf()?), seed),
            Semantics::Dflash => Self::port(DflashSampling::from_args(args)?.candle_port(), seed),
            Semantics::TransformersJs => Sampler::TransformersJs {
                tjs: TransformersJs::from_args(args, generation_config)?,
                rng: StdRng::seed_from_u64(seed),
            },
        })
    }

    fn port(port: CandlePort, seed: u64) -> Self {
        let processor = port.processor(seed);
        Sampler::Port { port, processor }
    }

    /// The exact distribution [`Sampler::next`] draws from at this step.
    pub fn distribution(&self, logits: &[f32], context: &[u32]) -> Result<Distribution, GenerationError> {
        match self {
            Sampler::Hf { hf, .. } => Ok(hf.apply(logits, context).distribution),
            Sampler::TransformersJs { tjs, .. } => Ok(tjs.distribution(logits, context)),
            Sampler::Port { port, .. } => Ok(port.distribution(logits, context)?),
        }
    }

    /// The next token and the probability it had under this sampler's distribution.
    pub fn next_with_probability(&mut self, logits: &[f32], context: &[u32]) -> Result<(u32, f64), GenerationError> {
        match self {
            Sampler::Hf { hf, rng } => {
                let distribution = hf.apply(logits, context).distribution;
                let token = draw(&distribution, rng)?;
                Ok((token, distribution.prob(token)))
            }
            Sampler::TransformersJs { tjs, rng } => {
                let distribution = tjs.distribution(logits, context);
                let token = draw(&distribution, rng)?;
                Ok((token, distribution.prob(token)))
            }
            Sampler::Port { port, .. } => {
                let distribution = port.distribution(logits, context)?;
                let token = self.next(logits, context)?;
                Ok((token, distribution.prob(token)))
            }
        }
    }

    /// The next token given this step's raw logits and every id so far (prompt included).
    pub fn next(&mut self, logits: &[f32], context: &[u32]) -> Result<u32, GenerationError> {
        match self {
            Sampler::Hf { hf, rng } => draw(&hf.apply(logits, context).distribution, rng),
            Sampler::TransformersJs { tjs, rng } => draw(&tjs.distribution(logits, context), rng),
            Sampler::Port { port, processor } => {
                let prepared: Tensor = port.prepared_logits(logits, context)?;
                Ok(port.draw(processor, &prepared)?)
            }
        }
    }
}

/// One seeded draw from an exact distribution (the columns whose own generator is not candle's).
fn draw(distribution: &Distribution, rng: &mut StdRng) -> Result<u32, GenerationError> {
    let support = &distribution.support;
    let index =
        WeightedIndex::new(support.iter().map(|(_, p)| *p)).map_err(|e| SamplingError::invalid(e.to_string()))?;
    Ok(support[index.sample(rng)].0)
}
