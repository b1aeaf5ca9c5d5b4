//! candle's two ways to set a temperature, each called for real: the literal port's rows of the
//! "temperature zero" table.

use crate::arguments::pyvalue::PyValue;
use crate::columns::candle_port::CandlePort;
use crate::columns::thresholds::{Behaviour, Threshold};
use crate::text::Message;
use crate::SamplingError;
use candle_core::{Device, Tensor};
use candle_transformers::generation::{LogitsProcessor, Sampling};

/// candle's two ways to set a temperature, each called for real.
pub(super) fn thresholds(temperature: PyValue, logits: &[f32]) -> Vec<Threshold> {
    match temperature.number() {
        Some(t) => vec![candle_new(t), candle_all(t, logits)],
        None => Vec::new(),
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
        Err(e) => Threshold::new(
            system,
            Behaviour::Error,
            Message::new("threshold-library-error").verbatim("error", SamplingError::from(e).to_string()),
        ),
        Ok(ids) if ids.contains(&1) => {
            Threshold::new(system, Behaviour::Sample, Message::new("threshold-candle-new-samples"))
        }
        Ok(_) => Threshold::new(system, Behaviour::Argmax, Message::new("threshold-candle-new-argmax")),
    }
}

/// `from_sampling(seed, Sampling::All { temperature: t })` on this step's logits.
fn candle_all(t: f64, logits: &[f32]) -> Threshold {
    let system = "candle from_sampling(Sampling::All { temperature: t })";
    let sampling = Sampling::All { temperature: t };
    let drawn = Tensor::new(logits, &Device::Cpu)
        .and_then(|tensor| LogitsProcessor::from_sampling(0, sampling.clone()).sample(&tensor));
    if let Err(e) = drawn {
        return Threshold::new(
            system,
            Behaviour::Error,
            Message::new("threshold-candle-all-err").verbatim("error", SamplingError::from(e).to_string()),
        );
    }
    let detail = match CandlePort::plain(sampling).drawable(logits) {
        Ok(ids) if ids.len() == 1 => Message::new("threshold-candle-all-one").verbatim("token", ids[0].to_string()),
        Ok(ids) => Message::new("threshold-candle-all-samples").count("count", ids.len()),
        Err(e) => Message::new("threshold-library-error").verbatim("error", e.to_string()),
    };
    Threshold::new(system, Behaviour::Sample, detail)
}
