//! How llama.cpp orders the candidates: libc++'s heap `partial_sort` for a top-k of at most 128,
//! 128 value buckets above that, and `std::sort` for a full sort. Ties come out in whatever order
//! these leave them, which is what decides which of tied tokens a top-k keeps.

use super::chain::{greater, Candidates, Token};
use super::libcxx;

impl Candidates {
    /// `llama_token_data_array_partial_sort_inplace`: the first `n` sorted, the array cut to them.
    pub(super) fn partial_sort_inplace(&mut self, n: usize) {
        if n <= 128 {
            libcxx::partial_sort(&mut self.data, n, greater);
        } else {
            let sorted = self.bucket_sort(n);
            self.data[..n].copy_from_slice(&sorted[..n]);
        }
        self.data.truncate(n);
        self.sorted = true;
    }

    /// `llama_token_data_array_partial_sort`: the tokens of the buckets that hold the top `n`,
    /// highest bucket first, the first `n` sorted.
    pub(super) fn bucket_sort(&mut self, n: usize) -> Vec<Token> {
        const BUCKETS: usize = 128;
        let bucket = |logit: f32| ((6.4f32 * logit + 64.0f32) as i32).clamp(0, BUCKETS as i32 - 1) as usize;
        let mut histogram = [0usize; BUCKETS];
        for token in &self.data {
            histogram[bucket(token.logit)] += 1;
        }
        let (mut boundary, mut have) = (BUCKETS - 1, 0);
        loop {
            have += histogram[boundary];
            if have >= n || boundary == 0 {
                break;
            }
            boundary -= 1;
        }
        // Buckets from the highest down to the boundary, each in the array's order.
        let mut starts = [0usize; BUCKETS];
        let mut at = 0;
        for b in (boundary..BUCKETS).rev() {
            starts[b] = at;
            at += histogram[b];
        }
        let mut out = vec![self.data[0]; have];
        let mut fill = starts;
        for token in &self.data {
            let b = bucket(token.logit);
            if b >= boundary {
                out[fill[b]] = *token;
                fill[b] += 1;
            }
        }
        let mut done = 0;
        for b in (boundary + 1..BUCKETS).rev() {
            let range = starts[b]..starts[b] + histogram[b];
            self.std_sort(&mut out[range]);
            done += histogram[b];
        }
        let last = starts[boundary]..starts[boundary] + histogram[boundary];
        libcxx::partial_sort(&mut out[last], n - done, greater);
        out
    }

    /// libc++'s `std::sort`, by logit, descending; the order it gives equal logits (its
    /// introsort's) is not reproduced, so tied tokens are remembered.
    pub(super) fn std_sort(&mut self, range: &mut [Token]) {
        range.sort_by(|a, b| b.logit.total_cmp(&a.logit));
        for pair in range.windows(2).filter(|w| w[0].logit == w[1].logit) {
            self.sorted_ties.extend([pair[0].id, pair[1].id]);
        }
    }
}
