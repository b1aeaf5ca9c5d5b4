//! `sampling-lab` as a user runs it: `inspect` prints one JSON report on stdout, `generate` streams
//! text, `export-hub` writes files, and a non-zero exit with a one-line message comes only for
//! unusable input. The model commands need the default GGUF in models/ (`make model`).

use serde_json::Value;
use std::process::{Command, Output};

const REFERENCE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/logits/reference.npy");

const MODEL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/models/SmolLM2-135M-Instruct.Q4_1.gguf");
const QUESTION: &str = "How do you say thank you in Chinese?";
const PREFIX: &str = "In Chinese, you can say \"";

fn run(command: &str, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sampling-lab"))
        .arg(command)
        .args(args)
        .output()
        .expect("the binary runs")
}

fn inspect(args: &[&str]) -> Output {
    run("inspect", args)
}

fn report(args: &[&str]) -> Value {
    let out = inspect(args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("stdout is one JSON object")
}

#[test]
fn prints_the_three_entries_and_their_comparison() {
    let r = report(&[
        "--logits",
        REFERENCE,
        "--params",
        r#"{"do_sample": true, "temperature": 0.7, "top_k": 40, "top_p": 0.9}"#,
    ]);
    assert_eq!(r["vocab"], 49152);
    assert_eq!(
        (
            r["hf"]["kept"].as_u64(),
            r["literal"]["kept"].as_u64(),
            r["corrected"]["kept"].as_u64()
        ),
        (Some(24), Some(40), Some(24))
    );
    assert_eq!(
        r["literal"]["sampling"],
        "Sampling::TopKThenTopP { k: 40, p: 0.9, temperature: 0.7 }"
    );
    assert!(r["compare"]["corrected"]["tv"].as_f64().unwrap() < 1e-6);
    let support = r["hf"]["support"].as_array().unwrap();
    assert!(
        support.windows(2).all(|w| w[0][1].as_f64() >= w[1][1].as_f64()),
        "support sorted by probability"
    );
}

#[test]
fn a_parameter_transformers_rejects_is_reported_not_fatal() {
    let r = report(&["--logits", REFERENCE, "--params", r#"{"do_sample": true, "top_k": -1}"#]);
    assert_eq!(
        r["hf"]["error"],
        "`top_k` has to be a strictly positive integer, but is -1"
    );
    assert_eq!(r["corrected"]["error"], r["hf"]["error"]);
    assert!(r["literal"]["error"].is_null());
}

#[test]
fn a_generation_config_fills_what_the_call_leaves_out() {
    let dir = std::env::temp_dir().join(format!("sampling-lab-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let config = dir.join("generation_config.json");
    std::fs::write(
        &config,
        r#"{"do_sample": true, "temperature": 0.6, "top_p": 0.95, "bos_token_id": 1}"#,
    )
    .unwrap();
    let r = report(&[
        "--logits",
        REFERENCE,
        "--params",
        "{}",
        "--generation-config",
        config.to_str().unwrap(),
    ]);
    assert_eq!(
        r["hf"]["processors"],
        serde_json::json!(["TemperatureLogitsWarper", "TopKLogitsWarper", "TopPLogitsWarper"])
    );
    assert_eq!(r["literal"]["sampling"], "Sampling::ArgMax");
    assert_eq!(r["effective"]["implicit"], serde_json::json!(["top_k=50"]));
}

#[test]
fn draws_report_a_passing_statistical_check() {
    let r = report(&[
        "--logits",
        REFERENCE,
        "--params",
        r#"{"do_sample": true, "top_k": 5}"#,
        "--draws",
        "2000",
        "--seed",
        "11",
    ]);
    assert_eq!(r["monte_carlo"]["literal"]["consistent"], true);
    assert_eq!(r["monte_carlo"]["corrected"]["draws"], 2000);
}

#[test]
fn unusable_input_exits_non_zero_with_one_line_on_stderr() {
    for args in [
        vec!["--logits", "/nonexistent.npy", "--params", "{}"],
        vec!["--logits", REFERENCE, "--params", "{not json"],
        vec!["--logits", REFERENCE, "--params", r#"{"topk": 3}"#],
        vec!["--logits", env!("CARGO_MANIFEST_DIR"), "--params", "{}"],
    ] {
        let out = inspect(&args);
        assert!(!out.status.success(), "{args:?} should fail");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
        assert!(out.stdout.is_empty());
    }
}

/// The published figures for the default model, through the command a reader would type.
#[test]
fn inspect_model_reproduces_the_reference_ids_and_kept_counts() {
    let settings = [
        (r#"{"do_sample": true, "temperature": 0.7}"#, 50),
        (r#"{"do_sample": true, "temperature": 0.7, "top_k": 0}"#, 49152),
        (r#"{"do_sample": true, "temperature": 0.7, "top_k": 40}"#, 40),
        (
            r#"{"do_sample": true, "temperature": 0.7, "top_k": 0, "top_p": 0.9}"#,
            58,
        ),
        (
            r#"{"do_sample": true, "temperature": 0.7, "top_k": 40, "top_p": 0.9}"#,
            24,
        ),
    ];
    let expected_ids: Value = serde_json::from_slice(
        &std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/cases.json")).unwrap(),
    )
    .unwrap();
    for (params, kept) in settings {
        let r = report(&[
            "--model",
            MODEL,
            "--prompt",
            QUESTION,
            "--answer-prefix",
            PREFIX,
            "--params",
            params,
        ]);
        assert_eq!(r["context_ids"], expected_ids["contexts"]["reference"]["ids"]);
        assert_eq!(r["hf"]["kept"], kept, "{params}");
        let support = r["hf"]["support"].as_array().unwrap();
        assert!(
            support
                .iter()
                .all(|entry| r["tokens"][entry[0].to_string()].is_string()),
            "every support id has its text"
        );
    }
}

#[test]
fn generate_streams_the_greedy_answer_and_reports_its_ids() {
    let out = run(
        "generate",
        &[
            "--model",
            MODEL,
            "--prompt",
            "What is the capital of France?",
            "--max-new-tokens",
            "12",
        ],
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("The capital of France is Paris."), "{text:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("tok/s") && stderr.contains("ids: ["), "{stderr}");
}

#[test]
fn generate_refuses_what_transformers_refuses_with_its_message() {
    let out = run(
        "generate",
        &[
            "--model",
            MODEL,
            "--prompt",
            "Hi",
            "--params",
            r#"{"do_sample": true, "temperature": 0}"#,
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("`temperature` (=0) has to be a strictly positive float"));
}

#[test]
fn export_hub_writes_a_layout_that_inspect_loads() {
    let dir = std::env::temp_dir().join(format!("sampling-lab-hub-{}", std::process::id()));
    let out = run(
        "export-hub",
        &["--model", MODEL, "--out", dir.to_str().unwrap(), "--dtype", "bf16"],
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let r = report(&[
        "--model",
        dir.to_str().unwrap(),
        "--prompt",
        QUESTION,
        "--answer-prefix",
        PREFIX,
        "--params",
        r#"{"do_sample": true, "temperature": 0.7, "top_k": 40}"#,
    ]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(r["hf"]["kept"], 40);
    assert_eq!(r["context_ids"].as_array().unwrap().len(), 46);
}
