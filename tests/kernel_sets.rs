//! Whole forward passes on every implementation of the kernels' contract this machine runs
//! (`src/model/kernels/`), each bit-equal to the portable one: the default model over the
//! reference chat (a prompt: the blocked product) and four greedy steps (one row at a time).
//! `tests/kernels.rs` holds each product of every format to the same on raw shapes; this is the
//! whole model. A binary of its own: the implementation is switched for the whole process, so no
//! other test may run beside it. Those this CPU lacks (AVX-512 on an AVX2-only CPU, say) are
//! named as skipped.
//!
//! Needs the default GGUF in models/ (`make model`).

use sampling_lab::model::kernels::{self, Kernels};
use sampling_lab::model::Model;

#[path = "support/reference.rs"]
mod reference;
use reference::{argmax, default_model, reference_prompt};

/// The prompt's logits and four greedy steps' (from the KV cache), as bits.
fn greedy(model: &Model, prompt: &[u32]) -> Vec<Vec<u32>> {
    let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<u32>>();
    let mut cache = model.new_cache().unwrap();
    let mut logits = model.forward(&mut cache, prompt, 0).unwrap();
    let mut steps = vec![bits(&logits)];
    for pos in prompt.len()..prompt.len() + 4 {
        logits = model.forward(&mut cache, &[argmax(&logits)], pos).unwrap();
        steps.push(bits(&logits));
    }
    steps
}

#[test]
fn the_default_models_logits_are_bit_equal_on_every_implementation_this_cpu_runs() {
    let model = default_model();
    let prompt = reference_prompt(&model);
    kernels::force(Some(Kernels::Portable));
    let reference = greedy(&model, &prompt);
    let mut skipped = Vec::new();
    for k in Kernels::ALL.into_iter().skip(1) {
        if !k.supported() {
            skipped.push(k);
            continue;
        }
        kernels::force(Some(k));
        let got = greedy(&model, &prompt);
        assert_eq!(kernels::active(), k);
        for (step, (a, b)) in got.iter().zip(&reference).enumerate() {
            assert!(a == b, "{k}: step {step}'s logits differ from portable's");
        }
        println!("{k}: the prompt and 4 greedy steps bit-equal to portable");
    }
    kernels::force(None);
    println!("skipped (not on this CPU or build): {skipped:?}");
}
