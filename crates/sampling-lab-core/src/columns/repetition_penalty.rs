//! The repetition penalty's arithmetic, as transformers defines it
//! (`RepetitionPenaltyLogitsProcessor`) and SGLang, mlx-lm and transformers.js reproduce it: the
//! score of each token the penalty sees, once however often it occurs, divided by the penalty, or
//! multiplied by it when negative.
//!
//! What differs between them stays with each column: which tokens the penalty sees (the whole
//! context, the last n, only the generated ones) and the width of the arithmetic (f32 as torch
//! and mlx compute it, f64 as JavaScript does). Two rules are other rules, so their columns keep
//! them: vLLM multiplies a positive logit by the f32 reciprocal of the penalty (other bits), and
//! llama.cpp multiplies a zero logit as well (`<= 0`: 0 × a zero penalty is 0, not 0 / 0).

use std::ops::{Div, Mul};

/// The float type the penalty is computed in, from and back to the f32 scores.
pub(crate) trait Width: Copy + PartialOrd + Mul<Output = Self> + Div<Output = Self> {
    /// The score in this width.
    fn widen(score: f32) -> Self;
    /// The result stored back as an f32 score.
    fn store(self) -> f32;
}

impl Width for f32 {
    fn widen(score: f32) -> Self {
        score
    }
    fn store(self) -> f32 {
        self
    }
}

impl Width for f64 {
    fn widen(score: f32) -> Self {
        f64::from(score)
    }
    fn store(self) -> f32 {
        self as f32
    }
}

/// One score under the penalty, computed in `W`: a negative score times it, any other divided.
pub(crate) fn penalised<W: Width>(score: f32, penalty: W) -> f32 {
    let s = W::widen(score);
    let zero = W::widen(0.0);
    (if s < zero { s * penalty } else { s / penalty }).store()
}

/// Penalises the score of each token of `seen` once, however often it occurs (ids past the
/// vocabulary are ignored).
pub(crate) fn penalise<W: Width>(scores: &mut [f32], seen: &[u32], penalty: W) {
    let mut done = vec![false; scores.len()];
    for &id in seen {
        if let Some(done) = done.get_mut(id as usize) {
            if !std::mem::replace(done, true) {
                scores[id as usize] = penalised(scores[id as usize], penalty);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_token_seen_is_penalised_once_and_a_negative_score_is_multiplied() {
        let mut scores = [2.0f32, -2.0, 3.0];
        penalise(&mut scores, &[0, 1, 0, 1, 7], 2.0f32);
        assert_eq!(scores, [1.0, -4.0, 3.0]);
    }

    #[test]
    fn the_width_decides_the_rounding_as_javascript_and_torch_differ() {
        // 0.3 / 0.7 rounds differently computed in f32 than computed in f64 and then stored.
        let (narrow, wide) = (penalised(0.3f32, 0.7f32), penalised(0.3f32, 0.7f64));
        assert_eq!(narrow, 0.3f32 / 0.7f32);
        assert_eq!(wide, (f64::from(0.3f32) / 0.7f64) as f32);
        assert_ne!(narrow, wide);
    }
}
