//! Exact precision's arithmetic between the weight products: RMS norm, rotary embeddings,
//! attention and SwiGLU, on f32 rows, in an order of operations this code fixes and with libm's
//! `expf`, `sinf`, `cosf` and `powf` (the same Rust source on every target: the platform's own
//! maths library varies by CPU and by build, libm does not). With the [`kernels`]'
//! contract, this makes the exact model's logits the same bits on every CPU and in the page.
//!
//! The formulas are transformers' llama (and candle's): the order within each is written below.

use super::kernels;
use super::pool::{self, DisjointRows};

/// `out = x / √(mean(x²) + ε) · w` per row of `x` (rows as wide as `w`); the mean is a plain sum
/// in order, divided by the width.
pub fn rms_norm(x: &[f32], w: &[f32], eps: f32) -> Vec<f32> {
    let mut out = vec![0f32; x.len()];
    for (x, y) in x.chunks_exact(w.len()).zip(out.chunks_exact_mut(w.len())) {
        let sum2 = x.iter().fold(0f32, |s, v| s + v * v);
        let m = (sum2 / w.len() as f32 + eps).sqrt();
        for ((y, x), w) in y.iter_mut().zip(x).zip(w) {
            *y = *x / m * *w;
        }
    }
    out
}

/// Rotary tables: `cos` and `sin` of `p · θ^(−2i/head)` for positions `p < positions`, `head / 2`
/// per position, in f32 as transformers computes them.
pub fn rotary_tables(positions: usize, head: usize, theta: f32) -> (Vec<f32>, Vec<f32>) {
    let inv_freq: Vec<f32> = (0..head)
        .step_by(2)
        .map(|i| 1f32 / libm::powf(theta, i as f32 / head as f32))
        .collect();
    let mut cos = Vec::with_capacity(positions * inv_freq.len());
    let mut sin = Vec::with_capacity(positions * inv_freq.len());
    for p in 0..positions {
        for f in &inv_freq {
            let angle = p as f32 * f;
            cos.push(libm::cosf(angle));
            sin.push(libm::sinf(angle));
        }
    }
    (cos, sin)
}

/// Rotates halves in place (transformers' `rotate_half`): for each row `t` (position `pos + t`)
/// and head, `(a, b) → (a·cos − b·sin, a·sin + b·cos)` for `a` in the first half, `b` the second.
pub fn rope(x: &mut [f32], head: usize, pos: usize, cos: &[f32], sin: &[f32], width: usize) {
    let half = head / 2;
    for (t, row) in x.chunks_exact_mut(width).enumerate() {
        let (cos, sin) = (&cos[(pos + t) * half..][..half], &sin[(pos + t) * half..][..half]);
        for h in row.chunks_exact_mut(head) {
            for i in 0..half {
                let (a, b) = (h[i], h[i + half]);
                h[i] = a * cos[i] - b * sin[i];
                h[i + half] = a * sin[i] + b * cos[i];
            }
        }
    }
}

/// `silu(gate) · up`, element by element, from the `[gate | up]` rows of one stacked product:
/// `silu(g) = g / (e^(−g) + 1)`, on the kernels' vector unit with libm's `expf` bits
/// ([`kernels::silu_mul`]). Each output is its own `expf` and roundings, so the outputs are split
/// over the pool's threads (the largest serial step between two products otherwise: an `expf` per
/// value, 46 080 per decoded token).
pub fn swiglu(gate_up: &[f32], width: usize) -> Vec<f32> {
    let n = gate_up.len() / (2 * width);
    let mut out = vec![0f32; n * width];
    let writer = DisjointRows::new(&mut out);
    pool::for_rows(n * width, 64, &|range| {
        // SAFETY: the pool's ranges are disjoint.
        let y = unsafe { writer.slice(range.start, range.len()) };
        // Row by row: a range may start and end inside a row.
        let mut done = 0;
        while done < y.len() {
            let (t, j) = ((range.start + done) / width, (range.start + done) % width);
            let len = (width - j).min(y.len() - done);
            let gate = &gate_up[2 * width * t + j..][..len];
            let up = &gate_up[2 * width * t + width + j..][..len];
            kernels::silu_mul(gate, up, &mut y[done..done + len]);
            done += len;
        }
    });
    out
}

/// One layer's keys and values so far, `[kv_heads][capacity][head]`, the first `len` positions
/// used. Appending writes in place and the capacity doubles when full, so a step copies only its
/// own keys and values rather than the whole history; each head's keys are contiguous for the
/// attention's dot products.
#[derive(Clone, Debug)]
pub struct KvBuffer {
    k: Vec<f32>,
    v: Vec<f32>,
    kv_heads: usize,
    head: usize,
    capacity: usize,
    pub len: usize,
}

impl KvBuffer {
    /// Room for this many positions at first: a chat prompt fits without growing.
    const INITIAL: usize = 256;

    pub fn new(kv_heads: usize, head: usize) -> Self {
        KvBuffer {
            k: Vec::new(),
            v: Vec::new(),
            kv_heads,
            head,
            capacity: 0,
            len: 0,
        }
    }

    /// Appends the rows of `k` and `v` (`[n][kv_heads·head]` each) as positions `len..len + n`.
    pub fn append(&mut self, k: &[f32], v: &[f32]) {
        let n = k.len() / (self.kv_heads * self.head);
        if self.len + n > self.capacity {
            self.grow((2 * self.capacity).max(self.len + n).max(Self::INITIAL));
        }
        for t in 0..n {
            for g in 0..self.kv_heads {
                let from = (t * self.kv_heads + g) * self.head;
                let to = self.at(g, self.len + t);
                self.k[to..to + self.head].copy_from_slice(&k[from..from + self.head]);
                self.v[to..to + self.head].copy_from_slice(&v[from..from + self.head]);
            }
        }
        self.len += n;
    }

    fn grow(&mut self, capacity: usize) {
        let mut k = vec![0f32; self.kv_heads * capacity * self.head];
        let mut v = vec![0f32; k.len()];
        for g in 0..self.kv_heads {
            let (from, to, n) = (self.at(g, 0), g * capacity * self.head, self.len * self.head);
            k[to..to + n].copy_from_slice(&self.k[from..from + n]);
            v[to..to + n].copy_from_slice(&self.v[from..from + n]);
        }
        (self.k, self.v, self.capacity) = (k, v, capacity);
    }

    fn at(&self, g: usize, position: usize) -> usize {
        (g * self.capacity + position) * self.head
    }

    /// Key `j` of head `g`.
    pub fn key(&self, g: usize, j: usize) -> &[f32] {
        &self.k[self.at(g, j)..][..self.head]
    }

    /// Head `g`'s first `count` keys, one after another.
    pub fn keys(&self, g: usize, count: usize) -> &[f32] {
        &self.k[self.at(g, 0)..self.at(g, count)]
    }

    /// Head `g`'s first `count` values, one after another.
    pub fn values(&self, g: usize, count: usize) -> &[f32] {
        &self.v[self.at(g, 0)..self.at(g, count)]
    }
}

/// Causal grouped-query attention of the rows of `q` (`[n][heads·head]`, positions `pos..`)
/// over every key and value in `kv` (which already holds those positions): `[n][heads·head]`.
///
/// Query head `h` reads key head `h / (heads / kv_heads)`, as transformers' `repeat_kv` pairs
/// them. Position `pos + t` sees keys `0..=pos + t` (the masked ones add nothing: e^(−∞) = 0).
/// Per query: scores `s_j = (q · k_j) · 1/√head` (the dot product in the kernels' order), the
/// max, `e_j = e^(s_j − max)`, their sum in order, `p_j = e_j / sum`, and each output value
/// `Σ_j p_j · v_j` in order. Heads are split over the pool's threads.
///
/// A prompt's queries take their scores 16 at a time (`QUERIES`), as one product with several
/// activation rows (the keys loaded once for all of them; a query's own scores are the same dot
/// products, and those past its position are left unused).
pub fn attention(q: &[f32], kv: &KvBuffer, heads: usize, pos: usize) -> Vec<f32> {
    let (head, width) = (kv.head, heads * kv.head);
    let n = q.len() / width;
    let groups = heads / kv.kv_heads;
    let scale = (1.0 / (head as f64).sqrt()) as f32;
    let mut out = vec![0f32; q.len()];
    let writer = DisjointRows::new(&mut out);
    pool::for_rows(heads, 1, &|range| {
        let block = n.min(QUERIES);
        let mut queries = Vec::with_capacity(block * head);
        let mut scores = Vec::with_capacity(block * (pos + n));
        for h in range {
            let g = h / groups;
            for first in (0..n).step_by(QUERIES) {
                let rows = first..(first + QUERIES).min(n);
                // Every key the block's last query sees (the earlier ones see fewer).
                let seen = pos + rows.end;
                queries.clear();
                for t in rows.clone() {
                    queries.extend_from_slice(&q[t * width + h * head..][..head]);
                }
                scores.clear();
                scores.resize(rows.len() * seen, 0.0);
                kernels::f32_product(kv.keys(g, seen), head, &queries, &mut scores);
                for (t, all) in rows.zip(scores.chunks_exact_mut(seen)) {
                    let keys = pos + t + 1;
                    let p = &mut all[..keys];
                    for s in p.iter_mut() {
                        *s *= scale;
                    }
                    let max = p.iter().fold(f32::NEG_INFINITY, |m, &s| m.max(s));
                    for s in p.iter_mut() {
                        *s -= max;
                    }
                    kernels::expf(p);
                    let sum = p.iter().fold(0f32, |a, &e| a + e);
                    for e in p.iter_mut() {
                        *e /= sum;
                    }
                    // SAFETY: head `h`'s outputs of row `t`: the pool's head ranges are disjoint.
                    let y = unsafe { writer.slice(t * width + h * head, head) };
                    kernels::weighted_sum(p, kv.values(g, keys), head, y);
                }
            }
        }
    });
    out
}

/// A prompt's queries whose scores are one product: enough to reuse each key across a
/// micro-kernel's tokens, few enough that the scores past a query's position cost little.
const QUERIES: usize = 16;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kv_buffer_grows_past_its_capacity_and_keeps_every_position() {
        let (kv_heads, head) = (2, 3);
        let rows = |from: usize, n: usize, scale: f32| -> Vec<f32> {
            (0..n * kv_heads * head)
                .map(|i| (from * 1000 + i) as f32 * scale)
                .collect()
        };
        let mut buffer = KvBuffer::new(kv_heads, head);
        let mut all_k: Vec<f32> = Vec::new();
        for (from, n) in [(0, 200), (200, 1), (201, 90), (291, 400)] {
            buffer.append(&rows(from, n, 1.0), &rows(from, n, 2.0));
            all_k.extend(rows(from, n, 1.0));
        }
        assert_eq!(buffer.len, 691);
        for j in 0..691 {
            for g in 0..kv_heads {
                let expected = &all_k[(j * kv_heads + g) * head..][..head];
                assert_eq!(buffer.key(g, j), expected, "key {j} of head {g}");
                let doubled: Vec<f32> = expected.iter().map(|x| x * 2.0).collect();
                assert_eq!(&buffer.values(g, j + 1)[j * head..], doubled.as_slice());
            }
        }
    }

    #[test]
    fn a_query_sees_only_its_own_and_earlier_positions() {
        // One head of width 2; values 1, 10, 100 at positions 0, 1, 2. Position 0 sees only the
        // first value, whatever the later keys.
        let mut kv = KvBuffer::new(1, 2);
        kv.append(&[0.0, 0.0, 5.0, 5.0, 9.0, 9.0], &[1.0, 1.0, 10.0, 10.0, 100.0, 100.0]);
        let y = attention(&[1.0, 1.0, 1.0, 1.0, 1.0, 1.0], &kv, 1, 0);
        assert_eq!(&y[..2], &[1.0, 1.0]);
        assert!(y[2] > 1.0 && y[2] < 10.0 && y[4] > 10.0);
    }
}
