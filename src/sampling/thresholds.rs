//! Where "temperature zero" begins, system by system, for one temperature and one step's logits.
//!
//! The candle rows call candle 0.11.1 itself; the others follow their sources:
//! - transformers 5.23.0, `generation/logits_process.py` (`TemperatureLogitsWarper.__init__`) and
//!   `generation/configuration_utils.py` (`validate`), through this crate's [`HfSampling`];
//! - DFlash, z-lab/dflash `dflash/model.py` @ 44947fb (`sample`: `temperature < 1e-5` → argmax);
//! - mlx-lm, ml-explore/mlx-lm `mlx_lm/sample_utils.py` @ d78bf58 (`make_sampler`: `temp == 0` →
//!   argmax, otherwise a categorical draw at that temperature);
//! - transformers.js 4.3.2, `models/modeling_utils.js` (`_get_logits_processor`: `temperature === 0`
//!   with `do_sample` → a warning and greedy; a negative temperature is divided by as it is).

use super::dflash::GREEDY_BELOW;
use super::params::{EffectiveParams, Field, GenerateArgs};
use super::port::CandlePort;
use super::pyvalue::PyValue;
use super::HfSampling;
use candle_core::{Device, Tensor};
use candle_transformers::generation::{LogitsProcessor, Sampling};
use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Behaviour {
    Argmax,
    Sample,
    Error,
}

/// What one system does with the temperature.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Threshold {
    pub system: &'static str,
    pub behaviour: Behaviour,
    pub detail: String,
}

fn row(system: &'static str, behaviour: Behaviour, detail: String) -> Threshold {
    Threshold {
        system,
        behaviour,
        detail,
    }
}

/// The rows for `temperature` as the call gave it (a Python int or float, for transformers'
/// type check); none for a temperature passed as None.
pub fn greedy_thresholds(temperature: PyValue, logits: &[f32]) -> Vec<Threshold> {
    let Some(t) = temperature.number() else {
        return Vec::new();
    };
    let repr = temperature.repr();
    vec![
        transformers_sampling(temperature),
        row(
            "transformers generate(do_sample=False)",
            Behaviour::Argmax,
            if t == 1.0 {
                "greedy; the temperature is not used".into()
            } else {
                format!("greedy; temperature={repr} is only warned about")
            },
        ),
        candle_new(t),
        candle_all(t, logits),
        row(
            "DFlash sample()",
            if t < GREEDY_BELOW {
                Behaviour::Argmax
            } else {
                Behaviour::Sample
            },
            if t < GREEDY_BELOW {
                format!("{repr} < 1e-5: torch.argmax")
            } else {
                format!("softmax(logits / {repr}) over the whole vocabulary")
            },
        ),
        transformers_js(t, &repr),
        row(
            "mlx-lm make_sampler(temp)",
            if t == 0.0 { Behaviour::Argmax } else { Behaviour::Sample },
            if t == 0.0 {
                "temp == 0: mx.argmax".into()
            } else {
                format!("categorical(logits * (1 / {repr})); only exactly 0 is greedy")
            },
        ),
    ]
}

fn transformers_sampling(temperature: PyValue) -> Threshold {
    let mut args = GenerateArgs::default();
    args.set(Field::DoSample, PyValue::Bool(true));
    args.set(Field::Temperature, temperature);
    args.set(Field::TopK, PyValue::Int(0));
    let system = "transformers generate(do_sample=True)";
    match HfSampling::from_params(&EffectiveParams::resolve(&args, None)) {
        Ok(_) => row(
            system,
            Behaviour::Sample,
            "TemperatureLogitsWarper, then top_k=50 unless passed".into(),
        ),
        Err(message) => row(system, Behaviour::Error, format!("ValueError: {message}")),
    }
}

/// `LogitsProcessor::new(seed, Some(t), None)`, asked which branch it took: on two equal logits
/// `ArgMax` always answers 0, and any sampling answers 1 about half the time.
fn candle_new(t: f64) -> Threshold {
    let system = "candle LogitsProcessor::new(seed, Some(t), None)";
    let mut processor = LogitsProcessor::new(0, Some(t), None);
    let probe = Tensor::new(&[0f32, 0.0], &Device::Cpu).expect("a two-element tensor");
    let answers: Result<Vec<u32>, _> = (0..64).map(|_| processor.sample(&probe)).collect();
    match answers {
        Err(e) => row(system, Behaviour::Error, e.to_string()),
        Ok(ids) if ids.contains(&1) => row(system, Behaviour::Sample, "Sampling::All at this temperature".into()),
        Ok(_) => row(
            system,
            Behaviour::Argmax,
            "below 1e-7 it builds Sampling::ArgMax".into(),
        ),
    }
}

/// `from_sampling(seed, Sampling::All { temperature: t })` on this step's logits.
fn candle_all(t: f64, logits: &[f32]) -> Threshold {
    let system = "candle from_sampling(Sampling::All { temperature: t })";
    let sampling = Sampling::All { temperature: t };
    let drawn = Tensor::new(logits, &Device::Cpu)
        .and_then(|tensor| LogitsProcessor::from_sampling(0, sampling.clone()).sample(&tensor));
    if let Err(e) = drawn {
        return row(system, Behaviour::Error, format!("sample() returns Err: {e}"));
    }
    let detail = match CandlePort::plain(sampling).distribution(logits, &[]) {
        Ok(d) if d.kept() == 1 => format!("samples, but only token {} has a nonzero f32 weight", d.support[0].0),
        Ok(d) => format!("samples from {} tokens", d.kept()),
        Err(e) => e.to_string(),
    };
    row(system, Behaviour::Sample, detail)
}

fn transformers_js(t: f64, repr: &str) -> Threshold {
    let system = "transformers.js generate({do_sample: true})";
    if t == 0.0 {
        row(
            system,
            Behaviour::Argmax,
            "a warning, then do_sample is set to false".into(),
        )
    } else if t < 0.0 {
        row(
            system,
            Behaviour::Sample,
            format!("divides by {repr} without a check: the distribution is inverted"),
        )
    } else {
        row(
            system,
            Behaviour::Sample,
            format!("TemperatureLogitsWarper({repr}), then top_k=50 unless passed"),
        )
    }
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
}
