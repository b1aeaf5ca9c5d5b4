//! Several activation rows (a prompt's tokens) times consecutive matrix rows, in the contract's
//! order, on any [`Lanes`]: a blocked product whose every output is still its own row's dot
//! product, each addition in the place the contract gives it. Only which outputs are computed
//! together changes, never how one is summed.
//!
//! - **Tokens in tiles** whose activations stay in the core's cache ([`TILE_BYTES`]), so that the
//!   matrix rows stream once per tile rather than the activations once per row.
//! - **A group of matrix rows widened once per tile** into a panel (the `ROWS` rows of a vector,
//!   interleaved block by block, each block's `d` already spread over its lanes), from which every
//!   token of the tile reads.
//! - **A micro-kernel** that holds one block of the panel (eight vectors and `d`) in registers
//!   and runs `T` tokens through it, each token's running lanes in a register of their own.
//! - `Q4_1`'s `Σ_b m_b · (Σ x over block b)`, block by block from 0, for a whole tile of tokens at
//!   once (one lane per token).

use super::lanes::{block_dot, group_dot, rows_at, Lanes};
use super::rows::tail;
use super::BLOCK;

/// Bytes of activations per tile: well inside a core's L2 (512 KiB to 2 MiB on current x86-64
/// and ARM server cores), beside the panel in L1.
const TILE_BYTES: usize = 192 * 1024;

/// Tokens per tile for rows `cols` wide: a multiple of the micro-kernel's `t`, at least `t`.
fn tile_tokens(cols: usize, t: usize) -> usize {
    (TILE_BYTES / (4 * cols)).max(t) / t * t
}

/// A quantized matrix's rows, as the kernels receive them.
#[derive(Clone, Copy)]
pub(super) enum Quantized<'a> {
    /// Per block `d, m`; `sums[t·blocks + b]` is activation row `t`'s sum over block `b`.
    Q4_1 {
        dm: &'a [f32],
        quants: &'a [u8],
        sums: &'a [f32],
    },
    /// Per block `d`.
    Q8_0 { d: &'a [f32], quants: &'a [u8] },
}

/// `out[t·width + i] = row i · xs[t]` for every activation row `t` of `xs` and quantized row `i`.
///
/// # Safety
/// The rows hold `width = out.len() / n` rows of `cols` values (a multiple of 32) and `xs` holds
/// `n` activation rows.
#[inline(always)]
pub(super) unsafe fn quantized<V: Lanes, const T: usize>(rows: Quantized, cols: usize, xs: &[f32], out: &mut [f32]) {
    let (n, blocks) = (xs.len() / cols, cols / BLOCK);
    let width = out.len() / n;
    let tile = tile_tokens(cols, T).min(n.next_multiple_of(T));
    let step = 9 * V::WIDTH;
    let mut panel = vec![0f32; blocks * step];
    let mut packed = vec![0f32; blocks * tile * BLOCK];
    let mut sums = vec![0f32; blocks * tile];
    let mut offsets = vec![0f32; V::ROWS * tile];
    for t0 in (0..n).step_by(tile) {
        let tokens = tile.min(n - t0);
        // The tile's activations block-major, the tokens of a block side by side: a micro-kernel
        // reads all of its tokens at fixed offsets from one pointer.
        for t in 0..tokens {
            let x = &xs[(t0 + t) * cols..][..cols];
            for (b, x) in x.chunks_exact(BLOCK).enumerate() {
                packed[(b * tile + t) * BLOCK..][..BLOCK].copy_from_slice(x);
            }
        }
        if let Quantized::Q4_1 { sums: by_token, .. } = rows {
            // One lane per token: block-major.
            for t in 0..tokens {
                for b in 0..blocks {
                    sums[b * tile + t] = by_token[(t0 + t) * blocks + b];
                }
            }
        }
        for first in (0..width).step_by(V::ROWS) {
            // SAFETY: rows `first..` below `width`, within the caller's sizes.
            unsafe { widen::<V>(rows, first, width - 1, cols, &mut panel) };
            if let Quantized::Q4_1 { dm, .. } = rows {
                q4_1_offsets(dm, blocks, first, width - 1, V::ROWS, &sums, tile, tokens, &mut offsets);
            }
            let store = |t: usize, acc: V, out: &mut [f32]| {
                let sum = acc.sum_lanes();
                for g in 0..V::ROWS.min(width - first) {
                    let y = &mut out[(t0 + t) * width + first + g];
                    *y = match rows {
                        Quantized::Q4_1 { .. } => sum[g] + offsets[g * tile + t],
                        Quantized::Q8_0 { .. } => sum[g],
                    };
                }
            };
            let mut t = 0;
            while t + T <= tokens {
                // SAFETY: the panel holds `blocks` blocks, `packed` `blocks` blocks of `tile`
                // tokens from token `t` on.
                let acc = unsafe { micro::<V, T>(panel.as_ptr(), packed.as_ptr().add(t * BLOCK), tile, blocks) };
                for (i, acc) in acc.into_iter().enumerate() {
                    store(t + i, acc, out);
                }
                t += T;
            }
            // The fewer than `T` tokens left go through narrower micro-kernels (4, 2, 1 tokens):
            // one token at a time, each block of the panel would be loaded again per token.
            while t < tokens {
                // SAFETY: as above.
                let x = unsafe { packed.as_ptr().add(t * BLOCK) };
                // SAFETY: as above.
                let accs: &[V] = unsafe {
                    match tokens - t {
                        4.. => &micro::<V, 4>(panel.as_ptr(), x, tile, blocks),
                        2..=3 => &micro::<V, 2>(panel.as_ptr(), x, tile, blocks),
                        _ => &micro::<V, 1>(panel.as_ptr(), x, tile, blocks),
                    }
                };
                for (i, acc) in accs.iter().enumerate() {
                    store(t + i, *acc, out);
                }
                t += accs.len();
            }
        }
    }
}

/// Rows `first..first + ROWS` (past `last`: `last` again) widened into `panel`: per block, the
/// eight vectors of values and `d` over each row's lanes.
///
/// # Safety
/// As for [`quantized`].
#[inline(always)]
unsafe fn widen<V: Lanes>(rows: Quantized, first: usize, last: usize, cols: usize, panel: &mut [f32]) {
    let (blocks, step) = (cols / BLOCK, 9 * V::WIDTH);
    let (p, masks) = (panel.as_mut_ptr(), V::masks());
    for b in 0..blocks {
        // SAFETY: block `b` of rows up to `last`; the panel holds `blocks · step` values.
        unsafe {
            let (w, d) = match rows {
                Quantized::Q4_1 { dm, quants, .. } => (
                    V::q4_1(masks, rows_at(quants.as_ptr(), first, last, cols / 2, b * BLOCK / 2)),
                    V::splat_rows(rows_at(dm.as_ptr(), first, last, 2 * blocks, 2 * b)),
                ),
                Quantized::Q8_0 { d, quants } => (
                    V::q8_0(masks, rows_at(quants.as_ptr(), first, last, cols, b * BLOCK)),
                    V::splat_rows(rows_at(d.as_ptr(), first, last, blocks, b)),
                ),
            };
            // Nine plain stores: an iterator over the vectors made the compiler spill them to
            // the stack and copy them in a loop.
            let at = p.add(b * step);
            for (i, w) in w.iter().enumerate() {
                w.store(at.add(i * V::WIDTH));
            }
            d.store(at.add(8 * V::WIDTH));
        }
    }
}

/// `T` tokens through one widened group of rows: each token's running lanes, from 0, plus
/// `d · (the block's two groups)` block by block. `x` is the first token's block 0 in the packed
/// tile (`tile` tokens per block); every load is at a fixed offset from `panel` or `x`, which
/// move on by one block each turn.
///
/// # Safety
/// `panel` holds `blocks` widened blocks and `x` `blocks` blocks of `tile` tokens' values.
#[inline(always)]
unsafe fn micro<V: Lanes, const T: usize>(panel: *const f32, x: *const f32, tile: usize, blocks: usize) -> [V; T] {
    let (mut p, mut x) = (panel, x);
    let mut acc = [V::zero(); T];
    for _ in 0..blocks {
        // SAFETY: one block of the panel and of the packed tile (the caller's promise).
        unsafe {
            let v = |i: usize| V::load(p.add(i * V::WIDTH));
            let w = [v(0), v(1), v(2), v(3), v(4), v(5), v(6), v(7)];
            let d = v(8);
            for (j, acc) in acc.iter_mut().enumerate() {
                *acc = acc.add(d.mul(block_dot(&w, x.add(j * BLOCK))));
            }
            p = p.add(9 * V::WIDTH);
            x = x.add(tile * BLOCK);
        }
    }
    acc
}

/// `Σ_b m_b · sums_b` block by block from 0 for each row of the group and each token of the tile
/// (`sums` block-major, `tile` tokens a block): the inner loop runs over tokens, one lane each.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn q4_1_offsets(
    dm: &[f32],
    blocks: usize,
    first: usize,
    last: usize,
    rows: usize,
    sums: &[f32],
    tile: usize,
    tokens: usize,
    offsets: &mut [f32],
) {
    for g in 0..rows {
        let dm = &dm[(first + g).min(last) * 2 * blocks..][..2 * blocks];
        let o = &mut offsets[g * tile..][..tokens];
        o.fill(0.0);
        for (m, sums) in dm.iter().skip(1).step_by(2).zip(sums.chunks_exact(tile)) {
            for (o, s) in o.iter_mut().zip(&sums[..tokens]) {
                *o += *m * *s;
            }
        }
    }
}

/// `out[t·width + i] = row i · xs[t]` for dense rows `w` (`cols` values each, any width): each
/// group of 16 of a group of rows loaded once for `T` tokens.
///
/// # Safety
/// `w` holds `width = out.len() / n` rows of `cols` values, `xs` holds `n` rows.
#[inline(always)]
pub(super) unsafe fn dense<V: Lanes, const T: usize>(w: &[f32], cols: usize, xs: &[f32], out: &mut [f32]) {
    let n = xs.len() / cols;
    let (width, whole) = (out.len() / n, cols / 16 * 16);
    let tile = tile_tokens(cols, T).min(n.next_multiple_of(T));
    let w_at = w.as_ptr();
    for t0 in (0..n).step_by(tile) {
        let tokens = tile.min(n - t0);
        for first in (0..width).step_by(V::ROWS) {
            let store = |t: usize, acc: V, out: &mut [f32]| {
                let sum = acc.sum_lanes();
                let x = &xs[(t0 + t) * cols..][..cols];
                for g in 0..V::ROWS.min(width - first) {
                    out[(t0 + t) * width + first + g] = sum[g] + tail(&w[(first + g) * cols..][..cols], x, whole);
                }
            };
            let run = |t: usize, count: usize, out: &mut [f32]| {
                // One to T tokens: the caller's loop below keeps whole micro-tiles together.
                let mut acc = [V::zero(); T];
                for at in (0..whole).step_by(16) {
                    // SAFETY: columns `at..at + 16` of rows below `width` and of each token's row.
                    unsafe {
                        let wv: [V; 4] =
                            std::array::from_fn(|i| V::load_rows(rows_at(w_at, first, width - 1, cols, at + 4 * i)));
                        for (i, acc) in acc.iter_mut().enumerate().take(count) {
                            *acc = acc.add(group_dot(&wv, xs.as_ptr().add((t0 + t + i) * cols + at)));
                        }
                    }
                }
                for (i, acc) in acc.into_iter().enumerate().take(count) {
                    store(t + i, acc, out);
                }
            };
            let mut t = 0;
            while t < tokens {
                let count = T.min(tokens - t);
                run(t, count, out);
                t += count;
            }
        }
    }
}
