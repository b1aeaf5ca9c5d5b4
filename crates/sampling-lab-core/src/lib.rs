#![doc = include_str!("../README.md")]
//!
//! # The crate's parts
//!
//! - Arguments, as transformers resolves and validates them: [`GenerateArgs`] (a call's keyword
//!   arguments), [`GenerationConfig`] (the model's `generation_config.json`) and
//!   [`EffectiveParams`] (what `generate()` then runs with, and where each value came from).
//! - Sampling with candle: [`CandlePort`] (a `LogitsProcessor` set-up, its exact distribution,
//!   its draws and its Rust), [`CandlePort::corrected`] and [`LiteralPort`]; [`truncation`] holds
//!   transformers' truncation rules as the f32 helpers a `sample_f` closure calls.
//! - The columns ([`columns`]): each one library's sampler for the same call, in one
//!   [`columns::REGISTRY`]. A [`Column`] gives its distribution at a step and a [`TokenSampler`]
//!   that generates as that library would.
//! - One step under every column: [`Inspection`] (the logits and the call), [`Analysis`] (every
//!   column against transformers, with its causes), its JSON [`Report`], [`MonteCarlo`] draws
//!   and the requests that [`Port`] the call to each runtime.
//! - A whole answer under every column: [`Answer`] keeps each step's figures for the token
//!   written there ([`AnswerStep`]) and what they add up to per column: the expected number of
//!   steps at which the column would draw a token transformers never draws, and the chance that
//!   it never does.
//! - What the crate says to readers ([`text`]): [`Message`]s with stable ids, rendered in a
//!   [`Lang`] by [`Render`].
//!
//! [`Distribution`] and [`SamplingError`] are what all of them speak.

#![warn(missing_docs)]
// Without `lab` the columns' causes, thresholds and draws are compiled but nothing reads them: the
// reports that do are the feature.
#![cfg_attr(not(feature = "lab"), allow(dead_code, unused_imports))]

pub mod arguments;
pub mod columns;
mod distribution;
mod error;
mod inspection;
#[cfg(feature = "lab")]
pub mod output;
pub mod text;
pub mod truncation;

pub use arguments::{EffectiveParams, Field, GenerateArgs, GenerationConfig, PyValue, Source};
pub use columns::candle_port::CandlePort;
pub use columns::literal::LiteralPort;
pub use columns::{Column, ColumnName, TokenSampler};
pub use distribution::{compare, log_softmax_f64, Comparison, Distribution, TokenList, EXACT_TOLERANCE};
pub use error::SamplingError;
pub use inspection::{check_logits, Inspection};
#[cfg(feature = "lab")]
pub use output::analysis::Analysis;
#[cfg(feature = "lab")]
pub use output::answer::{Answer, AnswerStep, ColumnSummary, StepFigures};
#[cfg(feature = "lab")]
pub use output::catalog::Render;
#[cfg(feature = "lab")]
pub use output::finding::DEFAULT_PAIR;
#[cfg(feature = "lab")]
pub use output::monte_carlo::MonteCarlo;
#[cfg(feature = "lab")]
pub use output::port::Port;
#[cfg(feature = "lab")]
pub use output::report::{Report, ReportOptions};
pub use text::{Lang, Message};
