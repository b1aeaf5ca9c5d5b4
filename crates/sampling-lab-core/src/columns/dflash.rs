//! DFlash's `sample()` (z-lab/dflash, `dflash/model.py` @ 44947fb): below a temperature of 1e-5
//! the argmax, otherwise plain `softmax(logits / temperature)` over the whole vocabulary.
//!
//! It reads the temperature and nothing else: no implicit `top_k=50`, no top-p, no penalty, no
//! `do_sample` and no `generation_config.json`. Its default temperature is `0.0`, so a call
//! without one decodes greedily.
//!
//! ```text
//! sample(logits, 0.6)   # softmax(logits / 0.6) over all 49152 tokens
//! sample(logits, 5e-6)  # argmax: below 1e-5 DFlash does not sample at all
//! ```

use super::candle_port::CandlePort;
use super::causes::{departs, Cause, Rule};
use super::hf::Processor;
use super::rust_code::{port_program, port_text};
use super::thresholds::{Behaviour, Threshold};
use super::torch_f32::torch_argmax;
use super::{Column, ColumnName, Drawing, Engine, StepView, TokenSampler};
use crate::arguments::params::{Field, GenerateArgs};
use crate::arguments::pyvalue::{float_repr, PyValue};
use crate::distribution::Distribution;
use crate::text::{list, Message};
use crate::SamplingError;
use candle_transformers::generation::Sampling;
use serde_json::{json, Map, Value};

/// DFlash's column.
pub const NAME: ColumnName = ColumnName::new("dflash");

const REFUSED: Rule = Rule::new("dflash_refused", NAME);
const REFUSED_BY_HF: Rule = Rule::new("dflash_refused_by_hf", NAME);
const THRESHOLD: Rule = Rule::new("dflash_threshold", NAME);
const NO_DO_SAMPLE: Rule = Rule::new("dflash_no_do_sample", NAME);
/// DFlash samples at the temperature alone where transformers also truncates (its implicit
/// `top_k=50` at least): the usual reason the two differ when both sample.
pub(crate) const TEMPERATURE_ONLY: Rule = Rule::new("dflash_temperature_only", NAME);

/// DFlash's registry entry.
pub static COLUMN: Column = Column {
    catalogs: super::catalogs!("dflash"),
    name: NAME,
    code: Some("Rust"),
    draws: true,
    from_call: |call| Box::new(DflashColumn(DflashSampling::from_args(call.args))),
    thresholds,
    rules: &[REFUSED, REFUSED_BY_HF, THRESHOLD, NO_DO_SAMPLE, TEMPERATURE_ONLY],
};

/// `sample()` takes the argmax for temperatures strictly below this.
pub(crate) const GREEDY_BELOW: f64 = 1e-5;

/// DFlash's temperature when the caller gives none (`sample(logits, temperature=0.0)`).
pub(crate) const DEFAULT_TEMPERATURE: f64 = 0.0;

/// DFlash's `sample()` for the call's temperature as a candle `LogitsProcessor` draws it: argmax
/// below DFlash's 1e-5 (candle's own switch is at 1e-7), else the whole vocabulary at that
/// temperature. What the call's `temperature` cannot be (None) is refused as Python refuses it.
///
/// ```
/// use sampling_lab_core::columns::{dflash, Column};
/// use sampling_lab_core::{compare, GenerateArgs};
///
/// let args = GenerateArgs::from_json_str(r#"{"temperature": 0.6}"#)?;
/// let logits = [2.0f32, 1.0, 0.5, -1.0];
/// let exact = dflash::NAME.column().distribution(&args, None, &logits, &[])?;
/// let port = dflash::candle_port(&args)?;
/// assert!(compare(&exact, &port.distribution(&logits, &[])?).max_abs_diff < 1e-6);
/// # Ok::<(), sampling_lab_core::SamplingError>(())
/// ```
pub fn candle_port(args: &GenerateArgs) -> Result<CandlePort, SamplingError> {
    Ok(DflashSampling::from_args(args)?.candle_port())
}

/// DFlash's sampler for one call.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct DflashSampling {
    /// The temperature `sample()` is called with: the call's, else DFlash's default (0).
    pub temperature: f64,
    /// `generate()` arguments the call carried that DFlash never reads, as `name=value`.
    pub ignored: Vec<String>,
}

impl DflashSampling {
    /// Reads `temperature` from the call; `None` is refused as Python refuses `None < 1e-5`.
    pub fn from_args(args: &GenerateArgs) -> Result<Self, SamplingError> {
        let temperature = match args.get(Field::Temperature) {
            None => DEFAULT_TEMPERATURE,
            Some(PyValue::None) => {
                return Err(SamplingError::Refused(
                    "TypeError: '<' not supported between instances of 'NoneType' and 'float'".into(),
                ))
            }
            Some(v) => v.number().expect("a value other than None has a number"),
        };
        let ignored = args
            .passed()
            .filter(|(field, _)| *field != Field::Temperature)
            .map(|(field, value)| format!("{}={}", field.name(), value.repr()))
            .collect();
        Ok(DflashSampling { temperature, ignored })
    }

    /// Whether `sample()` takes the argmax instead of drawing.
    fn is_greedy(&self) -> bool {
        self.temperature < GREEDY_BELOW
    }

    /// What `sample()` does, in one line: the report entry's `sampling`.
    fn describe(&self) -> String {
        let t = float_repr(self.temperature);
        if self.is_greedy() {
            format!("sample(logits, {t}) → argmax (temperature < 1e-5)")
        } else {
            format!("sample(logits, {t}) → softmax(logits / {t}) → multinomial")
        }
    }

    /// What `sample()` draws from: torch divides the f32 logits by the f32-rounded temperature,
    /// takes an f32 softmax and draws with `multinomial`, which never lands on a token whose f32
    /// probability underflowed to zero.
    pub fn distribution(&self, logits: &[f32]) -> Result<Distribution, SamplingError> {
        if self.is_greedy() {
            return Ok(Distribution::one_hot(torch_argmax(logits), logits.len()));
        }
        let t = self.temperature as f32;
        let scaled: Vec<f32> = logits.iter().map(|l| l / t).collect();
        if scaled.iter().any(|s| s.is_nan()) || scaled.iter().all(|s| *s == f32::NEG_INFINITY) {
            return Err(SamplingError::Refused(
                "RuntimeError: probability tensor contains either `inf`, `nan` or element < 0".into(),
            ));
        }
        Ok(Distribution::softmax_drawable_in_f32(&scaled))
    }

    /// The candle set-up that draws from the same distribution: candle's `LogitsProcessor::new`
    /// switches to `ArgMax` only below 1e-7, so the 1e-5 rule is chosen by hand.
    pub fn candle_port(&self) -> CandlePort {
        CandlePort::plain(if self.is_greedy() {
            Sampling::ArgMax
        } else {
            Sampling::All {
                temperature: self.temperature,
            }
        })
    }
}

/// DFlash's sampler for the call, or the error Python raises setting it up.
struct DflashColumn(Result<DflashSampling, SamplingError>);

impl Engine for DflashColumn {
    fn distribution(&self, logits: &[f32], _context: &[u32]) -> Result<Distribution, SamplingError> {
        self.0.as_ref().map_err(Clone::clone)?.distribution(logits)
    }

    fn describe(&self) -> String {
        match &self.0 {
            Ok(d) => d.describe(),
            Err(_) => "sample() raises".into(),
        }
    }

    /// What `sample()` never reads, and the candle set-up that draws like it.
    fn details(&self, _step: &StepView) -> Map<String, Value> {
        let mut details = Map::new();
        let (ignored, candle) = match &self.0 {
            Ok(d) => (d.ignored.clone(), Some(port_text(&d.candle_port()))),
            Err(_) => (Vec::new(), None),
        };
        details.insert("ignored".into(), json!(ignored));
        details.insert("candle".into(), json!(candle));
        details
    }

    fn causes(&self, step: &StepView) -> Vec<Cause> {
        match &self.0 {
            Ok(dflash) => causes(dflash, step),
            Err(e) => vec![REFUSED.says(Message::new("cause-dflash-refused").verbatim("error", e.to_string()))],
        }
    }

    fn code(&self) -> Option<String> {
        self.0.as_ref().ok().map(|d| port_program(&d.candle_port()))
    }

    /// Drawn by its candle port, checked against that port's exact distribution (which the
    /// tests hold to DFlash's `sample()`).
    fn draws(&self, logits: &[f32], context: &[u32], seed: u64) -> Option<Result<Drawing, SamplingError>> {
        Some(self.0.as_ref().ok()?.candle_port().drawing(logits, context, seed))
    }

    fn sampler(&self, seed: u64) -> Result<Box<dyn TokenSampler>, SamplingError> {
        Ok(self.0.as_ref().map_err(Clone::clone)?.candle_port().sampler(seed))
    }
}

fn causes(dflash: &DflashSampling, step: &StepView) -> Vec<Cause> {
    if !departs(step.compare) {
        return Vec::new();
    }
    let t = step.effective.get(Field::Temperature).repr();
    let hf = match step.hf {
        Ok((hf, _)) => hf,
        Err(message) => {
            let id = if dflash.is_greedy() {
                "cause-dflash-refused-by-hf-argmax"
            } else {
                "cause-dflash-refused-by-hf-samples"
            };
            return vec![REFUSED_BY_HF.says(Message::new(id).verbatim("error", message.to_string()))];
        }
    };
    let mut out = Vec::new();
    if dflash.is_greedy() && hf.do_sample {
        out.push(
            THRESHOLD.says(
                Message::new("cause-dflash-threshold")
                    .verbatim("dflash_temperature", float_repr(dflash.temperature))
                    .verbatim("temperature", t),
            ),
        );
    } else if !dflash.is_greedy() && !hf.do_sample {
        out.push(
            NO_DO_SAMPLE.says(
                Message::new("cause-dflash-no-do-sample").verbatim("temperature", float_repr(dflash.temperature)),
            ),
        );
    }
    let lacked = super::hf::processors_as_arguments(step, |p| !matches!(p, Processor::Temperature(_)));
    if !dflash.is_greedy() && hf.do_sample && !lacked.is_empty() {
        let lacked = list(lacked);
        let kept = |d: Option<&Distribution>| d.map_or(0, Distribution::kept);
        out.push(
            TEMPERATURE_ONLY.says(
                Message::new("cause-dflash-temperature-only")
                    .arg("lacked", lacked)
                    .count("kept", kept(step.distribution.as_ref().ok()))
                    .count("hf_kept", kept(step.hf_distribution())),
            ),
        );
    }
    out
}

fn thresholds(temperature: PyValue, _logits: &[f32]) -> Vec<Threshold> {
    let Some(t) = temperature.number() else {
        return Vec::new();
    };
    let repr = temperature.repr();
    vec![if t < GREEDY_BELOW {
        Threshold::new(
            "DFlash sample()",
            Behaviour::Argmax,
            Message::new("threshold-dflash-argmax").verbatim("temperature", repr),
        )
    } else {
        Threshold::new(
            "DFlash sample()",
            Behaviour::Sample,
            Message::new("threshold-dflash-samples").verbatim("temperature", repr),
        )
    }]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dflash(kwargs: &str) -> DflashSampling {
        DflashSampling::from_args(&GenerateArgs::from_json_str(kwargs).unwrap()).unwrap()
    }

    #[test]
    fn without_a_temperature_dflash_decodes_greedily() {
        assert!(dflash("{}").is_greedy());
    }

    #[test]
    fn the_greedy_threshold_is_strictly_below_one_in_a_hundred_thousand() {
        assert!(dflash(r#"{"temperature": 9.9e-6}"#).is_greedy());
        assert!(!dflash(r#"{"temperature": 1e-5}"#).is_greedy());
    }

    #[test]
    fn temperature_alone_keeps_every_drawable_token() {
        let d = dflash(r#"{"do_sample": true, "temperature": 0.6, "top_k": 2, "top_p": 0.5}"#);
        let dist = d.distribution(&[3.0, 2.0, 2.0, 1.0]).unwrap();
        assert_eq!(dist.kept(), 4);
        assert_eq!(d.ignored, ["do_sample=True", "top_k=2", "top_p=0.5"]);
    }

    #[test]
    fn argmax_takes_the_first_of_tied_maxima() {
        let dist = dflash(r#"{"temperature": 0.0}"#)
            .distribution(&[1.0, 4.0, 4.0])
            .unwrap();
        assert_eq!(dist.support(), [(1, 1.0)]);
    }

    #[test]
    fn tokens_whose_f32_probability_underflows_cannot_be_drawn() {
        let dist = dflash(r#"{"temperature": 0.01}"#)
            .distribution(&[0.0, -0.5, -2.0])
            .unwrap();
        assert_eq!(dist.kept(), 2, "{:?}", dist.support());
    }

    #[test]
    fn a_temperature_passed_as_none_is_python_s_type_error() {
        let err = DflashSampling::from_args(&GenerateArgs::from_json_str(r#"{"temperature": null}"#).unwrap());
        assert!(err.unwrap_err().to_string().contains("NoneType"));
    }
}
