//! sampling-lab: the next-token distribution transformers' `generate()` samples from, next to the
//! one a literal candle port samples from and the corrected port.
//!
//! [`sampling`] is the pure core (no model, no wasm); [`model`] runs the model around it and
//! [`generation`] drives it step by step; [`logits_file`] reads logits from disk or bytes; [`untrusted`] is every entry point for outside input, as the fuzzers drive it; the
//! `wasm` module (wasm32 only) is the thin `wasm-bindgen` edge the page's worker calls.

// The threaded wasm build's pool waits with memory.atomic.wait32, whose intrinsic is not stable
// yet; that build already needs RUSTC_BOOTSTRAP for -Zbuild-std (scripts/build-wasm-threads.sh).
#![cfg_attr(
    all(target_arch = "wasm32", target_feature = "atomics"),
    feature(stdarch_wasm_atomic_wait)
)]

pub mod generation;
pub mod logits_file;
pub mod model;
pub mod sampling;
pub mod untrusted;

#[cfg(target_arch = "wasm32")]
pub mod wasm;
