//! The model around the core, checked against transformers loading the same GGUF: from the GGUF
//! itself ([`gguf`]) and from the Hugging Face layout written from it ([`hub`]).
//!
//! Needs the default GGUF in models/ (`make model`); fixtures come from
//! reference/make_model_fixtures.py.

mod answer;
mod branching;
mod gguf;
mod hub;
mod speculative;

use sampling_lab::logits_file::parse_logits;
use sampling_lab::model::{Model, Precision};
use serde_json::Value;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

/// Exact precision against transformers' f32 logits: two f32 evaluations of the same network that
/// sum in different orders differ by rounding alone, and on these contexts two orders of this
/// crate's own (a prompt's products summed column by column against the kernels' lanes) were
/// measured 1.5e-4 apart; transformers sums in torch's order. Twice that spread, on every CPU:
/// this crate's logits no longer depend on the CPU, only torch's did when the fixtures were made.
pub const LOGITS_TOLERANCE: f32 = 3e-4;
/// Fast mode's bound on max |Δlogit|: Q4_1 weights times 8-bit activations (measured ≈ 0.65).
pub const FAST_TOLERANCE: f32 = 2.0;

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn gguf_bytes() -> &'static [u8] {
    static BYTES: OnceLock<Vec<u8>> = OnceLock::new();
    BYTES.get_or_init(|| {
        let path = root().join("models/SmolLM2-135M-Instruct.Q4_1.gguf");
        std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e} (run `make model`)", path.display()))
    })
}

pub fn model(precision: Precision) -> Arc<Model> {
    static EXACT: OnceLock<Arc<Model>> = OnceLock::new();
    static FAST: OnceLock<Arc<Model>> = OnceLock::new();
    let cell = match precision {
        Precision::Exact => &EXACT,
        Precision::Fast => &FAST,
    };
    cell.get_or_init(|| Arc::new(Model::from_gguf(gguf_bytes(), precision).unwrap()))
        .clone()
}

pub fn fixture(name: &str) -> Value {
    let path = root().join("tests/fixtures/model").join(name);
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

pub fn ids(value: &Value) -> Vec<u32> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap() as u32)
        .collect()
}

pub fn argmax(v: &[f32]) -> usize {
    v.iter().enumerate().max_by(|a, b| a.1.total_cmp(b.1)).unwrap().0
}

pub fn max_abs_diff(a: &[f32], b: &[f32]) -> f32 {
    assert_eq!(a.len(), b.len());
    a.iter().zip(b).map(|(x, y)| (x - y).abs()).fold(0.0, f32::max)
}

/// The reference context's ids and transformers' logits after them.
pub fn reference_logits() -> (Vec<u32>, Vec<f32>) {
    logits_fixture("reference")
}

pub fn logits_fixture(name: &str) -> (Vec<u32>, Vec<f32>) {
    let context = &fixture("logits.json")["contexts"][name];
    let path = root()
        .join("tests/fixtures/model")
        .join(context["logits_file"].as_str().unwrap());
    (
        ids(&context["ids"]),
        parse_logits(&std::fs::read(path).unwrap()).unwrap(),
    )
}

/// Every generated step's logits are a full forward's over the same context, bit for bit: each
/// output of the exact model is computed in one order whatever the number of positions in a pass.
pub fn assert_every_step_equals_a_fresh_forward(model: &Model, session: &sampling_lab::generation::Session) {
    for step in 0..session.steps() {
        let (cached, context) = session.at(step).unwrap();
        let fresh = model.next_logits(context).unwrap();
        assert!(
            bits(cached) == bits(&fresh),
            "step {step}: max |Δ| {}",
            max_abs_diff(cached, &fresh)
        );
    }
}

pub fn bits(v: &[f32]) -> Vec<u32> {
    v.iter().map(|x| x.to_bits()).collect()
}

/// A model's logits on the reference context against transformers': its own, transformers', and
/// the largest difference (printed under `label`, as these deviations are measured figures).
pub fn reference_deviation(model: &Model, label: &str) -> (Vec<f32>, Vec<f32>, f32) {
    let (ids, expected) = reference_logits();
    let got = model.next_logits(&ids).unwrap();
    let diff = max_abs_diff(&got, &expected);
    eprintln!("{label}: max |Δlogit| = {diff:.3}");
    (got, expected, diff)
}
