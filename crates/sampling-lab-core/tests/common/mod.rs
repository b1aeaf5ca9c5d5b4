//! The transformers fixtures: the repository's `tests/fixtures/`, written by
//! `reference/make_fixtures.py` and `reference/make_dflash_fixtures.py` with the real libraries.
//! They are embedded in the test binary, so that the same tests run natively and, compiled to
//! wasm32, in a browser (which has no file system to read them from).

#![allow(dead_code)] // each test file uses its own part of the fixtures

use sampling_lab_core::{GenerateArgs, GenerationConfig, Inspection};
use serde_json::Value;

macro_rules! fixtures {
    ($($name:literal),* $(,)?) => {
        /// Every fixture file the parity tests read, by its path under `tests/fixtures/`.
        pub static FIXTURE_FILES: &[(&str, &[u8])] = &[$((
            $name,
            include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/", $name)),
        )),*];
    };
}

// A file `make fixtures` adds must be listed here: `every_fixture_file_is_embedded` says which.
fixtures![
    "cases.json",
    "dflash.json",
    "logits/france.npy",
    "logits/plain_text.npy",
    "logits/reference.npy",
    "logits/system_multi_turn.npy",
    "scores/france_greedy.npy",
    "scores/gc_kwargs_greedy.npy",
    "scores/gc_top_k_none_removes.npy",
    "scores/greedy.npy",
    "scores/greedy_explicit.npy",
    "scores/greedy_ignores_temperature_zero.npy",
    "scores/no_repeat_ngram_greedy.npy",
    "scores/no_repeat_ngram_sampled.npy",
    "scores/plain_text_greedy.npy",
    "scores/repetition_penalty_greedy.npy",
    "scores/system_multi_turn_greedy.npy",
    "scores/t07.npy",
    "scores/top_k_none.npy",
    "scores/top_k_over_vocab.npy",
];

/// The folders of `tests/fixtures/` whose files the parity tests read.
pub const FIXTURE_FOLDERS: [&str; 3] = ["", "logits", "scores"];

pub fn file(name: &str) -> &'static [u8] {
    FIXTURE_FILES
        .iter()
        .find(|(n, _)| *n == name)
        .unwrap_or_else(|| panic!("fixture {name} is not embedded (tests/common/mod.rs)"))
        .1
}

/// A 1-D little-endian f32 `.npy`, as numpy writes the fixtures (format 1.0, or 2.0 for a long
/// header). Only what the fixtures hold: a reader for files from elsewhere checks far more.
pub fn npy_f32(bytes: &[u8]) -> Vec<f32> {
    assert!(bytes.starts_with(b"\x93NUMPY"), "not a .npy file");
    let (header_len, start) = match bytes[6] {
        1 => (u16::from_le_bytes([bytes[8], bytes[9]]) as usize, 10),
        _ => (u32::from_le_bytes(bytes[8..12].try_into().unwrap()) as usize, 12),
    };
    let header = std::str::from_utf8(&bytes[start..start + header_len]).unwrap();
    assert!(
        header.contains("'descr': '<f4'") && header.contains("'fortran_order': False"),
        "{header}"
    );
    let data = &bytes[start + header_len..];
    let shape = &header[header.find("'shape': (").unwrap() + 10..];
    let len: usize = shape[..shape.find(',').unwrap()].trim().parse().unwrap();
    assert_eq!(data.len(), len * 4, "a 1-D array of {len} values");
    data.chunks_exact(4)
        .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
        .collect()
}

pub fn fixture() -> Value {
    serde_json::from_slice(file("cases.json")).expect("cases.json is JSON")
}

/// One transformers run: the inputs and what generate() did with them.
pub struct Case {
    pub name: String,
    pub input: Inspection,
    pub hf: Value,
}

impl Case {
    pub fn error(&self) -> Option<&str> {
        self.hf["error"].as_str()
    }

    /// transformers' kept tokens and their probabilities (softmax of its processed scores).
    pub fn hf_support(&self) -> Vec<(u32, f64)> {
        if let Some(support) = self.hf["support"].as_array() {
            return support
                .iter()
                .map(|t| (t[0].as_u64().unwrap() as u32, t[2].as_f64().unwrap()))
                .collect();
        }
        let scores = npy_f32(file(self.hf["scores_file"].as_str().unwrap()));
        let max = scores.iter().cloned().fold(f32::NEG_INFINITY, f32::max) as f64;
        let total: f64 = scores.iter().map(|s| (*s as f64 - max).exp()).sum();
        scores
            .iter()
            .enumerate()
            .filter(|(_, s)| s.is_finite())
            .map(|(i, s)| (i as u32, (*s as f64 - max).exp() / total))
            .collect()
    }
}

pub fn cases() -> Vec<Case> {
    let fx = fixture();
    fx["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let (logits, context_ids) = match c["context"].as_str() {
                Some(ctx) => {
                    let context = &fx["contexts"][ctx];
                    let logits = npy_f32(file(context["logits_file"].as_str().unwrap()));
                    (logits, ids(&context["ids"]))
                }
                None => {
                    let logits = c["logits"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|v| v.as_f64().unwrap() as f32)
                        .collect();
                    (logits, ids(&c["context_ids"]))
                }
            };
            let generation_config = c
                .get("generation_config")
                .map(|g| GenerationConfig::from_json(g).unwrap());
            Case {
                name: c["name"].as_str().unwrap().to_string(),
                input: Inspection {
                    logits,
                    args: GenerateArgs::from_json(&c["params"]).unwrap(),
                    generation_config,
                    context_ids,
                },
                hf: c["hf"].clone(),
            }
        })
        .collect()
}

pub fn case(name: &str) -> Case {
    cases()
        .into_iter()
        .find(|c| c.name == name)
        .unwrap_or_else(|| panic!("no fixture case {name}"))
}

fn ids(v: &Value) -> Vec<u32> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap() as u32)
        .collect()
}
