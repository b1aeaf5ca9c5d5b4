//! What every column is asked about: one step's raw logits and the `generate()` call around them.

use super::arguments::params::{GenerateArgs, GenerationConfig};
use super::SamplingError;
use crate::text::Message;

/// What to inspect: one step's raw logits and the `generate()` call around it.
#[derive(Clone, Debug, Default)]
pub struct Inspection {
    /// The model's raw logits for the next token, one per token of the vocabulary, before any
    /// processor.
    pub logits: Vec<f32>,
    /// The call's keyword arguments as passed.
    pub args: GenerateArgs,
    /// The model's `generation_config.json`, if it has one: transformers fills what the call
    /// leaves out from it.
    pub generation_config: Option<GenerationConfig>,
    /// The whole `input_ids` up to this step, prompt included.
    pub context_ids: Vec<u32>,
}

impl Inspection {
    /// One step to inspect, its logits checked: transformers samples only from logits whose
    /// softmax is a distribution, so NaN, +inf or nothing but −inf are refused by name (−inf
    /// alone masks a token, as transformers' own processors do).
    ///
    /// ```
    /// use sampling_lab_core::{GenerateArgs, Inspection, SamplingError};
    ///
    /// let args = GenerateArgs::from_json_str(r#"{"do_sample": true}"#)?;
    /// let err = Inspection::new(vec![1.0, f32::NAN, 0.5], args.clone(), None, vec![]).unwrap_err();
    /// assert!(matches!(err, SamplingError::Invalid(_)));
    /// assert!(err.to_string().starts_with("logits[1] is NaN: transformers' softmax turns every probability into NaN"));
    ///
    /// // -inf masks a token; the rest is a distribution.
    /// assert!(Inspection::new(vec![1.0, f32::NEG_INFINITY, 0.5], args, None, vec![]).is_ok());
    /// # Ok::<(), SamplingError>(())
    /// ```
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
    let torch = || Message::new("invalid-logits-torch");
    if logits.is_empty() {
        return Err(SamplingError::invalid(Message::new("invalid-logits-empty")));
    }
    if let Some(i) = logits.iter().position(|x| x.is_nan() || *x == f32::INFINITY) {
        return Err(SamplingError::invalid(
            Message::new("invalid-logit-not-finite")
                .verbatim("index", i.to_string())
                .verbatim("value", logits[i].to_string())
                .arg("why", torch()),
        ));
    }
    if logits.iter().all(|x| *x == f32::NEG_INFINITY) {
        return Err(SamplingError::invalid(
            Message::new("invalid-logits-all-masked").arg("why", torch()),
        ));
    }
    Ok(())
}
