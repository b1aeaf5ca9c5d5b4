//! The exact expected acceptance length of a draft: what each round reports beside the observed
//! one, and the page's curve over temperature.

use super::{ModelTarget, Target};
use crate::generation::{GenerationError, Sampler};
use crate::model::Model;
use sampling_lab_core::columns::dflash;
use sampling_lab_core::columns::torch_argmax;
use sampling_lab_core::GenerateArgs;
use std::sync::Arc;

/// The exact expected acceptance length of one greedy draft under DFlash's sampler, over
/// `temperatures`: the anchor is the greedy first token, the draft its greedy continuation of
/// B−1 tokens, and each drafted token's probability comes from the logits the continuation ran
/// into (the same a verification forward computes).
pub fn acceptance_curve(
    model: Arc<Model>,
    prompt: &[u32],
    block_size: usize,
    temperatures: &[f64],
) -> Result<Vec<(f64, f64)>, GenerationError> {
    let (mut target, logits) = ModelTarget::prefill(model, prompt)?;
    let anchor = torch_argmax(&logits) as u32;
    let mut context = [prompt, &[anchor]].concat();
    let (mut draft, mut step_logits) = (Vec::new(), Vec::new());
    for _ in 1..block_size.max(1) {
        let next = target.extend(&context[context.len() - 1..])?.remove(0);
        let token = torch_argmax(&next) as u32;
        step_logits.push(next);
        draft.push(token);
        context.push(token);
    }
    let context = [prompt, &[anchor]].concat();
    temperatures
        .iter()
        .map(|&t| {
            let mut args = GenerateArgs::default();
            args.set(
                sampling_lab_core::Field::Temperature,
                sampling_lab_core::PyValue::Float(t),
            );
            let sampler = Sampler::new(dflash::NAME, &args, None, 0)?;
            Ok((t, expected_acceptance(&sampler, &step_logits, &context, &draft)?))
        })
        .collect()
}

/// The exact expected acceptance length of `draft` (accepted + 1): `logits[i]` are the target's
/// logits after `context` and the first i drafted tokens; a drafted token survives with its
/// probability under `sampler`'s distribution there, and only while every one before it did.
pub fn expected_acceptance(
    sampler: &Sampler,
    logits: &[Vec<f32>],
    context: &[u32],
    draft: &[u32],
) -> Result<f64, GenerationError> {
    let mut context = context.to_vec();
    let (mut expected, mut surviving) = (1.0, 1.0);
    for (step_logits, &drafted) in logits.iter().zip(draft) {
        surviving *= sampler.distribution(step_logits, &context)?.prob(drafted);
        expected += surviving;
        context.push(drafted);
    }
    Ok(expected)
}
