//! torch's f32 arithmetic as transformers', vLLM's and SGLang's samplers run it on a CPU (torch 2.14,
//! `aten/src/ATen/native/cpu/SoftMaxKernel.cpp` `_vec_softmax_lastdim`: exp(x − max), their sum,
//! each times 1/sum; `ReduceOpsKernel.cpp` `cumsum`: a double accumulator stored as f32), for the
//! decisions that depend on it: which tokens keep a nonzero f32 probability, and which side of a
//! threshold a cumulative mass falls on.
//!
//! torch's vectorised `exp` and its summation order are not reproduced bit for bit (the sum of an
//! f32 softmax over 49152 tokens ends up to 6e-6 away from 1, by an amount that depends on the
//! CPU's vector width), so a decision this close to its threshold is flagged, not asserted.

use crate::distribution::Distribution;

/// A mass this close to its threshold (relative) may be decided otherwise by torch's own f32 sums.
pub(crate) const NEAR_MASS: f64 = 1e-5;

/// f32 probabilities a step can draw from (smaller than this are subnormal: a device that
/// flushes them to zero never draws them).
pub(crate) const SUBNORMAL: f32 = f32::MIN_POSITIVE;

/// `torch.softmax(x, dim=-1)` on f32 scores, as f32 (−inf scores give 0).
pub(crate) fn softmax_f32(scores: &[f32]) -> Vec<f32> {
    let max = scores.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let exps: Vec<f32> = scores.iter().map(|s| (s - max).exp()).collect();
    let sum = exps.iter().map(|e| f64::from(*e)).sum::<f64>() as f32;
    let inverse = 1.0 / sum;
    exps.into_iter().map(|e| e * inverse).collect()
}

/// The probabilities in f64 of the f32 scores (−inf gives 0): what a decision is made on, and
/// what the report lists.
pub(crate) fn softmax_f64(scores: &[f32]) -> Vec<f64> {
    let max = f64::from(scores.iter().copied().fold(f32::NEG_INFINITY, f32::max));
    let exps: Vec<f64> = scores.iter().map(|s| (f64::from(*s) - max).exp()).collect();
    let sum: f64 = exps.iter().sum();
    exps.into_iter().map(|e| e / sum).collect()
}

/// The distribution of the f32 `scores` over the tokens `drawable` keeps, each with its f64
/// softmax probability.
pub(crate) fn distribution(scores: &[f32], drawable: impl Fn(usize) -> bool) -> Distribution {
    let max = scores
        .iter()
        .enumerate()
        .filter(|(i, _)| drawable(*i))
        .map(|(_, s)| f64::from(*s))
        .fold(f64::NEG_INFINITY, f64::max);
    Distribution::from_weights(
        scores
            .iter()
            .enumerate()
            .filter(|(i, _)| drawable(*i))
            .map(|(i, s)| (i as u32, (f64::from(*s) - max).exp())),
        scores.len(),
    )
}

/// `scores.div_(temperature)`: torch divides the f32 scores by the temperature rounded to f32
/// (transformers' `TemperatureLogitsWarper`, vLLM's and SGLang's samplers alike).
pub(crate) fn divide_by_temperature(scores: &mut [f32], temperature: f64) {
    let t = temperature as f32;
    scores.iter_mut().for_each(|s| *s /= t);
}

/// `torch.argmax`: the first maximum, and a NaN beats every number.
pub fn torch_argmax(scores: &[f32]) -> usize {
    if let Some(i) = scores.iter().position(|s| s.is_nan()) {
        return i;
    }
    let mut best = 0;
    for (i, s) in scores.iter().enumerate() {
        if *s > scores[best] {
            best = i;
        }
    }
    best
}

/// Whether `a` lies within float noise of the threshold `b`.
pub(crate) fn near(a: f64, b: f64) -> bool {
    (a - b).abs() <= NEAR_MASS * b.abs().max(1e-3)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn argmax_takes_the_first_maximum_and_a_nan_beats_every_number() {
        assert_eq!(torch_argmax(&[1.0, 4.0, 4.0, 0.0]), 1);
        assert_eq!(torch_argmax(&[1.0, f32::NAN, 4.0]), 1);
    }

    #[test]
    fn an_f32_softmax_underflows_where_f64_does_not() {
        let p = softmax_f32(&[0.0, -120.0, f32::NEG_INFINITY]);
        assert_eq!((p[0], p[1], p[2]), (1.0, 0.0, 0.0));
        assert!(softmax_f64(&[0.0, -120.0])[1] > 0.0);
    }

    #[test]
    fn the_distribution_keeps_what_it_is_told_with_f64_probabilities() {
        let d = distribution(&[1.0, 0.0, 5.0], |i| i != 2);
        assert_eq!(d.kept(), 2);
        assert!((d.prob(0) - 1.0 / (1.0 + (-1.0f64).exp())).abs() < 1e-15);
    }
}
