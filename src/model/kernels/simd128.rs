//! The kernels in explicit wasm SIMD (`+simd128`, every wasm build of this crate): what the page
//! runs. Same contract, same bits as [`super::portable`]. One activation row (a decoded token)
//! goes straight from the row's integers; several (a prompt) first widen the row's integers to
//! f32 once (exactly) and then take each dot product on those, in the same order.

use super::BLOCK;
use core::arch::wasm32::*;

#[inline(always)]
fn load(x: &[f32], at: usize) -> v128 {
    assert!(at + 4 <= x.len());
    // SAFETY: in bounds (checked above); v128_load has no alignment requirement.
    unsafe { v128_load(x.as_ptr().add(at) as *const v128) }
}

#[inline(always)]
fn load_bytes(q: &[u8]) -> v128 {
    assert!(q.len() >= 16);
    // SAFETY: 16 bytes in bounds (checked above), unaligned load.
    unsafe { v128_load(q.as_ptr() as *const v128) }
}

/// `Σ_l ints[l] · x[at + l]` lane-wise for four i32 lanes.
#[inline(always)]
fn mul_ints(ints: v128, x: &[f32], at: usize) -> v128 {
    f32x4_mul(f32x4_convert_i32x4(ints), load(x, at))
}

/// 16 unsigned bytes as four vectors of i32 lanes, in order.
#[inline(always)]
fn widen_u8(bytes: v128) -> [v128; 4] {
    let (a, b) = (u16x8_extend_low_u8x16(bytes), u16x8_extend_high_u8x16(bytes));
    [
        u32x4_extend_low_u16x8(a),
        u32x4_extend_high_u16x8(a),
        u32x4_extend_low_u16x8(b),
        u32x4_extend_high_u16x8(b),
    ]
}

/// 16 signed bytes as four vectors of i32 lanes, in order.
#[inline(always)]
fn widen_i8(bytes: v128) -> [v128; 4] {
    let (a, b) = (i16x8_extend_low_i8x16(bytes), i16x8_extend_high_i8x16(bytes));
    [
        i32x4_extend_low_i16x8(a),
        i32x4_extend_high_i16x8(a),
        i32x4_extend_low_i16x8(b),
        i32x4_extend_high_i16x8(b),
    ]
}

/// 16 widened integers times `x[at..at + 16]`, as four lanes.
#[inline(always)]
fn dot16(ints: [v128; 4], x: &[f32], at: usize) -> v128 {
    let s0 = f32x4_add(mul_ints(ints[0], x, at), mul_ints(ints[1], x, at + 4));
    let s1 = f32x4_add(mul_ints(ints[2], x, at + 8), mul_ints(ints[3], x, at + 12));
    f32x4_add(s0, s1)
}

#[inline(always)]
fn store(out: &mut [f32], at: usize, v: v128) {
    assert!(at + 4 <= out.len());
    // SAFETY: in bounds (checked above); v128_store has no alignment requirement.
    unsafe { v128_store(out.as_mut_ptr().add(at) as *mut v128, v) }
}

/// Four integer lanes as `q·d (+ m)`, multiply then add as the scalar formula rounds.
#[inline(always)]
fn scaled(ints: v128, d: v128, m: Option<v128>) -> v128 {
    let y = f32x4_mul(f32x4_convert_i32x4(ints), d);
    m.map_or(y, |m| f32x4_add(y, m))
}

/// 16 widened integers as `q·d (+ m)` into `out[at..at + 16]`.
#[inline(always)]
fn store16(ints: [v128; 4], d: v128, m: Option<v128>, out: &mut [f32], at: usize) {
    for (i, lanes) in ints.into_iter().enumerate() {
        store(out, at + 4 * i, scaled(lanes, d, m));
    }
}

pub fn dequantize_q8_0(d: f32, quants: &[u8], out: &mut [f32]) {
    let d = f32x4_splat(d);
    store16(widen_i8(load_bytes(quants)), d, None, out, 0);
    store16(widen_i8(load_bytes(&quants[16..])), d, None, out, 16);
}

pub fn dequantize_q4_1(d: f32, m: f32, quants: &[u8], out: &mut [f32]) {
    let bytes = load_bytes(quants);
    let (d, m) = (f32x4_splat(d), f32x4_splat(m));
    store16(widen_u8(v128_and(bytes, u8x16_splat(0x0F))), d, Some(m), out, 0);
    store16(widen_u8(u8x16_shr(bytes, 4)), d, Some(m), out, 16);
}

#[inline(always)]
fn sum_lanes(v: v128) -> f32 {
    f32x4_extract_lane::<0>(v) + f32x4_extract_lane::<1>(v) + f32x4_extract_lane::<2>(v) + f32x4_extract_lane::<3>(v)
}

/// 16 values (`values[at..at + 16]`) times `x[at..at + 16]`, as four lanes: the same products
/// and sums as [`dot16`] on integers widened to those values.
#[inline(always)]
fn dot16_widened(values: &[f32], x: &[f32], at: usize) -> v128 {
    let m = |i: usize| f32x4_mul(load(values, at + 4 * i), load(x, at + 4 * i));
    f32x4_add(f32x4_add(m(0), m(1)), f32x4_add(m(2), m(3)))
}

/// A row's integers as f32, in order (low nibbles, then high nibbles, per `Q4_1` block).
fn widen(quants: &[u8], signed: bool, out: &mut [f32]) {
    let step = if signed { BLOCK } else { BLOCK / 2 };
    for (q, values) in quants.chunks_exact(step).zip(out.chunks_exact_mut(BLOCK)) {
        let halves = if signed {
            [widen_i8(load_bytes(q)), widen_i8(load_bytes(&q[16..]))]
        } else {
            let bytes = load_bytes(q);
            [
                widen_u8(v128_and(bytes, u8x16_splat(0x0F))),
                widen_u8(u8x16_shr(bytes, 4)),
            ]
        };
        for (h, ints) in halves.into_iter().enumerate() {
            for (i, lanes) in ints.into_iter().enumerate() {
                store(values, 16 * h + 4 * i, f32x4_convert_i32x4(lanes));
            }
        }
    }
}

/// One `Q8_0` row times one activation row, straight from the integers.
#[inline(always)]
fn q8_0_row(d: &[f32], quants: &[u8], x: &[f32]) -> f32 {
    let mut acc = f32x4_splat(0.0);
    for ((&d, q), xb) in d.iter().zip(quants.chunks_exact(BLOCK)).zip(x.chunks_exact(BLOCK)) {
        let s = f32x4_add(
            dot16(widen_i8(load_bytes(q)), xb, 0),
            dot16(widen_i8(load_bytes(&q[16..])), xb, 16),
        );
        acc = f32x4_add(acc, f32x4_mul(f32x4_splat(d), s));
    }
    sum_lanes(acc)
}

/// One `Q4_1` row times one activation row, straight from the integers, without the `m` terms.
#[inline(always)]
fn q4_1_row(dm: &[f32], quants: &[u8], x: &[f32]) -> f32 {
    let mut acc = f32x4_splat(0.0);
    let low = u8x16_splat(0x0F);
    let blocks = dm.chunks_exact(2).zip(quants.chunks_exact(BLOCK / 2));
    for ((dm, q), xb) in blocks.zip(x.chunks_exact(BLOCK)) {
        let bytes = load_bytes(q);
        let s = f32x4_add(
            dot16(widen_u8(v128_and(bytes, low)), xb, 0),
            dot16(widen_u8(u8x16_shr(bytes, 4)), xb, 16),
        );
        acc = f32x4_add(acc, f32x4_mul(f32x4_splat(dm[0]), s));
    }
    sum_lanes(acc)
}

/// `Σ_b m_b · sums_b`, block by block from 0.
#[inline(always)]
fn q4_1_offset(dm: &[f32], sums: &[f32]) -> f32 {
    dm.chunks_exact(2).zip(sums).fold(0f32, |o, (dm, &sum)| o + dm[1] * sum)
}

pub fn q8_0_product(d: &[f32], quants: &[u8], cols: usize, xs: &[f32], out: &mut [f32]) {
    let blocks = cols / BLOCK;
    if xs.len() == cols {
        for ((d, q), y) in d
            .chunks_exact(blocks)
            .zip(quants.chunks_exact(cols))
            .zip(out.iter_mut())
        {
            *y = q8_0_row(d, q, xs);
        }
        return;
    }
    tiled(
        cols,
        quants.len() / cols,
        xs,
        out,
        |q, values| widen(&quants[q * cols..][..cols], true, values),
        |r, b| d[r * blocks + b],
        |_, _| 0.0,
    );
}

pub fn q4_1_product(dm: &[f32], quants: &[u8], cols: usize, xs: &[f32], sums: &[f32], out: &mut [f32]) {
    let blocks = cols / BLOCK;
    let row = |r: usize| &dm[2 * r * blocks..][..2 * blocks];
    if xs.len() == cols {
        for ((dm, q), y) in dm
            .chunks_exact(2 * blocks)
            .zip(quants.chunks_exact(cols / 2))
            .zip(out.iter_mut())
        {
            *y = q4_1_row(dm, q, xs) + q4_1_offset(dm, sums);
        }
        return;
    }
    let half = cols / 2;
    tiled(
        cols,
        quants.len() / half,
        xs,
        out,
        |q, values| widen(&quants[q * half..][..half], false, values),
        |r, b| row(r)[2 * b],
        |r, t| q4_1_offset(row(r), &sums[t * blocks..][..blocks]),
    );
}

/// Rows times several activation rows: each row is widened once into f32 (exactly), then its
/// dot product with every activation row is taken `ACTS` activation rows at a time, the row's
/// eight vectors of a block loaded once for them. Each output is summed in the single-row order.
/// `widen_row(r, values)` writes row `r`'s integers as f32, `factor(r, b)` is its block `b`'s `d`,
/// and `offset(r, t)` is added last.
fn tiled(
    cols: usize,
    width: usize,
    xs: &[f32],
    out: &mut [f32],
    widen_row: impl Fn(usize, &mut [f32]),
    factor: impl Fn(usize, usize) -> f32 + Copy,
    offset: impl Fn(usize, usize) -> f32,
) {
    const ACTS: usize = 6;
    let mut values = vec![0f32; cols];
    for r in 0..width {
        widen_row(r, &mut values);
        for (chunk, xs) in xs.chunks(ACTS * cols).enumerate() {
            let mut acc = [f32x4_splat(0.0); ACTS];
            for (b, v) in values.chunks_exact(BLOCK).enumerate() {
                let v: [v128; 8] = std::array::from_fn(|i| load(v, 4 * i));
                let d = f32x4_splat(factor(r, b));
                for (acc, x) in acc.iter_mut().zip(xs.chunks_exact(cols)) {
                    let x = &x[b * BLOCK..][..BLOCK];
                    let m = |i: usize| f32x4_mul(v[i], load(x, 4 * i));
                    let group = f32x4_add(
                        f32x4_add(f32x4_add(m(0), m(1)), f32x4_add(m(2), m(3))),
                        f32x4_add(f32x4_add(m(4), m(5)), f32x4_add(m(6), m(7))),
                    );
                    *acc = f32x4_add(*acc, f32x4_mul(d, group));
                }
            }
            for (a, acc) in acc.iter().enumerate().take(xs.len() / cols) {
                let t = chunk * ACTS + a;
                out[t * width + r] = sum_lanes(*acc) + offset(r, t);
            }
        }
    }
}

pub fn f32_product(w: &[f32], cols: usize, xs: &[f32], out: &mut [f32]) {
    let whole = cols / 16 * 16;
    let width = w.len() / cols;
    for (i, w) in w.chunks_exact(cols).enumerate() {
        for (t, x) in xs.chunks_exact(cols).enumerate() {
            let mut acc = f32x4_splat(0.0);
            for at in (0..whole).step_by(16) {
                acc = f32x4_add(acc, dot16_widened(w, x, at));
            }
            let tail = w[whole..].iter().zip(&x[whole..]).fold(0f32, |s, (w, x)| s + w * x);
            out[t * width + i] = sum_lanes(acc) + tail;
        }
    }
}
