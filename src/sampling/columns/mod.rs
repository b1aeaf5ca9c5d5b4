//! The columns: each one library's sampler, set up from the same `generate()` call. An engine is
//! one file that implements [`Column`] and registers itself with one line in [`REGISTRY`]; the
//! report, Monte Carlo, generation, the command line and the page all read the registry.
//!
//! Shared machinery lives beside the engines: [`candle_port`] (a candle `LogitsProcessor` set-up,
//! its exact distribution and real draws) and [`rust_code`] (a port as the Rust a user writes) for
//! the candle columns; [`causes`] (why a column departs from hf, in words) and [`thresholds`]
//! (where each system's "temperature zero" begins) for all.

pub mod candle_port;
pub mod causes;
pub mod rust_code;
pub mod thresholds;

use crate::sampling::arguments::params::{EffectiveParams, GenerateArgs, GenerationConfig};
use crate::sampling::arguments::pyvalue::PyValue;
use crate::sampling::distribution::{Comparison, Distribution};
use crate::sampling::inspection::Inspection;
use crate::sampling::SamplingError;
use causes::{Cause, Rule};
use hf::{HfOutcome, HfSampling};
use rand::distr::weighted::WeightedIndex;
use rand::distr::Distribution as _;
use rand::rngs::StdRng;
use rand::SeedableRng;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use thresholds::Threshold;

/// Declares each engine's module and lists its [`Registered`] entry, in the order every list of
/// columns follows. (`cargo fmt` does not follow modules a macro declares: `rustfmt` the engine
/// files by name.)
macro_rules! registry {
    ($($engine:ident),* $(,)?) => {
        $(pub mod $engine;)*
        /// Every column, in the order the report, the page and the command line list them.
        pub static REGISTRY: &[&Registered] = &[$(&$engine::COLUMN),*];
    };
}

registry! {
    hf,
    literal,
    corrected,
    dflash,
    transformers_js,
    llama_cpp,
}

/// A column's name in the report, the page, links and the command line (`hf`, `literal`, …).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Semantics(&'static str);

impl Semantics {
    /// For an engine's own `SEMANTICS`; every other value comes from the registry.
    pub const fn new(name: &'static str) -> Self {
        Semantics(name)
    }

    pub fn name(self) -> &'static str {
        self.0
    }

    /// Every column's semantics, in the registry's order.
    pub fn all() -> impl Iterator<Item = Semantics> {
        REGISTRY.iter().map(|c| c.semantics)
    }

    /// The registered column of this name.
    pub fn column(self) -> &'static Registered {
        REGISTRY
            .iter()
            .find(|c| c.semantics == self)
            .expect("a Semantics names a registered column")
    }
}

impl std::fmt::Debug for Semantics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

impl std::fmt::Display for Semantics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

impl std::str::FromStr for Semantics {
    type Err = SamplingError;
    fn from_str(s: &str) -> Result<Self, SamplingError> {
        Semantics::all().find(|x| x.name() == s).ok_or_else(|| {
            let names: Vec<String> = Semantics::all().map(|x| format!("`{x}`")).collect();
            SamplingError::Invalid(format!("semantics must be one of {}, not `{s}`", names.join(", ")))
        })
    }
}

impl Serialize for Semantics {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.0)
    }
}

impl<'de> Deserialize<'de> for Semantics {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

/// A column as the registry holds it: what it is called and how it is set up.
pub struct Registered {
    pub semantics: Semantics,
    /// Its name for readers, as the figures table and the legend show it.
    pub label: &'static str,
    /// The same, short, where space is tight (toggles, menus).
    pub short: &'static str,
    /// Two lines for the glossary: which library, which call, which version.
    pub definition: &'static str,
    /// The language of the code a user writes for it ([`Column::code`]), if it has any.
    pub code: Option<&'static str>,
    /// Whether Monte Carlo draws it with the engine's own generator ([`Column::draws`]).
    pub draws: bool,
    /// The engine as a call sets it up (holding the library's refusal, if it refuses the call).
    pub from_call: fn(&Arguments) -> Box<dyn Column>,
    /// Its rows of the "temperature zero" table, for a temperature as the call gave it.
    pub thresholds: fn(PyValue, &[f32]) -> Vec<Threshold>,
    /// Every cause it can name.
    pub rules: &'static [Rule],
}

impl Registered {
    /// What the page lists about the column, as the core's list of columns.
    pub fn info(&self) -> ColumnInfo {
        ColumnInfo {
            name: self.semantics,
            label: self.label,
            short: self.short,
            definition: self.definition,
            code: self.code,
            draws: self.draws,
        }
    }

    /// The engine set up for `args` (and the model's `generation_config.json`).
    pub fn set_up(&self, args: &GenerateArgs, generation_config: Option<&GenerationConfig>) -> Box<dyn Column> {
        (self.from_call)(&Arguments::new(args, generation_config))
    }
}

/// A column as the page and the command line list it.
#[derive(Clone, Debug, Serialize)]
pub struct ColumnInfo {
    pub name: Semantics,
    pub label: &'static str,
    pub short: &'static str,
    pub definition: &'static str,
    pub code: Option<&'static str>,
    pub draws: bool,
}

/// Every column's [`ColumnInfo`], in the registry's order.
pub fn infos() -> Vec<ColumnInfo> {
    REGISTRY.iter().map(|c| c.info()).collect()
}

/// A `generate()` call as each engine reads it: the arguments as passed (what a port copies),
/// the model's `generation_config.json` (which only some libraries read), and what transformers
/// resolves from both.
pub struct Arguments<'a> {
    pub args: &'a GenerateArgs,
    pub generation_config: Option<&'a GenerationConfig>,
    pub effective: EffectiveParams,
}

impl<'a> Arguments<'a> {
    pub fn new(args: &'a GenerateArgs, generation_config: Option<&'a GenerationConfig>) -> Self {
        Arguments {
            args,
            generation_config,
            effective: EffectiveParams::resolve(args, generation_config),
        }
    }
}

/// transformers' own outcome for a step: the reference every other column is compared with.
pub type Reference = Result<(HfSampling, HfOutcome), SamplingError>;

/// One step as a column sees it when it explains itself.
pub struct Step<'a> {
    pub input: &'a Inspection,
    pub effective: &'a EffectiveParams,
    pub hf: &'a Reference,
    /// This column's distribution here, or what its library raises.
    pub distribution: &'a Result<Distribution, SamplingError>,
    /// This column against hf (none for hf itself, or when either side has no distribution).
    pub compare: Option<&'a Comparison>,
}

impl Step<'_> {
    pub fn hf_distribution(&self) -> Option<&Distribution> {
        self.hf.as_ref().ok().map(|(_, o)| &o.distribution)
    }
}

/// One library's sampler, set up for one call. A column that its library refuses still answers
/// every question: its distribution is the refusal, and it says so in its entry and causes.
pub trait Column {
    /// The distribution one draw comes from, given a step's raw logits and every id so far
    /// (prompt included), or what the library raises there.
    fn distribution(&self, logits: &[f32], context: &[u32]) -> Result<Distribution, SamplingError>;

    /// The set-up in one line: the report entry's `sampling`.
    fn describe(&self) -> String;

    /// Notes for the report entry at this step.
    fn notes(&self, _step: &Step) -> Vec<String> {
        Vec::new()
    }

    /// The column's own fields of its report entry, after the ones every entry has.
    fn details(&self, _step: &Step) -> Map<String, Value> {
        Map::new()
    }

    /// Why it departs from hf at this step, in plain words; empty where it does not.
    fn causes(&self, _step: &Step) -> Vec<Cause> {
        Vec::new()
    }

    /// The code a user writes for this set-up, in the registered language.
    fn code(&self) -> Option<String> {
        None
    }

    /// Seeded draws with the engine's own generator and the exact distribution they are checked
    /// against, for a column that Monte Carlo draws; `None` when it cannot be set up.
    fn draws(&self, _logits: &[f32], _context: &[u32], _seed: u64) -> Option<Result<Drawing, SamplingError>> {
        None
    }

    /// A sampler that picks generated tokens as this library would, seeded with `seed`.
    fn sampler(&self, seed: u64) -> Result<Box<dyn TokenSampler>, SamplingError>;
}

/// Picks each generated token under one column.
pub trait TokenSampler {
    /// The exact distribution [`TokenSampler::next`] draws from at this step.
    fn distribution(&self, logits: &[f32], context: &[u32]) -> Result<Distribution, SamplingError>;

    /// The next token given the step's raw logits and every id so far (prompt included).
    fn next(&mut self, logits: &[f32], context: &[u32]) -> Result<u32, SamplingError>;

    /// The next token and the probability it had under this sampler's distribution.
    fn next_with_probability(&mut self, logits: &[f32], context: &[u32]) -> Result<(u32, f64), SamplingError> {
        let distribution = self.distribution(logits, context)?;
        let token = self.next(logits, context)?;
        Ok((token, distribution.prob(token)))
    }
}

/// Monte Carlo runs are made, and shared out between threads, in blocks of this many draws; a
/// [`DrawSource`] may seed its generator per block, so that the draws do not depend on the
/// sharing.
pub const DRAW_BLOCK: usize = 1000;

/// The draws of a Monte Carlo run, one at a time, as the engine's own generator makes them.
pub trait DrawSource {
    /// Draw `index` of the run; within a part of a run, indices come in order, from the start of
    /// a block.
    fn draw(&mut self, index: usize) -> Result<u32, SamplingError>;
}

/// What Monte Carlo draws for a column: its draws and the exact distribution they must match.
pub struct Drawing {
    pub source: Box<dyn DrawSource>,
    pub exact: Distribution,
}

/// A sampler for the columns whose draw is not the library's own generator (transformers' and
/// transformers.js' distributions, drawn with a seeded generator of this crate).
pub struct ExactSampler<F> {
    distribution: F,
    rng: StdRng,
}

impl<F: Fn(&[f32], &[u32]) -> Result<Distribution, SamplingError>> ExactSampler<F> {
    pub fn new(distribution: F, seed: u64) -> Self {
        ExactSampler {
            distribution,
            rng: StdRng::seed_from_u64(seed),
        }
    }
}

impl<F: Fn(&[f32], &[u32]) -> Result<Distribution, SamplingError>> TokenSampler for ExactSampler<F> {
    fn distribution(&self, logits: &[f32], context: &[u32]) -> Result<Distribution, SamplingError> {
        (self.distribution)(logits, context)
    }

    fn next(&mut self, logits: &[f32], context: &[u32]) -> Result<u32, SamplingError> {
        Ok(self.next_with_probability(logits, context)?.0)
    }

    fn next_with_probability(&mut self, logits: &[f32], context: &[u32]) -> Result<(u32, f64), SamplingError> {
        let distribution = (self.distribution)(logits, context)?;
        let support = &distribution.support;
        let index =
            WeightedIndex::new(support.iter().map(|(_, p)| *p)).map_err(|e| SamplingError::invalid(e.to_string()))?;
        let (token, p) = support[index.sample(&mut self.rng)];
        Ok((token, p))
    }
}
