//! Every input a fuzzer stopped on (`fuzz/regressions/<target>/`, materialized as plain files),
//! the hostile calls kept beside them, and the seeds the fuzzers start from (`fuzz/seeds/`),
//! replayed through the same entry points: each must end in an error or a result, never a panic.
//! Plus the named cases behind them. A folder that is missing or empty fails its test: a replay
//! of nothing proves nothing.

use sampling_lab::generation::GenerationError;
use sampling_lab::model::hub::HubFiles;
use sampling_lab::model::ModelError;
use sampling_lab::untrusted;
use sampling_lab_core::{columns, Analysis, ColumnName, GenerateArgs, Inspection};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The regressions of a fuzz target.
fn inputs(target: &str) -> Vec<PathBuf> {
    files(&format!("fuzz/regressions/{target}"))
}

/// Every entry of a folder of the repository, sorted; the folder must exist and hold some.
fn files(folder: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(folder);
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{folder}: {e}"))
        .map(|e| e.unwrap().path())
        .collect();
    assert!(!paths.is_empty(), "{folder} is empty: nothing would be replayed");
    paths.sort();
    paths
}

/// The logits fuzzer's seeds: NaN, ±inf, ties, a 2-D array, an `.npy` of version 2, JSON.
#[test]
fn every_logits_seed_ends_in_a_result_or_an_error() {
    for path in files("fuzz/seeds/logits") {
        let _ = untrusted::logits(&std::fs::read(&path).unwrap());
    }
}

/// The step file fuzzer's seeds: a valid step, then each way a file a link names can be wrong.
#[test]
fn every_step_file_seed_ends_in_a_result_or_an_error() {
    for path in files("fuzz/seeds/step_file") {
        let _ = untrusted::step_file(&std::fs::read(&path).unwrap());
    }
}

#[test]
fn a_truncated_other_model_or_nan_step_file_is_refused_by_name_and_a_valid_one_reads() {
    let seed = |name: &str| {
        std::fs::read(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("fuzz/seeds/step_file")
                .join(name),
        )
        .unwrap()
    };
    let read = |name: &str| sampling_lab::step_file::read(&seed(name), untrusted::STEP_MODEL, 4, None);
    use sampling_lab::step_file::StepFileError;
    assert_eq!(
        read("valid.json").unwrap().chat.messages[0].content,
        "你好，谢谢怎么说？"
    );
    assert!(matches!(read("truncated.json"), Err(StepFileError::NotAStep(_))));
    assert!(matches!(
        read("other-model.json"),
        Err(StepFileError::OtherModel { .. })
    ));
    assert_eq!(read("version-2.json"), Err(StepFileError::Version(2)));
    assert!(matches!(read("nan.json"), Err(StepFileError::Values(_))));
    assert_eq!(read("not-base64.json"), Err(StepFileError::Logits));
    assert!(matches!(read("unknown-field.json"), Err(StepFileError::NotAStep(_))));
    assert_eq!(read("ids-past-vocabulary.json"), Err(StepFileError::Ids(4)));
    assert_eq!(
        read("three-logits.json"),
        Err(StepFileError::Length { got: 3, expected: 4 })
    );
}

#[test]
fn every_gguf_regression_ends_in_a_result_or_an_error() {
    for path in inputs("gguf") {
        let _ = untrusted::gguf(&std::fs::read(&path).unwrap());
    }
}

#[test]
fn every_hub_regression_ends_in_a_result_or_an_error() {
    for dir in inputs("hub") {
        let read = |name: &str| std::fs::read(dir.join(name)).ok();
        let files = HubFiles {
            config: read("config.json").unwrap_or_default(),
            weights: read("model.safetensors").unwrap_or_default(),
            tokenizer: read("tokenizer.json").unwrap_or_default(),
            tokenizer_config: read("tokenizer_config.json"),
            generation_config: read("generation_config.json"),
        };
        let _ = untrusted::hub(&files);
    }
}

/// Each call ends in a result or an error; one that carries `error_names` must fail saying so.
#[test]
fn every_generate_call_regression_ends_in_a_result_or_an_error() {
    for path in inputs("generate_call") {
        let call: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        let logits = call["logit_bits"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| f32::from_bits(b.as_u64().unwrap() as u32));
        let context = call["context_ids"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i.as_u64().unwrap() as u32);
        let outcome = untrusted::generate_call(
            call["params"].as_str().unwrap(),
            call["generation_config"].as_str().unwrap(),
            logits.collect(),
            context.collect(),
        );
        if let Some(named) = call["error_names"].as_str() {
            let err = outcome.expect_err(named).to_string();
            assert!(err.contains(named), "{}: {err}", path.display());
        }
    }
}

#[test]
fn a_gguf_whose_alignment_is_zero_is_refused_by_name() {
    let bytes = std::fs::read(
        inputs("gguf")
            .into_iter()
            .find(|p| p.ends_with("general-alignment-zero.gguf"))
            .unwrap(),
    )
    .unwrap();
    let err = untrusted::gguf(&bytes).unwrap_err().to_string();
    assert!(err.contains("general.alignment"), "{err}");
}

fn npy(values: &[f32]) -> Vec<u8> {
    let header = format!(
        "{{'descr': '<f4', 'fortran_order': False, 'shape': ({},), }}",
        values.len()
    );
    let header = format!("{header:<117}\n");
    let mut bytes = b"\x93NUMPY\x01\x00".to_vec();
    bytes.extend((header.len() as u16).to_le_bytes());
    bytes.extend(header.as_bytes());
    bytes.extend(values.iter().flat_map(|v| v.to_le_bytes()));
    bytes
}

/// torch 2: softmax([nan, 1, 2]), softmax([inf, 1, 2]) and softmax([-inf, -inf]) are NaN
/// everywhere, and torch.multinomial raises on them.
#[test]
fn nan_plus_inf_or_only_minus_inf_logits_are_refused_with_what_torch_does() {
    for (values, named) in [
        (vec![f32::NAN, 1.0, 2.0], "logits[0] is NaN"),
        (vec![1.0, f32::INFINITY], "logits[1] is inf"),
        (vec![f32::NEG_INFINITY; 3], "every logit is -inf"),
    ] {
        let err = untrusted::logits(&npy(&values)).unwrap_err().to_string();
        assert!(
            err.starts_with(named) && err.contains("torch.multinomial raises"),
            "{err}"
        );
    }
    assert!(
        untrusted::logits(b"[1e39, 0]")
            .unwrap_err()
            .to_string()
            .contains("logits[0] is inf"),
        "f32 overflow"
    );
    assert!(untrusted::logits(b"[]").unwrap_err().to_string().contains("empty"));
}

#[test]
fn minus_inf_masks_a_token_as_transformers_processors_do() {
    let file = npy(&[f32::NEG_INFINITY, 1.0, 2.0]);
    untrusted::logits(&file).unwrap();
    let logits = sampling_lab::logits_file::parse_logits(&file).unwrap();
    assert_eq!(logits[0], f32::NEG_INFINITY, "read as it was written");
    // Sampled from by every column: the masked token is never kept, the other two are (by those
    // that sample the whole vocabulary at this call).
    let args = GenerateArgs::from_json_str(r#"{"do_sample": true, "top_k": 0}"#).unwrap();
    let analysis = Analysis::run(&Inspection::new(logits, args, None, vec![]).unwrap());
    let hf = analysis.distribution(columns::hf::NAME).unwrap();
    assert_eq!(hf.support().iter().map(|(id, _)| *id).collect::<Vec<_>>(), [2, 1]);
    for name in ColumnName::all() {
        if let Ok(d) = analysis.distribution(name) {
            assert_eq!(d.prob(0), 0.0, "{name} can draw the masked token");
        }
    }
}

#[test]
fn a_tokenizer_json_that_is_not_json_is_refused_by_name() {
    let dir = inputs("hub")
        .into_iter()
        .find(|p| p.ends_with("tokenizer-json-control-character"))
        .unwrap();
    let read = |name: &str| std::fs::read(dir.join(name)).unwrap();
    let files = HubFiles {
        config: read("config.json"),
        weights: read("model.safetensors"),
        tokenizer: read("tokenizer.json"),
        tokenizer_config: Some(read("tokenizer_config.json")),
        generation_config: None,
    };
    let err = untrusted::hub(&files).unwrap_err();
    assert!(matches!(err, GenerationError::Model(ModelError::Invalid(_))), "{err:?}");
    let err = err.to_string();
    assert!(err.contains("tokenizer.json is not JSON"), "{err}");
}

#[test]
fn a_precompiled_normalizer_is_refused_before_tokenizers_parses_it() {
    let json = br#"{"version": "1.0", "normalizer": {"type": "Sequence", "normalizers": [{"type": "Precompiled", "precompiled_charsmap": "x"}]}, "model": {"type": "BPE", "vocab": {}, "merges": []}}"#;
    let err = sampling_lab::model::TextTokenizer::from_json_bytes(json).err().unwrap();
    assert!(err.to_string().contains("Precompiled"), "{err}");
}
