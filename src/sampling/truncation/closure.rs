// transformers' warpers for candle's `LogitsProcessor::sample_f` closure, on candle's
// probabilities, each followed by a renormalisation (so top-p after top-k measures the mass left
// by top-k, as transformers does), and transformers' n-gram ban on the logits. No dependencies.

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

/// Token ids, most probable first (ties by id).
fn descending(probs: &[f64]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..probs.len()).collect();
    order.sort_by(|&a, &b| probs[b].total_cmp(&probs[a]).then(a.cmp(&b)));
    order
}

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

/// `TypicalLogitsWarper`: tokens ranked by |−log p − entropy|, kept until their mass reaches `mass`.
pub fn typical(prs: &mut [f32], mass: f64) {
    let probs = normalised(prs);
    let h = entropy(&probs);
    let shifted: Vec<f64> = probs.iter().map(|p| (-p.ln() - h).abs()).collect();
    let mut order: Vec<usize> = (0..probs.len()).collect();
    order.sort_by(|&a, &b| shifted[a].total_cmp(&shifted[b]).then(a.cmp(&b)));
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
