//! The kernels with aarch64's Advanced SIMD (every aarch64 CPU has it): one row's four lanes
//! per 128-bit vector, as simd128 does in the page, with 32 registers for a block and eight
//! tokens' running lanes. Only `fmul` and `fadd` touch the values: no `fmla` (fused), no
//! pairwise adds. A block's bytes become lanes by widening them twice (u8 → u16 → u32), in order.

use super::lanes::{sum_stored, Lanes, Rows};
use core::arch::aarch64::*;

/// One row's four lanes.
#[derive(Clone, Copy)]
pub(super) struct Neon(float32x4_t);

/// 16 unsigned bytes as four vectors of their values, in order.
///
/// # Safety
/// Only inside a function compiled with NEON.
#[inline(always)]
unsafe fn widen_u8(bytes: uint8x16_t) -> [float32x4_t; 4] {
    // SAFETY: NEON (the caller's promise).
    unsafe {
        let (a, b) = (vmovl_u8(vget_low_u8(bytes)), vmovl_high_u8(bytes));
        [
            vcvtq_f32_u32(vmovl_u16(vget_low_u16(a))),
            vcvtq_f32_u32(vmovl_high_u16(a)),
            vcvtq_f32_u32(vmovl_u16(vget_low_u16(b))),
            vcvtq_f32_u32(vmovl_high_u16(b)),
        ]
    }
}

/// 16 signed bytes as four vectors of their values, in order.
///
/// # Safety
/// Only inside a function compiled with NEON.
#[inline(always)]
unsafe fn widen_i8(bytes: int8x16_t) -> [float32x4_t; 4] {
    // SAFETY: NEON (the caller's promise).
    unsafe {
        let (a, b) = (vmovl_s8(vget_low_s8(bytes)), vmovl_high_s8(bytes));
        [
            vcvtq_f32_s32(vmovl_s16(vget_low_s16(a))),
            vcvtq_f32_s32(vmovl_high_s16(a)),
            vcvtq_f32_s32(vmovl_s16(vget_low_s16(b))),
            vcvtq_f32_s32(vmovl_high_s16(b)),
        ]
    }
}

// SAFETY: instantiated only inside `#[target_feature(enable = "neon")]` functions, which the
// dispatcher calls only where the CPU has NEON (every aarch64 CPU).
unsafe impl Lanes for Neon {
    const ROWS: usize = 1;

    #[inline(always)]
    fn zero() -> Self {
        // SAFETY: NEON (see the impl).
        Neon(unsafe { vdupq_n_f32(0.0) })
    }

    #[inline(always)]
    fn add(self, other: Self) -> Self {
        // SAFETY: NEON (see the impl).
        Neon(unsafe { vaddq_f32(self.0, other.0) })
    }

    #[inline(always)]
    fn mul(self, other: Self) -> Self {
        // SAFETY: NEON (see the impl).
        Neon(unsafe { vmulq_f32(self.0, other.0) })
    }

    #[inline(always)]
    unsafe fn load(p: *const f32) -> Self {
        // SAFETY: four values (the caller's promise); ld1 has no alignment requirement.
        Neon(unsafe { vld1q_f32(p) })
    }

    #[inline(always)]
    unsafe fn store(self, p: *mut f32) {
        // SAFETY: as in `load`.
        unsafe { vst1q_f32(p, self.0) }
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
        Neon(unsafe { vld1q_dup_f32(rows[0]) })
    }

    type Masks = ();

    #[inline(always)]
    fn masks() {}

    #[inline(always)]
    unsafe fn q4_1(_: (), rows: Rows<u8>) -> [Self; 8] {
        // SAFETY: 16 bytes (the caller's promise); NEON.
        unsafe {
            let bytes = vld1q_u8(rows[0]);
            let low = widen_u8(vandq_u8(bytes, vdupq_n_u8(0x0F)));
            let high = widen_u8(vshrq_n_u8::<4>(bytes));
            [low[0], low[1], low[2], low[3], high[0], high[1], high[2], high[3]].map(Neon)
        }
    }

    #[inline(always)]
    unsafe fn q8_0(_: (), rows: Rows<u8>) -> [Self; 8] {
        // SAFETY: 32 bytes (the caller's promise); NEON.
        unsafe {
            let first = widen_i8(vld1q_s8(rows[0] as *const i8));
            let second = widen_i8(vld1q_s8(rows[0].add(16) as *const i8));
            [
                first[0], first[1], first[2], first[3], second[0], second[1], second[2], second[3],
            ]
            .map(Neon)
        }
    }

    #[inline(always)]
    fn sum_lanes(self) -> [f32; 4] {
        let mut lanes = [0f32; 4];
        // SAFETY: NEON (see the impl); four values into a local array.
        unsafe { vst1q_f32(lanes.as_mut_ptr(), self.0) };
        sum_stored(lanes)
    }
}

/// Tokens per micro-kernel: a block's nine vectors and eight running ones, of 32 registers.
const TOKENS: usize = 8;

// The element-wise kernels, four lanes per vector.
super::vector_entries!(
    #[target_feature(enable = "neon")]
    4
);

super::entries!(
    #[target_feature(enable = "neon")]
    Neon,
    TOKENS
);
