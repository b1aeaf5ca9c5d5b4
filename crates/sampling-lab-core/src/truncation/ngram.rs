//! `NoRepeatNGramLogitsProcessor` (on the logits, before any warper): bans every token that would
//! repeat an n-gram of the context. candle has no counterpart; the corrected port applies it to
//! the logits it hands `LogitsProcessor`.

// copy:begin
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
// copy:end

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_continuations_of_the_last_prefix_are_banned() {
        assert_eq!(banned_ngram_tokens(&[1, 0, 2, 1, 0, 3, 1], 2), vec![0, 0]);
        assert_eq!(banned_ngram_tokens(&[5, 6], 3), Vec::<u32>::new());
    }
}
