//! The kernels in plain Rust, for every target, in the contract's order (see the module above):
//! four lanes as an array, which the compiler maps onto whatever vector unit it targets without
//! changing a single rounding. The reference the other instruction sets are tested against.

use super::lanes::{sum_stored, Lanes, Rows};
use super::{q4_1_value, BLOCK};

/// The contract's four lanes of one row.
#[derive(Clone, Copy)]
pub(super) struct Four([f32; 4]);

// SAFETY: plain Rust, every target; the pointers are the callers' to keep valid.
unsafe impl Lanes for Four {
    const ROWS: usize = 1;

    #[inline(always)]
    fn zero() -> Self {
        Four([0.0; 4])
    }

    #[inline(always)]
    fn add(self, other: Self) -> Self {
        Four(std::array::from_fn(|l| self.0[l] + other.0[l]))
    }

    #[inline(always)]
    fn mul(self, other: Self) -> Self {
        Four(std::array::from_fn(|l| self.0[l] * other.0[l]))
    }

    #[inline(always)]
    unsafe fn load(p: *const f32) -> Self {
        // SAFETY: four values (the caller's promise); read_unaligned has no alignment requirement.
        Four(unsafe { p.cast::<[f32; 4]>().read_unaligned() })
    }

    #[inline(always)]
    unsafe fn store(self, p: *mut f32) {
        // SAFETY: as in `load`.
        unsafe { p.cast::<[f32; 4]>().write_unaligned(self.0) }
    }

    #[inline(always)]
    unsafe fn load_x(x: *const f32) -> Self {
        // SAFETY: as in `load`.
        unsafe { Self::load(x) }
    }

    #[inline(always)]
    unsafe fn load_rows(rows: Rows<f32>) -> Self {
        // SAFETY: as in `load`.
        unsafe { Self::load(rows[0]) }
    }

    #[inline(always)]
    unsafe fn splat_rows(rows: Rows<f32>) -> Self {
        // SAFETY: one value (the caller's promise).
        Four([unsafe { *rows[0] }; 4])
    }

    type Masks = ();

    #[inline(always)]
    fn masks() {}

    #[inline(always)]
    unsafe fn q4_1(_: (), rows: Rows<u8>) -> [Self; 8] {
        // SAFETY: 16 bytes (the caller's promise).
        let q = unsafe { rows[0].cast::<[u8; 16]>().read_unaligned() };
        std::array::from_fn(|i| Four(std::array::from_fn(|l| q4_1_value(&q, 4 * i + l) as f32)))
    }

    #[inline(always)]
    unsafe fn q8_0(_: (), rows: Rows<u8>) -> [Self; 8] {
        // SAFETY: 32 bytes (the caller's promise).
        let q = unsafe { rows[0].cast::<[u8; 32]>().read_unaligned() };
        std::array::from_fn(|i| Four(std::array::from_fn(|l| (q[4 * i + l] as i8) as f32)))
    }

    #[inline(always)]
    fn sum_lanes(self) -> [f32; 4] {
        sum_stored(self.0)
    }
}

/// Tokens per micro-kernel: four running vectors beside a block's nine, within 16 registers.
const TOKENS: usize = 4;

pub fn dequantize_q8_0(d: f32, quants: &[u8], out: &mut [f32]) {
    for (y, &q) in out.iter_mut().zip(quants) {
        *y = (q as i8) as f32 * d;
    }
}

pub fn dequantize_q4_1(d: f32, m: f32, quants: &[u8], out: &mut [f32]) {
    for (j, y) in out[..BLOCK].iter_mut().enumerate() {
        *y = q4_1_value(quants, j) as f32 * d + m;
    }
}

/// `y[i] += Σ_j p[j] · values[j · stride + i]`, `j` by `j`: the reference `values.rs`
/// keeps.
pub fn weighted_sum(p: &[f32], values: &[f32], stride: usize, y: &mut [f32]) {
    for (j, p) in p.iter().enumerate() {
        for (y, v) in y.iter_mut().zip(&values[j * stride..]) {
            *y += p * v;
        }
    }
}

/// libm's `expf` of each value: the reference `expf.rs` keeps.
pub fn expf(xs: &mut [f32]) {
    for x in xs {
        *x = libm::expf(*x);
    }
}

/// SwiGLU's `g / (expf(−g) + 1) · u`, value by value with libm: the reference `expf.rs`
/// keeps.
pub fn silu_mul(g: &[f32], u: &[f32], out: &mut [f32]) {
    for ((g, u), y) in g.iter().zip(u).zip(out) {
        *y = g / (libm::expf(-g) + 1.0) * u;
    }
}

super::entries!(Four, TOKENS);
