//! Seeded draws with the real candle `LogitsProcessor`, checked against the exact distribution.
//!
//! The check: no draw may fall outside the exact support, and the total variation between the
//! observed frequencies and the exact probabilities must stay under
//! `½ Σ √(p(1−p)/N) + √(ln(1/δ) / 2N)`. The first term bounds the expected TV (Jensen, per token);
//! the second is McDiarmid's inequality (one draw moves the empirical TV by at most 1/N), so a
//! correct exact distribution fails the check with probability below δ.

use super::distribution::{total_variation, Distribution};
use super::port::CandlePort;
use candle_core::Tensor;
use candle_transformers::generation::LogitsProcessor;
use serde::Serialize;

/// Failure probability of the statistical check for a correct exact distribution.
pub const DELTA: f64 = 1e-9;

/// What N draws of one port gave.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Draws {
    pub draws: usize,
    pub seed: u64,
    /// `(token, count)`, most drawn first (ties by id).
    pub frequencies: Vec<(u32, u64)>,
    pub distinct: usize,
    /// Share of draws on tokens transformers never draws.
    pub outside_hf: f64,
    /// Total variation between the observed frequencies and the exact distribution.
    pub tv_to_exact: f64,
    /// The largest `tv_to_exact` the check accepts at [`DELTA`].
    pub bound: f64,
    /// Draws outside the exact support.
    pub outside_exact: u64,
    pub consistent: bool,
}

/// `n` draws of one port, made in as many chunks as the caller likes (a page draws a chunk,
/// reports progress, and lets a cancel through): the counts do not depend on the chunking.
pub struct PortDraws {
    port: CandlePort,
    prepared: Tensor,
    processor: LogitsProcessor,
    counts: Vec<u64>,
    target: usize,
    done: usize,
}

impl PortDraws {
    pub fn new(port: &CandlePort, logits: &[f32], context: &[u32], n: usize, seed: u64) -> Result<Self, String> {
        Ok(PortDraws {
            prepared: port.prepared_logits(logits, context)?,
            processor: port.processor(seed),
            port: port.clone(),
            counts: vec![0; logits.len()],
            target: n,
            done: 0,
        })
    }

    /// Makes up to `max` more draws; how many were made.
    pub fn advance(&mut self, max: usize) -> Result<usize, String> {
        let chunk = max.min(self.target - self.done);
        for _ in 0..chunk {
            let token = self.port.draw(&mut self.processor, &self.prepared)?;
            self.counts[token as usize] += 1;
        }
        self.done += chunk;
        Ok(chunk)
    }

    pub fn done(&self) -> usize {
        self.done
    }

    pub fn counts(&self) -> &[u64] {
        &self.counts
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
            .map(|(_, c)| *c as f64)
            .sum::<f64>()
            / nf
    });
    let tv_to_exact = total_variation(&observed, exact);
    let bound = 0.5
        * exact
            .support
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
    use candle_transformers::generation::Sampling;

    #[test]
    fn draws_made_in_chunks_equal_draws_made_at_once() {
        let port = CandlePort::plain(Sampling::TopK { k: 3, temperature: 0.9 });
        let logits = [2.0f32, 1.5, 1.0, 0.5, 0.0];
        let mut whole = PortDraws::new(&port, &logits, &[], 1000, 7).unwrap();
        whole.advance(usize::MAX).unwrap();
        let mut chunked = PortDraws::new(&port, &logits, &[], 1000, 7).unwrap();
        while chunked.advance(37).unwrap() > 0 {}
        assert_eq!(chunked.done(), 1000);
        assert_eq!(chunked.counts(), whole.counts());
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
