//! The analysis of one step: every registered column's distribution, each against hf, why each
//! departs from hf (its causes), and where each system's "temperature zero" begins. The report
//! ([`Analysis::report`]) and Monte Carlo runs ([`Analysis::monte_carlo`]) are made from it.

use crate::arguments::params::{EffectiveParams, Field};
use crate::columns::causes::Cause;
use crate::columns::hf::{self, HfSampling};
use crate::columns::thresholds::{greedy_thresholds, Threshold};
use crate::columns::{Call, ColumnName, Engine, Reference, StepView, REGISTRY};
use crate::distribution::{compare_with_dense, Comparison, Distribution};
use crate::inspection::Inspection;
use crate::SamplingError;

/// One column at one step: the engine as the call set it up, what it samples from, and how
/// that stands to hf.
pub(crate) struct Computed {
    /// Which column.
    pub(crate) name: ColumnName,
    /// Its engine, kept for what the step does not settle: its report entry, code and draws.
    pub(crate) engine: Box<dyn Engine>,
    /// What one draw comes from here, or what the library raises.
    pub(crate) distribution: Result<Distribution, SamplingError>,
    /// Against hf; `None` for hf itself, or when either side has no distribution.
    pub(crate) compare: Option<Comparison>,
}

/// One step seen by every column.
///
/// ```
/// use sampling_lab_core::{columns, Analysis, GenerateArgs, Inspection};
///
/// // Exact ties at the 2nd place: transformers' top-k keeps both, candle keeps exactly k.
/// let args = GenerateArgs::from_json_str(r#"{"do_sample": true, "top_k": 2}"#)?;
/// let analysis = Analysis::run(&Inspection::new(vec![3.0, 2.0, 2.0, 1.0], args, None, vec![])?);
/// assert_eq!(analysis.distribution(columns::hf::NAME).unwrap().kept(), 3);
/// assert_eq!(analysis.distribution(columns::literal::NAME).unwrap().kept(), 2);
/// assert_eq!(analysis.causes_of(columns::literal::NAME)[0].rule.name(), "ties");
/// # Ok::<(), sampling_lab_core::SamplingError>(())
/// ```
pub struct Analysis {
    /// The step analysed.
    pub(crate) input: Inspection,
    /// What transformers runs the call with, and where each value came from.
    pub(crate) effective: EffectiveParams,
    /// transformers' pipeline and its outcome: the reference.
    pub(crate) hf: Reference,
    /// Every registered column, in the registry's order (hf included).
    pub(crate) computed: Vec<Computed>,
    /// Why each column differs from transformers here, in plain words.
    pub(crate) causes: Vec<Cause>,
    /// What each system does with the call's temperature: where its "temperature zero" begins.
    pub(crate) greedy_thresholds: Vec<Threshold>,
}

/// Every registered column set up for the call and computed on the step, each against hf: what
/// an analysis starts from, and all an answer's step needs.
pub(crate) struct Columns<'a> {
    pub(crate) call: Call<'a>,
    pub(crate) hf: Reference,
    pub(crate) computed: Vec<Computed>,
}

impl<'a> Columns<'a> {
    pub(crate) fn of(input: &'a Inspection) -> Self {
        let call = Call::new(&input.args, input.generation_config.as_ref());
        let hf: Reference = HfSampling::from_params(&call.effective).map(|hf| {
            let outcome = hf.apply(&input.logits, &input.context_ids);
            (hf, outcome)
        });
        let reference = hf.as_ref().ok().map(|(_, o)| (&o.distribution, o.distribution.dense()));
        let computed = REGISTRY
            .iter()
            .map(|column| {
                let engine = (column.from_call)(&call);
                let is_hf = column.name == hf::NAME;
                // hf's distribution is the reference, already computed.
                let distribution = match (is_hf, &hf) {
                    (true, Ok((_, outcome))) => Ok(outcome.distribution.clone()),
                    (true, Err(e)) => Err(e.clone()),
                    (false, _) => engine.distribution(&input.logits, &input.context_ids),
                };
                let compare = match (is_hf, &reference, &distribution) {
                    (false, Some((h, dense)), Ok(d)) => Some(compare_with_dense(h, dense, d)),
                    _ => None,
                };
                Computed {
                    name: column.name,
                    engine,
                    distribution,
                    compare,
                }
            })
            .collect();
        Columns { call, hf, computed }
    }

    /// transformers' distribution, unless it refuses the call.
    pub(crate) fn hf_distribution(&self) -> Option<&Distribution> {
        self.hf.as_ref().ok().map(|(_, o)| &o.distribution)
    }
}

impl Analysis {
    /// Sets every registered column up for the call and computes it on the step, once: the
    /// report and Monte Carlo runs are made from the result.
    pub fn run(input: &Inspection) -> Self {
        let Columns { call, hf, computed } = Columns::of(input);
        // The temperature as the call wrote it (DFlash's reading), else transformers' effective one.
        let temperature = input
            .args
            .get(Field::Temperature)
            .unwrap_or_else(|| call.effective.get(Field::Temperature));
        let mut analysis = Analysis {
            input: input.clone(),
            effective: call.effective,
            hf,
            computed,
            causes: Vec::new(),
            greedy_thresholds: greedy_thresholds(temperature, &input.logits),
        };
        analysis.causes = analysis
            .computed
            .iter()
            .flat_map(|c| c.engine.causes(&analysis.view(c)))
            .collect();
        analysis
    }

    /// The step analysed.
    pub fn input(&self) -> &Inspection {
        &self.input
    }

    /// What transformers runs the call with, and where each value came from.
    pub fn effective(&self) -> &EffectiveParams {
        &self.effective
    }

    /// transformers' distribution, unless it refuses the call.
    pub fn hf_distribution(&self) -> Option<&Distribution> {
        self.hf.as_ref().ok().map(|(_, o)| &o.distribution)
    }

    /// Why each column differs from transformers here, in plain words, in the registry's order.
    pub fn causes(&self) -> &[Cause] {
        &self.causes
    }

    /// What each system does with the call's temperature: where its "temperature zero" begins.
    pub fn greedy_thresholds(&self) -> &[Threshold] {
        &self.greedy_thresholds
    }

    /// The column of this name.
    pub(crate) fn get(&self, name: ColumnName) -> &Computed {
        self.computed
            .iter()
            .find(|c| c.name == name)
            .expect("every registered column is computed")
    }

    /// The step as `computed` sees it.
    pub(crate) fn view<'a>(&'a self, computed: &'a Computed) -> StepView<'a> {
        StepView {
            input: &self.input,
            effective: &self.effective,
            hf: &self.hf,
            distribution: &computed.distribution,
            compare: computed.compare.as_ref(),
        }
    }

    /// The causes one column names here.
    pub fn causes_of(&self, name: ColumnName) -> Vec<&Cause> {
        self.causes.iter().filter(|c| c.column == name).collect()
    }

    /// The distribution of one column, or what its library raises for the call.
    pub fn distribution(&self, name: ColumnName) -> Result<&Distribution, &SamplingError> {
        self.get(name).distribution.as_ref()
    }

    /// One column against transformers: `None` for hf itself, or when either side raises.
    pub fn compare(&self, name: ColumnName) -> Option<&Comparison> {
        self.get(name).compare.as_ref()
    }
}
