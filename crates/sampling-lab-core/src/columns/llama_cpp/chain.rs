//! The sampler chain on one step's candidates, sampler by sampler as `llama-sampler.cpp` runs
//! them: f32 logits in token-id order, sorts that decide ties as libc++ does, softmaxes summed in
//! f32 in the current order, and `dist`'s draw.

use super::REPEAT_LAST_N;
use crate::distribution::Distribution;
use crate::text::Message;
use rand_mt::Mt;

/// One candidate of llama.cpp's `llama_token_data_array`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Token {
    pub(super) id: u32,
    pub(super) logit: f32,
    pub(super) p: f32,
}

/// `llama_token_data_array`: the candidates left, in their current order, and whether a sampler
/// sorted them (by logit, descending).
#[derive(Clone, Debug)]
pub(crate) struct Candidates {
    pub(super) data: Vec<Token>,
    pub(super) sorted: bool,
    /// Decisions that depend on what this port cannot reproduce bit for bit: a sum within float
    /// noise of a threshold, equal values on both sides of a cut.
    pub notes: Vec<Message>,
    /// Tokens whose order among equal logits came from libc++'s `std::sort`, which this port does
    /// not reproduce: it matters only where two of them are drawn from.
    pub(super) sorted_ties: Vec<u32>,
}

/// libc++'s comparator in every llama.cpp sort: a before b when a's logit is greater.
pub(super) fn greater(a: &Token, b: &Token) -> bool {
    a.logit > b.logit
}

/// The relative distance to a threshold under which llama.cpp's own f32 sums (and wasm's expf)
/// may decide otherwise than this port's.
const NEAR: f32 = 1e-5;

impl Candidates {
    pub(super) fn new(logits: &[f32]) -> Self {
        Candidates {
            data: logits
                .iter()
                .enumerate()
                .map(|(i, &logit)| Token {
                    id: i as u32,
                    logit,
                    p: 0.0,
                })
                .collect(),
            sorted: false,
            notes: Vec::new(),
            sorted_ties: Vec::new(),
        }
    }

    /// `penalties`: each token of the last `REPEAT_LAST_N` ids once, divided when positive,
    /// multiplied otherwise.
    pub(super) fn penalise(&mut self, context: &[u32], penalty: f32) {
        let mut window = context[context.len().saturating_sub(REPEAT_LAST_N)..].to_vec();
        window.sort_unstable();
        for token in &mut self.data {
            if window.binary_search(&token.id).is_ok() {
                token.logit = if token.logit <= 0.0 {
                    token.logit * penalty
                } else {
                    token.logit / penalty
                };
            }
        }
        self.sorted = false;
    }

    /// `top_k`: exactly `k` (libc++ decides which of tied tokens), sorted.
    pub(super) fn top_k(&mut self, k: usize) {
        let k = k.min(self.data.len());
        if !self.sorted {
            self.partial_sort_inplace(k);
        }
        self.data.truncate(k);
    }

    /// The notes of the finished chain: those its samplers took, and whether equal logits that
    /// libc++'s `std::sort` ordered are among the tokens a draw can land on.
    pub(super) fn finished_notes(&self) -> Vec<Message> {
        let mut notes = self.notes.clone();
        let weights = self.weights();
        let mut drawable: Vec<f32> = self
            .data
            .iter()
            .zip(&weights)
            .filter(|(t, w)| **w > 0.0 && self.sorted_ties.contains(&t.id))
            .map(|(t, _)| t.logit)
            .collect();
        drawable.sort_by(f32::total_cmp);
        if drawable.windows(2).any(|w| w[0] == w[1]) {
            notes.push(Message::new("note-llama_cpp-sorted-ties"));
        }
        notes
    }

    fn note_once(&mut self, note: Message) {
        if !self.notes.contains(&note) {
            self.notes.push(note);
        }
    }

    /// `llama_sampler_softmax_impl`: probabilities of the current tokens in f32, summed in their
    /// current order (sorted first if asked).
    fn softmax(&mut self, sort: bool) {
        if sort && !self.sorted {
            self.partial_sort_inplace(self.data.len());
        }
        let max = if self.sorted {
            self.data[0].logit
        } else {
            self.data.iter().map(|t| t.logit).fold(self.data[0].logit, f32::max)
        };
        let mut sum = 0.0f32;
        for token in &mut self.data {
            token.p = (token.logit - max).exp();
            sum += token.p;
        }
        for token in &mut self.data {
            token.p /= sum;
        }
    }

    /// `typical`: tokens by |−ln p − H|, kept until their mass exceeds `mass` (strictly).
    pub(super) fn typical(&mut self, mass: f32) {
        self.softmax(true);
        let entropy = self.data.iter().fold(0.0f32, |h, t| h + -t.p * t.p.ln());
        let shifted: Vec<f32> = self.data.iter().map(|t| (-t.p.ln() - entropy).abs()).collect();
        let mut order: Vec<usize> = (0..self.data.len()).collect();
        order.sort_by(|&a, &b| shifted[a].total_cmp(&shifted[b]));
        let mut cum = 0.0f32;
        let mut last = order.len();
        for (i, &idx) in order.iter().enumerate() {
            cum += self.data[idx].p;
            if cum > mass {
                last = i + 1;
                if (cum - mass).abs() <= NEAR * mass.abs().max(1e-3) {
                    self.note_once(
                        Message::new("note-llama_cpp-typical-near")
                            .verbatim("mass", cum.to_string())
                            .verbatim("typical_p", mass.to_string()),
                    );
                }
                break;
            }
        }
        if last < order.len() && shifted[order[last]] == shifted[order[last - 1]] {
            self.note_once(Message::new("note-llama_cpp-typical-ties"));
        }
        self.data = order[..last].iter().map(|&i| self.data[i]).collect();
        self.sorted = false;
    }

    /// `top_p`: the softmax of what is left, summed in sorted order in f32 until it reaches `p`
    /// (the token that crosses it kept). Unsorted and long, llama.cpp sorts the top 256 first and
    /// everything only if `p` is not reached within them.
    pub(super) fn top_p(&mut self, p: f32) {
        self.softmax(false);
        let len = self.data.len();
        let mut buffer: Option<Vec<Token>> = None;
        let mut k = len;
        if !self.sorted && len > 1024 {
            k = 256;
            buffer = Some(self.bucket_sort(k));
        } else if !self.sorted {
            self.partial_sort_inplace(len);
        }
        let mut cum = 0.0f32;
        let mut last = len;
        for i in 0..len {
            cum += buffer.as_ref().map_or(self.data[i], |b| b[i]).p;
            if cum >= p {
                last = i + 1;
                if i > 0 && (cum - p).abs() <= NEAR * p.max(1e-3) {
                    self.note_once(
                        Message::new("note-llama_cpp-top-p-near")
                            .verbatim("mass", cum.to_string())
                            .verbatim("top_p", p.to_string()),
                    );
                }
                break;
            }
            if buffer.is_some() && i + 1 == k {
                k = len;
                buffer = Some(self.bucket_sort(len));
            }
        }
        let walked = buffer.as_deref().unwrap_or(&self.data);
        if last < len && walked[last].logit == walked[last - 1].logit {
            self.note_once(Message::new("note-llama_cpp-top-p-ties"));
        }
        match buffer {
            Some(b) => self.data = b[..last].to_vec(),
            None => self.data.truncate(last),
        }
        self.sorted = true;
    }

    /// `min_p`: the tokens whose logit is at least the max + ln(p), in their order.
    pub(super) fn min_p(&mut self, p: f32) {
        let max = self.data.iter().map(|t| t.logit).fold(-f32::MAX, f32::max);
        let min_logit = max + p.ln();
        if self
            .data
            .iter()
            .any(|t| (t.logit - min_logit).abs() <= NEAR * 1e-1 * min_logit.abs().max(1.0))
        {
            self.note_once(Message::new("note-llama_cpp-min-p-near").verbatim("cut", min_logit.to_string()));
        }
        if self.sorted {
            let keep = 1 + self.data[1..].iter().take_while(|t| t.logit >= min_logit).count();
            self.data.truncate(keep);
        } else {
            self.data.retain(|t| t.logit >= min_logit);
        }
    }

    /// `temperature`: ≤ 0 keeps the first maximum in the current order (every other logit −inf);
    /// otherwise every logit divided in f32.
    pub(super) fn temperature(&mut self, t: f32) {
        if t <= 0.0 {
            let mut best = 0;
            for i in 1..self.data.len() {
                if self.data[i].logit > self.data[best].logit {
                    self.data[best].logit = f32::NEG_INFINITY;
                    best = i;
                } else {
                    self.data[i].logit = f32::NEG_INFINITY;
                }
            }
            return;
        }
        for token in &mut self.data {
            token.logit /= t;
        }
    }

    /// `dist`'s weights: `expf(logit − max)` in f32, in the current order.
    fn weights(&self) -> Vec<f32> {
        let max = if self.sorted {
            self.data[0].logit
        } else {
            self.data.iter().map(|t| t.logit).fold(self.data[0].logit, f32::max)
        };
        self.data.iter().map(|t| (t.logit - max).exp()).collect()
    }

    /// What `dist` draws from: each weight over their f64 sum.
    pub(super) fn distribution(&self, vocab: usize) -> Distribution {
        if self.data.len() == 1 {
            return Distribution::one_hot(self.data[0].id as usize, vocab);
        }
        let weights = self.weights();
        Distribution::from_weights(self.data.iter().zip(weights).map(|(t, w)| (t.id, f64::from(w))), vocab)
    }

    /// `dist`, ready to draw: the running f64 sums in the current order.
    pub(super) fn prepared(&self) -> Prepared {
        let weights = self.weights();
        let mut running = Vec::with_capacity(weights.len());
        let mut sum = 0.0f64;
        for w in &weights {
            sum += f64::from(*w);
            running.push(sum);
        }
        Prepared {
            ids: self.data.iter().map(|t| t.id).collect(),
            running,
        }
    }
}

/// The candidates `dist` walks and their running sums: one uniform draw picks the first whose
/// running sum reaches it times the total.
pub(super) struct Prepared {
    pub(super) ids: Vec<u32>,
    pub(super) running: Vec<f64>,
}

impl Prepared {
    /// `llama_sampler_dist_apply`: one `std::uniform_real_distribution<double>(0, 1)` draw from
    /// `rng` per token, even for a single candidate (llama.cpp keeps its generator aligned so).
    pub(super) fn draw(&self, rng: &mut Mt) -> u32 {
        let u = canonical(rng);
        if self.ids.len() == 1 {
            return self.ids[0];
        }
        let target = self.running[self.running.len() - 1] * u;
        let at = self.running.partition_point(|sum| *sum < target);
        self.ids[at.min(self.ids.len() - 1)]
    }
}

/// libc++'s `generate_canonical<double, 53>` on a 32-bit engine: two outputs, the second the high
/// word, their sum rounded to a double, over 2⁶⁴.
fn canonical(rng: &mut Mt) -> f64 {
    let low = f64::from(rng.next_u32());
    let high = f64::from(rng.next_u32());
    (low + high * 4_294_967_296.0) / 18_446_744_073_709_551_616.0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Logits `1e10 + 1024·c`: llama.cpp's ties lab, where the added constant leaves only the
    /// order of `c` (as the tests against wllama build them with logit_bias).
    fn kept_ids(levels: &[f32], k: usize) -> (Vec<u32>, u32) {
        let mut c = Candidates::new(levels);
        c.top_k(k);
        let mut ids: Vec<u32> = c.data.iter().map(|t| t.id).collect();
        let first = ids[0];
        ids.sort_unstable();
        (ids, first)
    }

    #[test]
    fn top_k_keeps_exactly_k_and_libcxx_s_heap_decides_among_ties() {
        // (levels, k) → (kept, the greedy pick after top_k), as wllama 3.13 keeps them.
        let cases: [(&[f32], usize, &[u32], u32); 7] = [
            (&[3.0, 2.0, 2.0, 1.0], 2, &[0, 1], 0),
            (&[2.0, 2.0, 3.0], 2, &[0, 2], 2),
            (&[1.0, 2.0, 2.0, 3.0], 2, &[2, 3], 3),
            (&[2.0, 2.0, 2.0], 2, &[0, 1], 0),
            (&[2.0, 2.0, 2.0], 3, &[0, 1, 2], 2),
            (&[2.0, 3.0, 2.0, 3.0], 2, &[1, 3], 3),
            (&[2.0, 2.0, 2.0, 2.0, 2.0], 4, &[0, 1, 2, 3], 2),
        ];
        for (levels, k, kept, first) in cases {
            assert_eq!(kept_ids(levels, k), (kept.to_vec(), first), "{levels:?} top_k {k}");
        }
    }

    #[test]
    fn mt19937_is_the_standard_s_engine() {
        // The C++ standard: the 10000th output of a default-constructed std::mt19937.
        let mut rng = Mt::new(5489);
        let tenth_thousand = (0..10_000).map(|_| rng.next_u32()).last().unwrap();
        assert_eq!(tenth_thousand, 4_123_659_995);
    }

    #[test]
    fn a_single_candidate_still_takes_a_draw_from_the_generator() {
        let one = Prepared {
            ids: vec![3],
            running: vec![1.0],
        };
        let (mut rng, mut fresh) = (Mt::new(1), Mt::new(1));
        assert_eq!(one.draw(&mut rng), 3);
        fresh.next_u32();
        fresh.next_u32();
        assert_eq!(rng.next_u32(), fresh.next_u32());
    }

    #[test]
    fn the_bucket_path_keeps_the_same_tokens_as_a_full_sort() {
        let logits: Vec<f32> = (0..5000).map(|i| ((i * 7919) % 1000) as f32 / 37.0 - 12.0).collect();
        let mut c = Candidates::new(&logits);
        c.top_k(200);
        let mut expected: Vec<f32> = logits.clone();
        expected.sort_by(|a, b| b.total_cmp(a));
        let ours: Vec<f32> = c.data.iter().map(|t| t.logit).collect();
        assert_eq!(ours, expected[..200]);
    }
}
