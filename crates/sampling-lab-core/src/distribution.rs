//! Next-token distributions over a vocabulary, and how far apart two of them are.

use serde::Serialize;

/// A column's probabilities agree with transformers' when no token differs by more than this.
pub const EXACT_TOLERANCE: f64 = 1e-6;

/// A distribution stored by its support: `(token id, probability)`, most probable first
/// (ties by id). Every listed token is *kept*: a draw can land on it.
///
/// ```
/// use sampling_lab_core::Distribution;
///
/// // Weights need not sum to 1; a zero weight is not kept.
/// let d = Distribution::from_weights([(2, 0.0), (1, 1.0), (0, 3.0)], 4);
/// assert_eq!(d.kept(), 2);
/// assert_eq!(d.support(), [(0, 0.75), (1, 0.25)]);
/// assert_eq!(d.prob(2), 0.0);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Distribution {
    vocab: usize,
    support: Vec<(u32, f64)>,
}

impl Distribution {
    /// The vocabulary's size: token ids run from 0 to `vocab − 1`, kept or not.
    pub fn vocab(&self) -> usize {
        self.vocab
    }

    /// The kept tokens and their probabilities, most probable first (ties by id), summing to 1:
    /// the constructors keep it so.
    pub fn support(&self) -> &[(u32, f64)] {
        &self.support
    }

    /// Normalises non-negative weights; zero weights are not kept.
    pub fn from_weights(weights: impl IntoIterator<Item = (u32, f64)>, vocab: usize) -> Self {
        let mut support: Vec<(u32, f64)> = weights.into_iter().filter(|(_, w)| *w > 0.0).collect();
        let total: f64 = support.iter().map(|(_, w)| w).sum();
        support.iter_mut().for_each(|(_, w)| *w /= total);
        sort_support(&mut support);
        Distribution { vocab, support }
    }

    /// softmax over the finite scores: every finite score is kept, as torch's multinomial can
    /// draw any of them.
    pub fn softmax_of_finite(scores: &[f32]) -> Self {
        let logp = log_softmax_f64(scores);
        let mut support: Vec<(u32, f64)> = scores
            .iter()
            .zip(logp)
            .enumerate()
            .filter(|(_, (s, _))| s.is_finite())
            .map(|(i, (_, l))| (i as u32, l.exp()))
            .collect();
        sort_support(&mut support);
        Distribution {
            vocab: scores.len(),
            support,
        }
    }

    /// softmax whose support is what torch's f32 softmax leaves drawable: a token whose
    /// `exp(score − max) / sum`, in f32, underflows to zero is never drawn, however finite its
    /// score. The probabilities stay f64.
    pub fn softmax_drawable_in_f32(scores: &[f32]) -> Self {
        let max = scores.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let sum = scores.iter().map(|s| f64::from((s - max).exp())).sum::<f64>() as f32;
        let mut d = Self::softmax_of_finite(scores);
        d.support.retain(|(i, _)| (scores[*i as usize] - max).exp() / sum > 0.0);
        d
    }

    /// Every draw lands on `token`: greedy decoding.
    pub(crate) fn one_hot(token: usize, vocab: usize) -> Self {
        Distribution {
            vocab,
            support: vec![(token as u32, 1.0)],
        }
    }

    /// How many tokens a draw can land on: the report's `kept`.
    pub fn kept(&self) -> usize {
        self.support.len()
    }

    /// Dense probabilities over the whole vocabulary.
    pub fn dense(&self) -> Vec<f64> {
        let mut p = vec![0.0; self.vocab];
        for &(i, q) in &self.support {
            p[i as usize] = q;
        }
        p
    }

    /// The probability of `token` (0 for a token not kept).
    pub fn prob(&self, token: u32) -> f64 {
        self.support.iter().find(|(i, _)| *i == token).map_or(0.0, |(_, p)| *p)
    }

    /// Entropy in nats (0, not −0, for a single token).
    pub fn entropy(&self) -> f64 {
        0.0 - self
            .support
            .iter()
            .filter(|(_, p)| *p > 0.0)
            .map(|(_, p)| p * p.ln())
            .sum::<f64>()
    }
}

/// Most probable first, ties by id: a total order, so the unstable sort gives the one result.
fn sort_support(support: &mut [(u32, f64)]) {
    support.sort_unstable_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
}

/// How many values tie with the `k`-th highest when some of them fall past `k`: `None` when the
/// `k` highest are set apart (or k is 0 or past the end). Linear: a selection, not a sort.
pub(crate) fn ties_at_k(values: &[f32], k: usize) -> Option<usize> {
    if k == 0 || k >= values.len() {
        return None;
    }
    let mut scratch = values.to_vec();
    let (_, &mut kth, _) = scratch.select_nth_unstable_by(k - 1, |a, b| b.total_cmp(a));
    let tied = values.iter().filter(|&&v| v == kth).count();
    let above = values.iter().filter(|&&v| v > kth).count();
    (above + tied > k).then_some(tied)
}

/// log-softmax in f64 of f32 scores; −inf scores get −inf.
pub fn log_softmax_f64(scores: &[f32]) -> Vec<f64> {
    let max = scores.iter().cloned().fold(f32::NEG_INFINITY, f32::max) as f64;
    let sum: f64 = scores.iter().map(|&s| (s as f64 - max).exp()).sum();
    let log_sum = sum.ln() + max;
    scores.iter().map(|&s| s as f64 - log_sum).collect()
}

/// How a port's distribution differs from transformers' ([`compare`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Comparison {
    /// Total variation distance, ½ Σ |p_hf − p_port|.
    pub tv: f64,
    /// The largest difference in one token's probability: what [`EXACT_TOLERANCE`] bounds.
    pub max_abs_diff: f64,
    /// Probability the port puts on tokens transformers never draws.
    pub mass_outside_hf: f64,
    /// Tokens transformers keeps and the port drops, most probable (under hf) first.
    pub only_hf: TokenList,
    /// Tokens the port keeps and transformers drops, most probable (under the port) first.
    pub only_port: TokenList,
    /// Of those only one side keeps, how many it gives a probability too small for an f32
    /// softmax (below 1.4e-45): no draw reaches them, so they make no difference.
    #[serde(skip)]
    pub vanishing: usize,
}

/// Probabilities below f32's smallest: a softmax in f32 (torch's, candle's) rounds them to 0, so
/// no draw reaches a token kept with one.
pub(crate) const VANISHING: f64 = 1.401298464324817e-45;

impl Comparison {
    /// No probability further apart than `tolerance`, and the same tokens drawable: a token only
    /// one side keeps counts only if that side could draw it.
    pub fn agrees_within(&self, tolerance: f64) -> bool {
        self.max_abs_diff <= tolerance && self.only_hf.count + self.only_port.count == self.vanishing
    }
}

/// A possibly long list of token ids: its length, and the first [`TokenList::SHOWN`].
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct TokenList {
    /// How many tokens the list has in all.
    pub count: usize,
    /// The first of them, in the list's order.
    pub first: Vec<u32>,
}

impl TokenList {
    /// How many ids [`TokenList::first`] holds at most: enough to name the tokens that matter,
    /// few enough for a report over a whole vocabulary.
    pub const SHOWN: usize = 20;

    fn of(d: &Distribution, other: &[f64]) -> Self {
        let ids: Vec<u32> = d
            .support
            .iter()
            .filter(|(i, _)| other[*i as usize] == 0.0)
            .map(|(i, _)| *i)
            .collect();
        TokenList {
            count: ids.len(),
            first: ids.into_iter().take(Self::SHOWN).collect(),
        }
    }
}

/// Total variation distance, ½ Σ |a − b|.
pub(crate) fn total_variation(a: &Distribution, b: &Distribution) -> f64 {
    let (da, db) = (a.dense(), b.dense());
    0.5 * da.iter().zip(&db).map(|(x, y)| (x - y).abs()).sum::<f64>()
}

/// How `port` differs from `hf` (transformers' distribution, the reference): the figures of the
/// report's `compare`.
///
/// ```
/// use sampling_lab_core::{compare, Distribution, EXACT_TOLERANCE};
///
/// let hf = Distribution::from_weights([(0, 0.5), (1, 0.5)], 3);
/// let port = Distribution::from_weights([(0, 0.5), (1, 0.25), (2, 0.25)], 3);
/// let c = compare(&hf, &port);
/// assert_eq!((c.tv, c.max_abs_diff, c.mass_outside_hf), (0.25, 0.25, 0.25));
/// assert_eq!(c.only_port.first, [2]); // kept by the port alone
/// assert!(!c.agrees_within(EXACT_TOLERANCE));
/// ```
pub fn compare(hf: &Distribution, port: &Distribution) -> Comparison {
    compare_with_dense(hf, &hf.dense(), port)
}

/// [`compare`] with hf's dense probabilities already made: an analysis compares every column with
/// the same hf, and makes them once.
pub(crate) fn compare_with_dense(hf: &Distribution, dh: &[f64], port: &Distribution) -> Comparison {
    let dp = port.dense();
    let diffs = dh.iter().zip(&dp).map(|(x, y)| (x - y).abs());
    Comparison {
        tv: 0.5 * diffs.clone().sum::<f64>(),
        max_abs_diff: diffs.fold(0.0, f64::max),
        mass_outside_hf: port
            .support
            .iter()
            .filter(|(i, _)| dh[*i as usize] == 0.0)
            // From +0.0: Rust's float `sum` starts at −0.0, which a page prints as "−0.00 %".
            .fold(0.0, |sum, (_, p)| sum + p),
        only_hf: TokenList::of(hf, &dp),
        only_port: TokenList::of(port, dh),
        vanishing: [(hf, &dp[..]), (port, dh)]
            .iter()
            .map(|(d, other)| {
                d.support
                    .iter()
                    .filter(|(i, p)| other[*i as usize] == 0.0 && *p < VANISHING)
                    .count()
            })
            .sum(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn total_variation_of_disjoint_supports_is_one() {
        let a = Distribution::one_hot(0, 3);
        let b = Distribution::one_hot(2, 3);
        assert_eq!(total_variation(&a, &b), 1.0);
    }

    #[test]
    fn a_token_only_one_side_keeps_with_no_drawable_probability_is_no_difference() {
        let hf = Distribution {
            vocab: 3,
            support: vec![(0, 1.0), (1, 1e-300)],
        };
        let port = Distribution::one_hot(0, 3);
        assert!(compare(&hf, &port).agrees_within(1e-6));
        let drawable = Distribution::from_weights([(0, 1.0), (1, 1e-9)], 3);
        assert!(!compare(&drawable, &port).agrees_within(1e-6));
    }

    #[test]
    fn mass_outside_counts_only_tokens_hf_never_draws() {
        let hf = Distribution::from_weights([(0, 1.0)], 3);
        let port = Distribution::from_weights([(0, 0.75), (1, 0.25)], 3);
        let c = compare(&hf, &port);
        assert_eq!((c.tv, c.mass_outside_hf, c.only_port.count), (0.25, 0.25, 1));
    }

    #[test]
    fn no_mass_outside_is_positive_zero_not_negative() {
        let same = Distribution::from_weights([(0, 0.5), (1, 0.5)], 3);
        let outside = compare(&same, &same).mass_outside_hf;
        assert!(outside == 0.0 && outside.is_sign_positive(), "{outside:?}");
    }
}
