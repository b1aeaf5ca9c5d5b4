//! Sampling semantics: no model, no wasm. Given one step's logits and a `generate()` call, what
//! transformers samples from, what a literal candle port samples from, and the corrected port.
//!
//! - [`params`]: keyword arguments as transformers resolves and validates them.
//! - [`hf`]: transformers' processors, in its order, with its math.
//! - [`rules`]: the truncation rules as masks over probabilities, as hf evaluates them.
//! - [`literal`] / [`corrected`]: the two candle set-ups; [`port`] computes what a set-up draws
//!   from and draws with the real `LogitsProcessor`; [`steps`] is the corrected closure's body and
//!   [`closure`] its helpers, the dependency-free code users copy.
//! - [`distribution`], [`monte_carlo`], [`report`]: figures and the JSON report; [`explain`]:
//!   which rule causes a difference, in plain words.

pub mod closure;
pub mod corrected;
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
pub mod steps;

pub use distribution::{total_variation, Distribution};
pub use hf::HfSampling;
pub use literal::LiteralPort;
pub use monte_carlo::Part;
pub use params::{EffectiveParams, GenerateArgs, GenerationConfig};
pub use report::{Analysis, Inspection, Report};
