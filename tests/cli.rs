//! `sampling-lab inspect` as a user runs it: one JSON report on stdout, and a non-zero exit with a
//! one-line message only for unusable input.

use serde_json::Value;
use std::process::{Command, Output};

const REFERENCE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/logits/reference.npy");

fn inspect(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sampling-lab"))
        .arg("inspect")
        .args(args)
        .output()
        .expect("the binary runs")
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
