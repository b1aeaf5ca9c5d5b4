//! Sampling semantics: no model, no wasm. Given one step's logits and a `generate()` call, what
//! transformers samples from, what a literal candle port samples from, and the corrected port.
//!
//! - [`params`]: keyword arguments as transformers resolves and validates them.
//! - [`hf`]: transformers' processors, in its order, with its math.
//! - [`rules`]: the truncation rules as masks over probabilities, as hf evaluates them.
//! - [`literal`] / [`corrected`]: the two candle set-ups; [`port`] computes what a set-up draws
//!   from and draws with the real `LogitsProcessor`; [`steps`] is the corrected closure's body and
//!   [`closure`] its helpers, the dependency-free code users copy.
//! - [`dflash`] / [`transformers_js`]: the same call under two other engines' samplers;
//!   [`thresholds`]: where each system's "temperature zero" begins.
//! - [`columns`]: one step under every semantics, each against hf; [`explain`]: which rule
//!   causes a difference, in plain words; [`analysis`]: both, and where temperature zero begins.
//! - [`semantics`]: the columns' one list.
//! - [`distribution`], [`monte_carlo`], [`report`]: figures, draws with the real
//!   `LogitsProcessor`, and the JSON report; [`rust_code`]: each port as Rust.

pub mod analysis;
pub mod closure;
pub mod columns;
pub mod corrected;
pub mod dflash;
pub mod distribution;
pub mod explain;
pub mod hf;
pub mod literal;
pub mod monte_carlo;
pub mod params;
pub mod port;
pub mod pyvalue;
pub mod report;
pub mod rules;
pub mod rust_code;
pub mod semantics;
pub mod steps;
pub mod thresholds;
pub mod transformers_js;

pub use analysis::Analysis;
pub use columns::Inspection;
pub use distribution::{total_variation, Distribution};
pub use hf::HfSampling;
pub use literal::LiteralPort;
pub use monte_carlo::Part;
pub use params::{EffectiveParams, GenerateArgs, GenerationConfig};
pub use report::Report;
pub use semantics::Semantics;

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
    fn from(e: candle_core::Error) -> Self {
        SamplingError::Candle(e.to_string())
    }
}
