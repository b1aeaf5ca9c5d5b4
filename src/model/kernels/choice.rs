//! Which implementation of the contract runs: the best this build and this CPU have, found once
//! (natively from the CPU's features at run time), unless a test asks for another. All of them
//! give the same bits, so the choice only ever changes the speed.

use super::{check_dense, check_q4_1, check_q8_0, portable};
use std::sync::atomic::{AtomicU8, Ordering};

/// Calls `$f` of the implementation `$k` names, after checking that the CPU runs it.
macro_rules! dispatch {
    ($k:expr, $f:ident($($arg:expr),*)) => {{
        let k: Kernels = $k;
        assert!(k.supported(), "this CPU or build has no {} kernels", k.name());
        match k {
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Kernels::Simd128 => super::simd128::$f($($arg),*),
            #[cfg(target_arch = "x86_64")]
            Kernels::Avx2 => super::avx2::$f($($arg),*),
            #[cfg(target_arch = "x86_64")]
            Kernels::Avx512 => super::avx512::$f($($arg),*),
            #[cfg(target_arch = "aarch64")]
            Kernels::Neon => super::neon::$f($($arg),*),
            _ => portable::$f($($arg),*),
        }
    }};
}

/// One implementation of the contract.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernels {
    /// Plain Rust, every target: the reference.
    Portable,
    /// Explicit wasm SIMD, what the page runs (every wasm build of this crate has `+simd128`).
    Simd128,
    /// x86-64 with AVX2: two rows' lanes per 256-bit vector.
    Avx2,
    /// x86-64 with AVX-512 (F and BW): four rows' lanes per 512-bit vector, 32 registers.
    Avx512,
    /// aarch64's Advanced SIMD: one row's lanes per 128-bit vector, 32 registers.
    Neon,
}

impl Kernels {
    /// Every implementation, the reference first.
    pub const ALL: [Kernels; 5] = [
        Kernels::Portable,
        Kernels::Simd128,
        Kernels::Avx2,
        Kernels::Avx512,
        Kernels::Neon,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Kernels::Portable => "portable",
            Kernels::Simd128 => "simd128",
            Kernels::Avx2 => "avx2",
            Kernels::Avx512 => "avx512",
            Kernels::Neon => "neon",
        }
    }

    /// Whether this build holds it and this CPU runs it.
    pub fn supported(self) -> bool {
        match self {
            Kernels::Portable => true,
            Kernels::Simd128 => cfg!(all(target_arch = "wasm32", target_feature = "simd128")),
            #[cfg(target_arch = "x86_64")]
            Kernels::Avx2 => std::arch::is_x86_feature_detected!("avx2"),
            #[cfg(target_arch = "x86_64")]
            Kernels::Avx512 => {
                std::arch::is_x86_feature_detected!("avx512f") && std::arch::is_x86_feature_detected!("avx512bw")
            }
            #[cfg(target_arch = "aarch64")]
            Kernels::Neon => std::arch::is_aarch64_feature_detected!("neon"),
            #[allow(unreachable_patterns)]
            _ => false,
        }
    }

    /// The fastest this build and CPU run: the widest vector (on x86-64, AVX-512's four rows per
    /// vector and 32 registers before AVX2's two rows and 16).
    pub fn best() -> Kernels {
        [Kernels::Avx512, Kernels::Avx2, Kernels::Neon, Kernels::Simd128]
            .into_iter()
            .find(|k| k.supported())
            .unwrap_or(Kernels::Portable)
    }

    fn index(self) -> u8 {
        Kernels::ALL.iter().position(|&k| k == self).expect("listed") as u8
    }

    /// See [`q8_0_product`](super::q8_0_product); panics where this CPU lacks the instruction set.
    pub fn q8_0_product(self, d: &[f32], quants: &[u8], cols: usize, xs: &[f32], out: &mut [f32]) {
        check_q8_0(d, quants, cols, xs, out);
        // SAFETY: sizes checked above; `implementation` checks the CPU.
        unsafe { dispatch!(self, q8_0_product(d, quants, cols, xs, out)) }
    }

    /// See [`q4_1_product`](super::q4_1_product).
    pub fn q4_1_product(self, dm: &[f32], quants: &[u8], cols: usize, xs: &[f32], sums: &[f32], out: &mut [f32]) {
        check_q4_1(dm, quants, cols, xs, sums, out);
        // SAFETY: as above.
        unsafe { dispatch!(self, q4_1_product(dm, quants, cols, xs, sums, out)) }
    }

    /// See [`expf`](super::expf).
    pub fn expf(self, xs: &mut [f32]) {
        // SAFETY: the CPU is checked in `dispatch`; the kernels read through slices.
        #[allow(unused_unsafe)]
        unsafe {
            dispatch!(self, expf(xs))
        }
    }

    /// See [`weighted_sum`](super::weighted_sum).
    pub fn weighted_sum(self, p: &[f32], values: &[f32], stride: usize, y: &mut [f32]) {
        assert!(y.len() <= stride && values.len() >= p.len().saturating_sub(1) * stride + y.len());
        // SAFETY: the CPU is checked in `dispatch`; the kernels read through slices.
        #[allow(unused_unsafe)]
        unsafe {
            dispatch!(self, weighted_sum(p, values, stride, y))
        }
    }

    /// See [`silu_mul`](super::silu_mul).
    pub fn silu_mul(self, g: &[f32], u: &[f32], out: &mut [f32]) {
        assert!(g.len() == out.len() && u.len() == out.len());
        // SAFETY: the CPU is checked in `dispatch`; the kernels read through slices.
        #[allow(unused_unsafe)]
        unsafe {
            dispatch!(self, silu_mul(g, u, out))
        }
    }

    /// See [`f32_product`](super::f32_product).
    pub fn f32_product(self, w: &[f32], cols: usize, xs: &[f32], out: &mut [f32]) {
        check_dense(w, cols, xs, out);
        // SAFETY: as above.
        unsafe { dispatch!(self, f32_product(w, cols, xs, out)) }
    }
}

impl std::fmt::Display for Kernels {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// 0 until chosen, else the chosen implementation's index + 1.
static ACTIVE: AtomicU8 = AtomicU8::new(0);

/// The implementation the products run on now.
#[inline]
pub fn active() -> Kernels {
    match ACTIVE.load(Ordering::Relaxed) {
        0 => {
            let best = Kernels::best();
            ACTIVE.store(best.index() + 1, Ordering::Relaxed);
            best
        }
        i => Kernels::ALL[i as usize - 1],
    }
}

/// Runs every product on `kernels` (`None`: the best again), for the tests' whole forward passes
/// on each implementation. Panics if this CPU or build lacks it.
pub fn force(kernels: Option<Kernels>) {
    let k = kernels.unwrap_or_else(Kernels::best);
    assert!(k.supported(), "this CPU or build has no {} kernels", k.name());
    ACTIVE.store(k.index() + 1, Ordering::Relaxed);
}

/// Runs every kernel on [`portable`] (or back on the best), the tests' way to run one forward
/// pass both ways.
pub fn force_portable(on: bool) {
    force(on.then_some(Kernels::Portable));
}
