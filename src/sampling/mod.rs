//! Sampling semantics: no model, no wasm. Given one step's logits and a `generate()` call, what
//! each library samples from — transformers (hf), a literal and a corrected candle port, DFlash,
//! transformers.js, llama.cpp — and why they differ. Four concerns, one folder each:
//!
//! - [`arguments`]: the call's keyword arguments as transformers resolves and validates them.
//! - [`truncation`]: transformers' truncation rules, as masks, as closure steps, and as the
//!   dependency-free helpers users copy.
//! - [`columns`]: the engines, one file each, behind one [`Column`] trait and one registry
//!   (the order the report and the page show them in); what each says about itself (causes,
//!   where its "temperature zero" begins, its code).
//! - [`output`]: one step under every column ([`Analysis`]), the JSON [`Report`], and Monte
//!   Carlo draws with each engine's own generator.
//!
//! [`distribution`] and [`inspection`] are what they all speak: a distribution over the
//! vocabulary, and one step's logits with the call around them.

pub mod arguments;
pub mod columns;
pub mod distribution;
pub mod inspection;
pub mod output;
pub mod truncation;

pub use arguments::params::{EffectiveParams, Field, GenerateArgs, GenerationConfig};
pub use arguments::pyvalue::PyValue;
pub use columns::hf::HfSampling;
pub use columns::literal::LiteralPort;
pub use columns::{Column, Semantics};
pub use distribution::{total_variation, Distribution};
pub use inspection::Inspection;
pub use output::analysis::Analysis;
pub use output::monte_carlo::Part;
pub use output::report::Report;

/// What the core refuses, typed; the edges turn it into text once.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SamplingError {
    /// The library a column stands for refuses the call, in its own words (transformers'
    /// `ValueError`, Python's `TypeError`, torch's `RuntimeError`).
    #[error("{0}")]
    Refused(String),
    /// The input cannot be read: bad JSON, an unknown argument, a value of the wrong type.
    #[error("{0}")]
    Invalid(String),
    /// candle returned an error (its message, as a candle program would see it).
    #[error("{0}")]
    Candle(String),
}

impl SamplingError {
    pub fn invalid(message: impl Into<String>) -> Self {
        SamplingError::Invalid(message.into())
    }

    pub fn refused(message: impl Into<String>) -> Self {
        SamplingError::Refused(message.into())
    }
}

impl From<candle_core::Error> for SamplingError {
    /// candle's message; a backtrace it captured (it appends one to its text) is for a debugger,
    /// not for a reader of the report.
    fn from(e: candle_core::Error) -> Self {
        let text = e.to_string();
        SamplingError::Candle(text.lines().next().unwrap_or_default().to_string())
    }
}
