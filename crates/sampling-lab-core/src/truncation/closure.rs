//! What every copyable warper helper shares: candle hands a `sample_f` closure the probabilities
//! as `&mut [f32]`; the helpers read them normalised in f64, zero what a rule drops, and
//! renormalise what is left, so that the next rule sees the mass after this one (as transformers'
//! warpers, which work on scores, see the softmax of what the previous one left).
//!
//! The regions between the `copy:` markers of this file, of each rule's file and of the n-gram
//! ban are the helpers the page offers to paste (see [`helpers_source`]): dependency-free Rust,
//! the very source the corrected port runs.

// copy:begin
/// Probabilities of `prs` normalised in f64, as the warpers see them.
pub(crate) fn normalised(prs: &[f32]) -> Vec<f64> {
    let total: f64 = prs.iter().map(|&p| f64::from(p)).sum();
    prs.iter().map(|&p| f64::from(p) / total).collect()
}

/// Zeroes every token `keep` rejects, then renormalises what is left.
pub(crate) fn retain(prs: &mut [f32], keep: impl Fn(usize) -> bool) {
    for (i, p) in prs.iter_mut().enumerate() {
        if !keep(i) {
            *p = 0.0;
        }
    }
    renormalise(prs);
}

/// Scales `prs` to sum to 1, in f64 as the warpers see them.
pub(crate) fn renormalise(prs: &mut [f32]) {
    let total: f64 = prs.iter().map(|&p| f64::from(p)).sum();
    for p in prs.iter_mut() {
        *p = (f64::from(*p) / total) as f32;
    }
}

/// Token ids, most probable first (ties by id). Tokens an earlier rule removed (probability 0,
/// most of the vocabulary after a top-k) come last, in id order, without being sorted.
pub(crate) fn descending(probs: &[f64]) -> Vec<usize> {
    let (mut order, zeros): (Vec<usize>, Vec<usize>) = (0..probs.len()).partition(|&i| probs[i] > 0.0);
    order.sort_unstable_by(|&a, &b| probs[b].total_cmp(&probs[a]).then(a.cmp(&b)));
    order.extend(zeros);
    order
}

/// Entropy in nats; zero-probability tokens contribute nothing (torch's nansum / Categorical).
pub(crate) fn entropy(probs: &[f64]) -> f64 {
    -probs.iter().filter(|&&p| p > 0.0).map(|p| p * p.ln()).sum::<f64>()
}
// copy:end

/// The helpers as the page offers them to paste after a port's code: the shared ones above, each
/// rule's, and the n-gram ban, in that order, without their module wiring.
pub(crate) fn helpers_source() -> String {
    let files = [
        include_str!("closure.rs"),
        include_str!("top_k.rs"),
        include_str!("top_p.rs"),
        include_str!("min_p.rs"),
        include_str!("typical.rs"),
        include_str!("epsilon.rs"),
        include_str!("eta.rs"),
        include_str!("ngram.rs"),
    ];
    let regions: Vec<&str> = files.iter().filter_map(|file| copied_region(file)).collect();
    // Inside this crate the shared helpers are `pub(crate)` for the rules' files; pasted into a
    // program they are its own.
    regions.join("\n").replace("pub(crate) fn ", "fn ")
}

/// The text between a file's `copy:begin` and `copy:end` lines.
fn copied_region(file: &str) -> Option<&str> {
    let begin = file.find("// copy:begin\n")? + "// copy:begin\n".len();
    let end = begin + file[begin..].find("// copy:end")?;
    Some(&file[begin..end])
}
