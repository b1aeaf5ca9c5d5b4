//! The analysis of one step: every registered column's distribution, each against hf
//! ([`Columns`]), why each departs from hf (its causes), and where each system's "temperature
//! zero" begins. The report is built from it ([`Analysis::report`]), and so are Monte Carlo runs.

use super::monte_carlo::{MonteCarlo, MonteCarloRun, Part};
use crate::sampling::arguments::params::{EffectiveParams, Field};
use crate::sampling::columns::causes::Cause;
use crate::sampling::columns::hf::{self, HfSampling};
use crate::sampling::columns::thresholds::{greedy_thresholds, Threshold};
use crate::sampling::columns::{Arguments, Column, Reference, Semantics, Step, REGISTRY};
use crate::sampling::distribution::{compare, Comparison, Distribution};
use crate::sampling::inspection::Inspection;
use crate::sampling::SamplingError;

/// One column at one step: the engine as the call set it up, what it samples from, and how
/// that stands to hf.
pub struct Computed {
    pub semantics: Semantics,
    pub column: Box<dyn Column>,
    pub distribution: Result<Distribution, SamplingError>,
    /// Against hf; `None` for hf itself, or when either side has no distribution.
    pub compare: Option<Comparison>,
}

/// Every column's distribution of one step, and each against hf.
pub struct Columns {
    pub effective: EffectiveParams,
    /// transformers' pipeline and its outcome: the reference.
    pub hf: Reference,
    /// Every registered column, in the registry's order (hf included).
    pub computed: Vec<Computed>,
}

impl Columns {
    pub fn compute(input: &Inspection) -> Self {
        let call = Arguments::new(&input.args, input.generation_config.as_ref());
        let hf: Reference = HfSampling::from_params(&call.effective).map(|hf| {
            let outcome = hf.apply(&input.logits, &input.context_ids);
            (hf, outcome)
        });
        let reference = hf.as_ref().ok().map(|(_, o)| &o.distribution);
        let computed = REGISTRY
            .iter()
            .map(|registered| {
                let column = (registered.from_call)(&call);
                // hf's distribution is the reference, already computed.
                let distribution = match (registered.semantics == hf::SEMANTICS, &hf) {
                    (true, Ok((_, outcome))) => Ok(outcome.distribution.clone()),
                    (true, Err(e)) => Err(e.clone()),
                    (false, _) => column.distribution(&input.logits, &input.context_ids),
                };
                let compare = match (registered.semantics == hf::SEMANTICS, reference, &distribution) {
                    (false, Some(h), Ok(d)) => Some(compare(h, d)),
                    _ => None,
                };
                Computed {
                    semantics: registered.semantics,
                    column,
                    distribution,
                    compare,
                }
            })
            .collect();
        Columns {
            effective: call.effective,
            hf,
            computed,
        }
    }

    pub fn hf_distribution(&self) -> Option<&Distribution> {
        self.hf.as_ref().ok().map(|(_, o)| &o.distribution)
    }

    /// The column of this semantics.
    pub fn get(&self, semantics: Semantics) -> &Computed {
        self.computed
            .iter()
            .find(|c| c.semantics == semantics)
            .expect("every registered column is computed")
    }

    /// The step as `computed` sees it.
    pub fn step<'a>(&'a self, input: &'a Inspection, computed: &'a Computed) -> Step<'a> {
        Step {
            input,
            effective: &self.effective,
            hf: &self.hf,
            distribution: &computed.distribution,
            compare: computed.compare.as_ref(),
        }
    }

    /// Every column's causes, in the registry's order.
    pub fn causes(&self, input: &Inspection) -> Vec<Cause> {
        self.computed
            .iter()
            .flat_map(|c| c.column.causes(&self.step(input, c)))
            .collect()
    }
}

pub struct Analysis {
    pub input: Inspection,
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
            causes: columns.causes(input),
            greedy_thresholds: greedy_thresholds(temperature, &input.logits),
            input: input.clone(),
            columns,
        }
    }

    pub fn hf_distribution(&self) -> Option<&Distribution> {
        self.columns.hf_distribution()
    }

    /// The causes one column names here.
    pub fn causes_of(&self, semantics: Semantics) -> Vec<&Cause> {
        self.causes.iter().filter(|c| c.column == semantics).collect()
    }

    /// The distribution of one column.
    pub fn distribution(&self, semantics: Semantics) -> Result<&Distribution, &SamplingError> {
        self.columns.get(semantics).distribution.as_ref()
    }

    /// N draws of each column Monte Carlo draws, checked against its exact distribution.
    pub fn monte_carlo(&self, n: usize, seed: u64) -> Result<MonteCarlo, SamplingError> {
        let mut run = self.monte_carlo_run(n, seed, Part::WHOLE);
        run.advance(usize::MAX)?;
        Ok(run.finish())
    }

    /// `part` of the same draws, to be made in chunks.
    pub fn monte_carlo_run(&self, n: usize, seed: u64, part: Part) -> MonteCarloRun {
        MonteCarloRun::new(&self.columns, &self.input, n, seed, part)
    }
}
