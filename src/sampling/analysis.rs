//! The analysis of one step: every column ([`Columns`]), why each departs from hf ([`causes`]),
//! and where each system's "temperature zero" begins. The report is built from it
//! ([`Analysis::report`]), and so are Monte Carlo runs of its candle ports.

use super::columns::{Columns, Inspection};
use super::distribution::Distribution;
use super::explain::{causes, Cause};
use super::monte_carlo::{MonteCarlo, MonteCarloRun, Part};
use super::params::Field;
use super::thresholds::{greedy_thresholds, Threshold};
use super::SamplingError;
use std::ops::Deref;

pub struct Analysis {
    pub columns: Columns,
    /// Why each column differs from transformers here, in plain words.
    pub causes: Vec<Cause>,
    pub greedy_thresholds: Vec<Threshold>,
}

impl Analysis {
    pub fn run(input: &Inspection) -> Self {
        let columns = Columns::compute(input);
        // The temperature as the call wrote it (DFlash's reading), else transformers' effective one.
        let temperature = input
            .args
            .get(Field::Temperature)
            .unwrap_or_else(|| columns.effective.get(Field::Temperature));
        Analysis {
            causes: causes(input, &columns),
            greedy_thresholds: greedy_thresholds(temperature, &input.logits),
            columns,
        }
    }

    pub fn hf_distribution(&self) -> Option<&Distribution> {
        self.columns.hf_distribution()
    }

    /// N draws of each port with the real `LogitsProcessor`, checked against its exact distribution.
    pub fn monte_carlo(&self, input: &Inspection, n: usize, seed: u64) -> Result<MonteCarlo, SamplingError> {
        let mut run = self.monte_carlo_run(input, n, seed, Part::WHOLE);
        run.advance(usize::MAX)?;
        Ok(run.finish())
    }

    /// `part` of the same draws, to be made in chunks.
    pub fn monte_carlo_run(&self, input: &Inspection, n: usize, seed: u64, part: Part) -> MonteCarloRun {
        MonteCarloRun::new(&self.columns, input, n, seed, part)
    }
}

/// The columns are read through the analysis (`analysis.hf`, `analysis.compare`).
impl Deref for Analysis {
    type Target = Columns;

    fn deref(&self) -> &Columns {
        &self.columns
    }
}
