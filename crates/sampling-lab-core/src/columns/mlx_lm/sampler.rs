//! mlx-lm's chain on one step's logits, in f32 as mlx runs it on its CPU backend
//! (`mlx_lm/sample_utils.py` 0.32.2, `generate.py` `generate_step`):
//!
//! 1. `make_repetition_penalty`: each of the last 20 tokens (prompt included) once, a negative
//!    logit times the penalty, the others divided by it;
//! 2. `logprobs = logits − logsumexp(logits)`: the filters see log-probabilities **at
//!    temperature 1**;
//! 3. greedy (`temp == 0`): `mx.argmax`, the first maximum, before any filter;
//! 4. `apply_top_p` (`:212-229`): ascending sort, the mass above each token (exclusive reverse
//!    cumsum), the tokens whose mass above reaches `top_p` × the total dropped, every token at
//!    the threshold's log-probability kept (the crossing token and its ties);
//! 5. `apply_min_p` (`:162-209`): below `max + log(min_p)` cut;
//! 6. `apply_top_k` (`:137-159`): `argpartition` keeps exactly k (ties settled by the partition);
//! 7. `categorical_sampling`: `mx.random.categorical(logprobs · (1 / temp))`, a Gumbel-max draw
//!    (`mlx/random.cpp`). A negative temperature inverts the order, and turns every token a
//!    filter cut (−inf) into +inf: mlx then draws uniformly among those (seen with mlx 0.32.4).

use super::request::{Params, PENALTY_WINDOW};
use crate::columns::repetition_penalty::penalise;
use crate::columns::torch_f32::torch_argmax;
use crate::distribution::Distribution;
use crate::text::Message;
use crate::SamplingError;
use rand::Rng;

/// One step under mlx-lm: the scaled log-probabilities its categorical draw takes.
pub(super) struct Step {
    /// `logprobs · (1 / temp)` in f32, −inf where a filter cut (+inf, inverted).
    scaled: Vec<f32>,
    /// The token greedy decoding takes, when `temp` is 0.
    greedy: Option<usize>,
    /// Decisions this port cannot reproduce bit for bit.
    pub(super) notes: Vec<Message>,
}

impl Params {
    /// The chain on one step's raw logits, `context` being every id so far, or what a filter
    /// raises there.
    pub(super) fn step(&self, logits: &[f32], context: &[u32]) -> Result<Step, SamplingError> {
        let mut x = logits.to_vec();
        if let Some(r) = self.repetition_penalty {
            // `make_repetition_penalty`'s processor, in f32, on the window's tokens.
            penalise(&mut x, &context[context.len().saturating_sub(PENALTY_WINDOW)..], r);
        }
        let lp = log_softmax_f32(&x);
        if self.is_greedy() {
            return Ok(Step {
                greedy: Some(torch_argmax(&lp)),
                scaled: lp,
                notes: Vec::new(),
            });
        }
        if let Some(e) = self.raised(lp.len()) {
            return Err(e);
        }
        let mut lp = lp;
        let mut notes = Vec::new();
        if self.top_p_applies() {
            top_p(&mut lp, self.top_p as f32, &mut notes);
        }
        if self.min_p_applies() {
            min_p(&mut lp, self.min_p.number().expect("a number"), &mut notes);
        }
        if self.top_k_applies() {
            top_k(&mut lp, self.top_k.number().expect("a number") as usize, &mut notes);
        }
        let inverse = (1.0 / self.temp) as f32;
        Ok(Step {
            scaled: lp.iter().map(|l| l * inverse).collect(),
            greedy: None,
            notes,
        })
    }
}

impl Step {
    /// What one draw comes from: the argmax; the softmax of the finite scaled log-probabilities;
    /// or, where a negative temperature made some +inf, those alike.
    pub(super) fn distribution(&self) -> Distribution {
        let vocab = self.scaled.len();
        if let Some(token) = self.greedy {
            return Distribution::one_hot(token, vocab);
        }
        if self.scaled.contains(&f32::INFINITY) {
            let weights = self.scaled.iter().enumerate().filter(|(_, s)| **s == f32::INFINITY);
            return Distribution::from_weights(weights.map(|(i, _)| (i as u32, 1.0)), vocab);
        }
        let max = self.scaled.iter().copied().fold(f32::NEG_INFINITY, f32::max) as f64;
        Distribution::from_weights(
            self.scaled
                .iter()
                .enumerate()
                .filter(|(_, s)| s.is_finite())
                .map(|(i, s)| (i as u32, (f64::from(*s) - max).exp())),
            vocab,
        )
    }

    /// The categorical draw's candidates.
    pub(super) fn categorical(&self) -> Categorical {
        if let Some(token) = self.greedy {
            return Categorical::Uniform(vec![token as u32]);
        }
        let infinite: Vec<u32> = (0..self.scaled.len() as u32)
            .filter(|i| self.scaled[*i as usize] == f32::INFINITY)
            .collect();
        if !infinite.is_empty() {
            return Categorical::Uniform(infinite);
        }
        Categorical::Gumbel(
            self.scaled
                .iter()
                .enumerate()
                .filter(|(_, s)| s.is_finite())
                .map(|(i, s)| (i as u32, *s))
                .collect(),
        )
    }
}

/// `mx.random.categorical` on one row: Gumbel noise added to each finite logit, the largest
/// wins; among +inf logits, one alike.
pub(super) enum Categorical {
    Gumbel(Vec<(u32, f32)>),
    Uniform(Vec<u32>),
}

impl Categorical {
    pub(super) fn draw(&self, rng: &mut impl Rng) -> u32 {
        match self {
            Categorical::Uniform(ids) => ids[rng.random_range(0..ids.len())],
            Categorical::Gumbel(logits) => {
                // mlx's uniform: 32 random bits over u32::MAX in f32, below 1.
                let below_one = 1.0f32 - f32::EPSILON / 2.0;
                let mut best = (logits[0].0, f32::NEG_INFINITY);
                for &(id, logit) in logits {
                    let u = (rng.random::<u32>() as f32 / u32::MAX as f32).min(below_one);
                    let score = logit - (-u.ln()).ln();
                    if score > best.1 {
                        best = (id, score);
                    }
                }
                best.0
            }
        }
    }
}

/// `logits − mx.logsumexp(logits)` in f32, the sum of the exponentials accumulated one after
/// the other in f32 as mlx's CPU reduction does (it loses up to 1e-4 of the mass over 49152
/// tokens: the log-probabilities then sum to a little more than 1, which top_p's total sees).
fn log_softmax_f32(x: &[f32]) -> Vec<f32> {
    let max = x.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let sum = x.iter().fold(0.0f32, |sum, l| sum + (l - max).exp());
    let lse = sum.ln() + max;
    x.iter().map(|l| l - lse).collect()
}

/// `apply_top_p`: in ascending order, the f32 mass above each token (a reverse cumulative sum,
/// one addition after the other); the tokens whose mass above reaches `p` × the total dropped;
/// every token at or above the first one kept.
fn top_p(lp: &mut [f32], p: f32, notes: &mut Vec<Message>) {
    let mut order: Vec<usize> = (0..lp.len()).collect();
    order.sort_by(|a, b| lp[*a].total_cmp(&lp[*b]));
    let probs: Vec<f32> = order.iter().map(|i| lp[*i].exp()).collect();
    let mut above = vec![0.0f32; probs.len()];
    let mut sum = 0.0f32;
    for j in (0..probs.len()).rev() {
        above[j] = sum;
        sum += probs[j];
    }
    let cut = p * (above[0] + probs[0]);
    let dropped = above.iter().take_while(|a| **a >= cut).count();
    let close = |j: usize| above.get(j).is_some_and(|a| (a - cut).abs() <= 1e-6 * cut);
    if close(dropped) || (dropped > 0 && close(dropped - 1)) {
        notes.push(
            Message::new("note-mlx_lm-top-p-near")
                .verbatim("mass", above[dropped.min(above.len() - 1)].to_string())
                .verbatim("cut", cut.to_string()),
        );
    }
    let threshold = lp[order[dropped.min(order.len() - 1)]];
    lp.iter_mut()
        .filter(|l| **l < threshold)
        .for_each(|l| *l = f32::NEG_INFINITY);
}

/// `apply_min_p`: below the top log-probability + log(min_p), in f32, cut.
fn min_p(lp: &mut [f32], m: f64, notes: &mut Vec<Message>) {
    let top = lp.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let threshold = top + m.ln() as f32;
    if lp
        .iter()
        .any(|l| l.is_finite() && (l - threshold).abs() <= 1e-6 * threshold.abs().max(1.0))
    {
        notes.push(Message::new("note-mlx_lm-min-p-near").verbatim("cut", threshold.to_string()));
    }
    lp.iter_mut()
        .filter(|l| **l < threshold)
        .for_each(|l| *l = f32::NEG_INFINITY);
}

/// `apply_top_k`: exactly `k` kept (−inf included, as the partition counts them); of tied
/// log-probabilities at the cut, the lower ids, as mlx's partition left them when tried.
fn top_k(lp: &mut [f32], k: usize, notes: &mut Vec<Message>) {
    let mut order: Vec<usize> = (0..lp.len()).collect();
    order.sort_by(|a, b| lp[*b].total_cmp(&lp[*a]).then(a.cmp(b)));
    if lp[order[k]] == lp[order[k - 1]] && lp[order[k]].is_finite() {
        notes.push(Message::new("note-mlx_lm-top-k-ties").count("k", k));
    }
    for &i in &order[k..] {
        lp[i] = f32::NEG_INFINITY;
    }
}
