//! The kernels with AVX-512 (x86-64 with F and BW, chosen at run time): four rows' four lanes per
//! 512-bit vector, row `r + g` in the vector's 128-bit part `g`, so each part does exactly what a
//! 128-bit implementation does for one row; 32 registers hold a block and eight tokens' running
//! lanes. Only `vmulps` and `vaddps` touch the values (no fused multiply-add, no horizontal add).
//! A block's bytes become lanes with `vpshufb` as in [`super::avx2`]: byte `4i + k` of each row
//! into lane `k` of vector `i`.

use super::lanes::{sum_stored, Lanes, Rows};
use core::arch::x86_64::*;

/// Four rows' four lanes.
#[derive(Clone, Copy)]
pub(super) struct Avx512(__m512);

/// For vector `i` of a 16-byte run, bytes `4i..4i + 4` of each 128-bit part, one per 32-bit lane:
/// at the lane's low byte (`top` false: unsigned, zero above) or its high byte (`top`: then
/// shifted down arithmetically, which sign-extends).
#[inline(always)]
fn spread(i: usize, top: bool) -> [i8; 16] {
    std::array::from_fn(|b| match (b % 4 == if top { 3 } else { 0 }, 4 * i + b / 4) {
        (true, source) => source as i8,
        (false, _) => -128,
    })
}

/// The mask of [`spread`] in every 128-bit part.
///
/// # Safety
/// Only inside a function compiled with AVX-512 F.
#[inline(always)]
unsafe fn mask(i: usize, top: bool) -> __m512i {
    let m = spread(i, top);
    // SAFETY: AVX-512 F (the caller's promise); 16 bytes from a local array.
    unsafe { _mm512_broadcast_i32x4(_mm_loadu_si128(m.as_ptr() as *const __m128i)) }
}

/// 16 bytes from each of four rows, row `g` in 128-bit part `g`.
///
/// # Safety
/// AVX-512 F; each pointer valid for 16 reads.
#[inline(always)]
unsafe fn bytes4(rows: Rows<u8>, at: usize) -> __m512i {
    // SAFETY: the caller's promise.
    unsafe {
        let part = |g: usize| _mm_loadu_si128(rows[g].add(at) as *const __m128i);
        let v = _mm512_castsi128_si512(part(0));
        let v = _mm512_inserti32x4::<1>(v, part(1));
        let v = _mm512_inserti32x4::<2>(v, part(2));
        _mm512_inserti32x4::<3>(v, part(3))
    }
}

/// Four f32 vectors of four lanes as one, part `g` from `parts[g]`.
///
/// # Safety
/// AVX-512 F.
#[inline(always)]
unsafe fn join(parts: [__m128; 4]) -> __m512 {
    // SAFETY: the caller's promise.
    unsafe {
        let v = _mm512_castps128_ps512(parts[0]);
        let v = _mm512_insertf32x4::<1>(v, parts[1]);
        let v = _mm512_insertf32x4::<2>(v, parts[2]);
        _mm512_insertf32x4::<3>(v, parts[3])
    }
}

// SAFETY: instantiated only inside `#[target_feature(enable = "avx512f,avx512bw")]` functions,
// which the dispatcher calls only where the CPU has both.
unsafe impl Lanes for Avx512 {
    const ROWS: usize = 4;

    #[inline(always)]
    fn zero() -> Self {
        // SAFETY: AVX-512 F (see the impl).
        Avx512(unsafe { _mm512_setzero_ps() })
    }

    #[inline(always)]
    fn add(self, other: Self) -> Self {
        // SAFETY: AVX-512 F (see the impl).
        Avx512(unsafe { _mm512_add_ps(self.0, other.0) })
    }

    #[inline(always)]
    fn mul(self, other: Self) -> Self {
        // SAFETY: AVX-512 F (see the impl).
        Avx512(unsafe { _mm512_mul_ps(self.0, other.0) })
    }

    #[inline(always)]
    unsafe fn load(p: *const f32) -> Self {
        // SAFETY: sixteen values (the caller's promise), unaligned load.
        Avx512(unsafe { _mm512_loadu_ps(p) })
    }

    #[inline(always)]
    unsafe fn store(self, p: *mut f32) {
        // SAFETY: as in `load`.
        unsafe { _mm512_storeu_ps(p, self.0) }
    }

    #[inline(always)]
    unsafe fn load_x(x: *const f32) -> Self {
        // SAFETY: four values (the caller's promise).
        Avx512(unsafe { _mm512_broadcast_f32x4(_mm_loadu_ps(x)) })
    }

    #[inline(always)]
    unsafe fn load_rows(rows: Rows<f32>) -> Self {
        // SAFETY: four values from each of the four rows (the caller's promise).
        Avx512(unsafe { join([0, 1, 2, 3].map(|g| _mm_loadu_ps(rows[g]))) })
    }

    #[inline(always)]
    unsafe fn splat_rows(rows: Rows<f32>) -> Self {
        // SAFETY: one value from each of the four rows (the caller's promise).
        Avx512(unsafe { join([0, 1, 2, 3].map(|g| _mm_set1_ps(*rows[g]))) })
    }

    type Masks = ();

    #[inline(always)]
    fn masks() {}

    #[inline(always)]
    unsafe fn q4_1(_: (), rows: Rows<u8>) -> [Self; 8] {
        // SAFETY: 16 bytes from each of the four rows (the caller's promise); AVX-512 F and BW.
        unsafe {
            let bytes = bytes4(rows, 0);
            let nibble = _mm512_set1_epi8(0x0F);
            let low = _mm512_and_si512(bytes, nibble);
            let high = _mm512_and_si512(_mm512_srli_epi16::<4>(bytes), nibble);
            let lanes = |v: __m512i, i: usize| Avx512(_mm512_cvtepi32_ps(_mm512_shuffle_epi8(v, mask(i, false))));
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
        // SAFETY: 32 bytes from each of the four rows (the caller's promise); AVX-512 F and BW.
        unsafe {
            let (first, second) = (bytes4(rows, 0), bytes4(rows, 16));
            let lanes = |v: __m512i, i: usize| {
                Avx512(_mm512_cvtepi32_ps(_mm512_srai_epi32::<24>(_mm512_shuffle_epi8(
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
        let mut lanes = [0f32; 16];
        // SAFETY: AVX-512 F (see the impl); sixteen values into a local array.
        unsafe { _mm512_storeu_ps(lanes.as_mut_ptr(), self.0) };
        sum_stored(lanes)
    }
}

/// Tokens per micro-kernel: a block's nine vectors and eight running ones, of 32 registers.
const TOKENS: usize = 8;

// The element-wise kernels, sixteen lanes per vector.
super::vector_entries!(
    #[target_feature(enable = "avx512f,avx512bw")]
    16
);

super::entries!(
    #[target_feature(enable = "avx512f,avx512bw")]
    Avx512,
    TOKENS
);
