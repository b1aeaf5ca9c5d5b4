//! The transformers fixtures (tests/fixtures, written by reference/make_fixtures.py), embedded in
//! the test binary so the same tests run natively and in a browser.

#![allow(dead_code)]

use sampling_lab::logits_file::parse_logits;
use sampling_lab_core::{GenerateArgs, GenerationConfig, Inspection};
use serde_json::Value;

include!(concat!(env!("OUT_DIR"), "/fixtures.rs"));

pub fn file(name: &str) -> &'static [u8] {
    FIXTURE_FILES
        .iter()
        .find(|(n, _)| *n == name)
        .unwrap_or_else(|| panic!("fixture {name} missing"))
        .1
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
        let scores = parse_logits(file(self.hf["scores_file"].as_str().unwrap())).unwrap();
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
                    let logits = parse_logits(file(context["logits_file"].as_str().unwrap())).unwrap();
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
