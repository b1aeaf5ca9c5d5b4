//! A whole answer under every column: at each of its steps, the figures the one-step report gives
//! for the token that was written there, and what they add up to along the answer.
//!
//! A column that draws outside transformers' support with probability m at a step meets that
//! choice again at every step. Along an answer, Σ m is the expected number of steps at which its
//! draw would be a token `generate()` never makes, and Π (1 − m) the chance that it never is —
//! *given this answer's path*: each step is read on the context the answer wrote, not on what the
//! column would have written had it drawn elsewhere.

mod sentences;
#[cfg(test)]
mod tests;

use super::analysis::{Analysis, Columns, Computed};
use super::report::ByColumn;
use crate::columns::{hf, ColumnName};
use crate::distribution::Distribution;
use crate::inspection::Inspection;
use crate::text::{Lang, Message, Text};
use crate::{Render, SamplingError};
use serde::ser::SerializeMap;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// A column's mass outside transformers' support counts as a visible departure above this: the
/// summary's `first_over_1pct`.
pub const VISIBLE_OUTSIDE: f64 = 0.01;

/// One column at one step of an answer: the one-step report's figures for that column (its
/// `kept`, and `tv` and `mass_outside_hf` from its `compare` entry), and the probability it gave
/// the token the answer wrote there. `None` where the column's library refuses the call, or
/// where transformers does (nothing to compare with).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct StepFigures {
    /// How many tokens a draw can land on (0 when the library refuses the call).
    pub kept: usize,
    /// Total variation distance to transformers' distribution (0 for hf itself).
    pub tv: Option<f64>,
    /// The chance the column's draw is a token transformers never draws (0 for hf itself).
    pub mass_outside_hf: Option<f64>,
    /// The probability the column gives the token that was written.
    pub p_token: Option<f64>,
}

/// One step of an answer under every column.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct AnswerStep {
    /// The token the answer wrote at this step.
    pub token: u32,
    /// transformers' entropy here, in nats (`None` when transformers refuses the call).
    pub hf_entropy: Option<f64>,
    /// Every registered column's figures, in the registry's order.
    pub columns: Vec<(ColumnName, StepFigures)>,
}

impl AnswerStep {
    /// The figures `analysis` gives for `token`, the token written after its step: each one the
    /// same number the step's report holds.
    ///
    /// ```
    /// use sampling_lab_core::columns::{corrected, literal};
    /// use sampling_lab_core::output::answer::AnswerStep;
    /// use sampling_lab_core::{Analysis, GenerateArgs, Inspection};
    ///
    /// // transformers' top-k keeps both tokens tied at the 2nd place; candle keeps one of them.
    /// let args = GenerateArgs::from_json_str(r#"{"do_sample": true, "top_k": 2}"#)?;
    /// let analysis = Analysis::run(&Inspection::new(vec![3.0, 2.0, 2.0, 1.0], args, None, vec![])?);
    /// let step = AnswerStep::of(&analysis, 2);
    /// assert_eq!(step.figures(literal::NAME).kept, 2);
    /// assert_eq!(step.figures(literal::NAME).p_token, Some(0.0));
    /// assert_eq!(step.figures(corrected::NAME).mass_outside_hf, Some(0.0));
    /// # Ok::<(), sampling_lab_core::SamplingError>(())
    /// ```
    pub fn of(analysis: &Analysis, token: u32) -> Self {
        Self::of_columns(analysis.hf_distribution(), &analysis.computed, token)
    }

    /// The figures of the columns `computed` on a step (hf's distribution, unless it refuses the
    /// call) for `token`: what [`AnswerStep::of`] reads from an analysis, without the causes and
    /// the temperature table an answer's step does not need.
    fn of_columns(hf_distribution: Option<&Distribution>, computed: &[Computed], token: u32) -> Self {
        let hf_ok = hf_distribution.is_some();
        let columns = computed
            .iter()
            .map(|c| {
                let distribution = c.distribution.as_ref().ok();
                let (tv, outside) = match (&c.compare, c.name == hf::NAME && hf_ok) {
                    (_, true) => (Some(0.0), Some(0.0)),
                    (Some(comparison), _) => (Some(comparison.tv), Some(comparison.mass_outside_hf)),
                    (None, false) => (None, None),
                };
                let figures = StepFigures {
                    kept: distribution.map_or(0, |d| d.kept()),
                    tv,
                    mass_outside_hf: outside,
                    p_token: distribution.map(|d| d.prob(token)),
                };
                (c.name, figures)
            })
            .collect();
        AnswerStep {
            token,
            hf_entropy: hf_distribution.map(|d| d.entropy()),
            columns,
        }
    }

    /// One column's figures.
    pub fn figures(&self, name: ColumnName) -> &StepFigures {
        &self
            .columns
            .iter()
            .find(|(n, _)| *n == name)
            .expect("every registered column has figures")
            .1
    }
}

/// What one column's figures add up to along an answer.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct ColumnSummary {
    /// Σ of its masses outside transformers' support: the expected number of steps at which its
    /// draw would be a token transformers never draws.
    pub expected_outside: Option<f64>,
    /// Π (1 − mass outside): the chance that a whole answer drawn by this column along this path
    /// never leaves transformers' support.
    pub p_never_outside: Option<f64>,
    /// The first step (from 0) where its mass outside exceeds [`VISIBLE_OUTSIDE`].
    pub first_over_1pct: Option<usize>,
    /// The first step where the column, or transformers, refuses the call: the sums are then
    /// `None`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refused_at: Option<usize>,
}

/// An answer's steps under every column, and what they add up to.
///
/// ```
/// use sampling_lab_core::columns::{corrected, literal};
/// use sampling_lab_core::output::answer::Answer;
/// use sampling_lab_core::{GenerateArgs, Inspection};
///
/// // temperature 0.7 alone: transformers adds top_k=50; a literal candle port keeps all 60.
/// let args = GenerateArgs::from_json_str(r#"{"do_sample": true, "temperature": 0.7}"#)?;
/// let logits: Vec<f32> = (0..60).map(|i| -(i as f32) * 0.02).collect();
/// let mut answer = Answer::default();
/// for token in [0, 3, 1] {
///     answer.push_step(&Inspection::new(logits.clone(), args.clone(), None, vec![])?, token);
/// }
/// let literal_summary = answer.summary(literal::NAME);
/// let outside = answer.steps()[0].figures(literal::NAME).mass_outside_hf.unwrap();
/// assert!(outside > 0.01);
/// assert_eq!(literal_summary.expected_outside, Some(3.0 * outside));
/// assert_eq!(literal_summary.first_over_1pct, Some(0));
/// assert_eq!(answer.summary(corrected::NAME).p_never_outside, Some(1.0));
/// # Ok::<(), sampling_lab_core::SamplingError>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Answer {
    steps: Vec<AnswerStep>,
}

impl Answer {
    /// An answer of these steps (the page's shipped answer, read back).
    pub fn from_steps(steps: Vec<AnswerStep>) -> Self {
        Answer { steps }
    }

    /// Analyses one more step — its logits and the call, the token written after them — as the
    /// one-step report would, and keeps its figures.
    pub fn push_step(&mut self, step: &Inspection, token: u32) -> &AnswerStep {
        let columns = Columns::of(step);
        self.push(AnswerStep::of_columns(
            columns.hf_distribution(),
            &columns.computed,
            token,
        ))
    }

    /// Keeps one more step's figures.
    pub fn push(&mut self, step: AnswerStep) -> &AnswerStep {
        self.steps.push(step);
        self.steps.last().expect("just pushed")
    }

    /// The steps, in the answer's order.
    pub fn steps(&self) -> &[AnswerStep] {
        &self.steps
    }

    /// What one column's figures add up to along the answer.
    pub fn summary(&self, name: ColumnName) -> ColumnSummary {
        let masses: Vec<Option<f64>> = self.steps.iter().map(|s| s.figures(name).mass_outside_hf).collect();
        if let Some(at) = masses.iter().position(Option::is_none) {
            return ColumnSummary {
                expected_outside: None,
                p_never_outside: None,
                first_over_1pct: None,
                refused_at: Some(at),
            };
        }
        let masses: Vec<f64> = masses.into_iter().flatten().collect();
        ColumnSummary {
            expected_outside: Some(masses.iter().sum()),
            p_never_outside: Some(masses.iter().map(|m| 1.0 - m).product()),
            first_over_1pct: masses.iter().position(|m| *m > VISIBLE_OUTSIDE),
            refused_at: None,
        }
    }

    /// Every column's summary, in the registry's order.
    pub fn summaries(&self) -> Vec<(ColumnName, ColumnSummary)> {
        ColumnName::all().map(|name| (name, self.summary(name))).collect()
    }

    /// The answer in words: a lead that says the figures are conditional on the answer's path, then
    /// a clause per column that leaves transformers' support (the columns in `first` first), and
    /// one for every column that never does. Nothing for an answer of no steps; one sentence when
    /// transformers refuses the call.
    pub fn sentences(&self, first: &[ColumnName]) -> Vec<Message> {
        sentences::sentences(self, first)
    }

    /// Drops the steps from `len` on (another token was chosen there).
    pub fn truncate(&mut self, len: usize) {
        self.steps.truncate(len);
    }

    /// The answer as `sampling-lab answer` prints it and the page draws it: its steps, every
    /// column's summary and the sentences in `lang`, the columns of `first` first.
    pub fn report(&self, lang: Lang, first: &[ColumnName]) -> AnswerReport {
        AnswerReport {
            steps: self.steps.clone(),
            summary: self.summaries(),
            lang,
            sentences: self.sentences(first).into_iter().map(|m| m.in_lang(lang)).collect(),
        }
    }

    /// Reads steps as [`AnswerReport`] writes them (`[{"token", "hf_entropy", "columns"}]`):
    /// every registered column's figures, and no other column's.
    pub fn from_json_str(text: &str) -> Result<Self, SamplingError> {
        let steps: Vec<AnswerStep> =
            serde_json::from_str(text).map_err(|e| SamplingError::invalid(Message::json("invalid-answer-json", &e)))?;
        Ok(Answer { steps })
    }
}

/// `{"steps": [{"token", "hf_entropy", "columns": {<column>: figures}}], "summary": {<column>:
/// summary}, "lang", "sentences": [text]}`, columns in the registry's order.
#[derive(Clone, Debug, Serialize)]
#[non_exhaustive]
pub struct AnswerReport {
    /// Each step's figures.
    pub steps: Vec<AnswerStep>,
    /// Every column's summary.
    #[serde(serialize_with = "by_column")]
    pub summary: Vec<(ColumnName, ColumnSummary)>,
    /// The language of `sentences`.
    #[serde(serialize_with = "tag")]
    pub lang: Lang,
    /// The lead, then a sentence per column ([`Answer::sentences`]).
    pub sentences: Vec<Text>,
}

fn tag<S: serde::Serializer>(lang: &Lang, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(lang.tag())
}

fn by_column<S: serde::Serializer>(summary: &[(ColumnName, ColumnSummary)], serializer: S) -> Result<S::Ok, S::Error> {
    ByColumn(summary).serialize(serializer)
}

impl Serialize for AnswerStep {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(3))?;
        map.serialize_entry("token", &self.token)?;
        map.serialize_entry("hf_entropy", &self.hf_entropy)?;
        let columns: Map<String, Value> = self
            .columns
            .iter()
            .map(|(name, figures)| {
                (
                    name.name().to_string(),
                    serde_json::to_value(figures).expect("figures serialise"),
                )
            })
            .collect();
        map.serialize_entry("columns", &columns)?;
        map.end()
    }
}

impl<'de> Deserialize<'de> for AnswerStep {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Written {
            token: u32,
            hf_entropy: Option<f64>,
            columns: Map<String, Value>,
        }
        let written = Written::deserialize(deserializer)?;
        let mut columns = Vec::new();
        for name in ColumnName::all() {
            let figures = written
                .columns
                .get(name.name())
                .ok_or_else(|| serde::de::Error::custom(format!("no figures for the column `{name}`")))?;
            let figures = StepFigures::deserialize(figures).map_err(serde::de::Error::custom)?;
            columns.push((name, figures));
        }
        if let Some(unknown) = written.columns.keys().find(|k| k.parse::<ColumnName>().is_err()) {
            return Err(serde::de::Error::custom(format!("no column is named `{unknown}`")));
        }
        Ok(AnswerStep {
            token: written.token,
            hf_entropy: written.hf_entropy,
            columns,
        })
    }
}
