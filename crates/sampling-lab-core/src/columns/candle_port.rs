//! A candle `LogitsProcessor` set-up, the exact distribution it draws from, and real draws.
//!
//! The exact distribution is computed with candle's own tensor ops for the probabilities and a
//! line-by-line mirror of `LogitsProcessor`'s truncation (same `select_nth_unstable_by`, same
//! stable sort, same f32 sums), so it is bit-for-bit the weights candle hands to
//! `WeightedIndex`. Monte Carlo draws then run the real `LogitsProcessor` to check the mirror.

use super::engine::block_seed;
use super::{DrawSource, Drawing, TokenSampler, DRAW_BLOCK as BLOCK};
use crate::arguments::pyvalue::rust_f64;
use crate::distribution::Distribution;
use crate::text::Message;
use crate::truncation::ban_ngrams;
use crate::truncation::{apply_all, Warper};
use crate::SamplingError;
use candle_core::{Device, Tensor};
use candle_transformers::generation::{LogitsProcessor, Sampling};
use rand::distr::weighted::WeightedIndex;

/// candle's examples pass the last `repeat_last_n = 64` tokens to `apply_repeat_penalty`.
pub(crate) const REPEAT_LAST_N: usize = 64;

/// How much of the context a repetition penalty looks at.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum PenaltyWindow {
    /// The last n tokens, as candle's examples do (`repeat_last_n = 64`).
    Last(usize),
    /// Every token, prompt included, as transformers does.
    Whole,
}

/// Everything a candle program does to one step's logits.
#[derive(Clone, Debug, PartialEq)]
pub struct CandlePort {
    /// What `LogitsProcessor::from_sampling` is given: the temperature, and the one truncation
    /// candle applies itself.
    pub sampling: Sampling,
    /// The `sample_f` closure, as a list of steps; empty means plain `sample()`.
    pub steps: Vec<Warper>,
    /// `candle_transformers::utils::apply_repeat_penalty` before sampling.
    pub penalty: Option<(f32, PenaltyWindow)>,
    /// n-gram bans applied to the logits before sampling (candle has no built-in for it).
    pub ban_ngrams: Option<usize>,
}

impl CandlePort {
    /// `sampling` alone: no closure, no penalty, no bans.
    pub(crate) fn plain(sampling: Sampling) -> Self {
        CandlePort {
            sampling,
            steps: Vec::new(),
            penalty: None,
            ban_ngrams: None,
        }
    }

    /// The logits tensor handed to `LogitsProcessor`, after penalty and bans.
    pub(crate) fn prepared_logits(&self, logits: &[f32], context: &[u32]) -> Result<Tensor, SamplingError> {
        self.prepare(&Tensor::from_slice(logits, logits.len(), &Device::Cpu)?, context)
    }

    /// A step's logits (a 1-D f32 tensor) as this port hands them to `LogitsProcessor`: after
    /// the repetition penalty and the n-gram bans, which read `context` (every id so far).
    pub fn prepare(&self, logits: &Tensor, context: &[u32]) -> Result<Tensor, SamplingError> {
        let tensor = match self.penalty {
            Some((penalty, window)) => {
                let ids = match window {
                    PenaltyWindow::Last(n) => &context[context.len().saturating_sub(n)..],
                    PenaltyWindow::Whole => context,
                };
                candle_transformers::utils::apply_repeat_penalty(logits, penalty, ids)?
            }
            None => logits.clone(),
        };
        match self.ban_ngrams {
            Some(n) => {
                let mut values: Vec<f32> = tensor.to_vec1()?;
                ban_ngrams(&mut values, context, n);
                let len = values.len();
                Ok(Tensor::from_vec(values, len, tensor.device())?)
            }
            None => Ok(tensor),
        }
    }

    /// One token drawn by `processor` (made by [`CandlePort::processor`]) from a step's logits:
    /// the port's penalty and bans, then candle's `sample_f` with the port's closure.
    pub fn sample(
        &self,
        processor: &mut LogitsProcessor,
        logits: &Tensor,
        context: &[u32],
    ) -> Result<u32, SamplingError> {
        self.draw(processor, &self.prepare(logits, context)?)
    }

    /// The exact distribution one draw comes from, or the error candle would return.
    pub fn distribution(&self, logits: &[f32], context: &[u32]) -> Result<Distribution, SamplingError> {
        let tensor = self.prepared_logits(logits, context)?;
        let vocab = logits.len();
        let temperature = match self.sampling {
            Sampling::ArgMax => {
                let token: u32 = tensor.argmax(0).and_then(|t| t.to_scalar())?;
                return Ok(Distribution::one_hot(token as usize, vocab));
            }
            Sampling::GumbelSoftmax { .. } => {
                return Err(SamplingError::invalid(Message::new("invalid-gumbel-no-distribution")))
            }
            Sampling::All { temperature }
            | Sampling::TopK { temperature, .. }
            | Sampling::TopP { temperature, .. }
            | Sampling::TopKThenTopP { temperature, .. } => temperature,
        };
        let mut prs = candle_probs(&tensor, temperature)?;
        apply_all(&self.steps, &mut prs);
        let weights = candle_selection(&self.sampling, prs);
        let just_weights: Vec<f32> = weights.iter().map(|(_, w)| *w).collect();
        WeightedIndex::new(&just_weights).map_err(|e| SamplingError::Candle(e.to_string()))?;
        Ok(Distribution::from_weights(
            weights.into_iter().map(|(i, w)| (i, f64::from(w))),
            vocab,
        ))
    }

    /// The tokens a plain `Sampling::All` set-up can draw: those whose f32 weight is not zero
    /// (without ordering them, as the exact distribution does).
    pub(crate) fn drawable(&self, logits: &[f32]) -> Result<Vec<u32>, SamplingError> {
        let tensor = self.prepared_logits(logits, &[])?;
        let temperature = match self.sampling {
            Sampling::All { temperature } if self.steps.is_empty() => temperature,
            _ => {
                return Ok(self
                    .distribution(logits, &[])?
                    .support()
                    .iter()
                    .map(|(i, _)| *i)
                    .collect())
            }
        };
        let prs = candle_probs(&tensor, temperature)?;
        Ok((0..prs.len() as u32).filter(|&i| prs[i as usize] > 0.0).collect())
    }

    /// candle's own `LogitsProcessor` for this set-up, seeded; [`CandlePort::sample`] draws with
    /// it, and it is the one a candle program keeps for a whole generation.
    pub fn processor(&self, seed: u64) -> LogitsProcessor {
        LogitsProcessor::from_sampling(seed, self.sampling.clone())
    }

    /// One draw with the real `LogitsProcessor`, closure included.
    pub fn draw(&self, processor: &mut LogitsProcessor, prepared: &Tensor) -> Result<u32, SamplingError> {
        processor
            .sample_f(prepared, |prs| apply_all(&self.steps, prs))
            .map_err(SamplingError::from)
    }

    /// Generated tokens drawn by the real `LogitsProcessor`, seeded once for the whole answer.
    pub fn sampler(&self, seed: u64) -> Box<dyn TokenSampler> {
        Box::new(CandleSampler {
            processor: self.processor(seed),
            port: self.clone(),
        })
    }

    /// Monte Carlo draws of this port, checked against its own exact distribution.
    pub(crate) fn drawing(&self, logits: &[f32], context: &[u32], seed: u64) -> Result<Drawing, SamplingError> {
        Ok(Drawing {
            exact: self.distribution(logits, context)?,
            source: Box::new(CandleDraws {
                prepared: self.prepared_logits(logits, context)?,
                port: self.clone(),
                seed,
                processor: None,
            }),
        })
    }
}

struct CandleSampler {
    port: CandlePort,
    processor: LogitsProcessor,
}

impl TokenSampler for CandleSampler {
    fn distribution(&self, logits: &[f32], context: &[u32]) -> Result<Distribution, SamplingError> {
        self.port.distribution(logits, context)
    }

    fn next(&mut self, logits: &[f32], context: &[u32]) -> Result<u32, SamplingError> {
        let prepared = self.port.prepared_logits(logits, context)?;
        self.port.draw(&mut self.processor, &prepared)
    }
}

/// Draws in seeded blocks: block `b` of a run comes from a `LogitsProcessor` seeded by
/// `(seed, b)`, so threads that share the blocks out make exactly the draws of one thread.
struct CandleDraws {
    port: CandlePort,
    prepared: Tensor,
    seed: u64,
    /// The processor of the block being drawn, and that block's number.
    processor: Option<(usize, LogitsProcessor)>,
}

impl DrawSource for CandleDraws {
    fn draw(&mut self, index: usize) -> Result<u32, SamplingError> {
        let block = index / BLOCK;
        if self.processor.as_ref().is_none_or(|(b, _)| *b != block) {
            self.processor = Some((block, self.port.processor(block_seed(self.seed, block))));
        }
        let (_, processor) = self.processor.as_mut().expect("seeded above");
        self.port.draw(processor, &self.prepared)
    }
}

/// candle's probabilities: `softmax_last_dim(logits / T)` with candle's own ops.
fn candle_probs(logits: &Tensor, temperature: f64) -> Result<Vec<f32>, SamplingError> {
    let scaled = (logits / temperature)?;
    candle_nn::ops::softmax_last_dim(&scaled)
        .and_then(|t| t.to_vec1())
        .map_err(SamplingError::from)
}

/// The `(token, weight)` pairs `LogitsProcessor` hands to `WeightedIndex` for `sampling`.
fn candle_selection(sampling: &Sampling, mut prs: Vec<f32>) -> Vec<(u32, f32)> {
    let all = |prs: Vec<f32>| prs.into_iter().enumerate().map(|(i, p)| (i as u32, p)).collect();
    match *sampling {
        Sampling::TopP { p, .. } if p > 0.0 && p < 1.0 => {
            candle_topp(&mut prs, p as f32);
            all(prs)
        }
        Sampling::TopK { k, .. } if k < prs.len() => {
            let indices = candle_topk_indices(&prs, k);
            indices.iter().map(|&i| (i as u32, prs[i])).collect()
        }
        Sampling::TopKThenTopP { k, p, .. } => {
            if k >= prs.len() {
                candle_topp(&mut prs, p as f32);
                return all(prs);
            }
            let indices = candle_topk_indices(&prs, k);
            let mut sub: Vec<f32> = indices.iter().map(|&i| prs[i]).collect();
            let sum_p = sub.iter().sum::<f32>();
            let p = p as f32;
            // candle skips the nucleus when p reaches the *un-renormalised* top-k mass.
            if !(p <= 0.0 || p >= sum_p) {
                candle_topp(&mut sub, p);
            }
            indices.iter().zip(sub).map(|(&i, w)| (i as u32, w)).collect()
        }
        _ => all(prs),
    }
}

/// `LogitsProcessor::sample_topk`'s choice: exactly k indices, ties broken by the selection.
fn candle_topk_indices(prs: &[f32], k: usize) -> Vec<usize> {
    let mut argsort_indices = (0..prs.len()).collect::<Vec<_>>();
    let (indices, _, _) = argsort_indices.select_nth_unstable_by(k, |&i, &j| prs[j].total_cmp(&prs[i]));
    indices.to_vec()
}

/// `LogitsProcessor::sample_topp`: zero every token once the absolute mass before it reaches p.
fn candle_topp(prs: &mut [f32], top_p: f32) {
    let mut argsort_indices = (0..prs.len()).collect::<Vec<_>>();
    argsort_indices.sort_by(|&i, &j| prs[j].total_cmp(&prs[i]));
    let mut cumsum = 0.;
    for index in &argsort_indices {
        if cumsum >= top_p {
            prs[*index] = 0.0;
        } else {
            cumsum += prs[*index];
        }
    }
}

/// Describes a `Sampling` as Rust source.
pub(crate) fn sampling_text(s: &Sampling) -> String {
    match s {
        Sampling::ArgMax => "Sampling::ArgMax".into(),
        Sampling::All { temperature } => format!("Sampling::All {{ temperature: {} }}", rust_f64(*temperature)),
        Sampling::TopK { k, temperature } => {
            format!("Sampling::TopK {{ k: {k}, temperature: {} }}", rust_f64(*temperature))
        }
        Sampling::TopP { p, temperature } => {
            format!(
                "Sampling::TopP {{ p: {}, temperature: {} }}",
                rust_f64(*p),
                rust_f64(*temperature)
            )
        }
        Sampling::TopKThenTopP { k, p, temperature } => format!(
            "Sampling::TopKThenTopP {{ k: {k}, p: {}, temperature: {} }}",
            rust_f64(*p),
            rust_f64(*temperature)
        ),
        Sampling::GumbelSoftmax { temperature } => {
            format!("Sampling::GumbelSoftmax {{ temperature: {} }}", rust_f64(*temperature))
        }
    }
}
