//! One activation row (a decoded token, an attention query) times consecutive matrix rows, in
//! the contract's order, on any [`Lanes`]: `ROWS` matrix rows at a time, each block's integers
//! widened in registers straight from the stored bytes (nothing is reused, so nothing is kept).

use super::lanes::{block_dot, group_dot, rows_at, Lanes};
use super::BLOCK;

/// `out[i] = row i · x` for the `Q4_1` rows in `dm` (per block `d, m`) and `quants`; `sums[b]`
/// is `x`'s sum over block `b`.
///
/// # Safety
/// The slices hold `out.len()` rows of `cols` values (a multiple of 32), `x` and `sums` one row.
#[inline(always)]
pub(super) unsafe fn q4_1<V: Lanes>(dm: &[f32], quants: &[u8], cols: usize, x: &[f32], sums: &[f32], out: &mut [f32]) {
    let (rows, blocks) = (out.len(), cols / BLOCK);
    assert!(dm.len() == rows * 2 * blocks && quants.len() == rows * cols / 2 && sums.len() == blocks);
    let (dm_at, q_at, masks) = (dm.as_ptr(), quants.as_ptr(), V::masks());
    for first in (0..rows).step_by(V::ROWS) {
        let mut acc = V::zero();
        let mut offsets = [0f32; 4];
        // Each pointer moves on by one block per turn: every load is at a fixed offset from one.
        let (mut q, mut f) = (
            rows_at(q_at, first, rows - 1, cols / 2, 0),
            rows_at(dm_at, first, rows - 1, 2 * blocks, 0),
        );
        let (mut x, mut s) = (x.as_ptr(), sums.as_ptr());
        for _ in 0..blocks {
            // SAFETY: block by block up to `blocks`, rows below `rows`: in bounds (the caller's sizes).
            unsafe {
                let w = V::q4_1(masks, q);
                acc = acc.add(V::splat_rows(f).mul(block_dot(&w, x)));
                for (o, f) in offsets.iter_mut().zip(f).take(V::ROWS) {
                    *o += *f.add(1) * *s;
                }
                q = q.map(|p| p.add(BLOCK / 2));
                f = f.map(|p| p.add(2));
                (x, s) = (x.add(BLOCK), s.add(1));
            }
        }
        let sum = acc.sum_lanes();
        for (g, y) in out[first..].iter_mut().take(V::ROWS).enumerate() {
            *y = sum[g] + offsets[g];
        }
    }
}

/// `out[i] = row i · x` for the `Q8_0` rows in `d` (per block) and `quants`.
///
/// # Safety
/// As for [`q4_1`].
#[inline(always)]
pub(super) unsafe fn q8_0<V: Lanes>(d: &[f32], quants: &[u8], cols: usize, x: &[f32], out: &mut [f32]) {
    let (rows, blocks) = (out.len(), cols / BLOCK);
    assert!(d.len() == rows * blocks && quants.len() == rows * cols);
    let (d_at, q_at, masks) = (d.as_ptr(), quants.as_ptr(), V::masks());
    for first in (0..rows).step_by(V::ROWS) {
        let mut acc = V::zero();
        let (mut q, mut f) = (
            rows_at(q_at, first, rows - 1, cols, 0),
            rows_at(d_at, first, rows - 1, blocks, 0),
        );
        let mut x = x.as_ptr();
        for _ in 0..blocks {
            // SAFETY: as in `q4_1`.
            unsafe {
                let w = V::q8_0(masks, q);
                acc = acc.add(V::splat_rows(f).mul(block_dot(&w, x)));
                q = q.map(|p| p.add(BLOCK));
                f = f.map(|p| p.add(1));
                x = x.add(BLOCK);
            }
        }
        let sum = acc.sum_lanes();
        for (g, y) in out[first..].iter_mut().take(V::ROWS).enumerate() {
            *y = sum[g];
        }
    }
}

/// `out[i] = row i · x` for dense rows: whole groups of 16 into the running lanes, then the
/// values past the last whole group one by one.
///
/// # Safety
/// `w` holds `out.len()` rows of `cols` values, `x` one.
#[inline(always)]
pub(super) unsafe fn dense<V: Lanes>(w: &[f32], cols: usize, x: &[f32], out: &mut [f32]) {
    let (rows, whole) = (out.len(), cols / 16 * 16);
    assert!(w.len() == rows * cols && x.len() == cols);
    let (w_at, x_at) = (w.as_ptr(), x.as_ptr());
    for first in (0..rows).step_by(V::ROWS) {
        let mut acc = V::zero();
        for at in (0..whole).step_by(16) {
            // SAFETY: columns `at..at + 16` of rows below `rows`.
            unsafe {
                let w: [V; 4] = std::array::from_fn(|i| V::load_rows(rows_at(w_at, first, rows - 1, cols, at + 4 * i)));
                acc = acc.add(group_dot(&w, x_at.add(at)));
            }
        }
        let sum = acc.sum_lanes();
        for (g, y) in out[first..].iter_mut().take(V::ROWS).enumerate() {
            *y = sum[g] + tail(&w[(first + g) * cols..][..cols], x, whole);
        }
    }
}

/// `Σ w_j x_j` over the columns from `whole` on, one by one from 0.
#[inline(always)]
pub(super) fn tail(w: &[f32], x: &[f32], whole: usize) -> f32 {
    w[whole..].iter().zip(&x[whole..]).fold(0f32, |s, (w, x)| s + w * x)
}
