//! The exact model's thread pool, natively: the model's logits over a prompt and 32 greedy steps
//! are bit-equal at 1 and 4 threads (each output row is one thread's whole dot product), and
//! every thread computed rows. A binary of its own, so that no other test shares the pool.
//!
//! Needs the default GGUF in models/ (`make model`).

use sampling_lab::model::{pool, Model};

#[path = "support/reference.rs"]
mod reference;
use reference::{argmax, default_model, reference_prompt};

/// Every step's logits as bits: the prompt's forward, then 32 greedy tokens from the KV cache,
/// and a batched forward of a block (what a speculative round verifies).
fn run(model: &Model, prompt: &[u32]) -> Vec<Vec<u32>> {
    let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<u32>>();
    let mut cache = model.new_cache().unwrap();
    let mut logits = model.forward(&mut cache, prompt, 0).unwrap();
    let mut steps = vec![bits(&logits)];
    let mut ids = prompt.to_vec();
    for _ in 0..32 {
        let next = argmax(&logits);
        ids.push(next);
        logits = model.forward(&mut cache, &[next], ids.len() - 1).unwrap();
        steps.push(bits(&logits));
    }
    let mut fresh = model.new_cache().unwrap();
    steps.extend(
        model
            .forward_all(&mut fresh, &ids[..prompt.len() + 3], 0)
            .unwrap()
            .iter()
            .map(|l| bits(l)),
    );
    steps
}

#[test]
fn the_models_logits_are_bit_equal_at_1_and_4_threads() {
    let model = default_model();
    let prompt = reference_prompt(&model);
    pool::start(4);
    pool::set_limit(1);
    let one = run(&model, &prompt);
    let before = pool::rows_done();
    pool::set_limit(4);
    let four = run(&model, &prompt);
    assert_eq!(one.len(), four.len());
    for (step, (a, b)) in one.iter().zip(&four).enumerate() {
        assert!(a == b, "step {step}: logits at 4 threads differ from 1 thread");
    }
    let after = pool::rows_done();
    assert!(
        after.iter().zip(&before).skip(1).all(|(a, b)| a > b),
        "every helper computed rows: {before:?} → {after:?}"
    );
}
