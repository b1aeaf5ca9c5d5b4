//! One column's seeded draws, shared out in blocks, and the statistical check of their counts.
//!
//! The check: no draw may fall outside the exact support, and the total variation between the
//! observed frequencies and the exact probabilities must stay under
//! `½ Σ √(p(1−p)/N) + √(ln(1/δ) / 2N)`. The first term bounds the expected TV (Jensen, per token);
//! the second is McDiarmid's inequality (one draw moves the empirical TV by at most 1/N), so a
//! correct exact distribution fails the check with probability below δ.

use crate::columns::{DrawSource, DRAW_BLOCK as BLOCK};
use crate::distribution::{total_variation, Distribution};
use crate::text::Message;
use crate::SamplingError;
use serde::Serialize;
use std::ops::Range;

/// Failure probability of the statistical check for a correct exact distribution.
pub const DELTA: f64 = 1e-9;

/// Part `index` of `of` equal shares of a run's blocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Part {
    /// Which share, from 0; below `of` ([`Part::new`] checks).
    pub(crate) index: usize,
    /// How many shares the run is split into.
    pub(crate) of: usize,
}

impl Part {
    /// The whole run, in one part.
    pub(crate) const WHOLE: Part = Part { index: 0, of: 1 };

    /// Part `index` of `of`, refused when there is no such part.
    pub fn new(index: usize, of: usize) -> Result<Part, SamplingError> {
        if index < of {
            Ok(Part { index, of })
        } else {
            Err(SamplingError::invalid(
                Message::new("invalid-part").count("index", index).count("of", of),
            ))
        }
    }

    /// The draws of this part among `n`: whole blocks, the last one possibly short.
    pub fn draws(self, n: usize) -> Range<usize> {
        let blocks = n.div_ceil(BLOCK);
        let block = |i: usize| (blocks * i / self.of * BLOCK).min(n);
        block(self.index)..block(self.index + 1)
    }
}

/// What N draws of one column gave, and their check against its exact distribution.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Draws {
    /// How many draws were counted.
    pub draws: usize,
    /// The run's seed.
    pub seed: u64,
    /// `(token, count)`, most drawn first (ties by id).
    pub frequencies: Vec<(u32, u64)>,
    /// How many different tokens were drawn.
    pub distinct: usize,
    /// Share of draws on tokens transformers never draws.
    pub outside_hf: f64,
    /// Total variation between the observed frequencies and the exact distribution.
    pub tv_to_exact: f64,
    /// The largest `tv_to_exact` the check accepts, at the run's [`delta`](super::MonteCarlo::delta).
    pub bound: f64,
    /// Draws outside the exact support.
    pub outside_exact: u64,
    /// Whether the draws pass the check: none outside the exact support, and `tv_to_exact`
    /// within `bound`.
    pub consistent: bool,
}

/// Draws `range` of one column's seeded draws, in as many chunks as the caller likes (a page
/// draws a chunk, reports progress, and lets a cancel through): the counts depend neither on the
/// chunking nor on how the blocks are shared out.
pub struct ColumnDraws {
    source: Box<dyn DrawSource>,
    counts: Vec<u64>,
    range: Range<usize>,
    next: usize,
}

impl ColumnDraws {
    /// `range` starts on a block boundary (see [`Part::draws`]).
    pub fn new(source: Box<dyn DrawSource>, vocab: usize, range: Range<usize>) -> Self {
        assert_eq!(range.start % BLOCK, 0);
        ColumnDraws {
            source,
            counts: vec![0; vocab],
            next: range.start,
            range,
        }
    }

    /// Makes up to `max` more draws; how many were made.
    pub fn advance(&mut self, max: usize) -> Result<usize, SamplingError> {
        let chunk = max.min(self.range.end - self.next);
        for _ in 0..chunk {
            let token = self.source.draw(self.next)?;
            self.counts[token as usize] += 1;
            self.next += 1;
        }
        Ok(chunk)
    }

    /// Draws made so far.
    pub(crate) fn done(&self) -> usize {
        self.next - self.range.start
    }

    /// Draws this part makes in all.
    pub(crate) fn target(&self) -> usize {
        self.range.len()
    }

    /// How many draws landed on each token, by id: what [`summarize`] checks, and what another
    /// thread's part of the run [`ColumnDraws::absorb`]s.
    pub fn counts(&self) -> &[u64] {
        &self.counts
    }

    /// Adds draws another thread made of the same run (other blocks, same seed).
    pub fn absorb(&mut self, counts: &[u64]) -> Result<(), SamplingError> {
        if counts.len() != self.counts.len() {
            return Err(SamplingError::invalid(
                Message::new("invalid-counts-vocabulary")
                    .count("count", counts.len())
                    .count("vocab", self.counts.len()),
            ));
        }
        self.counts
            .iter_mut()
            .zip(counts)
            .for_each(|(mine, theirs)| *mine += theirs);
        Ok(())
    }
}

/// Frequencies and the statistical check of `counts` against `exact`.
pub fn summarize(counts: &[u64], exact: &Distribution, hf: Option<&Distribution>, seed: u64) -> Draws {
    let n: u64 = counts.iter().sum();
    let nf = n as f64;
    let mut frequencies: Vec<(u32, u64)> = counts
        .iter()
        .enumerate()
        .filter(|(_, c)| **c > 0)
        .map(|(i, c)| (i as u32, *c))
        .collect();
    frequencies.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let observed = Distribution::from_weights(frequencies.iter().map(|&(i, c)| (i, c as f64)), counts.len());
    let exact_dense = exact.dense();
    let outside_exact = frequencies
        .iter()
        .filter(|(i, _)| exact_dense[*i as usize] == 0.0)
        .map(|(_, c)| c)
        .sum();
    let outside_hf = hf.map_or(0.0, |hf| {
        let dense = hf.dense();
        frequencies
            .iter()
            .filter(|(i, _)| dense[*i as usize] == 0.0)
            // From +0.0: Rust's float `sum` starts at −0.0, which a page prints as "−0.00 %".
            .fold(0.0, |sum, (_, c)| sum + *c as f64)
            / nf
    });
    let tv_to_exact = total_variation(&observed, exact);
    let bound = 0.5
        * exact
            .support()
            .iter()
            .map(|(_, p)| (p * (1.0 - p) / nf).sqrt())
            .sum::<f64>()
        + ((1.0 / DELTA).ln() / (2.0 * nf)).sqrt();
    Draws {
        draws: n as usize,
        seed,
        distinct: frequencies.len(),
        frequencies,
        outside_hf,
        tv_to_exact,
        bound,
        outside_exact,
        consistent: outside_exact == 0 && tv_to_exact <= bound,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::columns::candle_port::CandlePort;
    use candle_transformers::generation::Sampling;

    fn draws(port: &CandlePort, logits: &[f32], range: Range<usize>, seed: u64) -> ColumnDraws {
        let drawing = port.drawing(logits, &[], seed).unwrap();
        ColumnDraws::new(drawing.source, logits.len(), range)
    }

    #[test]
    fn draws_made_in_chunks_equal_draws_made_at_once() {
        let port = CandlePort::plain(Sampling::TopK { k: 3, temperature: 0.9 });
        let logits = [2.0f32, 1.5, 1.0, 0.5, 0.0];
        let mut whole = draws(&port, &logits, 0..2500, 7);
        whole.advance(usize::MAX).unwrap();
        let mut chunked = draws(&port, &logits, 0..2500, 7);
        while chunked.advance(37).unwrap() > 0 {}
        assert_eq!(chunked.done(), 2500);
        assert_eq!(chunked.counts(), whole.counts());
    }

    #[test]
    fn draws_that_never_leave_hf_s_support_are_positive_zero_outside_it() {
        let hf = Distribution::from_weights([(0, 0.5), (1, 0.5)], 3);
        let outside = summarize(&[7, 3, 0], &hf, Some(&hf), 0).outside_hf;
        assert!(outside == 0.0 && outside.is_sign_positive(), "{outside:?}");
    }

    #[test]
    fn parts_share_out_whole_blocks_and_cover_every_draw_once() {
        let parts = |n, of| (0..of).map(|i| Part::new(i, of).unwrap().draws(n)).collect::<Vec<_>>();
        assert_eq!(parts(10_000, 2), [0..5000, 5000..10_000]);
        assert_eq!(parts(2_500, 2), [0..1000, 1000..2500]);
        assert_eq!(parts(500, 2), [0..0, 0..500]);
        assert_eq!(parts(7_000, 3), [0..2000, 2000..4000, 4000..7000]);
        assert!(Part::new(2, 2).is_err());
    }

    #[test]
    fn draws_made_in_parts_equal_draws_made_at_once() {
        let port = CandlePort::plain(Sampling::All { temperature: 1.0 });
        let logits = [2.0f32, 1.5, 1.0, 0.5, 0.0];
        let mut whole = draws(&port, &logits, 0..3500, 3);
        whole.advance(usize::MAX).unwrap();
        let mut first = draws(&port, &logits, 0..2000, 3);
        let mut second = draws(&port, &logits, 2000..3500, 3);
        first.advance(usize::MAX).unwrap();
        second.advance(usize::MAX).unwrap();
        first.absorb(second.counts()).unwrap();
        assert_eq!(first.counts(), whole.counts());
        let block = |range| {
            let mut draws = draws(&port, &logits, range, 3);
            draws.advance(usize::MAX).unwrap();
            draws.counts().to_vec()
        };
        assert_ne!(block(0..1000), block(1000..2000), "each block has a stream of its own");
    }

    #[test]
    fn a_draw_outside_the_exact_support_fails_the_check() {
        let exact = Distribution::from_weights([(0, 1.0)], 2);
        let d = summarize(&[99, 1], &exact, None, 0);
        assert!(!d.consistent);
        assert_eq!(d.outside_exact, 1);
    }

    #[test]
    fn frequencies_far_from_the_exact_probabilities_fail_the_check() {
        let exact = Distribution::from_weights([(0, 0.5), (1, 0.5)], 2);
        assert!(!summarize(&[9000, 1000], &exact, None, 0).consistent);
        assert!(summarize(&[5020, 4980], &exact, None, 0).consistent);
    }
}
