//! The JSON that `sampling-lab inspect` prints and the page shows: one next-token step seen by
//! every registered column, with the figures that say how far apart they are.

use super::analysis::Analysis;
use super::catalog::Render;
use crate::arguments::params::{Field, Source};
use crate::columns::causes::CauseText;
use crate::columns::hf::{self, Processor};
use crate::columns::thresholds::ThresholdText;
use crate::columns::ColumnName;
use crate::distribution::{Comparison, Distribution};
use crate::text::{Lang, Message, Text};
use crate::SamplingError;
use serde::ser::SerializeMap;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// How a report is written: the language of its sentences, the columns its finding compares
/// with hf, and whether the step is the reference chat's (its numbers then stand beside the
/// write-up's) — `{"lang": "zh-Hans", "compared": ["literal", "corrected"], "write_up": true}`,
/// each key optional (English, [`DEFAULT_PAIR`](super::finding::DEFAULT_PAIR), no).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[non_exhaustive]
pub struct ReportOptions {
    /// The language of every `text`.
    pub lang: Lang,
    /// The columns the finding compares with hf (none: the largest departure).
    pub compared: Vec<ColumnName>,
    /// The step is the reference chat's: say how its numbers stand to the write-up's.
    pub write_up: bool,
}

impl Default for ReportOptions {
    fn default() -> Self {
        ReportOptions {
            lang: Lang::En,
            compared: super::finding::DEFAULT_PAIR.to_vec(),
            write_up: false,
        }
    }
}

impl ReportOptions {
    /// The options a JSON object names; a blank text is the defaults.
    pub fn from_json_str(text: &str) -> Result<Self, SamplingError> {
        if text.trim().is_empty() {
            return Ok(ReportOptions::default());
        }
        serde_json::from_str(text).map_err(|e| {
            SamplingError::invalid(match e.classify() {
                serde_json::error::Category::Syntax | serde_json::error::Category::Eof => {
                    Message::json("invalid-report-options-json", &e)
                }
                // Valid JSON with a field it does not have or a value it cannot take.
                _ => Message::new("invalid-report-options").verbatim("detail", e.to_string()),
            })
        })
    }
}

/// One column's entry: what every entry has, then the column's own fields.
#[derive(Clone, Debug, Serialize)]
#[non_exhaustive]
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
    pub notes: Vec<Text>,
    /// The column's own fields: transformers' `processors`, the corrected port's `exactness` and
    /// `ambiguities`, a server's `request` and `chain`, …
    #[serde(flatten)]
    pub details: Map<String, Value>,
}

/// transformers' reading of the call: the values it runs with, where each came from, and which
/// of them a port that copies the arguments would miss.
#[derive(Clone, Debug, Serialize)]
#[non_exhaustive]
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
#[non_exhaustive]
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
    /// The report's language: every `text` is in it.
    pub lang: Lang,
    /// The columns the finding compares with hf.
    pub compared: Vec<ColumnName>,
    /// The comparison in one sentence ([`Analysis::finding`]).
    pub finding: Text,
    /// For the reference chat, how its numbers stand to the write-up's
    /// ([`ReportOptions::write_up`]).
    pub write_up: Option<Text>,
    /// Why each column differs from transformers here, in plain words.
    pub causes: Vec<CauseText>,
    /// What each system does with this temperature: argmax, sample or error.
    pub greedy_thresholds: Vec<ThresholdText>,
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
pub(crate) struct ByColumn<'a, T>(pub(crate) &'a [(ColumnName, T)]);

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
        map.serialize_entry("lang", self.lang.tag())?;
        map.serialize_entry("compared", &self.compared)?;
        map.serialize_entry("finding", &self.finding)?;
        if let Some(note) = &self.write_up {
            map.serialize_entry("write_up", note)?;
        }
        map.serialize_entry("causes", &self.causes)?;
        map.serialize_entry("greedy_thresholds", &self.greedy_thresholds)?;
        map.serialize_entry("code", &ByColumn(&self.code))?;
        map.end()
    }
}

impl Analysis {
    /// The report of the step in `lang`, its finding comparing the columns `compared` with hf
    /// (see [`Analysis::finding`]): what `sampling-lab inspect` prints and the page shows, as
    /// JSON through serde.
    ///
    /// ```
    /// use sampling_lab_core::{columns, Analysis, GenerateArgs, Inspection, Lang};
    ///
    /// // Sampling at temperature 0: transformers raises, candle's copied flags go greedy.
    /// let args = GenerateArgs::from_json_str(r#"{"do_sample": true, "temperature": 0.0}"#)?;
    /// let analysis = Analysis::run(&Inspection::new(vec![2.0, 1.0, 0.5], args, None, vec![])?);
    /// let report = analysis.report(Lang::En, &[columns::literal::NAME, columns::corrected::NAME]);
    /// let hf_error = report.entry(columns::hf::NAME).error.as_deref().unwrap_or_default();
    /// assert!(hf_error.starts_with("`temperature` (=0.0) has to be a strictly positive float"));
    /// assert_eq!(report.entry(columns::literal::NAME).sampling, "Sampling::ArgMax");
    /// assert_eq!(serde_json::to_value(&report)?["literal"]["kept"], 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn report(&self, lang: Lang, compared: &[ColumnName]) -> Report {
        self.report_with(&ReportOptions {
            lang,
            compared: compared.to_vec(),
            write_up: false,
        })
    }

    /// The report written as `options` say.
    pub fn report_with(&self, options: &ReportOptions) -> Report {
        let (lang, compared) = (options.lang, options.compared.as_slice());
        let entries = self
            .computed
            .iter()
            .map(|c| {
                let view = self.view(c);
                let notes = c.engine.notes(&view).iter().map(|n| n.in_lang(lang)).collect();
                let entry = entry(
                    c.engine.describe(),
                    c.distribution.as_ref(),
                    notes,
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
            lang,
            compared: compared.to_vec(),
            finding: self.finding(compared).in_lang(lang),
            write_up: options
                .write_up
                .then(|| super::write_up::note(&self.input.logits, self.input.context_ids.clone()).ok())
                .flatten()
                .map(|note| note.in_lang(lang)),
            causes: self.causes.iter().map(|c| c.in_lang(lang)).collect(),
            greedy_thresholds: self.greedy_thresholds.iter().map(|t| t.in_lang(lang)).collect(),
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
    notes: Vec<Text>,
    details: Map<String, Value>,
) -> Entry {
    match dist {
        Ok(d) => Entry {
            sampling,
            kept: d.kept(),
            support: d.support().to_vec(),
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
