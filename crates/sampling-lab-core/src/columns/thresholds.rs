//! Where "temperature zero" begins, system by system, for one temperature and one step's logits:
//! every column's own rows, in the registry's order (each engine knows its library's threshold).

use super::REGISTRY;
use crate::arguments::pyvalue::PyValue;
use crate::text::{Message, Text};
use serde::Serialize;

/// What a system does at a temperature: where "temperature zero" begins is where this changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Behaviour {
    /// Greedy decoding: one token, whatever the seed.
    Argmax,
    /// A seeded draw at that temperature, even where it leaves one token drawable (the detail
    /// says so).
    Sample,
    /// The call is refused, or the sampler returns an error.
    Error,
}

/// What one system does with the temperature.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Threshold {
    /// The system and the call it is asked with, as the table's first column reads (code).
    pub system: &'static str,
    /// What it does at this temperature.
    pub behaviour: Behaviour,
    /// Why, or what exactly, for readers (the rule that decides, the error it raises).
    pub detail: Message,
}

impl Threshold {
    /// One row of the table.
    pub(crate) fn new(system: &'static str, behaviour: Behaviour, detail: Message) -> Self {
        Threshold {
            system,
            behaviour,
            detail,
        }
    }
}

/// A row of the table with its detail in one language: `{system, behaviour, detail: {id, args,
/// text}}`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct ThresholdText {
    /// The system and the call it is asked with.
    pub system: &'static str,
    /// What it does at this temperature.
    pub behaviour: Behaviour,
    /// Why, in the report's language.
    pub detail: Text,
}

/// The rows for `temperature` as the call gave it (a Python int or float, for transformers'
/// type check); none for a temperature passed as None.
pub(crate) fn greedy_thresholds(temperature: PyValue, logits: &[f32]) -> Vec<Threshold> {
    if temperature.is_none() {
        return Vec::new();
    }
    REGISTRY
        .iter()
        .flat_map(|column| (column.thresholds)(temperature, logits))
        .collect()
}

/// No rows: for a column whose library's threshold another row already states.
pub(crate) fn none(_temperature: PyValue, _logits: &[f32]) -> Vec<Threshold> {
    Vec::new()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn behaviours(t: PyValue) -> Vec<(&'static str, Behaviour)> {
        greedy_thresholds(t, &[2.0, 1.0, 0.5])
            .into_iter()
            .map(|r| (r.system, r.behaviour))
            .collect()
    }

    fn of(rows: &[(&'static str, Behaviour)], prefix: &str) -> Behaviour {
        rows.iter().find(|(s, _)| s.starts_with(prefix)).unwrap().1
    }

    #[test]
    fn at_zero_transformers_raises_candle_all_errs_and_the_others_take_the_argmax() {
        let rows = behaviours(PyValue::Float(0.0));
        assert_eq!(of(&rows, "transformers generate(do_sample=True)"), Behaviour::Error);
        assert_eq!(of(&rows, "candle from_sampling"), Behaviour::Error);
        assert_eq!(of(&rows, "candle LogitsProcessor::new"), Behaviour::Argmax);
        assert_eq!(of(&rows, "DFlash"), Behaviour::Argmax);
        assert_eq!(of(&rows, "mlx-lm"), Behaviour::Argmax);
        assert_eq!(of(&rows, "transformers.js"), Behaviour::Argmax);
    }

    #[test]
    fn between_candle_s_and_dflash_s_thresholds_only_dflash_is_greedy() {
        let rows = behaviours(PyValue::Float(5e-6));
        assert_eq!(of(&rows, "candle LogitsProcessor::new"), Behaviour::Sample);
        assert_eq!(of(&rows, "DFlash"), Behaviour::Argmax);
        assert_eq!(of(&rows, "transformers generate(do_sample=True)"), Behaviour::Sample);
    }

    #[test]
    fn below_candle_s_threshold_new_builds_argmax() {
        assert_eq!(
            of(&behaviours(PyValue::Float(1e-8)), "candle LogitsProcessor::new"),
            Behaviour::Argmax
        );
    }

    #[test]
    fn an_integer_temperature_is_refused_by_transformers_alone() {
        let rows = behaviours(PyValue::Int(2));
        assert_eq!(of(&rows, "transformers generate(do_sample=True)"), Behaviour::Error);
        assert_eq!(of(&rows, "DFlash"), Behaviour::Sample);
    }

    #[test]
    fn a_temperature_passed_as_none_has_no_rows() {
        assert!(greedy_thresholds(PyValue::None, &[1.0]).is_empty());
    }
}
