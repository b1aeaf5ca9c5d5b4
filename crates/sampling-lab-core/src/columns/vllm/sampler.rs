//! vLLM's v1 `Sampler` on one step's logits (`v1/sample/sampler.py` `forward`, `sample`), in f32
//! as it runs them, and its draw:
//!
//! 1. penalties (`model_executor/layers/utils.py` `apply_penalties` →
//!    `_custom_ops.apply_repetition_penalties_torch`): every token of the prompt and the output,
//!    a positive logit times the f32 reciprocal of the penalty, the others times the penalty;
//! 2. greedy (temperature 0): the first maximum;
//! 3. `apply_temperature`: `logits.div_(temperature)` in f32;
//! 4. `MinPLogitsProcessor.apply` (`logits_processor/builtin.py:102-116`): the f32 softmax of the
//!    whole vocabulary, a token whose probability is below `min_p` × the top one cut;
//! 5. `apply_top_k_top_p_pytorch` (`ops/topk_topp_sampler.py:524-565`): an ascending sort; top-k
//!    cuts below the k-th value (so every token tied with it stays); top-p takes the softmax of
//!    what is left (renormalised over the min_p and top-k survivors), its cumulative sum from the
//!    least likely up, cuts where it is ≤ 1 − p and always keeps the most likely;
//! 6. `random_sample` (`:606-628`): `probs = softmax(logits)` in f32, `q` exponential noise per
//!    token, the argmax of `probs / q` — an exponential race, which draws token i with
//!    probability `probs[i]`; a token whose f32 probability underflowed to 0 never wins.

use super::request::Params;
use crate::columns::torch_f32::{self, divide_by_temperature, near, softmax_f32, softmax_f64, torch_argmax, SUBNORMAL};
use crate::distribution::Distribution;
use crate::text::Message;
use rand::Rng;

/// One step under vLLM: what its draw takes, and what float noise may decide otherwise.
pub(super) struct Step {
    /// The f32 logits the draw's softmax takes, −inf where cut.
    pub(super) scores: Vec<f32>,
    /// The token greedy decoding takes, when the request is greedy.
    pub(super) greedy: Option<usize>,
    /// Decisions this port cannot reproduce bit for bit (a mass within float noise of its cut,
    /// tied values on both sides of it), and probabilities a GPU may flush to zero.
    pub(super) notes: Vec<Message>,
}

impl Params {
    /// The sampler on one step's raw logits, `context` being every id so far.
    pub(super) fn step(&self, logits: &[f32], context: &[u32]) -> Step {
        let mut x = logits.to_vec();
        if self.repetition_penalty != 1.0 {
            penalise(&mut x, context, self.repetition_penalty as f32);
        }
        let mut step = Step {
            greedy: None,
            notes: Vec::new(),
            scores: Vec::new(),
        };
        if self.is_greedy() {
            step.greedy = Some(torch_argmax(&x));
            step.scores = x;
            return step;
        }
        divide_by_temperature(&mut x, self.temperature);
        if self.min_p != 0.0 {
            min_p(&mut x, self.min_p as f32, &mut step.notes);
        }
        if self.top_k > 0 && (self.top_k as usize) < x.len() {
            top_k(&mut x, self.top_k as usize);
        }
        if self.top_p < 1.0 {
            top_p(&mut x, self.top_p as f32, &mut step.notes);
        }
        let subnormal = softmax_f32(&x).iter().filter(|p| **p > 0.0 && **p < SUBNORMAL).count();
        if subnormal > 0 {
            step.notes
                .push(Message::new("note-subnormal").count("count", subnormal));
        }
        step.scores = x;
        step
    }
}

impl Step {
    /// What one draw comes from: the argmax, or every token with a nonzero f32 probability.
    pub(super) fn distribution(&self) -> Distribution {
        if let Some(token) = self.greedy {
            return Distribution::one_hot(token, self.scores.len());
        }
        let probs = softmax_f32(&self.scores);
        torch_f32::distribution(&self.scores, |i| probs[i] > 0.0)
    }

    /// The race's entrants: the tokens with a nonzero f32 probability, and that probability.
    pub(super) fn race(&self) -> Race {
        if let Some(token) = self.greedy {
            return Race(vec![(token as u32, 1.0)]);
        }
        let probs = softmax_f32(&self.scores);
        Race(
            probs
                .into_iter()
                .enumerate()
                .filter(|(_, p)| *p > 0.0)
                .map(|(i, p)| (i as u32, p))
                .collect(),
        )
    }
}

/// `random_sample`'s draw: each token's f32 probability over an Exp(1) draw, the largest wins
/// (ties to the first, as `argmax`). Tokens whose probability is 0 never win, so they take no
/// noise here.
pub(super) struct Race(Vec<(u32, f32)>);

impl Race {
    pub(super) fn draw(&self, rng: &mut impl Rng) -> u32 {
        let mut best = (self.0[0].0, f32::NEG_INFINITY);
        for &(id, p) in &self.0 {
            // 1 − u lies in (0, 1]: an exponential draw never 0 unless u is exactly 0.
            let q = (-(1.0 - rng.random::<f64>()).ln()) as f32;
            let score = p / q;
            if score > best.1 {
                best = (id, score);
            }
        }
        best.0
    }
}

/// `apply_repetition_penalties_torch`: `logits *= where(logits > 0, 1 / r, r)` on every token of
/// the context (prompt and output alike).
fn penalise(x: &mut [f32], context: &[u32], r: f32) {
    let mut seen = vec![false; x.len()];
    for &id in context {
        if let Some(s) = seen.get_mut(id as usize) {
            *s = true;
        }
    }
    let inverse = 1.0 / r;
    for (logit, _) in x.iter_mut().zip(&seen).filter(|(_, s)| **s) {
        *logit *= if *logit > 0.0 { inverse } else { r };
    }
}

/// `MinPLogitsProcessor.apply`: `p < max(p) · min_p` in f32 cut.
fn min_p(x: &mut [f32], m: f32, notes: &mut Vec<Message>) {
    let probs = softmax_f32(x);
    let threshold = probs.iter().copied().fold(0.0f32, f32::max) * m;
    let close = probs
        .iter()
        .filter(|p| **p > 0.0 && near(f64::from(**p), f64::from(threshold)))
        .count();
    if close > 0 {
        notes.push(
            Message::new("note-torch-min-p-near")
                .count("count", close)
                .verbatim("cut", format!("{threshold:e}")),
        );
    }
    for (logit, p) in x.iter_mut().zip(probs) {
        if p < threshold {
            *logit = f32::NEG_INFINITY;
        }
    }
}

/// The top-k half of `apply_top_k_top_p_pytorch`: below the k-th largest value, cut.
fn top_k(x: &mut [f32], k: usize) {
    let mut sorted = x.to_vec();
    let (_, kth, _) = sorted.select_nth_unstable_by(k - 1, |a, b| b.total_cmp(a));
    let kth = *kth;
    x.iter_mut().filter(|s| **s < kth).for_each(|s| *s = f32::NEG_INFINITY);
}

/// The top-p half: the softmax of what is left in ascending order, its cumulative sum, every
/// token where it is ≤ 1 − p cut but the last (the most likely).
fn top_p(x: &mut [f32], p: f32, notes: &mut Vec<Message>) {
    let probs = softmax_f64(x);
    let mut order: Vec<usize> = (0..x.len()).filter(|i| x[*i] > f32::NEG_INFINITY).collect();
    order.sort_by(|a, b| x[*a].total_cmp(&x[*b]).then(b.cmp(a)));
    let threshold = f64::from(1.0f32 - p);
    let mut cum = 0.0f64;
    let mut cut = 0;
    let mut noted = false;
    for (rank, &i) in order.iter().enumerate() {
        cum += probs[i];
        if near(cum, threshold) && !std::mem::replace(&mut noted, true) {
            notes.push(
                Message::new("note-vllm-top-p-near")
                    .verbatim("mass", format!("{cum:.9}"))
                    .verbatim("threshold", format!("{threshold:.9}")),
            );
        }
        if cum <= threshold && rank + 1 < order.len() {
            cut = rank + 1;
        } else {
            break;
        }
    }
    if cut > 0 && cut < order.len() && x[order[cut]] == x[order[cut - 1]] {
        notes.push(Message::new("note-torch-top-p-ties"));
    }
    for &i in &order[..cut] {
        x[i] = f32::NEG_INFINITY;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::columns::port_request::{PortRequest, SAME_NAMES};
    use crate::columns::vllm::request::params;
    use crate::GenerateArgs;

    fn step(kwargs: &str, logits: &[f32]) -> Distribution {
        let request = PortRequest::new(&GenerateArgs::from_json_str(kwargs).unwrap(), &SAME_NAMES);
        params(&request, None).unwrap().step(logits, &[]).distribution()
    }

    #[test]
    fn top_k_keeps_every_token_tied_with_the_kth() {
        assert_eq!(step(r#"{"top_k": 2}"#, &[3.0, 2.0, 2.0, 1.0]).kept(), 3);
    }

    #[test]
    fn top_p_is_measured_on_what_min_p_and_top_k_left() {
        // p ≈ .64, .24, .09, .03: top_p 0.7 alone keeps 2; after top_k 2 the same two are .73
        // and .27 of what is left, and .73 alone reaches 0.7.
        let logits = [2.0f32, 1.0, 0.0, -1.0];
        assert_eq!(step(r#"{"top_p": 0.7}"#, &logits).kept(), 2);
        assert_eq!(step(r#"{"top_p": 0.7, "top_k": 2}"#, &logits).kept(), 1);
    }

    #[test]
    fn min_p_cuts_before_top_p_sees_the_mass() {
        // min_p 0.1 cuts the 0.03 token; top_p 0.95 of the renormalised rest keeps all three left.
        let logits = [2.0f32, 1.0, 0.0, -1.0];
        assert_eq!(step(r#"{"min_p": 0.1, "top_p": 0.95}"#, &logits).kept(), 3);
    }

    #[test]
    fn the_race_draws_the_exact_distribution() {
        use rand::SeedableRng;
        let logits = [1.0f32, 0.5, 0.0, -3.0];
        let request = PortRequest::new(&GenerateArgs::from_json_str("{}").unwrap(), &SAME_NAMES);
        let s = params(&request, None).unwrap().step(&logits, &[]);
        let (exact, race) = (s.distribution(), s.race());
        let mut rng = rand::rngs::StdRng::seed_from_u64(1);
        let mut counts = [0u64; 4];
        for _ in 0..40_000 {
            counts[race.draw(&mut rng) as usize] += 1;
        }
        let checked = crate::output::monte_carlo::draws::summarize(&counts, &exact, None, 1);
        assert!(checked.consistent, "tv {} > {}", checked.tv_to_exact, checked.bound);
    }
}
