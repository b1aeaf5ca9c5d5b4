//! A `generate()` call's arguments, as transformers resolves and validates them.
//!
//! The keyword arguments as a Python user writes them ([`GenerateArgs`]), the model's
//! `generation_config.json` ([`GenerationConfig`]), and the values transformers resolves from
//! both ([`EffectiveParams`]); Python's scalars, with their types and reprs ([`PyValue`]).

pub(crate) mod params;
pub(crate) mod pyvalue;

pub use params::{EffectiveParams, Field, GenerateArgs, GenerationConfig, Source};
pub use pyvalue::PyValue;
pub(crate) use pyvalue::{float_repr, rust_f64};
