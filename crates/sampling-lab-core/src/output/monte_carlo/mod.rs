//! Monte Carlo draws with each library's own generator, checked against the exact distribution.
//!
//! Every column Monte Carlo draws is drawn with its library's own generator (candle's
//! `LogitsProcessor` for the candle ports, llama.cpp's `std::mt19937`, …), in seeded blocks
//! that any number of threads can share out: [`Analysis::monte_carlo`] and its result,
//! [`MonteCarlo`]; a run made in parts ([`MonteCarloRun`], each [`Part`] a thread's share, whose
//! counts one part absorbs), and one column's draws checked alone ([`draws_of`]).

pub(crate) mod draws;
pub(crate) mod run;

pub use draws::{Draws, Part};
pub use run::{draws_of, MonteCarloRun};

use super::analysis::Analysis;
use crate::columns::ColumnName;
use crate::SamplingError;
use serde::ser::SerializeMap;
use serde::Serialize;

impl Analysis {
    /// `n` draws of each column Monte Carlo draws, seeded with `seed`, each checked against its
    /// exact distribution: a correct one fails the check with probability below
    /// [`MonteCarlo::delta`].
    ///
    /// ```
    /// use sampling_lab_core::{columns, Analysis, GenerateArgs, Inspection};
    ///
    /// let args = GenerateArgs::from_json_str(r#"{"do_sample": true, "top_k": 3}"#)?;
    /// let analysis = Analysis::run(&Inspection::new(vec![2.0, 1.0, 0.5, 0.0], args, None, vec![])?);
    /// let mc = analysis.monte_carlo(2_000, 7)?;
    /// let corrected = serde_json::to_value(mc.get(columns::corrected::NAME).unwrap())?;
    /// assert_eq!(corrected["consistent"], true); // candle's own draws match the exact distribution
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn monte_carlo(&self, n: usize, seed: u64) -> Result<MonteCarlo, SamplingError> {
        let mut run = MonteCarloRun::new(self, n, seed, draws::Part::WHOLE);
        run.advance(usize::MAX)?;
        Ok(run.finish())
    }
}

/// Monte Carlo results for every column Monte Carlo draws, by name (`null` for one that cannot
/// be set up for this call).
#[derive(Clone, Debug)]
pub struct MonteCarlo {
    /// The draws asked of each column.
    pub draws: usize,
    /// The run's seed: the same seed gives the same draws, however the run was shared out.
    pub seed: u64,
    /// The check's failure probability: how often a correct exact distribution fails it.
    pub delta: f64,
    /// Each column Monte Carlo draws, in the registry's order; `None` for one that cannot be set
    /// up for this call.
    pub columns: Vec<(ColumnName, Option<DrawsOrError>)>,
}

impl MonteCarlo {
    /// The draws of one column, if it draws and could be set up.
    pub fn get(&self, name: ColumnName) -> Option<&DrawsOrError> {
        self.columns.iter().find(|(s, _)| *s == name)?.1.as_ref()
    }
}

impl Serialize for MonteCarlo {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(3 + self.columns.len()))?;
        map.serialize_entry("draws", &self.draws)?;
        map.serialize_entry("seed", &self.seed)?;
        map.serialize_entry("delta", &self.delta)?;
        for (name, side) in &self.columns {
            map.serialize_entry(name.name(), side)?;
        }
        map.end()
    }
}

/// One column's Monte Carlo result: its draws and their check, or why it could not draw (in
/// JSON, the draws' fields or `{"error": …}`).
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
#[non_exhaustive]
pub enum DrawsOrError {
    /// The draws and the check of their counts.
    Draws(Draws),
    /// The column could not be drawn.
    Error {
        /// The error its set-up or a draw returned.
        error: String,
    },
}

impl From<Result<Draws, SamplingError>> for DrawsOrError {
    fn from(r: Result<Draws, SamplingError>) -> Self {
        match r {
            Ok(d) => DrawsOrError::Draws(d),
            Err(error) => DrawsOrError::Error {
                error: error.to_string(),
            },
        }
    }
}
