//! The kernels in explicit wasm SIMD (`+simd128`, every wasm build of this crate): what the page
//! runs. One row's four lanes per `v128`; the products are [`rows`](super::rows) and
//! [`blocked`](super::blocked) over [`Lanes`], so the same contract and the same bits as
//! [`super::portable`]. A `Q8_0` block's bytes become lanes by extending them twice (i8 → i16 →
//! i32), which keeps them in order; a `Q4_1` block's, stored for this build
//! ([`super::q4_1_nibble`]), by a shift and a mask per vector.

use super::lanes::{sum_stored, Lanes, Rows};
use core::arch::wasm32::*;

#[inline(always)]
fn load_bytes(q: &[u8]) -> v128 {
    assert!(q.len() >= 16);
    // SAFETY: 16 bytes in bounds (checked above), unaligned load.
    unsafe { v128_load(q.as_ptr() as *const v128) }
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
    let ints = nibbles(load_bytes(quants), u32x4_splat(0x0F));
    let (d, m) = (f32x4_splat(d), f32x4_splat(m));
    for (p, ints) in ints.into_iter().enumerate() {
        store(out, 4 * p, scaled(ints, d, Some(m)));
    }
}

/// A `Q4_1` block's integers from the file's order (value `j` is nibble `j % 16` of the low
/// nibbles, then of the high ones) into this build's (`super::q4_1_nibble`): stored byte
/// `4k + m` holds value `8m + k` in its low nibble and `8m + 4 + k` in its high one.
pub fn store_q4_1(file: &[u8], out: &mut [u8]) {
    assert!(out.len() >= 16);
    let bytes = load_bytes(file);
    let (low, high) = (v128_and(bytes, u8x16_splat(0x0F)), u8x16_shr(bytes, 4));
    let first = i8x16_shuffle::<0, 8, 16, 24, 1, 9, 17, 25, 2, 10, 18, 26, 3, 11, 19, 27>(low, high);
    let second = i8x16_shuffle::<4, 12, 20, 28, 5, 13, 21, 29, 6, 14, 22, 30, 7, 15, 23, 31>(low, high);
    // Each byte of `second` is below 16: a 16-bit shift moves no bits into the next byte.
    // SAFETY: 16 bytes in bounds (checked above); v128_store has no alignment requirement.
    unsafe { v128_store(out.as_mut_ptr() as *mut v128, v128_or(first, u16x8_shl(second, 4))) }
}

/// A stored `Q4_1` block's eight vectors of integers (`super::q4_1_nibble`: nibble `p` of 32-bit
/// lane `k` is value `4p + k`): the lanes shifted right by `4p` and masked.
#[inline(always)]
fn nibbles(bytes: v128, low: v128) -> [v128; 8] {
    [
        v128_and(bytes, low),
        v128_and(u32x4_shr(bytes, 4), low),
        v128_and(u32x4_shr(bytes, 8), low),
        v128_and(u32x4_shr(bytes, 12), low),
        v128_and(u32x4_shr(bytes, 16), low),
        v128_and(u32x4_shr(bytes, 20), low),
        v128_and(u32x4_shr(bytes, 24), low),
        u32x4_shr(bytes, 28),
    ]
}

/// One row's four lanes.
#[derive(Clone, Copy)]
pub(super) struct Simd(v128);

// SAFETY: every wasm build of this crate has simd128 (this module is compiled only then).
unsafe impl Lanes for Simd {
    const ROWS: usize = 1;

    #[inline(always)]
    fn zero() -> Self {
        Simd(f32x4_splat(0.0))
    }

    #[inline(always)]
    fn add(self, other: Self) -> Self {
        Simd(f32x4_add(self.0, other.0))
    }

    #[inline(always)]
    fn mul(self, other: Self) -> Self {
        Simd(f32x4_mul(self.0, other.0))
    }

    #[inline(always)]
    unsafe fn load(p: *const f32) -> Self {
        // SAFETY: four values (the caller's promise); v128_load has no alignment requirement.
        Simd(unsafe { v128_load(p as *const v128) })
    }

    #[inline(always)]
    unsafe fn store(self, p: *mut f32) {
        // SAFETY: as in `load`.
        unsafe { v128_store(p as *mut v128, self.0) }
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
        Simd(unsafe { v128_load32_splat(rows[0] as *const u32) })
    }

    /// The low nibble of each 32-bit lane, opaque to the compiler so that it stays a value, not
    /// a constant.
    type Masks = v128;

    #[inline(always)]
    fn masks() -> v128 {
        std::hint::black_box(u32x4_splat(0x0F))
    }

    #[inline(always)]
    unsafe fn q4_1(low: v128, rows: Rows<u8>) -> [Self; 8] {
        // SAFETY: 16 bytes (the caller's promise).
        let bytes = unsafe { v128_load(rows[0] as *const v128) };
        nibbles(bytes, low).map(|ints| Simd(f32x4_convert_i32x4(ints)))
    }

    #[inline(always)]
    unsafe fn q8_0(_: v128, rows: Rows<u8>) -> [Self; 8] {
        // SAFETY: 32 bytes (the caller's promise).
        let (a, b) = unsafe {
            (
                v128_load(rows[0] as *const v128),
                v128_load(rows[0].add(16) as *const v128),
            )
        };
        let (a, b) = (widen_i8(a), widen_i8(b));
        std::array::from_fn(|i| Simd(f32x4_convert_i32x4(if i < 4 { a[i] } else { b[i - 4] })))
    }

    #[inline(always)]
    fn sum_lanes(self) -> [f32; 4] {
        let v = self.0;
        sum_stored([
            f32x4_extract_lane::<0>(v),
            f32x4_extract_lane::<1>(v),
            f32x4_extract_lane::<2>(v),
            f32x4_extract_lane::<3>(v),
        ])
    }
}

/// Tokens per micro-kernel: V8 gives wasm 16 vector registers on x86-64; a block's nine and
/// four running vectors fit beside the products in flight.
const TOKENS: usize = 4;

// The element-wise kernels, four lanes per vector (the build's `+simd128`).
super::vector_entries!(4);

super::entries!(Simd, TOKENS);
