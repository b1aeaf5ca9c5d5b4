//! The kernels with AVX2 (x86-64, chosen at run time): two rows' four lanes per 256-bit vector,
//! row `r` in the low half and row `r + 1` in the high half, so each half does exactly what a
//! 128-bit implementation does for one row. Only `vmulps` and `vaddps` touch the values (no
//! fused multiply-add, no horizontal add). A block's bytes become lanes with `vpshufb`, which puts
//! byte `4i + k` of each row into lane `k` of vector `i` — the contract's lanes, in order.

use super::lanes::{sum_stored, Lanes, Rows};
use core::arch::x86_64::*;

/// Two rows' four lanes.
#[derive(Clone, Copy)]
pub(super) struct Avx2(__m256);

/// For vector `i` of a 16-byte run, bytes `4i..4i + 4` of each half, one per 32-bit lane: at the
/// lane's low byte (`top` false: unsigned, zero above) or its high byte (`top`: then shifted down
/// arithmetically, which sign-extends).
#[inline(always)]
fn spread(i: usize, top: bool) -> [i8; 16] {
    std::array::from_fn(|b| match (b % 4 == if top { 3 } else { 0 }, 4 * i + b / 4) {
        (true, source) => source as i8,
        (false, _) => -128,
    })
}

/// The mask of [`spread`] in both halves.
///
/// # Safety
/// Only inside a function compiled with AVX2.
#[inline(always)]
unsafe fn mask(i: usize, top: bool) -> __m256i {
    let m = spread(i, top);
    // SAFETY: AVX2 (the caller's promise); 16 bytes from a local array.
    unsafe { _mm256_broadcastsi128_si256(_mm_loadu_si128(m.as_ptr() as *const __m128i)) }
}

// SAFETY: instantiated only inside `#[target_feature(enable = "avx2")]` functions, which the
// dispatcher calls only where the CPU has AVX2.
unsafe impl Lanes for Avx2 {
    const ROWS: usize = 2;

    #[inline(always)]
    fn zero() -> Self {
        // SAFETY: AVX (see the impl).
        Avx2(unsafe { _mm256_setzero_ps() })
    }

    #[inline(always)]
    fn add(self, other: Self) -> Self {
        // SAFETY: AVX (see the impl).
        Avx2(unsafe { _mm256_add_ps(self.0, other.0) })
    }

    #[inline(always)]
    fn mul(self, other: Self) -> Self {
        // SAFETY: AVX (see the impl).
        Avx2(unsafe { _mm256_mul_ps(self.0, other.0) })
    }

    #[inline(always)]
    unsafe fn load(p: *const f32) -> Self {
        // SAFETY: eight values (the caller's promise), unaligned load.
        Avx2(unsafe { _mm256_loadu_ps(p) })
    }

    #[inline(always)]
    unsafe fn store(self, p: *mut f32) {
        // SAFETY: as in `load`.
        unsafe { _mm256_storeu_ps(p, self.0) }
    }

    #[inline(always)]
    unsafe fn load_x(x: *const f32) -> Self {
        // SAFETY: four values (the caller's promise).
        unsafe {
            let v = _mm_loadu_ps(x);
            Avx2(_mm256_set_m128(v, v))
        }
    }

    #[inline(always)]
    unsafe fn load_rows(rows: Rows<f32>) -> Self {
        // SAFETY: four values from each of the first two rows (the caller's promise).
        Avx2(unsafe { _mm256_loadu2_m128(rows[1], rows[0]) })
    }

    #[inline(always)]
    unsafe fn splat_rows(rows: Rows<f32>) -> Self {
        // SAFETY: one value from each of the first two rows (the caller's promise).
        Avx2(unsafe { _mm256_set_m128(_mm_set1_ps(*rows[1]), _mm_set1_ps(*rows[0])) })
    }

    type Masks = ();

    #[inline(always)]
    fn masks() {}

    #[inline(always)]
    unsafe fn q4_1(_: (), rows: Rows<u8>) -> [Self; 8] {
        // SAFETY: 16 bytes from each of the first two rows (the caller's promise); AVX2.
        unsafe {
            let bytes = _mm256_loadu2_m128i(rows[1] as *const __m128i, rows[0] as *const __m128i);
            let nibble = _mm256_set1_epi8(0x0F);
            let low = _mm256_and_si256(bytes, nibble);
            let high = _mm256_and_si256(_mm256_srli_epi16::<4>(bytes), nibble);
            let lanes = |v: __m256i, i: usize| Avx2(_mm256_cvtepi32_ps(_mm256_shuffle_epi8(v, mask(i, false))));
            [
                lanes(low, 0),
                lanes(low, 1),
                lanes(low, 2),
                lanes(low, 3),
                lanes(high, 0),
                lanes(high, 1),
                lanes(high, 2),
                lanes(high, 3),
            ]
        }
    }

    #[inline(always)]
    unsafe fn q8_0(_: (), rows: Rows<u8>) -> [Self; 8] {
        // SAFETY: 32 bytes from each of the first two rows (the caller's promise); AVX2.
        unsafe {
            let half =
                |at: usize| _mm256_loadu2_m128i(rows[1].add(at) as *const __m128i, rows[0].add(at) as *const __m128i);
            let (first, second) = (half(0), half(16));
            let lanes = |v: __m256i, i: usize| {
                Avx2(_mm256_cvtepi32_ps(_mm256_srai_epi32::<24>(_mm256_shuffle_epi8(
                    v,
                    mask(i, true),
                ))))
            };
            [
                lanes(first, 0),
                lanes(first, 1),
                lanes(first, 2),
                lanes(first, 3),
                lanes(second, 0),
                lanes(second, 1),
                lanes(second, 2),
                lanes(second, 3),
            ]
        }
    }

    #[inline(always)]
    fn sum_lanes(self) -> [f32; 4] {
        let mut lanes = [0f32; 8];
        // SAFETY: AVX (see the impl); eight values into a local array.
        unsafe { _mm256_storeu_ps(lanes.as_mut_ptr(), self.0) };
        sum_stored(lanes)
    }
}

/// Tokens per micro-kernel: a block's nine vectors and four running ones in 16 registers.
const TOKENS: usize = 4;

// The element-wise kernels, eight lanes per vector.
super::vector_entries!(
    #[target_feature(enable = "avx2")]
    8
);

super::entries!(
    #[target_feature(enable = "avx2")]
    Avx2,
    TOKENS
);
