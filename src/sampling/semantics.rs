//! The semantics the lab compares, one per column: the one list of them, and their names in
//! the report, the page and the command line.

use super::SamplingError;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Semantics {
    /// What transformers samples from (its distribution, drawn with a seeded generator).
    Hf,
    /// The literal candle port, drawn by candle's `LogitsProcessor`.
    Literal,
    /// The corrected candle port, drawn by candle's `LogitsProcessor`.
    Corrected,
    /// DFlash's `sample()`, drawn by its candle port's `LogitsProcessor`.
    Dflash,
    /// transformers.js' sampler (its distribution, drawn with a seeded generator).
    TransformersJs,
}

impl Semantics {
    pub const ALL: [Semantics; 5] = [
        Semantics::Hf,
        Semantics::Literal,
        Semantics::Corrected,
        Semantics::Dflash,
        Semantics::TransformersJs,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Semantics::Hf => "hf",
            Semantics::Literal => "literal",
            Semantics::Corrected => "corrected",
            Semantics::Dflash => "dflash",
            Semantics::TransformersJs => "transformers_js",
        }
    }
}

impl std::str::FromStr for Semantics {
    type Err = SamplingError;
    fn from_str(s: &str) -> Result<Self, SamplingError> {
        Semantics::ALL.into_iter().find(|x| x.name() == s).ok_or_else(|| {
            let names: Vec<String> = Semantics::ALL.iter().map(|x| format!("`{}`", x.name())).collect();
            SamplingError::Invalid(format!("semantics must be one of {}, not `{s}`", names.join(", ")))
        })
    }
}
