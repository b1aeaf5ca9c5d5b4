//! The arguments of a `generate()` call: the keyword arguments as a Python user writes them, the
//! model's `generation_config.json`, and the values transformers resolves from both
//! ([`params`]); Python's scalars, with their types and reprs ([`pyvalue`]).

pub mod params;
pub mod pyvalue;

pub use params::{EffectiveParams, Field, GenerateArgs, GenerationConfig, Source};
pub use pyvalue::{float_repr, rust_f64, PyValue};
