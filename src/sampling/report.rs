//! The JSON that `sampling-lab inspect` prints and the page shows: one next-token step seen five
//! ways — transformers (hf), the literal candle port, the corrected candle port, DFlash's
//! `sample()` and transformers.js — with the figures that say how far apart they are.

use super::analysis::Analysis;
use super::columns::{Columns, Comparisons, EXACT_TOLERANCE};
use super::distribution::{Comparison, Distribution};
use super::explain::Cause;
use super::hf::{Ambiguity, Processor};
use super::params::{Field, Source};
use super::rust_code::{port_program, port_text};
use super::steps::ProbStep;
use super::thresholds::Threshold;
use super::transformers_js;
use super::{SamplingError, Semantics};
use serde::Serialize;
use serde_json::{Map, Value};

#[derive(Clone, Debug, Serialize)]
pub struct Entry {
    /// The candle `Sampling`, or transformers' processors, as text.
    pub sampling: String,
    pub kept: usize,
    /// `[token, probability]`, most probable first.
    pub support: Vec<(u32, f64)>,
    /// Entropy in nats.
    pub entropy: Option<f64>,
    pub error: Option<String>,
    pub notes: Vec<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct CorrectedEntry {
    #[serde(flatten)]
    pub entry: Entry,
    /// The `sample_f` closure's steps, in order (empty: plain `sample`).
    pub closure: Vec<ProbStep>,
    pub exactness: Exactness,
    pub ambiguities: Vec<Ambiguity>,
}

/// How the corrected port's distribution stands to transformers'.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Exactness {
    /// Every probability within [`EXACT_TOLERANCE`] of transformers'.
    Exact,
    /// Ties at a cut that f32 arithmetic resolves either way (see `ambiguities`).
    InexactByNature,
    Mismatch,
    /// transformers refuses the call, so there is nothing to port.
    NotRun,
}

#[derive(Clone, Debug, Serialize)]
pub struct HfEntry {
    #[serde(flatten)]
    pub entry: Entry,
    /// transformers' processor classes, in the order `generate()` runs them.
    pub processors: Vec<&'static str>,
    /// The greedy token when `do_sample` is off.
    pub greedy_token: Option<u32>,
}

#[derive(Clone, Debug, Serialize)]
pub struct DflashEntry {
    #[serde(flatten)]
    pub entry: Entry,
    /// Arguments of the call that DFlash's `sample()` never reads.
    pub ignored: Vec<String>,
    /// The candle set-up that draws from the same distribution.
    pub candle: Option<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct TransformersJsEntry {
    #[serde(flatten)]
    pub entry: Entry,
    /// The `@huggingface/transformers` version this column reproduces.
    pub version: &'static str,
    /// Effective arguments transformers applies and transformers.js never does.
    pub ignored: Vec<String>,
    /// `temperature: 0` with sampling turned into greedy decoding.
    pub switched_to_greedy: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct EffectiveReport {
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

#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub vocab: usize,
    pub effective_params: Map<String, Value>,
    pub effective: EffectiveReport,
    pub hf: HfEntry,
    pub literal: Entry,
    pub corrected: CorrectedEntry,
    pub dflash: DflashEntry,
    pub transformers_js: TransformersJsEntry,
    pub compare: Comparisons,
    /// Why each column differs from transformers here, in plain words.
    pub causes: Vec<Cause>,
    /// What each system does with this temperature: argmax, sample or error.
    pub greedy_thresholds: Vec<Threshold>,
    /// Each port as the Rust a candle user writes (none for corrected when transformers refuses).
    pub code: PortCode,
}

impl Report {
    /// Every column's entry by its name in the JSON, in the order the page shows them.
    pub fn entries(&self) -> [(Semantics, &Entry); 5] {
        [
            (Semantics::Hf, &self.hf.entry),
            (Semantics::Literal, &self.literal),
            (Semantics::Corrected, &self.corrected.entry),
            (Semantics::Dflash, &self.dflash.entry),
            (Semantics::TransformersJs, &self.transformers_js.entry),
        ]
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct PortCode {
    pub literal: String,
    pub corrected: Option<String>,
    pub dflash: Option<String>,
}

impl Analysis {
    pub fn report(&self) -> Report {
        Report {
            vocab: self.effective_vocab(),
            effective_params: self.effective.values_json(),
            effective: self.effective_report(),
            hf: self.hf_entry(),
            literal: self.literal_entry(),
            corrected: self.corrected_entry(self.compare.corrected.as_ref()),
            dflash: self.dflash_entry(),
            transformers_js: self.transformers_js_entry(),
            compare: self.compare.clone(),
            causes: self.causes.clone(),
            greedy_thresholds: self.greedy_thresholds.clone(),
            code: PortCode {
                literal: port_program(&self.literal.port),
                corrected: self.corrected.as_ref().map(port_program),
                dflash: self.dflash.as_ref().ok().map(|(d, _)| port_program(&d.candle_port())),
            },
        }
    }
}

impl Columns {
    fn effective_vocab(&self) -> usize {
        match &self.literal_dist {
            Ok(d) => d.vocab,
            Err(_) => self.hf_distribution().map_or(0, |d| d.vocab),
        }
    }

    fn effective_report(&self) -> EffectiveReport {
        let e = &self.effective;
        let processors = self
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

    fn hf_entry(&self) -> HfEntry {
        match &self.hf {
            Ok((hf, outcome)) => HfEntry {
                entry: entry(hf.describe(), Ok(&outcome.distribution), Vec::new()),
                processors: hf.processors.iter().map(Processor::class_name).collect(),
                greedy_token: (!hf.do_sample).then(|| outcome.distribution.support[0].0),
            },
            Err(e) => HfEntry {
                entry: entry("generate() raises ValueError".into(), Err(e), Vec::new()),
                processors: Vec::new(),
                greedy_token: None,
            },
        }
    }

    fn dflash_entry(&self) -> DflashEntry {
        match &self.dflash {
            Ok((d, dist)) => DflashEntry {
                entry: entry(d.describe(), Ok(dist), Vec::new()),
                ignored: d.ignored.clone(),
                candle: Some(port_text(&d.candle_port())),
            },
            Err(e) => DflashEntry {
                entry: entry("sample() raises".into(), Err(e), Vec::new()),
                ignored: Vec::new(),
                candle: None,
            },
        }
    }

    fn transformers_js_entry(&self) -> TransformersJsEntry {
        match &self.transformers_js {
            Ok((t, dist)) => {
                let notes = t
                    .switched_to_greedy
                    .then(|| {
                        "`temperature: 0` implies greedy sampling: transformers.js sets do_sample to false (a warning)"
                            .into()
                    })
                    .into_iter()
                    .collect();
                TransformersJsEntry {
                    entry: entry(t.describe(), Ok(dist), notes),
                    version: transformers_js::VERSION,
                    ignored: t.ignored.clone(),
                    switched_to_greedy: t.switched_to_greedy,
                }
            }
            Err(e) => TransformersJsEntry {
                entry: entry("generate() throws".into(), Err(e), Vec::new()),
                version: transformers_js::VERSION,
                ignored: Vec::new(),
                switched_to_greedy: false,
            },
        }
    }

    fn literal_entry(&self) -> Entry {
        let mut notes: Vec<String> = self
            .literal
            .dropped
            .iter()
            .map(|d| format!("{d} has no candle counterpart and is dropped"))
            .collect();
        if self.literal.port.penalty.is_some() {
            notes.push("repetition penalty over the last 64 tokens, as candle's examples apply it".into());
        }
        entry(port_text(&self.literal.port), self.literal_dist.as_ref(), notes)
    }

    fn corrected_entry(&self, cmp: Option<&Comparison>) -> CorrectedEntry {
        let ambiguities = self.hf.as_ref().map(|(_, o)| o.ambiguities.clone()).unwrap_or_default();
        match (&self.corrected, &self.corrected_dist, &self.hf) {
            (Some(port), Some(dist), _) => {
                let exactness = match (cmp, dist) {
                    (Some(c), _) if c.agrees_within(EXACT_TOLERANCE) => Exactness::Exact,
                    _ if !ambiguities.is_empty() => Exactness::InexactByNature,
                    _ => Exactness::Mismatch,
                };
                CorrectedEntry {
                    entry: entry(port_text(port), dist.as_ref(), Vec::new()),
                    closure: port.steps.clone(),
                    exactness,
                    ambiguities,
                }
            }
            (_, _, Err(e)) => CorrectedEntry {
                entry: entry(
                    "not run: transformers rejects these parameters".into(),
                    Err(e),
                    Vec::new(),
                ),
                closure: Vec::new(),
                exactness: Exactness::NotRun,
                ambiguities,
            },
            _ => unreachable!("a corrected port exists whenever transformers accepts the parameters"),
        }
    }
}

fn entry(sampling: String, dist: Result<&Distribution, &SamplingError>, notes: Vec<String>) -> Entry {
    match dist {
        Ok(d) => Entry {
            sampling,
            kept: d.kept(),
            support: d.support.clone(),
            entropy: Some(d.entropy()),
            error: None,
            notes,
        },
        Err(e) => Entry {
            sampling,
            kept: 0,
            support: Vec::new(),
            entropy: None,
            error: Some(e.to_string()),
            notes,
        },
    }
}
