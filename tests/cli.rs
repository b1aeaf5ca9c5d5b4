//! `sampling-lab` as a user runs it: `inspect` prints one JSON report on stdout, `generate` streams
//! text, `export-hub` writes files, and a non-zero exit with a one-line message comes only for
//! unusable input. The model commands need the default GGUF in models/ (`make model`).

use serde_json::Value;
use std::process::Output;

#[path = "support/command.rs"]
mod command;
#[path = "support/json.rs"]
mod json;
use command::run;
use json::without_texts;

const REFERENCE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/logits/reference.npy");

const MODEL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/models/SmolLM2-135M-Instruct.Q4_1.gguf");
const QUESTION: &str = "How do you say thank you in Chinese?";
const PREFIX: &str = "In Chinese, you can say \"";

fn inspect(args: &[&str]) -> Output {
    run("inspect", args)
}

fn report(args: &[&str]) -> Value {
    let out = inspect(args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("stdout is one JSON object")
}

/// What each column keeps on the reference logits under `temperature=0.7, top_k=40, top_p=0.9`
/// (README's tables): each registered column's own figure, in the registry's order (the test
/// says which one a new column lacks).
const KEPT_AT_THE_REFERENCE_CALL: &[(&str, u64)] = &[
    ("hf", 24),
    ("literal", 40),
    ("corrected", 24),
    ("dflash", 49152),
    ("transformers_js", 40),
    ("llama_cpp", 30),
    ("vllm", 24),
    ("sglang", 40),
    ("mlx_lm", 40),
    ("ollama", 30),
];

#[test]
fn prints_every_columns_entry_and_its_comparison() {
    let r = report(&[
        "--logits",
        REFERENCE,
        "--params",
        r#"{"do_sample": true, "temperature": 0.7, "top_k": 40, "top_p": 0.9}"#,
    ]);
    assert_eq!(r["vocab"], 49152);
    let columns: Vec<&str> = sampling_lab_core::ColumnName::all().map(|s| s.name()).collect();
    let listed: Vec<&str> = KEPT_AT_THE_REFERENCE_CALL.iter().map(|(c, _)| *c).collect();
    assert_eq!(listed, columns, "the test lists every column, in the registry's order");
    for &(column, kept) in KEPT_AT_THE_REFERENCE_CALL {
        let entry = &r[column];
        assert_eq!(entry["kept"].as_u64(), Some(kept), "{column}");
        assert_eq!(entry["error"], Value::Null, "{column}");
        assert!(entry["sampling"].as_str().is_some_and(|s| !s.is_empty()), "{column}");
        let support = entry["support"].as_array().unwrap();
        assert_eq!(support.len() as u64, kept, "{column}: one [token, p] per kept token");
        assert!(
            support.windows(2).all(|w| w[0][1].as_f64() >= w[1][1].as_f64()),
            "{column}: support sorted by probability"
        );
        let total: f64 = support.iter().map(|t| t[1].as_f64().unwrap()).sum();
        assert!((total - 1.0).abs() < 1e-9, "{column}: probabilities sum to {total}");
        if column != "hf" {
            let compare = &r["compare"][column];
            let tv = compare["tv"]
                .as_f64()
                .unwrap_or_else(|| panic!("{column} has a comparison"));
            assert!((0.0..=1.0).contains(&tv), "{column}: TV {tv}");
        }
    }
    assert_eq!(
        r["literal"]["sampling"],
        "Sampling::TopKThenTopP { k: 40, p: 0.9, temperature: 0.7 }"
    );
    assert!(r["compare"]["corrected"]["tv"].as_f64().unwrap() < 1e-6);
    assert!(r["compare"]["literal"]["tv"].as_f64().unwrap() > 0.09);
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

#[test]
fn logits_writes_the_models_step_as_npy_which_inspect_reads_back() {
    let out = std::env::temp_dir().join(format!("sampling-lab-cli-{}.npy", std::process::id()));
    let path = out.to_str().unwrap();
    let written = run(
        "logits",
        &[
            "--model",
            MODEL,
            "--prompt",
            QUESTION,
            "--answer-prefix",
            PREFIX,
            "--out",
            path,
        ],
    );
    assert!(written.status.success(), "{}", String::from_utf8_lossy(&written.stderr));
    let bytes = std::fs::read(&out).unwrap();
    assert_eq!(
        (10 + u16::from_le_bytes([bytes[8], bytes[9]]) as usize) % 64,
        0,
        "numpy's header alignment"
    );
    let params = r#"{"do_sample": true, "temperature": 0.7, "top_k": 40, "top_p": 0.9}"#;
    let from_file = report(&["--logits", path, "--params", params]);
    let from_model = report(&[
        "--model",
        MODEL,
        "--prompt",
        QUESTION,
        "--answer-prefix",
        PREFIX,
        "--params",
        params,
    ]);
    std::fs::remove_file(&out).unwrap();
    assert_eq!(from_file["vocab"], 49152);
    for column in ["hf", "literal", "llama_cpp"] {
        assert_eq!(from_file[column]["support"], from_model[column]["support"], "{column}");
    }
}

/// `port --format json` for the reference logits.
fn ports(params: &str) -> Vec<Value> {
    let out = run("port", &["--logits", REFERENCE, "--params", params, "--format", "json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice::<Value>(&out.stdout)
        .unwrap()
        .as_array()
        .unwrap()
        .clone()
}

#[test]
fn port_requests_that_agree_give_tv_zero_when_inspect_runs_them() {
    for call in [
        r#"{"do_sample": true, "temperature": 0.7, "top_k": 40, "top_p": 0.9}"#,
        r#"{"do_sample": true, "temperature": 0.2, "top_p": 0.9}"#,
        r#"{"do_sample": true}"#,
    ] {
        let hf_kept = report(&["--logits", REFERENCE, "--params", call])["hf"]["kept"].clone();
        let ports = ports(call);
        let columns: Vec<&str> = sampling_lab_core::ColumnName::all().skip(1).map(|s| s.name()).collect();
        let listed: Vec<&str> = ports.iter().map(|p| p["column"].as_str().unwrap()).collect();
        assert_eq!(listed, columns, "every column but hf, in the registry's order");
        let mut agreeing = 0;
        for port in &ports {
            let column = port["column"].as_str().unwrap();
            for request in [&port["fixed"], &port["this_step"]] {
                if request.is_null() {
                    continue;
                }
                // Run the request through inspect, apart from port's own check.
                let r = report(&["--logits", REFERENCE, "--params", &request["params"].to_string()]);
                assert_eq!(
                    r["hf"]["kept"], hf_kept,
                    "{column}: the request keeps what transformers keeps"
                );
                let tv = r["compare"][column]["tv"].as_f64().unwrap();
                assert!(
                    (tv - request["tv"].as_f64().unwrap()).abs() < 1e-12,
                    "{column}: {request}"
                );
                if request["agrees"] == true {
                    assert!(tv < 1e-6, "{column}: {} agrees, yet TV {tv}", request["call"]);
                    agreeing += 1;
                }
            }
        }
        assert!(
            agreeing >= columns.len() - 1,
            "{call}: only {agreeing} agree (DFlash alone may not)"
        );
    }
}

#[test]
fn port_prints_each_column_s_verdict_and_code_to_copy() {
    let out = run(
        "port",
        &[
            "--logits",
            REFERENCE,
            "--params",
            r#"{"do_sample": true, "temperature": 0.7, "top_p": 0.9}"#,
        ],
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("generate(do_sample=True, temperature=0.7, top_p=0.9)\n"),
        "{text}"
    );
    assert!(
        text.contains("== vllm: vLLM samples from transformers' distribution here with this request."),
        "{text}"
    );
    assert!(
        text.contains("SamplingParams(temperature=0.7, top_p=0.9, top_k=50)"),
        "{text}"
    );
    assert!(
        text.contains("== mlx_lm: The call's values do not make mlx-lm sample"),
        "{text}"
    );
    assert!(text.contains("sampler = make_sampler(temp=0.7, top_k="), "{text}");
    let refused = run(
        "port",
        &[
            "--logits",
            REFERENCE,
            "--params",
            r#"{"do_sample": true, "top_p": -0.5}"#,
        ],
    );
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("`top_p` has to be a float > 0 and < 1"));
}

#[test]
fn inspect_in_chinese_says_the_finding_and_causes_in_chinese_with_the_same_ids_and_values() {
    let args = [
        "--logits",
        REFERENCE,
        "--params",
        r#"{"do_sample": true, "temperature": 0.7, "top_k": 40, "top_p": 0.9}"#,
    ];
    let mut english = report(&args);
    let mut chinese = report(&[&args[..], &["--lang", "zh-Hans"]].concat());
    let finding = chinese["finding"]["text"].as_str().unwrap();
    assert!(finding.starts_with("transformers 这里留下 24 个候选"), "{finding}");
    assert_eq!(chinese["lang"], "zh-Hans");
    let causes: Vec<&str> = chinese["causes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["text"].as_str().unwrap())
        .collect();
    assert!(
        causes
            .iter()
            .all(|c| c.chars().any(|ch| ('\u{4e00}'..='\u{9fff}').contains(&ch))),
        "{causes:?}"
    );
    without_texts(&mut english);
    without_texts(&mut chinese);
    assert_eq!(english, chinese, "ids and values are the same in every language");
}

#[test]
fn compare_picks_the_columns_the_finding_compares_and_a_bad_language_is_named() {
    let args = [
        "--logits",
        REFERENCE,
        "--params",
        r#"{"do_sample": true, "temperature": 0.7, "top_k": 40, "top_p": 0.9}"#,
    ];
    let r = report(&[&args[..], &["--compare", "dflash,vllm"]].concat());
    assert_eq!(r["compared"], serde_json::json!(["dflash", "vllm"]));
    assert_eq!(r["finding"]["id"], "finding-compare-2");
    assert!(
        r["finding"]["text"]
            .as_str()
            .unwrap()
            .contains("DFlash's sample() keeps 49,152 tokens"),
        "{}",
        r["finding"]
    );
    let out = inspect(&[&args[..], &["--lang", "fr"]].concat());
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("the language must be `en` or `zh-Hans`, not `fr`"));
}
