//! `sampling-lab answer` as a user runs it: an answer generated under one column, every step of it
//! read under every column, and what each column's figures add up to — one JSON object whose ids
//! and numbers are the same in every language. Needs the default GGUF in models/ (`make model`).

use serde_json::Value;

#[path = "support/command.rs"]
mod command;
#[path = "support/json.rs"]
mod json;
use command::run;
use json::without_texts;

const MODEL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/models/SmolLM2-135M-Instruct.Q4_1.gguf");
const CALL: &str = r#"{"do_sample": true, "temperature": 0.7, "top_k": 40, "top_p": 0.9}"#;

fn answer(extra: &[&str]) -> Value {
    let args = [
        &[
            "--model",
            MODEL,
            "--prompt",
            "How do you say thank you in Chinese?",
            "--answer-prefix",
            "In Chinese, you can say \"",
            "--params",
            CALL,
            "--max-new-tokens",
            "12",
        ][..],
        extra,
    ]
    .concat();
    let out = run("answer", &args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("stdout is one JSON object")
}

#[test]
fn answer_prints_each_token_every_columns_figures_at_its_step_and_their_sums() {
    let r = answer(&[]);
    let tokens = r["tokens"].as_array().unwrap();
    let steps = r["steps"].as_array().unwrap();
    assert_eq!(tokens.len(), 12);
    assert_eq!(steps.len(), 12);
    assert_eq!(r["semantics"], "hf");
    assert_eq!(
        r["call"],
        "generate(do_sample=True, temperature=0.7, top_k=40, top_p=0.9)"
    );
    let columns: Vec<&str> = sampling_lab_core::ColumnName::all().map(|c| c.name()).collect();
    for (token, step) in tokens.iter().zip(steps) {
        assert_eq!(token["id"], step["token"]);
        assert!(token["token_text"].is_string() && token["text"].is_string());
        assert!(step["hf_entropy"].as_f64().unwrap() >= 0.0);
        let listed: Vec<&str> = step["columns"]
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(listed, columns, "every column, in the registry's order");
        // Drawn by hf: the token written is one hf keeps.
        assert!(step["columns"]["hf"]["p_token"].as_f64().unwrap() > 0.0);
        for field in ["kept", "tv", "mass_outside_hf", "p_token"] {
            assert!(step["columns"]["literal"][field].is_number(), "{field}");
        }
    }
    // The write-up's chat: at its first step the literal port keeps 40 tokens, transformers 24.
    assert_eq!(steps[0]["columns"]["hf"]["kept"], 24);
    assert_eq!(steps[0]["columns"]["literal"]["kept"], 40);
    let masses: Vec<f64> = steps
        .iter()
        .map(|s| s["columns"]["literal"]["mass_outside_hf"].as_f64().unwrap())
        .collect();
    let summary = &r["summary"]["literal"];
    assert_eq!(summary["expected_outside"].as_f64(), Some(masses.iter().sum::<f64>()));
    assert_eq!(
        summary["p_never_outside"].as_f64(),
        Some(masses.iter().map(|m| 1.0 - m).product::<f64>())
    );
    assert_eq!(summary["first_over_1pct"], 0);
    assert_eq!(r["summary"]["corrected"]["expected_outside"], 0.0);
    assert_eq!(r["summary"]["corrected"]["p_never_outside"], 1.0);
    let sentences: Vec<&str> = r["sentences"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["text"].as_str().unwrap())
        .collect();
    assert_eq!(sentences[0], "Along these 12 tokens, given the path this answer took:");
    assert!(
        sentences[1].starts_with("a literal candle port would draw a token transformers never draws at "),
        "{sentences:?}"
    );
    assert!(
        sentences.last().unwrap().starts_with("the corrected candle port"),
        "{sentences:?}"
    );
}

#[test]
fn answer_in_chinese_has_the_same_tokens_ids_and_figures() {
    let mut english = answer(&["--compare", "literal,vllm"]);
    let mut chinese = answer(&["--compare", "literal,vllm", "--lang", "zh-Hans"]);
    assert_eq!(chinese["lang"], "zh-Hans");
    let lead = chinese["sentences"][0]["text"].as_str().unwrap();
    assert!(lead.starts_with("沿着这个回答的 12 个 token"), "{lead}");
    without_texts(&mut english);
    without_texts(&mut chinese);
    assert_eq!(english, chinese, "ids and values are the same in every language");
}

#[test]
fn answer_refuses_a_column_that_does_not_exist_by_name() {
    let out = run(
        "answer",
        &["--model", MODEL, "--prompt", "Hi", "--semantics", "nonesuch"],
    );
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("semantics must be one of"), "{stderr}");
    assert!(stderr.contains("not `nonesuch`"), "{stderr}");
}
