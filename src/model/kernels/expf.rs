//! libm's `expf` over a vector of lanes, with libm's bits: the attention's `e^(s − max)` and
//! SwiGLU's `silu(g) · u = g / (expf(−g) + 1) · u`.
//!
//! libm's `expf` (FreeBSD's, which libm 0.2 ships) is f32 arithmetic and three branches on `|x|`.
//! Here every lane computes the branches' common formula — libm's own operations in libm's order —
//! and keeps its branch's result, so a vector unit runs it and each lane rounds as libm does. A
//! vector with a lane libm treats apart (NaN, an overflow or an underflow: `|x| ≥ 87.34`) goes
//! value by value through libm itself. `portable::expf` and `portable::silu_mul` are the
//! references: libm per value.

/// ln 2, split so that `k · LN2_HI` is exact, and 1 / ln 2 (libm's constants, by their bits).
const LN2_HI: f32 = f32::from_bits(0x3f31_7200);
const LN2_LO: f32 = f32::from_bits(0x35bf_be8e);
const INV_LN2: f32 = f32::from_bits(0x3fb8_aa3b);
/// libm's polynomial on the reduced range.
const P1: f32 = f32::from_bits(0x3e2a_aa8f);
const P2: f32 = f32::from_bits(0xbb35_5215);

/// `|x|`'s bits from which libm's `expf` overflows, underflows or is NaN.
const SPECIAL: u32 = 0x42ae_ac50;

/// libm's `expf(x)` for an `x` below [`SPECIAL`].
#[inline(always)]
fn expf_regular(x: f32) -> f32 {
    let bits = x.to_bits();
    let ax = bits & 0x7fff_ffff;
    let negative = bits >> 31 != 0;
    // libm's reduction: k from x / ln 2 past 1.5 ln 2, ±1 past 0.5 ln 2, else 0 (for which the
    // formula below leaves x as it is, as libm's third branch does).
    let far = (INV_LN2 * x + if negative { -0.5 } else { 0.5 }) as i32;
    let near = if negative { -1 } else { 1 };
    let k = if ax > 0x3f85_1592 {
        far
    } else if ax > 0x3eb1_7218 {
        near
    } else {
        0
    };
    let kf = k as f32;
    let hi = x - kf * LN2_HI;
    let lo = kf * LN2_LO;
    let r = hi - lo;
    let rr = r * r;
    let c = r - rr * (P1 + rr * P2);
    let y = 1.0 + (r * c / (2.0 - c) - lo + hi);
    // libm's scalbnf(y, k): k is within [-126, 126] below SPECIAL, so 2^k is a normal number and
    // one multiply is the whole of it (k = 0 multiplies by 1).
    let scaled = y * f32::from_bits(((0x7f + k) as u32) << 23);
    // Tiny |x|: libm returns 1 + x.
    if ax > 0x3900_0000 {
        scaled
    } else {
        1.0 + x
    }
}

/// Whether libm treats one of `xs` apart (see [`SPECIAL`]).
#[inline(always)]
fn special(xs: &[f32]) -> bool {
    xs.iter()
        .fold(false, |any, x| any | (x.to_bits() & 0x7fff_ffff >= SPECIAL))
}

/// `xs[i] = expf(xs[i])`, `N` values at a time.
#[inline(always)]
pub(super) fn exp_lanes<const N: usize>(xs: &mut [f32]) {
    let whole = xs.len() / N * N;
    let (vectors, rest) = xs.split_at_mut(whole);
    for x in vectors.chunks_exact_mut(N) {
        if special(x) {
            super::portable::expf(x);
            continue;
        }
        for x in x.iter_mut() {
            *x = expf_regular(*x);
        }
    }
    super::portable::expf(rest);
}

/// `out[i] = g[i] / (expf(−g[i]) + 1) · u[i]`, `N` values at a time.
#[inline(always)]
pub(super) fn silu_lanes<const N: usize>(g: &[f32], u: &[f32], out: &mut [f32]) {
    let whole = out.len() / N * N;
    let (vectors, rest) = out.split_at_mut(whole);
    for ((g, u), y) in g
        .chunks_exact(N)
        .zip(u.chunks_exact(N))
        .zip(vectors.chunks_exact_mut(N))
    {
        if special(g) {
            super::portable::silu_mul(g, u, y);
            continue;
        }
        for ((g, u), y) in g.iter().zip(u).zip(y.iter_mut()) {
            *y = g / (expf_regular(-g) + 1.0) * u;
        }
    }
    super::portable::silu_mul(&g[whole..], &u[whole..], rest);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every value near one of libm's thresholds, and a sweep of the rest.
    fn values() -> impl Iterator<Item = f32> {
        let thresholds = [0x3900_0000u32, 0x3eb1_7218, 0x3f85_1592, SPECIAL];
        let near = thresholds.into_iter().flat_map(|t| t - 64..t + 64);
        near.chain((0..SPECIAL).step_by(557))
            .flat_map(|b| [f32::from_bits(b), -f32::from_bits(b)])
    }

    #[test]
    fn the_regular_expf_is_libms_bit_for_bit_below_its_special_range() {
        for x in values().filter(|x| x.to_bits() & 0x7fff_ffff < SPECIAL) {
            assert_eq!(expf_regular(x).to_bits(), libm::expf(x).to_bits(), "expf({x:e})");
        }
    }

    /// Every one of the 2.2 billion: ~30 s in a release build (`cargo test --release --lib --
    /// --ignored every_f32`), for a change of libm's version or of this file.
    #[test]
    #[ignore = "every f32 below the special range: run it by name in a release build"]
    fn every_f32_below_the_special_range_has_libms_bits() {
        for bits in 0..SPECIAL {
            for x in [f32::from_bits(bits), -f32::from_bits(bits)] {
                assert_eq!(expf_regular(x).to_bits(), libm::expf(x).to_bits(), "expf({x:e})");
            }
        }
    }
}
