//! SGLang's `Sampler.forward` on one step's logits (`srt/layers/sampler.py`), with the pytorch
//! sampling backend (what SGLang picks without FlashInfer, and in deterministic mode), in f32 as
//! it runs them:
//!
//! 1. the repetition penalty (`penaltylib/repetition_penalty.py`) scales only the tokens SGLang
//!    has generated: a prompt's tokens never, so nothing at the step after a prompt;
//! 2. greedy (`is_all_greedy`: top_k 1): `torch.argmax`, the first maximum;
//! 3. `logits.div_(temperatures)` in f32, then `torch.softmax` over the whole vocabulary;
//! 4. no top-k, top-p or min-p: `torch.multinomial` of those probabilities;
//! 5. otherwise `top_k_top_p_min_p_sampling_from_probs_torch` (`:785-858`): a descending sort,
//!    the cumulative sum of the **whole** distribution, every token at rank ≥ k zeroed (exactly
//!    k), every token whose mass before it exceeds top_p zeroed — measured on the full
//!    distribution, not on what top-k left —, then a token below min_p × the top probability,
//!    and `torch.multinomial` of what is left (which renormalises).
//!
//! With `top_p = 1` and another filter on, step 5 still compares: torch's f32 softmax sums to a
//! little more than 1 on a CPU, so the least likely tokens after the running sum passes 1 are cut
//! (how many depends on the CPU's summation); this port keeps them and says so.

use super::request::Params;
use crate::columns::repetition_penalty::penalise;
use crate::columns::torch_f32::{self, divide_by_temperature, near, softmax_f32, softmax_f64, torch_argmax, SUBNORMAL};
use crate::distribution::Distribution;
use crate::text::Message;
use rand::Rng;

/// One step under SGLang: the tokens its multinomial can draw, with their f32 weights.
pub(super) struct Step {
    /// The f32 logits over the temperature (the greedy pick's logits when greedy).
    scaled: Vec<f32>,
    /// The token greedy decoding takes, when the request is greedy.
    greedy: Option<usize>,
    /// The weights `torch.multinomial` draws from: `(id, f32 probability)`, in the order it
    /// walks them (the sort's, or the vocabulary's).
    weights: Vec<(u32, f32)>,
    /// Decisions this port cannot reproduce bit for bit, and probabilities a GPU flushes to zero.
    pub(super) notes: Vec<Message>,
}

impl Params {
    /// The sampler on one step's raw logits; `generated` are the tokens SGLang produced itself,
    /// the only ones its repetition penalty sees.
    pub(super) fn step(&self, logits: &[f32], generated: &[u32]) -> Step {
        let mut x = logits.to_vec();
        if self.repetition_penalty != 1.0 {
            // `apply_scaling_penalties`, in f32, on the tokens SGLang generated.
            penalise(&mut x, generated, self.repetition_penalty as f32);
        }
        if self.is_greedy() {
            let token = torch_argmax(&x);
            return Step {
                scaled: x,
                greedy: Some(token),
                weights: vec![(token as u32, 1.0)],
                notes: Vec::new(),
            };
        }
        divide_by_temperature(&mut x, self.temperature);
        let probs = softmax_f32(&x);
        let mut notes = Vec::new();
        let weights = if self.filters() {
            self.filter(&x, &probs, &mut notes)
        } else {
            probs
                .iter()
                .enumerate()
                .filter(|(_, p)| **p > 0.0)
                .map(|(i, p)| (i as u32, *p))
                .collect()
        };
        let subnormal = weights.iter().filter(|(_, p)| *p < SUBNORMAL).count();
        if subnormal > 0 {
            notes.push(Message::new("note-subnormal").count("count", subnormal));
        }
        Step {
            scaled: x,
            greedy: None,
            weights,
            notes,
        }
    }

    /// `top_k_top_p_min_p_sampling_from_probs_torch`: the tokens left with their f32 weights, in
    /// the sort's order.
    fn filter(&self, x: &[f32], probs: &[f32], notes: &mut Vec<Message>) -> Vec<(u32, f32)> {
        let exact = softmax_f64(x);
        let mut order: Vec<usize> = (0..x.len()).collect();
        order.sort_by(|a, b| {
            probs[*b]
                .total_cmp(&probs[*a])
                .then(x[*b].total_cmp(&x[*a]))
                .then(a.cmp(b))
        });
        let k = usize::try_from(self.top_k).unwrap_or(usize::MAX).min(order.len());
        if k < order.len() && probs[order[k]] == probs[order[k - 1]] && probs[order[k]] > 0.0 {
            notes.push(Message::new("note-sglang-top-k-ties").count("k", k));
        }
        let top_p = f64::from(self.top_p as f32);
        let mut before = 0.0f64;
        let mut kept = Vec::new();
        let mut noted = false;
        let mut past_one = 0;
        for (rank, &i) in order.iter().enumerate() {
            let cut_by_p = if self.top_p >= 1.0 {
                past_one += usize::from(rank < k && probs[i] > 0.0 && 1.0 - before < 1e-5);
                false
            } else {
                if rank < k && near(before, top_p) && !std::mem::replace(&mut noted, true) {
                    notes.push(
                        Message::new("note-sglang-top-p-near")
                            .verbatim("mass", format!("{before:.9}"))
                            .verbatim("top_p", top_p.to_string()),
                    );
                }
                before > top_p
            };
            if rank < k && !cut_by_p && probs[i] > 0.0 {
                kept.push((i as u32, probs[i]));
            }
            before += exact[i];
        }
        if past_one > 0 {
            notes.push(Message::new("note-sglang-past-one").count("count", past_one));
        }
        if self.min_p > 0.0 {
            let threshold = kept[0].1 * self.min_p as f32;
            if kept.iter().any(|(_, p)| near(f64::from(*p), f64::from(threshold))) {
                notes.push(
                    Message::new("note-torch-min-p-near")
                        .count("count", 1)
                        .verbatim("cut", format!("{threshold:e}")),
                );
            }
            kept.retain(|(_, p)| *p >= threshold);
        }
        kept
    }
}

impl Step {
    /// What one draw comes from: the argmax, or the weights' tokens, renormalised.
    pub(super) fn distribution(&self) -> Distribution {
        if let Some(token) = self.greedy {
            return Distribution::one_hot(token, self.scaled.len());
        }
        let mut drawable = vec![false; self.scaled.len()];
        self.weights.iter().for_each(|(i, _)| drawable[*i as usize] = true);
        torch_f32::distribution(&self.scaled, |i| drawable[i])
    }

    /// `torch.multinomial` of one sample: a uniform draw over the weights' running sum.
    pub(super) fn multinomial(&self) -> Multinomial {
        let mut running = Vec::with_capacity(self.weights.len());
        let mut sum = 0.0f64;
        for (_, w) in &self.weights {
            sum += f64::from(*w);
            running.push(sum);
        }
        Multinomial {
            ids: self.weights.iter().map(|(i, _)| *i).collect(),
            running,
        }
    }
}

/// A weighted draw as `torch.multinomial` makes one: the first token whose running sum exceeds
/// a uniform draw times the total.
pub(super) struct Multinomial {
    ids: Vec<u32>,
    running: Vec<f64>,
}

impl Multinomial {
    pub(super) fn draw(&self, rng: &mut impl Rng) -> u32 {
        let target = rng.random::<f64>() * self.running[self.running.len() - 1];
        let at = self.running.partition_point(|sum| *sum <= target);
        self.ids[at.min(self.ids.len() - 1)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::columns::port_request::{PortRequest, SAME_NAMES};
    use crate::columns::sglang::request::params;
    use crate::GenerateArgs;

    fn step(kwargs: &str, logits: &[f32]) -> Distribution {
        let request = PortRequest::new(&GenerateArgs::from_json_str(kwargs).unwrap(), &SAME_NAMES);
        params(&request).unwrap().step(logits, &[]).distribution()
    }

    #[test]
    fn top_p_is_measured_on_the_whole_distribution_not_on_what_top_k_left() {
        // p ≈ .64, .24, .09, .03: after top_k 2, transformers' renormalised top_p 0.7 keeps 1;
        // SGLang's mass before the second token is .64 ≤ 0.7, so it keeps both.
        assert_eq!(step(r#"{"top_k": 2, "top_p": 0.7}"#, &[2.0, 1.0, 0.0, -1.0]).kept(), 2);
    }

    #[test]
    fn top_k_keeps_exactly_k_of_tied_tokens() {
        assert_eq!(step(r#"{"top_k": 2}"#, &[3.0, 2.0, 2.0, 1.0]).kept(), 2);
    }

    #[test]
    fn top_k_one_is_greedy_at_any_temperature() {
        assert_eq!(
            step(r#"{"top_k": 1, "temperature": 1.5}"#, &[1.0, 3.0, 3.0]).support(),
            [(1, 1.0)]
        );
    }

    #[test]
    fn the_multinomial_draws_the_exact_distribution() {
        use rand::SeedableRng;
        let request = PortRequest::new(&GenerateArgs::from_json_str(r#"{"top_k": 3}"#).unwrap(), &SAME_NAMES);
        let s = params(&request).unwrap().step(&[1.0, 0.5, 0.0, -3.0], &[]);
        let (exact, draw) = (s.distribution(), s.multinomial());
        let mut rng = rand::rngs::StdRng::seed_from_u64(2);
        let mut counts = [0u64; 4];
        for _ in 0..40_000 {
            counts[draw.draw(&mut rng) as usize] += 1;
        }
        let checked = crate::output::monte_carlo::draws::summarize(&counts, &exact, None, 2);
        assert!(
            checked.consistent && counts[3] == 0,
            "tv {} > {}",
            checked.tv_to_exact,
            checked.bound
        );
    }
}
