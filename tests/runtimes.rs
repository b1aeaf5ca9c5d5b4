//! The vllm and sglang columns against the runtimes' own sampler code: tests/fixtures/runtimes/
//! {vllm,sglang}.json, written by reference/runtimes/make_runtime_fixtures.py, which runs the real
//! source files of the vLLM 0.33.0 and SGLang 0.5.23 wheels on CPU torch (its header lists every
//! file run for real and every stub). For each of four contexts (three of the model's, one of
//! tie-crafted logits) and 30 generate() calls, the column must send the fixture's request, and
//! then refuse it with the runtime's words, take its argmax, or keep its tokens with its
//! probabilities within 1e-6. Where the fixture flags a decision that f32 arithmetic settles (a
//! cut within float noise, tied values straddling a cut, SGLang's f32 cumulative sum passing 1),
//! the column must flag it too, and agree on everything else (tests/outcomes).

mod outcomes;

use outcomes::{check, Checked};
use sampling_lab::logits_file::parse_logits;
use sampling_lab_core::DEFAULT_PAIR;
use sampling_lab_core::{Analysis, ColumnName, GenerateArgs, Inspection, Lang};
use serde_json::Value;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");

fn read(path: &str) -> Vec<u8> {
    std::fs::read(format!("{FIXTURES}/{path}")).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn fixture(runtime: &str) -> Value {
    serde_json::from_slice(&read(&format!("runtimes/{runtime}.json"))).expect("the fixture is JSON")
}

/// Each context's logits and ids: the committed logits of cases.json's contexts, or the
/// fixture's synthetic ones.
fn contexts(fx: &Value) -> Vec<(String, Vec<f32>, Vec<u32>)> {
    let cases: Value = serde_json::from_slice(&read("cases.json")).unwrap();
    fx["contexts"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(name, ids)| {
            let logits = match fx["synthetic"].get(name) {
                Some(values) => values
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_f64().unwrap() as f32)
                    .collect(),
                None => parse_logits(&read(cases["contexts"][name]["logits_file"].as_str().unwrap())).unwrap(),
            };
            let ids = ids
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_u64().unwrap() as u32)
                .collect();
            (name.clone(), logits, ids)
        })
        .collect()
}

fn check_runtime(runtime: &str) -> Checked {
    let fx = fixture(runtime);
    let column: ColumnName = runtime.parse().unwrap();
    let contexts = contexts(&fx);
    let cases = fx["cases"].as_array().unwrap();
    assert!(!cases.is_empty(), "{runtime}: no cases");
    let mut checked = Checked::default();
    for case in cases {
        let name = format!("{runtime} {} {}", case["context"], case["call"]);
        let (_, logits, context_ids) = contexts.iter().find(|(n, _, _)| case["context"] == n.as_str()).unwrap();
        let args = GenerateArgs::from_json(&case["call"]).unwrap();
        let input = Inspection::new(logits.clone(), args, None, context_ids.clone()).unwrap();
        let report = Analysis::run(&input).report(Lang::En, &DEFAULT_PAIR);
        let entry = report.entry(column);
        assert_eq!(
            entry.details["request"], case["request"],
            "{name}: the request a port sends"
        );
        let ignored: Vec<&str> = entry.details["ignored"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().split('=').next().unwrap())
            .collect();
        let expected: Vec<&str> = case["ignored"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        assert_eq!(ignored, expected, "{name}: ignored arguments");
        check(&name, entry, &case["outcome"], logits.len(), &mut checked);
    }
    assert_eq!(checked.total(), cases.len());
    checked
}

#[test]
fn the_vllm_column_sends_refuses_and_keeps_what_vllm_does_on_every_fixture_case() {
    let checked = check_runtime("vllm");
    println!("vllm: {checked:?}");
    assert!(
        checked.refusals >= 20 && checked.argmax >= 8 && checked.exact >= 60,
        "{checked:?}"
    );
}

#[test]
fn the_sglang_column_sends_refuses_and_keeps_what_sglang_does_on_every_fixture_case() {
    let checked = check_runtime("sglang");
    println!("sglang: {checked:?}");
    assert!(
        checked.refusals >= 20 && checked.argmax >= 12 && checked.exact >= 50,
        "{checked:?}"
    );
}
