//! The vllm and sglang columns against the runtimes' own sampler code: tests/fixtures/runtimes/
//! {vllm,sglang}.json, written by reference/runtimes/make_runtime_fixtures.py, which runs the real
//! source files of the vLLM 0.33.0 and SGLang 0.5.23 wheels on CPU torch (its header lists every
//! file run for real and every stub). For each of four contexts (three of the model's, one of
//! tie-crafted logits) and 30 generate() calls, the column must send the fixture's request, and
//! then refuse it with the runtime's words, take its argmax, or keep its tokens with its
//! probabilities within 1e-6. Where the fixture flags a decision that f32 arithmetic settles (a
//! cut within float noise, tied values straddling a cut, SGLang's f32 cumulative sum passing 1),
//! the column must flag it too, and agree on everything else.

use sampling_lab::logits_file::parse_logits;
use sampling_lab_core::{Analysis, ColumnName, GenerateArgs, Inspection};
use serde_json::Value;
use std::collections::BTreeSet;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
const TOLERANCE: f64 = 1e-6;

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

fn ids(v: &Value) -> BTreeSet<u32> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap() as u32)
        .collect()
}

/// Whether one of the column's notes says the decision is float noise or a tie its sort settles.
fn flags_it(notes: &[String]) -> bool {
    notes
        .iter()
        .any(|n| n.contains("float noise") || n.contains("straddle") || n.contains("sums to more than 1"))
}

/// What was checked, by kind, to be reported and bounded below.
#[derive(Debug, Default)]
struct Checked {
    refusals: usize,
    argmax: usize,
    exact: usize,
    flagged: usize,
}

fn check(runtime: &str) -> Checked {
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
        let report = Analysis::run(&input).report();
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
        let outcome = &case["outcome"];
        if let Some(error) = outcome["error"].as_str() {
            assert_eq!(
                entry.error.as_deref(),
                Some(error),
                "{name}: the refusal, word for word"
            );
            checked.refusals += 1;
            continue;
        }
        assert_eq!(entry.error, None, "{name}: refused where the runtime accepts");
        if let Some(argmax) = outcome["argmax"].as_u64() {
            assert_eq!(entry.support, [(argmax as u32, 1.0)], "{name}: greedy");
            checked.argmax += 1;
            continue;
        }
        let ours: BTreeSet<u32> = entry.support.iter().map(|(i, _)| *i).collect();
        let theirs: BTreeSet<u32> = match outcome.get("kept_ids") {
            Some(kept) => ids(kept),
            None => {
                let zero = ids(&outcome["zero_ids"]);
                (0..logits.len() as u32).filter(|i| !zero.contains(i)).collect()
            }
        };
        assert_eq!(
            theirs.len() as u64,
            outcome["kept"].as_u64().unwrap(),
            "{name}: the fixture's own count"
        );
        let listed: Vec<(u32, f64)> = outcome["probs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| (p[0].as_u64().unwrap() as u32, p[1].as_f64().unwrap()))
            .collect();
        let flagged = ["f64", "ties_at_cut", "cut_by_top_p_1", "topk_top_k_ids"]
            .into_iter()
            .filter(|f| outcome.get(*f).is_some())
            .collect::<Vec<_>>();
        if outcome.get("subnormal").is_some() {
            assert!(
                entry.notes.iter().any(|n| n.contains("subnormal")),
                "{name}: subnormal probabilities unflagged: {:?}",
                entry.notes
            );
        }
        if flagged.is_empty() {
            assert_eq!(ours, theirs, "{name}: kept tokens");
            let dense: std::collections::HashMap<u32, f64> = entry.support.iter().copied().collect();
            for &(id, p) in &listed {
                let q = dense.get(&id).copied().unwrap_or(0.0);
                assert!((q - p).abs() <= TOLERANCE, "{name}: token {id}: {q} vs {runtime}'s {p}");
            }
            for (id, q) in &entry.support {
                if !listed.iter().any(|(i, _)| i == id) {
                    assert!(
                        *q < 1e-5 + TOLERANCE,
                        "{name}: token {id} has {q}, unlisted by the fixture"
                    );
                }
            }
            checked.exact += 1;
            continue;
        }
        assert!(
            flags_it(&entry.notes),
            "{name}: the fixture flags {flagged:?}, the column says nothing: {:?}",
            entry.notes
        );
        if let Some(cut) = outcome["cut_by_top_p_1"].as_u64() {
            assert_eq!(
                ours.len() as u64,
                theirs.len() as u64 + cut,
                "{name}: all but the tokens f32 cut with top_p=1"
            );
            assert!(theirs.is_subset(&ours), "{name}");
        } else if let Some(f64_run) = outcome.get("f64") {
            let (a, b) = (theirs.len() as u64, f64_run["kept"].as_u64().unwrap());
            let kept = ours.len() as u64;
            assert!(
                a.min(b) <= kept && kept <= a.max(b),
                "{name}: {kept} kept, {runtime} keeps {a} in f32 and {b} in f64"
            );
        } else {
            assert_eq!(
                ours.len(),
                theirs.len(),
                "{name}: as many tokens, whichever of the tied ones"
            );
        }
        // On the tokens both keep, each side renormalised there.
        let common: Vec<(f64, f64)> = listed
            .iter()
            .filter(|(id, _)| ours.contains(id))
            .map(|(id, p)| (entry.support.iter().find(|(i, _)| i == id).unwrap().1, *p))
            .collect();
        let (mine, their): (f64, f64) = common.iter().fold((0.0, 0.0), |(a, b), (x, y)| (a + x, b + y));
        for (x, y) in &common {
            assert!(
                (x / mine - y / their).abs() <= TOLERANCE,
                "{name}: {} vs {}",
                x / mine,
                y / their
            );
        }
        checked.flagged += 1;
    }
    assert_eq!(
        checked.refusals + checked.argmax + checked.exact + checked.flagged,
        cases.len()
    );
    checked
}

#[test]
fn the_vllm_column_sends_refuses_and_keeps_what_vllm_does_on_every_fixture_case() {
    let checked = check("vllm");
    println!("vllm: {checked:?}");
    assert!(
        checked.refusals >= 20 && checked.argmax >= 8 && checked.exact >= 60,
        "{checked:?}"
    );
}

#[test]
fn the_sglang_column_sends_refuses_and_keeps_what_sglang_does_on_every_fixture_case() {
    let checked = check("sglang");
    println!("sglang: {checked:?}");
    assert!(
        checked.refusals >= 20 && checked.argmax >= 12 && checked.exact >= 50,
        "{checked:?}"
    );
}
