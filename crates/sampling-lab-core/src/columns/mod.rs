//! The columns: each one library's sampler for the same `generate()` call, in one registry.
//!
//! The report, Monte Carlo, generation, the command line and the page all read [`REGISTRY`].
//! Each column's module names it ([`hf::NAME`], [`vllm::NAME`], …) and says which release of
//! its library it reproduces; a [`Column`] gives what that library samples from for a call at a
//! step, and a [`TokenSampler`] that generates as it would:
//!
//! ```
//! use sampling_lab_core::{columns, GenerateArgs};
//!
//! // vLLM's server has no implicit top_k=50: the whole vocabulary at temperature 0.7.
//! let args = GenerateArgs::from_json_str(r#"{"do_sample": true, "temperature": 0.7}"#)?;
//! let logits: Vec<f32> = (0..100).map(|i| -(i as f32) * 0.05).collect();
//! let vllm = columns::vllm::NAME.column().distribution(&args, None, &logits, &[])?;
//! assert_eq!(vllm.kept(), 100);
//! let mut sampler = columns::hf::NAME.column().sampler(&args, None, 7)?;
//! assert!(sampler.next(&logits, &[])? < 50);
//! # Ok::<(), sampling_lab_core::SamplingError>(())
//! ```
//!
//! Beside the columns: [`candle_port`] (a candle `LogitsProcessor` set-up, its exact
//! distribution and real draws), [`causes`] (why a column departs from hf, in words) and
//! [`thresholds`] (where each system's "temperature zero" begins).
//!
//! A column is one module that implements the crate's engine trait and registers itself with one
//! line in the registry; its catalogs (`locales/<lang>/columns/<name>.ftl`) hold its words.

pub mod candle_port;
pub mod causes;
mod engine;
mod port_request;
mod repetition_penalty;
mod rust_code;
pub mod thresholds;
pub(crate) mod torch_f32;

pub use engine::TokenSampler;
pub(crate) use engine::{BlockDraws, DrawSource, Drawing, Engine, ExactSampler, DRAW_BLOCK};
pub use torch_f32::torch_argmax;

use crate::arguments::params::{EffectiveParams, GenerateArgs, GenerationConfig};
use crate::arguments::pyvalue::PyValue;
use crate::distribution::{Comparison, Distribution};
use crate::inspection::Inspection;
use crate::text::{Arg, Message};
use crate::SamplingError;
use causes::Rule;
use hf::{HfOutcome, HfSampling};
use serde::{Deserialize, Serialize};
use thresholds::Threshold;

/// A column's catalogs (`locales/<lang>/columns/<name>.ftl`), one per language in
/// [`Lang::ALL`](crate::text::Lang::ALL)'s order: its names, definition, causes and rows.
macro_rules! catalogs {
    ($name:literal) => {
        [
            include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/locales/en/columns/",
                $name,
                ".ftl"
            )),
            include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/locales/zh-Hans/columns/",
                $name,
                ".ftl"
            )),
        ]
    };
}
use catalogs;

pub mod corrected;
pub mod dflash;
pub mod hf;
pub mod literal;
pub mod llama_cpp;
pub mod mlx_lm;
pub mod ollama;
pub mod sglang;
pub mod transformers_js;
pub mod vllm;

/// Every column, in the order the report, the page and the command line list them: a column's
/// module (declared above) and one line here.
pub static REGISTRY: &[&Column] = &[
    &hf::COLUMN,
    &literal::COLUMN,
    &corrected::COLUMN,
    &dflash::COLUMN,
    &transformers_js::COLUMN,
    &llama_cpp::COLUMN,
    &vllm::COLUMN,
    &sglang::COLUMN,
    &mlx_lm::COLUMN,
    &ollama::COLUMN,
];

/// A column's name in the report, the page, links and the command line (`hf`, `literal`, …).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct ColumnName(&'static str);

impl ColumnName {
    /// For an engine's own `NAME`; every other value comes from the registry.
    pub(crate) const fn new(name: &'static str) -> Self {
        ColumnName(name)
    }

    /// The name as text: the report's key for the column, and what `--semantics` takes.
    pub fn name(self) -> &'static str {
        self.0
    }

    /// Every column's semantics, in the registry's order.
    pub fn all() -> impl Iterator<Item = ColumnName> {
        REGISTRY.iter().map(|c| c.name)
    }

    /// The registered column of this name.
    pub fn column(self) -> &'static Column {
        REGISTRY
            .iter()
            .find(|c| c.name == self)
            .expect("a ColumnName names a registered column")
    }
}

impl From<ColumnName> for Arg {
    fn from(name: ColumnName) -> Self {
        Arg::Column(name.0)
    }
}

impl std::fmt::Debug for ColumnName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

impl std::fmt::Display for ColumnName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

impl std::str::FromStr for ColumnName {
    type Err = SamplingError;
    fn from_str(s: &str) -> Result<Self, SamplingError> {
        ColumnName::all().find(|x| x.name() == s).ok_or_else(|| {
            let names: Vec<String> = ColumnName::all().map(|x| format!("`{x}`")).collect();
            SamplingError::invalid(
                Message::new("invalid-semantics")
                    .verbatim("names", names.join(", "))
                    .verbatim("name", s),
            )
        })
    }
}

impl Serialize for ColumnName {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.0)
    }
}

impl<'de> Deserialize<'de> for ColumnName {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

/// A column as the registry holds it: what it is called and how it is set up.
#[non_exhaustive]
pub struct Column {
    /// What the column is called everywhere; [`ColumnName::column`] finds the entry again.
    pub name: ColumnName,
    /// The language of the code a user writes for it (a report's `code`), if it has any.
    pub code: Option<&'static str>,
    /// Whether Monte Carlo draws it with its library's own generator ([`Analysis::monte_carlo`](crate::Analysis::monte_carlo)).
    pub draws: bool,
    /// The engine as a call sets it up (holding the library's refusal, if it refuses the call).
    pub(crate) from_call: fn(&Call) -> Box<dyn Engine>,
    /// Its rows of the "temperature zero" table, for a temperature as the call gave it.
    pub(crate) thresholds: fn(PyValue, &[f32]) -> Vec<Threshold>,
    /// Every cause it can name.
    pub rules: &'static [Rule],
    /// Its words in each language ([`catalogs!`]).
    pub(crate) catalogs: [&'static str; 2],
}

impl Column {
    /// What the library samples from for the call (`args`, and the model's
    /// `generation_config.json` for the libraries that read it) at a step whose raw logits are
    /// `logits`, `context` being every id so far, prompt included; or what it raises.
    pub fn distribution(
        &self,
        args: &GenerateArgs,
        generation_config: Option<&GenerationConfig>,
        logits: &[f32],
        context: &[u32],
    ) -> Result<Distribution, SamplingError> {
        self.set_up(args, generation_config).distribution(logits, context)
    }

    /// A sampler that picks each generated token as the library would for the call, seeded with
    /// `seed`; what the library raises when it refuses the call.
    pub fn sampler(
        &self,
        args: &GenerateArgs,
        generation_config: Option<&GenerationConfig>,
        seed: u64,
    ) -> Result<Box<dyn TokenSampler>, SamplingError> {
        self.set_up(args, generation_config).sampler(seed)
    }

    /// The engine set up for `args` (and the model's `generation_config.json`).
    pub(crate) fn set_up(&self, args: &GenerateArgs, generation_config: Option<&GenerationConfig>) -> Box<dyn Engine> {
        (self.from_call)(&Call::new(args, generation_config))
    }
}

/// A `generate()` call as each engine reads it: the arguments as passed (what a port copies),
/// the model's `generation_config.json` (which only some libraries read), and what transformers
/// resolves from both.
pub(crate) struct Call<'a> {
    /// The arguments as passed: what a port that copies them sees.
    pub(crate) args: &'a GenerateArgs,
    /// The model's file, for the libraries that read it.
    pub(crate) generation_config: Option<&'a GenerationConfig>,
    /// What transformers runs with, resolved once for every engine.
    pub(crate) effective: EffectiveParams,
}

impl<'a> Call<'a> {
    /// The call, with transformers' resolution of it.
    pub(crate) fn new(args: &'a GenerateArgs, generation_config: Option<&'a GenerationConfig>) -> Self {
        Call {
            args,
            generation_config,
            effective: EffectiveParams::resolve(args, generation_config),
        }
    }
}

/// transformers' own outcome for a step: the reference every other column is compared with.
pub(crate) type Reference = Result<(HfSampling, HfOutcome), SamplingError>;

/// One step as a column sees it when it explains itself.
pub(crate) struct StepView<'a> {
    /// The step: its logits, the call and the context.
    pub(crate) input: &'a Inspection,
    /// What transformers runs the call with.
    pub(crate) effective: &'a EffectiveParams,
    /// transformers' outcome here, or its refusal of the call.
    pub(crate) hf: &'a Reference,
    /// This column's distribution here, or what its library raises.
    pub(crate) distribution: &'a Result<Distribution, SamplingError>,
    /// This column against hf (none for hf itself, or when either side has no distribution).
    pub(crate) compare: Option<&'a Comparison>,
}

impl StepView<'_> {
    /// transformers' distribution here, unless it refuses the call.
    pub(crate) fn hf_distribution(&self) -> Option<&Distribution> {
        self.hf.as_ref().ok().map(|(_, o)| &o.distribution)
    }
}
