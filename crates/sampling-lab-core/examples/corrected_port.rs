//! Written by `example_program` (`src/columns/rust_code.rs`): the corrected candle port
//! of transformers'
//! `generate(do_sample=True, temperature=0.7, top_k=40, top_p=0.9)`,
//! exactly the code the page offers to copy (a test keeps the two the same), as a program. It
//! reads one step's logits (a 1-D f32 `.npy`) and prints the token drawn for each seed from 0
//! to N−1, one per line.
//!
//! `cargo run -p sampling-lab-core --example corrected_port -- LOGITS.npy [N]`

// The helpers below are pasted whole; a call uses only some of them.
#![allow(dead_code)]

use candle_transformers::generation::{LogitsProcessor, Sampling};

// As the page shows it, line for line: rustfmt leaves it alone.
#[rustfmt::skip]
fn main() -> candle_core::Result<()> {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: corrected_port LOGITS.npy [N]");
    let draws: u64 = args.next().map_or(10, |n| n.parse().expect("N is a number of draws"));
    let logits = candle_core::Tensor::read_npy(path)?;
    for seed in 0..draws {
        // Once, before generating.
        let mut processor = LogitsProcessor::from_sampling(seed, Sampling::TopP { p: 0.9, temperature: 0.7 });
        // Each step: `logits` holds the last position's logits (a 1-D f32 Tensor), `tokens` every id so far.
        let next_token = processor.sample_f(&logits, |prs| {
            top_k_keeping_ties(prs, 40);
        })?;
        println!("{next_token}");
    }
    Ok(())
}

/// Probabilities of `prs` normalised in f64, as the warpers see them.
fn normalised(prs: &[f32]) -> Vec<f64> {
    let total: f64 = prs.iter().map(|&p| f64::from(p)).sum();
    prs.iter().map(|&p| f64::from(p) / total).collect()
}

/// Zeroes every token `keep` rejects, then renormalises what is left.
fn retain(prs: &mut [f32], keep: impl Fn(usize) -> bool) {
    for (i, p) in prs.iter_mut().enumerate() {
        if !keep(i) {
            *p = 0.0;
        }
    }
    renormalise(prs);
}

/// Scales `prs` to sum to 1, in f64 as the warpers see them.
fn renormalise(prs: &mut [f32]) {
    let total: f64 = prs.iter().map(|&p| f64::from(p)).sum();
    for p in prs.iter_mut() {
        *p = (f64::from(*p) / total) as f32;
    }
}

/// Token ids, most probable first (ties by id). Tokens an earlier rule removed (probability 0,
/// most of the vocabulary after a top-k) come last, in id order, without being sorted.
fn descending(probs: &[f64]) -> Vec<usize> {
    let (mut order, zeros): (Vec<usize>, Vec<usize>) = (0..probs.len()).partition(|&i| probs[i] > 0.0);
    order.sort_unstable_by(|&a, &b| probs[b].total_cmp(&probs[a]).then(a.cmp(&b)));
    order.extend(zeros);
    order
}

/// Entropy in nats; zero-probability tokens contribute nothing (torch's nansum / Categorical).
fn entropy(probs: &[f64]) -> f64 {
    -probs.iter().filter(|&&p| p > 0.0).map(|p| p * p.ln()).sum::<f64>()
}

/// `TopKLogitsWarper`: keeps every token at least as probable as the k-th, ties included.
pub fn top_k_keeping_ties(prs: &mut [f32], k: usize) {
    // The k-th largest value in linear time: a full sort would cost more than the draw itself.
    // Normalising first would not move the cut: one division by the same total keeps the order.
    let mut ranked = prs.to_vec();
    let (_, &mut kth, _) = ranked.select_nth_unstable_by(k.clamp(1, prs.len()) - 1, |a, b| b.total_cmp(a));
    for p in prs.iter_mut() {
        if *p < kth {
            *p = 0.0;
        }
    }
    renormalise(prs);
}

/// `TopPLogitsWarper`: keeps a token while the mass ranked above it is below `top_p`.
pub fn top_p(prs: &mut [f32], top_p: f64) {
    let probs = normalised(prs);
    let mut keep = vec![false; probs.len()];
    let mut above = 0.0;
    for (rank, &i) in descending(&probs).iter().enumerate() {
        keep[i] = rank == 0 || above < top_p;
        above += probs[i];
    }
    retain(prs, |i| keep[i]);
}

/// `MinPLogitsWarper`: drops tokens below `min_p` times the top probability.
pub fn min_p(prs: &mut [f32], min_p: f64) {
    let probs = normalised(prs);
    let cut = min_p * probs.iter().copied().fold(0.0, f64::max);
    retain(prs, |i| probs[i] >= cut);
}

/// Token ids by `shifted` ascending (ties by id): the most typical first.
fn typical_order(shifted: &[f64]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..shifted.len()).collect();
    order.sort_by(|&a, &b| shifted[a].total_cmp(&shifted[b]).then(a.cmp(&b)));
    order
}

/// `TypicalLogitsWarper`: tokens ranked by |−log p − entropy|, kept until their mass reaches `mass`.
pub fn typical(prs: &mut [f32], mass: f64) {
    let probs = normalised(prs);
    let h = entropy(&probs);
    let shifted: Vec<f64> = probs.iter().map(|p| (-p.ln() - h).abs()).collect();
    let order = typical_order(&shifted);
    let mut cumulative = 0.0;
    let mut last = 0;
    for (position, &i) in order.iter().enumerate() {
        cumulative += probs[i];
        if cumulative < mass {
            last = position + 1;
        }
    }
    let cutoff = shifted[order[last.min(probs.len() - 1)]];
    let first = order[0];
    retain(prs, |i| shifted[i] <= cutoff || i == first);
}

/// `EpsilonLogitsWarper`: drops tokens below `epsilon`, never the most probable one.
pub fn epsilon_cutoff(prs: &mut [f32], epsilon: f64) {
    let probs = normalised(prs);
    let top = descending(&probs)[0];
    retain(prs, |i| probs[i] >= epsilon || i == top);
}

/// `EtaLogitsWarper`: drops tokens below min(η, √η·e^(−entropy)), never the most probable one.
pub fn eta_cutoff(prs: &mut [f32], eta: f64) {
    let probs = normalised(prs);
    let cut = eta.min(eta.sqrt() * (-entropy(&probs)).exp());
    let top = descending(&probs)[0];
    retain(prs, |i| probs[i] >= cut || i == top);
}

/// `NoRepeatNGramLogitsProcessor`: bans every token that would repeat an n-gram of `context`.
pub fn ban_ngrams(scores: &mut [f32], context: &[u32], n: usize) {
    for id in banned_ngram_tokens(context, n) {
        if let Some(s) = scores.get_mut(id as usize) {
            *s = f32::NEG_INFINITY;
        }
    }
}

/// Tokens that would repeat an n-gram of `context`: the last token of every n-gram whose first
/// n−1 tokens equal the context's last n−1.
pub fn banned_ngram_tokens(context: &[u32], n: usize) -> Vec<u32> {
    if n == 0 || context.len() < n {
        return Vec::new();
    }
    let prefix = &context[context.len() + 1 - n..];
    context
        .windows(n)
        .filter(|w| &w[..n - 1] == prefix)
        .map(|w| w[n - 1])
        .collect()
}
