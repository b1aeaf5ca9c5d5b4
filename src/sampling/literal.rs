//! The literal port: `generate()` keyword arguments copied one by one onto candle's
//! `Sampling`, the way candle's own examples wire their flags.
//!
//! It sees only what the user passed: no implicit `top_k=50`, no `generation_config.json`, no
//! validation (a `temperature=0` is silently greedy), a repetition penalty over the last 64 tokens,
//! and nothing for the warpers candle lacks.

use super::params::{Field, GenerateArgs};
use super::port::{CandlePort, PenaltyWindow};
use super::pyvalue::PyValue;
use candle_transformers::generation::Sampling;

/// candle's examples pass the last `repeat_last_n = 64` tokens to `apply_repeat_penalty`.
pub const REPEAT_LAST_N: usize = 64;

/// The literal port and what it silently leaves out.
#[derive(Clone, Debug, PartialEq)]
pub struct LiteralPort {
    pub port: CandlePort,
    /// Arguments with no candle counterpart, as `name=value`.
    pub dropped: Vec<String>,
}

impl LiteralPort {
    pub fn from_args(args: &GenerateArgs) -> Self {
        // A literal port writes nothing for a None: it is read as "not passed".
        let passed = |field: Field| args.get(field).filter(|v| !v.is_none());
        let temperature = passed(Field::Temperature).and_then(PyValue::number).unwrap_or(1.0);
        let do_sample = passed(Field::DoSample).is_some_and(PyValue::truthy);
        let top_k = passed(Field::TopK)
            .and_then(PyValue::number)
            .filter(|k| *k > 0.0)
            .map(|k| k as usize);
        let top_p = passed(Field::TopP).and_then(PyValue::number);
        let sampling = if !do_sample || temperature <= 0.0 {
            Sampling::ArgMax
        } else {
            match (top_k, top_p) {
                (None, None) => Sampling::All { temperature },
                (Some(k), None) => Sampling::TopK { k, temperature },
                (None, Some(p)) => Sampling::TopP { p, temperature },
                (Some(k), Some(p)) => Sampling::TopKThenTopP { k, p, temperature },
            }
        };
        let penalty = passed(Field::RepetitionPenalty)
            .and_then(PyValue::number)
            .filter(|r| *r != 1.0)
            .map(|r| (r as f32, PenaltyWindow::Last(REPEAT_LAST_N)));
        let dropped = [
            Field::MinP,
            Field::TypicalP,
            Field::EpsilonCutoff,
            Field::EtaCutoff,
            Field::NoRepeatNgramSize,
        ]
        .into_iter()
        .filter_map(|f| passed(f).map(|v| format!("{}={}", f.name(), v.repr())))
        .collect();
        LiteralPort {
            port: CandlePort {
                sampling,
                steps: Vec::new(),
                penalty,
                ban_ngrams: None,
            },
            dropped,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn sampling(kwargs: serde_json::Value) -> Sampling {
        LiteralPort::from_args(&GenerateArgs::from_json(&kwargs).unwrap())
            .port
            .sampling
    }

    #[test]
    fn temperature_alone_keeps_the_whole_vocabulary() {
        assert_eq!(
            sampling(json!({"do_sample": true, "temperature": 0.7})),
            Sampling::All { temperature: 0.7 }
        );
    }

    #[test]
    fn top_k_and_top_p_map_to_top_k_then_top_p() {
        let s = sampling(json!({"do_sample": true, "temperature": 0.7, "top_k": 40, "top_p": 0.9}));
        assert_eq!(
            s,
            Sampling::TopKThenTopP {
                k: 40,
                p: 0.9,
                temperature: 0.7
            }
        );
    }

    #[test]
    fn temperature_zero_is_silently_greedy() {
        assert_eq!(
            sampling(json!({"do_sample": true, "temperature": 0.0})),
            Sampling::ArgMax
        );
    }
}
