//! What transformers' `generate()` samples from, and how to sample exactly that with candle.
//!
//! Port `model.generate(do_sample=True, temperature=0.7, top_k=40, top_p=0.9)` to candle and it
//! looks like one line: `Sampling::TopKThenTopP { k: 40, p: 0.9, temperature: 0.7 }`. It is
//! silently a different distribution. transformers fills `top_k=50` when it is not passed,
//! measures top-p on the mass top-k *left* (renormalised), and keeps every token tied with the
//! k-th score; candle's `LogitsProcessor` has no implicit top-k, measures top-p against the whole
//! mass (and skips it when the top-k hold less than p), and keeps exactly k. This crate gives a
//! candle program transformers' distribution — a real `LogitsProcessor`, set up by
//! [`CandlePort::corrected`] — and says, for any step's logits, what transformers, the literal
//! port and other runtimes sample from, and why they differ.
//!
//! # Sample what `generate()` samples, with candle
//!
//! ```
//! use candle_core::{Device, Tensor};
//! use sampling_lab_core::{CandlePort, GenerateArgs};
//!
//! // The keyword arguments exactly as the Python call passes them (a missing key: not passed).
//! let args = GenerateArgs::from_json_str(r#"{"do_sample": true, "temperature": 0.7, "top_k": 40, "top_p": 0.9}"#)?;
//! let port = CandlePort::corrected(&args, None)?;
//! assert_eq!(
//!     port.to_string(),
//!     "Sampling::TopP { p: 0.9, temperature: 0.7 } + sample_f(|prs| { top_k_keeping_ties(prs, 40) })"
//! );
//!
//! let mut processor = port.processor(42); // candle's own LogitsProcessor, seeded
//! let logits = Tensor::new(&[4.0f32, 3.5, 3.5, 1.0, -2.0], &Device::Cpu)?; // one step's logits
//! let context: Vec<u32> = vec![1, 2]; // every id so far (penalties read them)
//! let next = port.sample(&mut processor, &logits, &context)?;
//! assert!(next < 5);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! A call transformers refuses is refused here with its own `ValueError` text
//! ([`SamplingError::Refused`]); the literal port ([`LiteralPort`]) shows what candle silently
//! does with it instead. [`CandlePort::program`] writes the same set-up as the Rust a user pastes.
//!
//! # Every column at one step
//!
//! ```
//! use sampling_lab_core::{columns, Analysis, GenerateArgs, Inspection, Lang};
//!
//! let args = GenerateArgs::from_json_str(r#"{"do_sample": true, "temperature": 0.7}"#)?;
//! let logits: Vec<f32> = (0..100).map(|i| -(i as f32) * 0.05).collect();
//! let analysis = Analysis::run(&Inspection::new(logits, args, None, vec![])?);
//! // transformers' implicit top_k=50; the literal port keeps all 100 tokens.
//! assert_eq!(analysis.distribution(columns::hf::NAME).unwrap().kept(), 50);
//! assert_eq!(analysis.distribution(columns::literal::NAME).unwrap().kept(), 100);
//! assert_eq!(analysis.causes_of(columns::literal::NAME)[0].rule.name(), "implicit_top_k");
//! // What `sampling-lab inspect` prints; its sentences in English or Chinese, their ids the same.
//! let report = serde_json::to_value(analysis.report(Lang::ZhHans, &[columns::literal::NAME]))?;
//! assert_eq!(report["corrected"]["kept"], 50);
//! assert_eq!(report["finding"]["id"], "finding-compare-1");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # How it is organised
//!
//! Four concerns, one module each, each only using those before it:
//!
//! - [`arguments`]: a call's keyword arguments and the model's `generation_config.json`, as
//!   transformers resolves and validates them ([`GenerateArgs`], [`EffectiveParams`]).
//! - [`truncation`]: transformers' truncation rules, one file each: the argument's check, what it
//!   keeps (f64), and the dependency-free f32 helper a `sample_f` closure calls.
//! - [`columns`]: one file per column (a library's sampler for the same call: [`Engine`]), in
//!   one [`columns::REGISTRY`]: transformers (`hf`), the literal and the corrected candle port,
//!   DFlash, transformers.js, llama.cpp, and the servers a port sends the call to (vLLM, SGLang,
//!   mlx-lm, Ollama); why each departs from hf, and where each system's "temperature zero" begins.
//! - [`output`]: one step under every column ([`Analysis`]), the JSON [`Report`], and Monte Carlo
//!   draws with each library's own generator ([`MonteCarlo`]).
//!
//! [`Distribution`] and [`Inspection`] are what they all speak: a distribution over the
//! vocabulary, and one step's logits with the call around them.

#![warn(missing_docs)]

pub mod arguments;
pub mod columns;
mod distribution;
mod error;
mod inspection;
pub mod output;
pub mod text;
pub mod truncation;

pub use arguments::{EffectiveParams, Field, GenerateArgs, GenerationConfig, PyValue, Source};
pub use columns::candle_port::CandlePort;
pub use columns::literal::LiteralPort;
pub use columns::{Column, ColumnName, Engine, TokenSampler};
pub use distribution::{compare, log_softmax_f64, ties_at_k, Comparison, Distribution, TokenList, EXACT_TOLERANCE};
pub use error::SamplingError;
pub use inspection::{check_logits, Inspection};
pub use output::analysis::Analysis;
pub use output::catalog::Render;
pub use output::monte_carlo::{MonteCarlo, MonteCarloRun, Part};
pub use output::port::{Port, Request};
pub use output::report::{Report, ReportOptions};
pub use text::{Lang, Message};
