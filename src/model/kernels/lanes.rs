//! What an instruction set must provide to run the contract: a vector of the contract's four
//! lanes for each of `ROWS` matrix rows side by side (row `g` in lanes `4g..4g + 4`), its adds
//! and multiplies, and the loads that put a row's values where the contract wants them. The
//! products themselves ([`rows`](super::rows), [`blocked`](super::blocked)) are written once over
//! this trait, so that every instruction set adds in the same order by construction: only how
//! wide a vector is, and how bytes become lanes, differ between them.
//!
//! Every method is `#[inline(always)]`, and so is the generic code above it, so that an entry
//! point compiled for an instruction set (`#[target_feature(enable = "avx2")]`, say) holds the
//! whole product and its intrinsics inline.

/// Row pointers for the loads below: the first [`Lanes::ROWS`] are read. A group with fewer real
/// rows repeats its last one (its outputs are computed and dropped).
pub(super) type Rows<T> = [*const T; 4];

/// `4 · ROWS` f32 lanes: the contract's four lanes of each of `ROWS` rows.
///
/// # Safety
/// Implementations are only instantiated inside functions compiled with their instruction set,
/// which the dispatcher calls only where the CPU has it; every pointer passed must be valid for
/// the reads and writes the method documents.
pub(super) unsafe trait Lanes: Copy {
    /// Matrix rows per vector.
    const ROWS: usize;
    /// f32 values per vector.
    const WIDTH: usize = 4 * Self::ROWS;

    fn zero() -> Self;
    /// Lane by lane, one IEEE addition each.
    fn add(self, other: Self) -> Self;
    /// Lane by lane, one IEEE multiplication each (never fused with an addition).
    fn mul(self, other: Self) -> Self;
    /// `WIDTH` consecutive values.
    unsafe fn load(p: *const f32) -> Self;
    unsafe fn store(self, p: *mut f32);
    /// `x[0..4]` in every row's four lanes.
    unsafe fn load_x(x: *const f32) -> Self;
    /// Four values from each row.
    unsafe fn load_rows(rows: Rows<f32>) -> Self;
    /// One value from each row, in all four of its lanes.
    unsafe fn splat_rows(rows: Rows<f32>) -> Self;
    /// What widening a block needs held in registers, made once per product ([`Lanes::masks`]):
    /// V8 makes a wasm constant again at every use inside a loop (three instructions for a
    /// 0x0F mask), a value made before the loop it keeps in a register. `()` where the compiler
    /// hoists constants itself.
    type Masks: Copy;
    fn masks() -> Self::Masks;
    /// A `Q4_1` block's 16 bytes from each row, as eight vectors: vector `i` holds the block's
    /// values `4i..4i + 4` (where [`q4_1_nibble`](super::q4_1_nibble) keeps them), widened exactly.
    unsafe fn q4_1(masks: Self::Masks, rows: Rows<u8>) -> [Self; 8];
    /// A `Q8_0` block's 32 bytes (i8) from each row, the same way.
    unsafe fn q8_0(masks: Self::Masks, rows: Rows<u8>) -> [Self; 8];
    /// Per row `g < ROWS`: `((l₀ + l₁) + l₂) + l₃` of its four lanes.
    fn sum_lanes(self) -> [f32; 4];
}

/// Sums a vector's lanes row by row through memory, in the contract's order: for instruction
/// sets without a cheaper way that keeps it.
#[inline(always)]
pub(super) fn sum_stored<const N: usize>(lanes: [f32; N]) -> [f32; 4] {
    std::array::from_fn(|g| match lanes.get(4 * g..4 * g + 4) {
        Some(l) => ((l[0] + l[1]) + l[2]) + l[3],
        None => 0.0,
    })
}

/// The 32 values of a block (eight vectors `w`) times `x[0..32]`: each group of 16 as
/// `(g₀ + g₁) + (g₂ + g₃)` lane by lane, and the block's two groups added.
///
/// # Safety
/// `x` is valid for 32 reads.
#[inline(always)]
pub(super) unsafe fn block_dot<V: Lanes>(w: &[V; 8], x: *const f32) -> V {
    // SAFETY: 32 values from `x` (the caller's promise).
    let m = |i: usize| w[i].mul(unsafe { V::load_x(x.add(4 * i)) });
    let first = m(0).add(m(1)).add(m(2).add(m(3)));
    let second = m(4).add(m(5)).add(m(6).add(m(7)));
    first.add(second)
}

/// Sixteen values (four vectors `w`) times `x[0..16]`, as `(g₀ + g₁) + (g₂ + g₃)`.
///
/// # Safety
/// `x` is valid for 16 reads.
#[inline(always)]
pub(super) unsafe fn group_dot<V: Lanes>(w: &[V; 4], x: *const f32) -> V {
    // SAFETY: 16 values from `x` (the caller's promise).
    let m = |i: usize| w[i].mul(unsafe { V::load_x(x.add(4 * i)) });
    m(0).add(m(1)).add(m(2).add(m(3)))
}

/// Pointers to rows `first..first + ROWS` of a matrix whose rows are `stride` elements apart,
/// at element `at` of each; rows past `last` repeat `last`.
#[inline(always)]
pub(super) fn rows_at<T>(base: *const T, first: usize, last: usize, stride: usize, at: usize) -> Rows<T> {
    // wrapping_add: only in-bounds rows are formed (each index is at most `last`).
    std::array::from_fn(|g| base.wrapping_add((first + g).min(last) * stride + at))
}
