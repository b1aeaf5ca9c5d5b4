//! The kernels in plain Rust, for every target, in the contract's order (see the module above):
//! four lanes as arrays, which the compiler maps onto whatever vector unit it targets without
//! changing a single rounding. A row's integers are widened to f32 first (exactly), then each
//! activation row's dot product is taken on those.

use super::BLOCK;

type Lanes = [f32; 4];

/// Sixteen values times sixteen activations, as four lanes: `(g₀ + g₁) + (g₂ + g₃)`.
#[inline(always)]
fn group16(w: &[f32], x: &[f32]) -> Lanes {
    let (w, x): (&[f32; 16], &[f32; 16]) = (w[..16].try_into().expect("16"), x[..16].try_into().expect("16"));
    std::array::from_fn(|l| (w[l] * x[l] + w[4 + l] * x[4 + l]) + (w[8 + l] * x[8 + l] + w[12 + l] * x[12 + l]))
}

#[inline(always)]
fn sum_lanes(a: Lanes) -> f32 {
    a[0] + a[1] + a[2] + a[3]
}

/// `Σ_b d_b · (block b's two groups, lane by lane)`, summed across lanes.
#[inline(always)]
fn scaled_blocks(factor: impl Fn(usize) -> f32, values: &[f32], x: &[f32]) -> f32 {
    let mut acc = [0f32; 4];
    for (b, (v, x)) in values.chunks_exact(BLOCK).zip(x.chunks_exact(BLOCK)).enumerate() {
        let (first, second) = (group16(v, x), group16(&v[16..], &x[16..]));
        let d = factor(b);
        acc = std::array::from_fn(|l| acc[l] + d * (first[l] + second[l]));
    }
    sum_lanes(acc)
}

pub fn dequantize_q8_0(d: f32, quants: &[u8], out: &mut [f32]) {
    for (y, &q) in out.iter_mut().zip(quants) {
        *y = (q as i8) as f32 * d;
    }
}

pub fn dequantize_q4_1(d: f32, m: f32, quants: &[u8], out: &mut [f32]) {
    for (j, &q) in quants.iter().enumerate() {
        out[j] = (q & 0x0F) as f32 * d + m;
        out[j + BLOCK / 2] = (q >> 4) as f32 * d + m;
    }
}

pub fn q8_0_product(d: &[f32], quants: &[u8], cols: usize, xs: &[f32], out: &mut [f32]) {
    let width = quants.len() / cols;
    let mut values = vec![0f32; cols];
    for (i, (d, q)) in d.chunks_exact(cols / BLOCK).zip(quants.chunks_exact(cols)).enumerate() {
        for (v, &q) in values.iter_mut().zip(q) {
            *v = (q as i8) as f32;
        }
        for (t, x) in xs.chunks_exact(cols).enumerate() {
            out[t * width + i] = scaled_blocks(|b| d[b], &values, x);
        }
    }
}

pub fn q4_1_product(dm: &[f32], quants: &[u8], cols: usize, xs: &[f32], sums: &[f32], out: &mut [f32]) {
    let blocks = cols / BLOCK;
    let width = quants.len() / (cols / 2);
    let mut values = vec![0f32; cols];
    for (i, (dm, q)) in dm
        .chunks_exact(2 * blocks)
        .zip(quants.chunks_exact(cols / 2))
        .enumerate()
    {
        // Low nibbles are a block's values 0..16, high nibbles 16..32.
        for (q, v) in q.chunks_exact(BLOCK / 2).zip(values.chunks_exact_mut(BLOCK)) {
            for (j, &byte) in q.iter().enumerate() {
                v[j] = (byte & 0x0F) as f32;
                v[j + BLOCK / 2] = (byte >> 4) as f32;
            }
        }
        for ((t, x), sums) in xs.chunks_exact(cols).enumerate().zip(sums.chunks_exact(blocks)) {
            let offset = dm.chunks_exact(2).zip(sums).fold(0f32, |o, (dm, &sum)| o + dm[1] * sum);
            out[t * width + i] = scaled_blocks(|b| dm[2 * b], &values, x) + offset;
        }
    }
}

pub fn f32_product(w: &[f32], cols: usize, xs: &[f32], out: &mut [f32]) {
    let whole = cols / 16 * 16;
    let width = w.len() / cols;
    for (i, w) in w.chunks_exact(cols).enumerate() {
        for (t, x) in xs.chunks_exact(cols).enumerate() {
            let mut acc = [0f32; 4];
            for at in (0..whole).step_by(16) {
                let g = group16(&w[at..], &x[at..]);
                acc = std::array::from_fn(|l| acc[l] + g[l]);
            }
            let tail = w[whole..].iter().zip(&x[whole..]).fold(0f32, |s, (w, x)| s + w * x);
            out[t * width + i] = sum_lanes(acc) + tail;
        }
    }
}
