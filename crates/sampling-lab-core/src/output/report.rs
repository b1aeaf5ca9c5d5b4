//! The JSON that `sampling-lab inspect` prints and the page shows: one next-token step seen by
//! every registered column, with the figures that say how far apart they are.

use super::analysis::Analysis;
use crate::arguments::params::{Field, Source};
use crate::columns::causes::Cause;
use crate::columns::hf::{self, Processor};
use crate::columns::thresholds::Threshold;
use crate::columns::ColumnName;
use crate::distribution::{Comparison, Distribution};
use crate::SamplingError;
use serde::ser::SerializeMap;
use serde::Serialize;
use serde_json::{Map, Value};

/// One column's entry: what every entry has, then the column's own fields.
#[derive(Clone, Debug, Serialize)]
pub struct Entry {
    /// The set-up in one line (a candle `Sampling`, transformers' processors, …).
    pub sampling: String,
    /// How many tokens a draw can land on (0 when the library refuses the call).
    pub kept: usize,
    /// `[token, probability]`, most probable first.
    pub support: Vec<(u32, f64)>,
    /// Entropy in nats.
    pub entropy: Option<f64>,
    /// What the library raises for the call, word for word, when it refuses it.
    pub error: Option<String>,
    /// What a reader should know about the set-up (arguments dropped, values clamped, …).
    pub notes: Vec<String>,
    /// The column's own fields ([`crate::Engine::details`]).
    #[serde(flatten)]
    pub details: Map<String, Value>,
}

/// transformers' reading of the call: the values it runs with, where each came from, and which
/// of them a port that copies the arguments would miss.
#[derive(Clone, Debug, Serialize)]
pub struct EffectiveReport {
    /// Every field's value, by its Python name.
    pub values: Map<String, Value>,
    /// `passed`, `generation_config` or `default` per field.
    pub sources: Map<String, Value>,
    /// Defaults the user did not pass that changed what is sampled (e.g. `top_k=50`).
    pub implicit: Vec<String>,
    /// Values taken from generation_config.json that a candle port never sees.
    pub from_generation_config: Vec<String>,
    /// transformers' warnings for flags it ignores (they are logged, not raised).
    pub warnings: Vec<String>,
}

/// `{"vocab", "effective_params", "effective", <each column's entry by name>, "compare",
/// "call", "finding", "causes", "greedy_thresholds", "code"}`, columns in the registry's order.
#[derive(Clone, Debug)]
pub struct Report {
    /// The vocabulary's size.
    pub vocab: usize,
    /// Every field's value as transformers runs it (the same as `effective.values`), under the
    /// key transformers' fixtures record it.
    pub effective_params: Map<String, Value>,
    /// transformers' reading of the call.
    pub effective: EffectiveReport,
    /// Each column's entry, in the registry's order ([`Report::entry`] finds one).
    pub entries: Vec<(ColumnName, Entry)>,
    /// Every column but hf against hf.
    pub compare: Vec<(ColumnName, Option<Comparison>)>,
    /// The call as Python source ([`GenerateArgs::python_call`](crate::GenerateArgs::python_call)).
    pub call: String,
    /// The largest departure from transformers here, in one sentence ([`Analysis::finding`]).
    pub finding: String,
    /// Why each column differs from transformers here, in plain words.
    pub causes: Vec<Cause>,
    /// What each system does with this temperature: argmax, sample or error.
    pub greedy_thresholds: Vec<Threshold>,
    /// Each column with code, as the code a user writes (none where its library refuses).
    pub code: Vec<(ColumnName, Option<String>)>,
}

impl Report {
    /// The entry of one column.
    pub fn entry(&self, name: ColumnName) -> &Entry {
        &self
            .entries
            .iter()
            .find(|(s, _)| *s == name)
            .expect("every registered column has an entry")
            .1
    }

    /// One column against hf.
    pub fn compare(&self, name: ColumnName) -> Option<&Comparison> {
        self.compare.iter().find(|(s, _)| *s == name)?.1.as_ref()
    }
}

/// A list of `(column, value)` as a JSON object keyed by the columns' names.
struct ByColumn<'a, T>(&'a [(ColumnName, T)]);

impl<T: Serialize> Serialize for ByColumn<'_, T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (name, value) in self.0 {
            map.serialize_entry(name.name(), value)?;
        }
        map.end()
    }
}

impl Serialize for Report {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("vocab", &self.vocab)?;
        map.serialize_entry("effective_params", &self.effective_params)?;
        map.serialize_entry("effective", &self.effective)?;
        for (name, entry) in &self.entries {
            map.serialize_entry(name.name(), entry)?;
        }
        map.serialize_entry("compare", &ByColumn(&self.compare))?;
        map.serialize_entry("call", &self.call)?;
        map.serialize_entry("finding", &self.finding)?;
        map.serialize_entry("causes", &self.causes)?;
        map.serialize_entry("greedy_thresholds", &self.greedy_thresholds)?;
        map.serialize_entry("code", &ByColumn(&self.code))?;
        map.end()
    }
}

impl Analysis {
    /// The report of the step: what `sampling-lab inspect` prints and the page shows, as JSON
    /// through serde.
    ///
    /// ```
    /// use sampling_lab_core::{columns, Analysis, GenerateArgs, Inspection};
    ///
    /// // Sampling at temperature 0: transformers raises, candle's copied flags go greedy.
    /// let args = GenerateArgs::from_json_str(r#"{"do_sample": true, "temperature": 0.0}"#)?;
    /// let report = Analysis::run(&Inspection::new(vec![2.0, 1.0, 0.5], args, None, vec![])?).report();
    /// let hf_error = report.entry(columns::hf::NAME).error.as_deref().unwrap_or_default();
    /// assert!(hf_error.starts_with("`temperature` (=0.0) has to be a strictly positive float"));
    /// assert_eq!(report.entry(columns::literal::NAME).sampling, "Sampling::ArgMax");
    /// assert_eq!(serde_json::to_value(&report)?["literal"]["kept"], 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn report(&self) -> Report {
        let entries = self
            .computed
            .iter()
            .map(|c| {
                let view = self.view(c);
                let entry = entry(
                    c.engine.describe(),
                    c.distribution.as_ref(),
                    c.engine.notes(&view),
                    c.engine.details(&view),
                );
                (c.name, entry)
            })
            .collect();
        let others = self.computed.iter().filter(|c| c.name != hf::NAME);
        Report {
            vocab: self.input.logits.len(),
            effective_params: self.effective.values_json(),
            effective: effective_report(self),
            entries,
            compare: others.map(|c| (c.name, c.compare.clone())).collect(),
            call: self.input.args.python_call(),
            finding: self.finding(),
            causes: self.causes.clone(),
            greedy_thresholds: self.greedy_thresholds.clone(),
            code: self
                .computed
                .iter()
                .filter(|c| c.name.column().code.is_some())
                .map(|c| (c.name, c.engine.code()))
                .collect(),
        }
    }
}

fn effective_report(analysis: &Analysis) -> EffectiveReport {
    let e = &analysis.effective;
    let processors = analysis
        .hf
        .as_ref()
        .map(|(hf, _)| hf.processors.clone())
        .unwrap_or_default();
    let with_source = |source: Source| {
        let mut fields: Vec<Field> = processors
            .iter()
            .map(Processor::field)
            .filter(|f| e.source(*f) == source)
            .collect();
        if e.source(Field::DoSample) == source && e.get(Field::DoSample).truthy() {
            fields.insert(0, Field::DoSample);
        }
        fields
            .iter()
            .map(|f| format!("{}={}", f.name(), e.get(*f).repr()))
            .collect::<Vec<_>>()
    };
    EffectiveReport {
        values: e.values_json(),
        sources: e.sources_json(),
        implicit: with_source(Source::Default),
        from_generation_config: with_source(Source::GenerationConfig),
        warnings: e.warnings(),
    }
}

fn entry(
    sampling: String,
    dist: Result<&Distribution, &SamplingError>,
    notes: Vec<String>,
    details: Map<String, Value>,
) -> Entry {
    match dist {
        Ok(d) => Entry {
            sampling,
            kept: d.kept(),
            support: d.support.clone(),
            entropy: Some(d.entropy()),
            error: None,
            notes,
            details,
        },
        Err(e) => Entry {
            sampling,
            kept: 0,
            support: Vec::new(),
            entropy: None,
            error: Some(e.to_string()),
            notes,
            details,
        },
    }
}
