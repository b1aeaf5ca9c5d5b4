//! sampling-lab: SmolLM2 (any llama) run with candle around the sampling core
//! ([`sampling_lab_core`]: what transformers' `generate()` and other runtimes sample from), for
//! the command line and, compiled to WebAssembly, for the page's worker.
//!
//! The floors, each using only those below it: the sampling core (its own crate: no model, no
//! wasm) → [`model`] (the files, the tokenizer, the chat template, the forward pass) →
//! [`generation`] (sessions, branches, the speculative loop) → the edges: the `sampling-lab`
//! command (`src/cli/`) and `wasm` (wasm32 only, the `wasm-bindgen` API the worker calls).
//! [`logits_file`] reads logits from disk or bytes, [`step_file`] a step a writer ships beside
//! their post; [`text`] says why one of them, or a request, cannot be used, in each language
//! of the catalogs; [`untrusted`] is every entry point for outside input, as the fuzzers drive it. Without the `model` feature (on by default) the crate is
//! the sampling core's wasm edge alone: the page's first, small download.

// The threaded wasm build's pool waits with memory.atomic.wait32, whose intrinsic is not stable
// yet; that build already needs RUSTC_BOOTSTRAP for -Zbuild-std (scripts/build-wasm-threads.sh).
#![cfg_attr(
    all(target_arch = "wasm32", target_feature = "atomics"),
    feature(stdarch_wasm_atomic_wait)
)]

#[cfg(feature = "model")]
pub mod generation;
pub mod logits_file;
#[cfg(feature = "model")]
pub mod model;
pub mod step_file;
pub mod text;
#[cfg(feature = "model")]
pub mod untrusted;

#[cfg(target_arch = "wasm32")]
pub mod wasm;
