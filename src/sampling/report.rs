//! One next-token step seen five ways — transformers (hf), the literal candle port, the corrected
//! candle port, DFlash's `sample()` and transformers.js — with the figures that say how far apart
//! they are. This is the JSON that `sampling-lab inspect` prints and the page shows.

use super::corrected::corrected_port;
use super::dflash::DflashSampling;
use super::distribution::{compare, Comparison, Distribution};
use super::explain::{causes, Cause};
use super::hf::{Ambiguity, HfSampling, Processor};
use super::literal::LiteralPort;
use super::monte_carlo::{summarize, Draws, Part, PortDraws};
use super::params::{EffectiveParams, Field, GenerateArgs, GenerationConfig, Source};
use super::port::{sampling_text, CandlePort};
use super::rust_code::port_program;
use super::steps::ProbStep;
use super::thresholds::{greedy_thresholds, Threshold};
use super::transformers_js::{self, TransformersJs};
use super::SamplingError;
use serde::Serialize;
use serde_json::{Map, Value};

/// A port's probabilities agree with transformers' when no token differs by more than this.
pub const EXACT_TOLERANCE: f64 = 1e-6;

/// What to inspect: one step's raw logits and the `generate()` call around it.
#[derive(Clone, Debug, Default)]
pub struct Inspection {
    pub logits: Vec<f32>,
    pub args: GenerateArgs,
    pub generation_config: Option<GenerationConfig>,
    /// The whole `input_ids` up to this step, prompt included.
    pub context_ids: Vec<u32>,
}

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
    /// `exact`, `inexact_by_nature` (see `ambiguities`) or `mismatch`.
    pub exactness: &'static str,
    pub ambiguities: Vec<Ambiguity>,
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
pub struct Comparisons {
    pub literal: Option<Comparison>,
    pub corrected: Option<Comparison>,
    pub dflash: Option<Comparison>,
    pub transformers_js: Option<Comparison>,
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
    pub fn entries(&self) -> [(&'static str, &Entry); 5] {
        [
            ("hf", &self.hf.entry),
            ("literal", &self.literal),
            ("corrected", &self.corrected.entry),
            ("dflash", &self.dflash.entry),
            ("transformers_js", &self.transformers_js.entry),
        ]
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct PortCode {
    pub literal: String,
    pub corrected: Option<String>,
    pub dflash: Option<String>,
}

/// The distributions of one step, with their comparison.
pub struct Analysis {
    pub hf: Result<(HfSampling, super::hf::HfOutcome), String>,
    pub literal: LiteralPort,
    pub corrected: Option<CandlePort>,
    pub literal_dist: Result<Distribution, String>,
    pub corrected_dist: Option<Result<Distribution, String>>,
    pub dflash: Result<(DflashSampling, Distribution), SamplingError>,
    pub transformers_js: Result<(TransformersJs, Distribution), SamplingError>,
    pub effective: EffectiveParams,
    /// Each column against hf, computed once for the causes and the report.
    pub compare: Comparisons,
    pub causes: Vec<Cause>,
    pub greedy_thresholds: Vec<Threshold>,
}

impl Analysis {
    pub fn run(input: &Inspection) -> Self {
        let effective = EffectiveParams::resolve(&input.args, input.generation_config.as_ref());
        let hf = HfSampling::from_params(&effective).map(|hf| {
            let outcome = hf.apply(&input.logits, &input.context_ids);
            (hf, outcome)
        });
        let literal = LiteralPort::from_args(&input.args);
        let literal_dist = literal.port.distribution(&input.logits, &input.context_ids);
        let corrected = hf.as_ref().ok().map(|(hf, _)| corrected_port(hf));
        let corrected_dist = corrected
            .as_ref()
            .map(|c| c.distribution(&input.logits, &input.context_ids));
        let dflash = DflashSampling::from_args(&input.args).and_then(|d| {
            let dist = d.distribution(&input.logits)?;
            Ok((d, dist))
        });
        let transformers_js = TransformersJs::from_args(&input.args, input.generation_config.as_ref()).map(|t| {
            let dist = t.distribution(&input.logits, &input.context_ids);
            (t, dist)
        });
        // The temperature as the call wrote it (DFlash's reading), else transformers' effective one.
        let temperature = input
            .args
            .get(Field::Temperature)
            .unwrap_or_else(|| effective.get(Field::Temperature));
        let hf_dist = hf.as_ref().ok().map(|(_, o)| &o.distribution);
        let against_hf = |d: Option<&Distribution>| hf_dist.zip(d).map(|(h, p)| compare(h, p));
        let compare = Comparisons {
            literal: against_hf(literal_dist.as_ref().ok()),
            corrected: against_hf(corrected_dist.as_ref().and_then(|d| d.as_ref().ok())),
            dflash: against_hf(dflash.as_ref().ok().map(|(_, d)| d)),
            transformers_js: against_hf(transformers_js.as_ref().ok().map(|(_, d)| d)),
        };
        let mut analysis = Analysis {
            hf,
            literal,
            corrected,
            literal_dist,
            corrected_dist,
            dflash,
            transformers_js,
            greedy_thresholds: greedy_thresholds(temperature, &input.logits),
            effective,
            compare,
            causes: Vec::new(),
        };
        analysis.causes = causes(input, &analysis);
        analysis
    }

    pub fn hf_distribution(&self) -> Option<&Distribution> {
        self.hf.as_ref().ok().map(|(_, o)| &o.distribution)
    }

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
                entry: entry("sample() raises".into(), Err(&e.to_string()), Vec::new()),
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
                entry: entry("generate() throws".into(), Err(&e.to_string()), Vec::new()),
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
                    (Some(c), _) if c.agrees_within(EXACT_TOLERANCE) => "exact",
                    _ if !ambiguities.is_empty() => "inexact_by_nature",
                    _ => "mismatch",
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
                exactness: "exact",
                ambiguities,
            },
            _ => unreachable!("a corrected port exists whenever transformers accepts the parameters"),
        }
    }

    /// N draws of each port with the real `LogitsProcessor`, checked against its exact distribution.
    pub fn monte_carlo(&self, input: &Inspection, n: usize, seed: u64) -> Result<MonteCarlo, String> {
        let mut run = self.monte_carlo_run(input, n, seed, Part::WHOLE);
        run.advance(usize::MAX)?;
        Ok(run.finish())
    }

    /// `part` of the same draws, to be made in chunks.
    pub fn monte_carlo_run(&self, input: &Inspection, n: usize, seed: u64, part: Part) -> MonteCarloRun {
        let side = |port: &CandlePort, exact: &Result<Distribution, String>| -> Side {
            let exact = exact.as_ref().map_err(Clone::clone)?;
            Ok((
                PortDraws::new(port, &input.logits, &input.context_ids, part.draws(n), seed)?,
                exact.clone(),
            ))
        };
        let corrected = match (&self.corrected, &self.corrected_dist) {
            (Some(port), Some(exact)) => Some(side(port, exact)),
            _ => None,
        };
        // DFlash's candle port is checked against its own exact distribution, which the tests
        // hold to DFlash's `sample()`.
        let dflash = self.dflash.as_ref().ok().map(|(d, _)| {
            let port = d.candle_port();
            side(&port, &port.distribution(&input.logits, &input.context_ids))
        });
        MonteCarloRun {
            draws: n,
            seed,
            hf: self.hf_distribution().cloned(),
            literal: side(&self.literal.port, &self.literal_dist),
            corrected,
            dflash,
        }
    }
}

type Side = Result<(PortDraws, Distribution), String>;

/// Monte Carlo draws in progress.
pub struct MonteCarloRun {
    draws: usize,
    seed: u64,
    hf: Option<Distribution>,
    literal: Side,
    corrected: Option<Side>,
    dflash: Option<Side>,
}

impl MonteCarloRun {
    fn sides(&mut self) -> impl Iterator<Item = &mut PortDraws> {
        let optional = self.corrected.iter_mut().chain(self.dflash.iter_mut());
        self.literal
            .as_mut()
            .ok()
            .into_iter()
            .chain(optional.flat_map(|r| r.as_mut().ok()))
            .map(|(draws, _)| draws)
    }

    fn drawn(&self) -> impl Iterator<Item = &PortDraws> {
        let optional = self.corrected.iter().chain(self.dflash.iter());
        self.literal
            .as_ref()
            .ok()
            .into_iter()
            .chain(optional.flat_map(|r| r.as_ref().ok()))
            .map(|(draws, _)| draws)
    }

    /// Makes up to `max` more draws in all; the draws done so far.
    pub fn advance(&mut self, max: usize) -> Result<usize, String> {
        let mut left = max;
        for side in self.sides() {
            left -= side.advance(left)?;
        }
        Ok(self.done())
    }

    /// Draws this part has made so far, both ports together.
    pub fn done(&self) -> usize {
        self.drawn().map(PortDraws::done).sum()
    }

    /// Draws this part makes, both ports together.
    pub fn total(&self) -> usize {
        self.drawn().map(PortDraws::target).sum()
    }

    /// Every port's counts, one vocabulary after the other, for [`MonteCarloRun::absorb`].
    pub fn counts(&self) -> Vec<u64> {
        self.drawn().flat_map(|side| side.counts().iter().copied()).collect()
    }

    /// Adds the counts of the other parts of the same run (same input, draws and seed).
    pub fn absorb(&mut self, counts: &[u64]) -> Result<(), String> {
        let sides: Vec<&mut PortDraws> = self.sides().collect();
        if counts.len() != sides.iter().map(|s| s.counts().len()).sum::<usize>() {
            return Err(format!("{} counts do not fit this run's ports", counts.len()));
        }
        let mut rest = counts;
        for side in sides {
            let (theirs, more) = rest.split_at(side.counts().len());
            side.absorb(theirs)?;
            rest = more;
        }
        Ok(())
    }

    pub fn finish(self) -> MonteCarlo {
        self.snapshot()
    }

    /// The result of the draws made so far.
    pub fn snapshot(&self) -> MonteCarlo {
        let summary = |side: &Side| -> DrawsOrError {
            side.as_ref()
                .map(|(draws, exact)| summarize(draws.counts(), exact, self.hf.as_ref(), self.seed))
                .map_err(Clone::clone)
                .into()
        };
        MonteCarlo {
            draws: self.draws,
            seed: self.seed,
            delta: super::monte_carlo::DELTA,
            literal: summary(&self.literal),
            corrected: self.corrected.as_ref().map(summary),
            dflash: self.dflash.as_ref().map(summary),
        }
    }

    /// How far each port's draws so far are from its exact distribution, and the check's bound
    /// at that many draws: `(port, draws, tv_to_exact, bound)`, for a convergence picture.
    pub fn convergence(&self) -> Vec<(&'static str, usize, f64, f64)> {
        let sides = [
            ("literal", Some(&self.literal)),
            ("corrected", self.corrected.as_ref()),
            ("dflash", self.dflash.as_ref()),
        ];
        sides
            .into_iter()
            .filter_map(|(name, side)| {
                let (draws, exact) = side?.as_ref().ok()?;
                let d = summarize(draws.counts(), exact, None, self.seed);
                (d.draws > 0).then_some((name, d.draws, d.tv_to_exact, d.bound))
            })
            .collect()
    }
}

/// Monte Carlo results for every candle port.
#[derive(Clone, Debug, Serialize)]
pub struct MonteCarlo {
    pub draws: usize,
    pub seed: u64,
    pub delta: f64,
    pub literal: DrawsOrError,
    pub corrected: Option<DrawsOrError>,
    pub dflash: Option<DrawsOrError>,
}

#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum DrawsOrError {
    Draws(Draws),
    Error { error: String },
}

impl From<Result<Draws, String>> for DrawsOrError {
    fn from(r: Result<Draws, String>) -> Self {
        match r {
            Ok(d) => DrawsOrError::Draws(d),
            Err(error) => DrawsOrError::Error { error },
        }
    }
}

fn port_text(port: &CandlePort) -> String {
    let mut text = sampling_text(&port.sampling);
    if !port.steps.is_empty() {
        let calls: Vec<String> = port.steps.iter().map(ProbStep::rust_call).collect();
        text.push_str(&format!(" + sample_f(|prs| {{ {} }})", calls.join("; ")));
    }
    text
}

fn entry(sampling: String, dist: Result<&Distribution, &String>, notes: Vec<String>) -> Entry {
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
            error: Some(e.clone()),
            notes,
        },
    }
}
