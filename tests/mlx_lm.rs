//! The mlx_lm column against mlx-lm itself, live: reference/runtimes/mlx_lm_oracle.py runs mlx-lm
//! 0.32.2's own `make_sampler` and `make_logits_processors` (mlx 0.32.4 on its CPU backend) in the
//! venv `make venv-mlx` makes (.venv-mlx, reference/requirements-mlx.txt; `make test` makes it
//! first). For four contexts (three of the model's, the tie-crafted logits of the runtime
//! fixtures) and every setting below, the column must raise mlx-lm's error, take its argmax, or
//! keep its tokens with its probabilities within 1e-6 (tests/outcomes); a tie argpartition
//! settles must be flagged by the column.

mod outcomes;

use outcomes::{check, Checked};
use sampling_lab::logits_file::parse_logits;
use sampling_lab_core::columns::mlx_lm;
use sampling_lab_core::DEFAULT_PAIR;
use sampling_lab_core::{Analysis, GenerateArgs, Inspection, Lang};
use serde_json::{json, Value};
use std::io::Write;
use std::process::{Command, Stdio};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// generate() arguments as a Python user writes them: defaults, do_sample alone, temperatures
/// around mlx-lm's only threshold (exactly 0) and below it, top_k 0, 1, small, past the
/// vocabulary and fractional, top_p 0, small, near 1 and above 1, min_p with and without top_k
/// and out of range, the penalty in and out of range, DFlash's benchmark call, and arguments
/// mlx-lm has no parameter for.
const SETTINGS: [&str; 31] = [
    "{}",
    r#"{"do_sample": true}"#,
    r#"{"do_sample": false, "temperature": 0.7}"#,
    r#"{"do_sample": true, "temperature": 0.7}"#,
    r#"{"do_sample": true, "temperature": 1.5}"#,
    r#"{"do_sample": true, "temperature": 0.0}"#,
    r#"{"do_sample": true, "temperature": 1e-8}"#,
    r#"{"do_sample": true, "temperature": 0.005}"#,
    r#"{"do_sample": true, "temperature": -0.5}"#,
    r#"{"do_sample": true, "temperature": -0.5, "top_k": 3}"#,
    r#"{"do_sample": true, "temperature": 0.7, "top_k": 0}"#,
    r#"{"do_sample": true, "temperature": 0.7, "top_k": 1}"#,
    r#"{"do_sample": true, "temperature": 0.7, "top_k": 5}"#,
    r#"{"do_sample": true, "temperature": 0.7, "top_k": 100000}"#,
    r#"{"do_sample": true, "temperature": 0.7, "top_k": 40.0}"#,
    r#"{"do_sample": true, "temperature": 0.7, "top_k": 40, "top_p": 0.9}"#,
    r#"{"do_sample": true, "temperature": 0.7, "top_p": 0.0}"#,
    r#"{"do_sample": true, "temperature": 0.7, "top_p": 0.05}"#,
    r#"{"do_sample": true, "temperature": 1.3, "top_p": 0.9}"#,
    r#"{"do_sample": true, "temperature": 1.0, "top_p": 0.999}"#,
    r#"{"do_sample": true, "temperature": 0.7, "top_p": 1.5}"#,
    r#"{"do_sample": true, "top_p": 0.9}"#,
    r#"{"do_sample": true, "temperature": 1.0, "min_p": 0.05}"#,
    r#"{"do_sample": true, "temperature": 0.8, "min_p": 0.05, "top_k": 20}"#,
    r#"{"do_sample": true, "temperature": 1.3, "min_p": 0.1, "top_p": 0.9}"#,
    r#"{"do_sample": true, "temperature": 0.7, "min_p": 1.5}"#,
    r#"{"do_sample": true, "temperature": 0.6, "top_p": 1.0, "top_k": 1}"#,
    r#"{"do_sample": true, "temperature": 0.7, "repetition_penalty": 1.3}"#,
    r#"{"do_sample": true, "temperature": 0.7, "repetition_penalty": -1.0}"#,
    r#"{"do_sample": true, "temperature": 0.7, "repetition_penalty": 0.0}"#,
    r#"{"do_sample": true, "temperature": 0.7, "typical_p": 0.9, "top_p": 0.9}"#,
];

fn python() -> String {
    let python = std::env::var("MLX_PYTHON").unwrap_or_else(|_| format!("{ROOT}/.venv-mlx/bin/python"));
    assert!(
        std::path::Path::new(&python).exists(),
        "{python} is missing: `make venv-mlx` makes the mlx-lm venv this test runs mlx-lm's own sampler in \
         (`make test` makes it first)"
    );
    python
}

/// The contexts: the model's logits files, and the runtime fixtures' tie-crafted logits.
fn contexts() -> Vec<(String, Value, Vec<f32>, Vec<u32>)> {
    let read = |path: &str| std::fs::read(format!("{ROOT}/tests/fixtures/{path}")).unwrap();
    let cases: Value = serde_json::from_slice(&read("cases.json")).unwrap();
    let runtimes: Value = serde_json::from_slice(&read("runtimes/vllm.json")).unwrap();
    let mut out = Vec::new();
    for name in ["reference", "france", "plain_text"] {
        let context = &cases["contexts"][name];
        let file = context["logits_file"].as_str().unwrap();
        let logits = parse_logits(&read(file)).unwrap();
        let ids: Vec<u32> = serde_json::from_value(context["ids"].clone()).unwrap();
        let source = json!({"logits_file": format!("{ROOT}/tests/fixtures/{file}"), "context_ids": ids});
        out.push((name.to_string(), source, logits, ids));
    }
    let ties: Vec<f32> = serde_json::from_value(runtimes["synthetic"]["ties"].clone()).unwrap();
    out.push((
        "ties".into(),
        json!({"logits": ties, "context_ids": []}),
        ties,
        Vec::new(),
    ));
    out
}

/// The oracle's outcome for each case, in order.
fn oracle(cases: &[Value]) -> Vec<Value> {
    let mut child = Command::new(python())
        .arg(format!("{ROOT}/reference/runtimes/mlx_lm_oracle.py"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("the mlx venv's python runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(serde_json::to_string(cases).unwrap().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "the mlx-lm oracle failed");
    serde_json::from_slice(&out.stdout).expect("the oracle prints JSON")
}

#[test]
fn the_mlx_lm_column_raises_and_keeps_what_mlx_lm_does_on_every_context_and_setting() {
    let contexts = contexts();
    let mut cases = Vec::new();
    for (_, source, _, _) in &contexts {
        for setting in SETTINGS {
            let mut case = source.clone();
            case["call"] = serde_json::from_str(setting).unwrap();
            cases.push(case);
        }
    }
    let outcomes = oracle(&cases);
    assert_eq!(outcomes.len(), contexts.len() * SETTINGS.len());
    let mut checked = Checked::default();
    let mut outcomes = outcomes.iter();
    for (context, _, logits, ids) in &contexts {
        for setting in SETTINGS {
            let name = format!("{context} {setting}");
            let args = GenerateArgs::from_json_str(setting).unwrap();
            let report = Analysis::run(&Inspection::new(logits.clone(), args, None, ids.clone()).unwrap())
                .report(Lang::En, &DEFAULT_PAIR);
            check(
                &name,
                report.entry(mlx_lm::NAME),
                outcomes.next().unwrap(),
                logits.len(),
                &mut checked,
            );
        }
    }
    println!("mlx_lm: {checked:?}");
    assert_eq!(checked.total(), 4 * SETTINGS.len());
    assert!(
        checked.refusals >= 12 && checked.argmax >= 20 && checked.exact >= 60,
        "{checked:?}"
    );
}
