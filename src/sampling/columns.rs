//! One step computed under every column's semantics — transformers (hf), the literal and the
//! corrected candle ports, DFlash's `sample()`, transformers.js — each against hf, once.

use super::corrected::corrected_port;
use super::dflash::DflashSampling;
use super::distribution::{compare, Comparison, Distribution};
use super::hf::HfSampling;
use super::literal::LiteralPort;
use super::params::{EffectiveParams, GenerateArgs, GenerationConfig};
use super::port::CandlePort;
use super::transformers_js::TransformersJs;
use super::SamplingError;
use serde::Serialize;

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
pub struct Comparisons {
    pub literal: Option<Comparison>,
    pub corrected: Option<Comparison>,
    pub dflash: Option<Comparison>,
    pub transformers_js: Option<Comparison>,
}

impl Inspection {
    /// One step to inspect, its logits checked: transformers samples only from logits whose
    /// softmax is a distribution, so NaN, +inf or nothing but −inf are refused by name (−inf
    /// alone masks a token, as transformers' own processors do).
    pub fn new(
        logits: Vec<f32>,
        args: GenerateArgs,
        generation_config: Option<GenerationConfig>,
        context_ids: Vec<u32>,
    ) -> Result<Self, SamplingError> {
        check_logits(&logits)?;
        Ok(Inspection {
            logits,
            args,
            generation_config,
            context_ids,
        })
    }
}

/// Why these logits cannot be inspected, if they cannot: what torch does with them, checked
/// against torch 2 (`softmax` gives NaN everywhere, `multinomial` raises).
pub fn check_logits(logits: &[f32]) -> Result<(), SamplingError> {
    const TORCH: &str = "transformers' softmax turns every probability into NaN and torch.multinomial raises \
        RuntimeError (probability tensor contains either `inf`, `nan` or element < 0); logits must be finite or -inf";
    if logits.is_empty() {
        return Err(SamplingError::Invalid("logits are empty".into()));
    }
    if let Some(i) = logits.iter().position(|x| x.is_nan() || *x == f32::INFINITY) {
        return Err(SamplingError::Invalid(format!("logits[{i}] is {}: {TORCH}", logits[i])));
    }
    if logits.iter().all(|x| *x == f32::NEG_INFINITY) {
        return Err(SamplingError::Invalid(format!("every logit is -inf: {TORCH}")));
    }
    Ok(())
}

/// Every column's distribution of one step, and each against hf.
pub struct Columns {
    pub hf: Result<(HfSampling, super::hf::HfOutcome), SamplingError>,
    pub literal: LiteralPort,
    pub corrected: Option<CandlePort>,
    pub literal_dist: Result<Distribution, SamplingError>,
    pub corrected_dist: Option<Result<Distribution, SamplingError>>,
    pub dflash: Result<(DflashSampling, Distribution), SamplingError>,
    pub transformers_js: Result<(TransformersJs, Distribution), SamplingError>,
    pub effective: EffectiveParams,
    /// Each column against hf, computed once for the causes and the report.
    pub compare: Comparisons,
}

impl Columns {
    pub fn compute(input: &Inspection) -> Self {
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
        let hf_dist = hf.as_ref().ok().map(|(_, o)| &o.distribution);
        let against_hf = |d: Option<&Distribution>| hf_dist.zip(d).map(|(h, p)| compare(h, p));
        let compare = Comparisons {
            literal: against_hf(literal_dist.as_ref().ok()),
            corrected: against_hf(corrected_dist.as_ref().and_then(|d| d.as_ref().ok())),
            dflash: against_hf(dflash.as_ref().ok().map(|(_, d)| d)),
            transformers_js: against_hf(transformers_js.as_ref().ok().map(|(_, d)| d)),
        };
        Columns {
            hf,
            literal,
            corrected,
            literal_dist,
            corrected_dist,
            dflash,
            transformers_js,
            effective,
            compare,
        }
    }

    pub fn hf_distribution(&self) -> Option<&Distribution> {
        self.hf.as_ref().ok().map(|(_, o)| &o.distribution)
    }
}
