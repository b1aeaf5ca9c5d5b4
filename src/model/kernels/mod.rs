//! The exact model's inner loops behind one contract, one file per instruction set: [`Kernels`]
//! names them — `portable` (plain Rust, every target), `simd128` (explicit wasm SIMD, what the
//! page runs), `avx2` and `avx512` (x86-64, chosen at run time from what the CPU has) and `neon`
//! (aarch64).
//!
//! **The contract is bit-exact.** Every function below gives the same bits on every target,
//! because the order of every addition is fixed here, not by an instruction set. A row's dot
//! product with an activation row `x`:
//!
//! - takes the row's values 16 at a time as four groups of four lanes: lane `l` of a group is
//!   `(g₀ + g₁) + (g₂ + g₃)` with `gᵢ = wᵢ₄₊ₗ · xᵢ₄₊ₗ`;
//! - quantized rows (`Q8_0`, `Q4_1`; `w` the block's integers) add a block's two groups lane by
//!   lane, scale them by the block's `d` and add them to four running lanes, from 0; the result is
//!   `((lane₀ + lane₁) + lane₂) + lane₃`, and `Q4_1` then adds `Σ_b m_b · (Σ x over block b)`,
//!   block by block from 0, which the caller's `sums` hold;
//! - dense rows (`f32`) add each group of 16 to the running lanes unscaled, sum the lanes the same
//!   way and add the values past the last whole group one by one (from 0) at the end.
//!
//! A product with several activation rows (a prompt) is the same dot product for each, so a
//! cached decoding step and a full forward pass over the same tokens agree bit for bit.
//! `dequantize_*` are candle's formulas, a multiply then an add, never fused. [`silu_mul`] is
//! SwiGLU's `g / (expf(−g) + 1) · u` and [`expf`] the attention's exponentials, with libm's
//! `expf` computed lane by lane (`expf.rs`): libm's operations in libm's order, so every lane has
//! libm's bits. [`weighted_sum`] is the attention's `Σ_j p_j · v_j`, each value in order of `j`
//! (`values.rs`).
//!
//! **How the contract is kept.** The products are written once (`rows.rs`: one activation row;
//! `blocked.rs`: several, tiled over rows × tokens) over a vector of the contract's lanes
//! (`Lanes` in `lanes.rs`); an instruction set only says how wide its vector is — one row's four lanes
//! (portable, simd128, neon), two rows' (avx2) or four rows' (avx512) — and how a block's bytes
//! become lanes. Lanes are never added across rows or blocks, only lane by lane, in the order
//! above. Rust never fuses a multiply and an add and the compiler may not reassociate float
//! additions; the intrinsics used are plain IEEE multiplies and adds (no `fmadd`, no horizontal
//! adds), so the CLI on any x86-64 or ARM CPU computes the page's logits bit for bit.
//! `tests/kernels.rs` checks every output against the contract spelled out in scalars, and every
//! implementation this machine runs against `portable` (natively; in the browser simd128).

mod blocked;
mod expf;
mod lanes;
pub mod portable;
mod rows;
mod values;

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
#[cfg(target_arch = "aarch64")]
mod neon;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd128;

mod choice;
pub use choice::{active, force, force_portable, Kernels};

/// Values per quantization block in both formats.
pub const BLOCK: usize = 32;

/// Where value `j` (0..32) of a stored `Q4_1` block is: its byte and the shift of its nibble.
///
/// Natively the file's order (low nibbles are values 0..16, high nibbles 16..32). The wasm build
/// stores each block's nibbles so that the four bytes of 32-bit lane `k` hold values `k, 4 + k,
/// …, 28 + k`, nibble `p` of the lane being value `4p + k`: simd128 then widens a block's eight
/// vectors with a shift and a mask each, where the file's order needs two widening steps, and
/// V8 a zero register for each high half. Only where each integer sits changes, never a value.
#[inline(always)]
pub const fn q4_1_nibble(j: usize) -> (usize, u32) {
    if cfg!(all(target_arch = "wasm32", target_feature = "simd128")) {
        (4 * (j % 4) + j / 8, 4 * ((j / 4) % 2) as u32)
    } else {
        (j % 16, 4 * (j / 16) as u32)
    }
}

/// Value `j` of a stored `Q4_1` block (see [`q4_1_nibble`]).
#[inline(always)]
pub fn q4_1_value(quants: &[u8], j: usize) -> u8 {
    let (byte, shift) = q4_1_nibble(j);
    (quants[byte] >> shift) & 0x0F
}

/// A `Q4_1` block's 16 bytes of integers as the file has them, in the order the kernels read
/// ([`q4_1_nibble`]). Every block of a model goes through here while it loads: in wasm two
/// shuffles of its nibbles, natively a copy.
#[inline]
pub fn store_q4_1(file: &[u8], out: &mut [u8]) {
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    simd128::store_q4_1(file, out);
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    out.copy_from_slice(file);
}

/// `out[j] = (q[j] as i8) · d` for one block.
#[inline]
pub fn dequantize_q8_0(d: f32, quants: &[u8], out: &mut [f32]) {
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    if active() == Kernels::Simd128 {
        return simd128::dequantize_q8_0(d, quants, out);
    }
    portable::dequantize_q8_0(d, quants, out)
}

/// `out[j] = q[j]·d + m` for one block, its integers as [`store_q4_1`] keeps them.
#[inline]
pub fn dequantize_q4_1(d: f32, m: f32, quants: &[u8], out: &mut [f32]) {
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    if active() == Kernels::Simd128 {
        return simd128::dequantize_q4_1(d, m, quants, out);
    }
    portable::dequantize_q4_1(d, m, quants, out)
}

/// `out[t·width + i] = row i · xs[t]` for the `width` consecutive rows of a `Q8_0` matrix `cols`
/// wide held in `d` (factors) and `quants` (integers), and each activation row of `xs`.
#[inline]
pub fn q8_0_product(d: &[f32], quants: &[u8], cols: usize, xs: &[f32], out: &mut [f32]) {
    active().q8_0_product(d, quants, cols, xs, out)
}

/// The same for `Q4_1` rows (factors `d, m` per block, integers as [`store_q4_1`] keeps them);
/// `sums[t·blocks + b]` is the sum of activation row `t` over block `b`.
#[inline]
pub fn q4_1_product(dm: &[f32], quants: &[u8], cols: usize, xs: &[f32], sums: &[f32], out: &mut [f32]) {
    active().q4_1_product(dm, quants, cols, xs, sums, out)
}

/// The same for dense rows, `w` holding them one after another.
#[inline]
pub fn f32_product(w: &[f32], cols: usize, xs: &[f32], out: &mut [f32]) {
    active().f32_product(w, cols, xs, out)
}

/// `xs[i] = expf(xs[i])`, libm's bits.
#[inline]
pub fn expf(xs: &mut [f32]) {
    active().expf(xs)
}

/// `y[i] += Σ_j p[j] · values[j · stride + i]` for every `i < y.len()`, the terms of each added
/// in order of `j`: the attention's output for one query.
#[inline]
pub fn weighted_sum(p: &[f32], values: &[f32], stride: usize, y: &mut [f32]) {
    active().weighted_sum(p, values, stride, y)
}

/// SwiGLU's `out[i] = g[i] / (expf(−g[i]) + 1) · u[i]`, with libm's `expf` bit for bit.
#[inline]
pub fn silu_mul(g: &[f32], u: &[f32], out: &mut [f32]) {
    active().silu_mul(g, u, out)
}

/// The sizes every `Q8_0` kernel relies on (it reads through raw pointers).
fn check_q8_0(d: &[f32], quants: &[u8], cols: usize, xs: &[f32], out: &mut [f32]) {
    let (n, width) = check_shape(cols, xs, out, quants.len() / cols.max(1));
    assert!(cols.is_multiple_of(BLOCK) && quants.len() == width * cols && d.len() == width * cols / BLOCK && n > 0);
}

fn check_q4_1(dm: &[f32], quants: &[u8], cols: usize, xs: &[f32], sums: &[f32], out: &mut [f32]) {
    let (n, width) = check_shape(cols, xs, out, 2 * quants.len() / cols.max(1));
    let blocks = cols / BLOCK;
    assert!(cols.is_multiple_of(BLOCK) && 2 * quants.len() == width * cols && dm.len() == width * 2 * blocks);
    assert!(sums.len() == n * blocks && n > 0);
}

fn check_dense(w: &[f32], cols: usize, xs: &[f32], out: &mut [f32]) {
    let (n, width) = check_shape(cols, xs, out, w.len() / cols.max(1));
    assert!(w.len() == width * cols && n > 0);
}

/// Activation rows and matrix rows, checked against the output's length.
fn check_shape(cols: usize, xs: &[f32], out: &[f32], width: usize) -> (usize, usize) {
    assert!(
        cols > 0 && xs.len().is_multiple_of(cols),
        "activations of {} values in rows of {cols}",
        xs.len()
    );
    let n = xs.len() / cols;
    assert_eq!(out.len(), n * width, "{n} activation rows times {width} matrix rows");
    (n, width)
}

/// The three products of one instruction set, for `Lanes` type `$lanes` and `$tokens` tokens
/// per micro-kernel: one activation row goes row by row ([`rows`]), several through the blocked
/// product ([`blocked`]). Each is `unsafe`: the caller has checked the sizes
/// (`check_*`) and that the CPU has the instruction set.
macro_rules! entries {
    ($(#[$attr:meta])* $lanes:ty, $tokens:expr) => {
        $(#[$attr])*
        pub(super) unsafe fn q8_0_product(d: &[f32], quants: &[u8], cols: usize, xs: &[f32], out: &mut [f32]) {
            use super::{blocked, rows};
            // SAFETY: the caller checked the sizes.
            unsafe {
                match xs.len() == cols {
                    true => rows::q8_0::<$lanes>(d, quants, cols, xs, out),
                    false => blocked::quantized::<$lanes, { $tokens }>(blocked::Quantized::Q8_0 { d, quants }, cols, xs, out),
                }
            }
        }

        $(#[$attr])*
        pub(super) unsafe fn q4_1_product(dm: &[f32], quants: &[u8], cols: usize, xs: &[f32], sums: &[f32], out: &mut [f32]) {
            use super::{blocked, rows};
            // SAFETY: the caller checked the sizes.
            unsafe {
                match xs.len() == cols {
                    true => rows::q4_1::<$lanes>(dm, quants, cols, xs, sums, out),
                    false => blocked::quantized::<$lanes, { $tokens }>(
                        blocked::Quantized::Q4_1 { dm, quants, sums }, cols, xs, out,
                    ),
                }
            }
        }

        $(#[$attr])*
        pub(super) unsafe fn f32_product(w: &[f32], cols: usize, xs: &[f32], out: &mut [f32]) {
            use super::{blocked, rows};
            // SAFETY: the caller checked the sizes.
            unsafe {
                match xs.len() == cols {
                    true => rows::dense::<$lanes>(w, cols, xs, out),
                    false => blocked::dense::<$lanes, { $tokens }>(w, cols, xs, out),
                }
            }
        }
    };
}
use entries;

/// The element-wise kernels of one instruction set over vectors of `$lanes` lanes: [`expf`] and
/// [`silu_mul`] (`expf.rs`), and [`weighted_sum`] four vectors of `y` at a time (`values.rs`).
/// Each is `unsafe`: the caller has checked that the CPU has the instruction set.
macro_rules! vector_entries {
    ($(#[$attr:meta])* $lanes:literal) => {
        $(#[$attr])*
        pub(super) unsafe fn expf(xs: &mut [f32]) {
            super::expf::exp_lanes::<$lanes>(xs)
        }

        $(#[$attr])*
        pub(super) unsafe fn silu_mul(g: &[f32], u: &[f32], out: &mut [f32]) {
            super::expf::silu_lanes::<$lanes>(g, u, out)
        }

        $(#[$attr])*
        pub(super) unsafe fn weighted_sum(p: &[f32], values: &[f32], stride: usize, y: &mut [f32]) {
            super::values::weighted_lanes::<{ 4 * $lanes }>(p, values, stride, y)
        }
    };
}
use vector_entries;
