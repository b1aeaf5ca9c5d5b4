//! The exact model's inner loops, one file per instruction set behind one contract: [`portable`]
//! (plain Rust, every target; natively the compiler picks the vector unit) and `simd128` (explicit
//! wasm SIMD, what the page runs).
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
//! `dequantize_*` are candle's formulas, a multiply then an add, never fused.
//!
//! Rust never fuses a multiply and an add on its own, and the compiler may not reassociate float
//! additions, so the portable code keeps this order whatever vector unit it is compiled for: the
//! CLI on any x86-64 or ARM CPU computes the page's logits bit for bit. `tests/kernels.rs` runs
//! the page's simd128 kernels against the portable ones in the browser, and a whole forward pass
//! both ways.

pub mod portable;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd128;

/// Values per quantization block in both formats.
pub const BLOCK: usize = 32;

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
static PORTABLE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Runs every kernel on [`portable`] even where an explicit SIMD kernel exists (the tests' way to
/// run one forward pass both ways); a no-op where [`portable`] is all there is.
pub fn force_portable(on: bool) {
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    PORTABLE.store(on, std::sync::atomic::Ordering::Relaxed);
    let _ = on;
}

/// The instruction set the kernels run on now: `simd128` or `portable`.
pub fn active() -> &'static str {
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    if !PORTABLE.load(std::sync::atomic::Ordering::Relaxed) {
        return "simd128";
    }
    "portable"
}

/// Calls the SIMD kernel where it exists and is not switched off, else the portable one.
macro_rules! dispatch {
    ($name:ident($($arg:expr),*)) => {{
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        if !PORTABLE.load(std::sync::atomic::Ordering::Relaxed) {
            return simd128::$name($($arg),*);
        }
        portable::$name($($arg),*)
    }};
}

/// `out[j] = (q[j] as i8) · d` for one block.
#[inline]
pub fn dequantize_q8_0(d: f32, quants: &[u8], out: &mut [f32]) {
    dispatch!(dequantize_q8_0(d, quants, out))
}

/// `out[j] = q[j]·d + m` for one block (low nibbles are values 0..16, high nibbles 16..32).
#[inline]
pub fn dequantize_q4_1(d: f32, m: f32, quants: &[u8], out: &mut [f32]) {
    dispatch!(dequantize_q4_1(d, m, quants, out))
}

/// `out[t·width + i] = row i · xs[t]` for the `width` consecutive rows of a `Q8_0` matrix `cols`
/// wide held in `d` (factors) and `quants` (integers), and each activation row of `xs`.
#[inline]
pub fn q8_0_product(d: &[f32], quants: &[u8], cols: usize, xs: &[f32], out: &mut [f32]) {
    dispatch!(q8_0_product(d, quants, cols, xs, out))
}

/// The same for `Q4_1` rows (factors `d, m` per block); `sums[t·blocks + b]` is the sum of
/// activation row `t` over block `b`.
#[inline]
pub fn q4_1_product(dm: &[f32], quants: &[u8], cols: usize, xs: &[f32], sums: &[f32], out: &mut [f32]) {
    dispatch!(q4_1_product(dm, quants, cols, xs, sums, out))
}

/// The same for dense rows, `w` holding them one after another.
#[inline]
pub fn f32_product(w: &[f32], cols: usize, xs: &[f32], out: &mut [f32]) {
    dispatch!(f32_product(w, cols, xs, out))
}
