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

use super::distribution::Distribution;
use super::hf::torch_argmax;
use super::params::{Field, GenerateArgs};
use super::port::CandlePort;
use super::pyvalue::{float_repr, PyValue};
use super::SamplingError;
use candle_transformers::generation::Sampling;

/// `sample()` takes the argmax for temperatures strictly below this.
pub const GREEDY_BELOW: f64 = 1e-5;

/// DFlash's temperature when the caller gives none (`sample(logits, temperature=0.0)`).
pub const DEFAULT_TEMPERATURE: f64 = 0.0;

/// DFlash's sampler for one call.
#[derive(Clone, Debug, PartialEq)]
pub struct DflashSampling {
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

    pub fn is_greedy(&self) -> bool {
        self.temperature < GREEDY_BELOW
    }

    pub fn describe(&self) -> String {
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
        assert_eq!(dist.support, [(1, 1.0)]);
    }

    #[test]
    fn tokens_whose_f32_probability_underflows_cannot_be_drawn() {
        let dist = dflash(r#"{"temperature": 0.01}"#)
            .distribution(&[0.0, -0.5, -2.0])
            .unwrap();
        assert_eq!(dist.kept(), 2, "{:?}", dist.support);
    }

    #[test]
    fn a_temperature_passed_as_none_is_python_s_type_error() {
        let err = DflashSampling::from_args(&GenerateArgs::from_json_str(r#"{"temperature": null}"#).unwrap());
        assert!(err.unwrap_err().to_string().contains("NoneType"));
    }
}
