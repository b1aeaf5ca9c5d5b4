//! The default model and the reference chat, as the whole-model bit-equality tests
//! (`tests/kernel_sets.rs`, `tests/threads.rs`) load them; each includes this file with `#[path]`.

use sampling_lab::model::{Chat, Model, Precision};

/// The default GGUF from models/ (`make model`), exact.
pub fn default_model() -> Model {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/models/SmolLM2-135M-Instruct.Q4_1.gguf");
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e} (run `make model`)"));
    Model::from_gguf(&bytes, Precision::Exact).unwrap()
}

/// The reference chat's prompt ids.
pub fn reference_prompt(model: &Model) -> Vec<u32> {
    model
        .chat_ids(&Chat::single(
            None,
            "How do you say thank you in Chinese?",
            "In Chinese, you can say \"",
        ))
        .unwrap()
}

/// The most probable token (the first of equals).
pub fn argmax(v: &[f32]) -> u32 {
    v.iter().enumerate().max_by(|a, b| a.1.total_cmp(b.1)).unwrap().0 as u32
}
