//! The Hugging Face layout (config.json, model.safetensors, tokenizer.json, tokenizer_config.json,
//! generation_config.json), written from the default GGUF's dequantized weights: what a user on
//! the open web loads from the Hub.

use super::*;
use candle_core::DType;
use sampling_lab::generation::StepLogits;
use sampling_lab::model::export::hub_files_from_gguf;
use sampling_lab::model::hub::HubFiles;
use sampling_lab_core::{Analysis, GenerateArgs};
use std::sync::Arc;

fn hub_files(dtype: DType) -> HubFiles {
    static F32: OnceLock<HubFiles> = OnceLock::new();
    match dtype {
        DType::F32 => F32
            .get_or_init(|| hub_files_from_gguf(gguf_bytes(), dtype).unwrap())
            .clone(),
        _ => hub_files_from_gguf(gguf_bytes(), dtype).unwrap(),
    }
}

fn hub_model(dtype: DType) -> &'static Model {
    static F32: OnceLock<Model> = OnceLock::new();
    static BF16: OnceLock<Model> = OnceLock::new();
    let cell = if dtype == DType::BF16 { &BF16 } else { &F32 };
    cell.get_or_init(|| Model::from_hub(&hub_files(dtype)).unwrap())
}

fn load_err(files: &HubFiles) -> String {
    Model::from_hub(files)
        .err()
        .expect("the files must be refused")
        .to_string()
}

#[test]
fn an_f32_hub_checkpoint_gives_transformers_logits() {
    let model = hub_model(DType::F32);
    for name in ["reference", "long_chat"] {
        let (ids, expected) = logits_fixture(name);
        let diff = max_abs_diff(&model.next_logits(&ids).unwrap(), &expected);
        eprintln!("hub f32 {name}: max |Δlogit| = {diff:.2e}");
        assert!(diff <= LOGITS_TOLERANCE, "{name}: {diff}");
    }
}

#[test]
fn the_hub_tokenizer_and_template_give_the_reference_ids() {
    let model = hub_model(DType::F32);
    let chat = sampling_lab::model::Chat::single(
        None,
        "How do you say thank you in Chinese?",
        "In Chinese, you can say \"",
    );
    assert_eq!(model.chat_ids(&chat).unwrap(), reference_logits().0);
    assert_eq!(model.info.eos_token_ids, vec![2]);
}

/// bf16 keeps 8 bits of mantissa: the logits move, the model's choice does not.
#[test]
fn a_bf16_hub_checkpoint_loads_and_keeps_the_top_token() {
    let (got, expected, diff) = reference_deviation(hub_model(DType::BF16), "hub bf16 reference");
    assert_eq!(hub_model(DType::BF16).info.weights, "BF16");
    assert!(diff < BF16_TOLERANCE, "{diff}");
    assert_eq!(argmax(&got), argmax(&expected));
}

/// Max |Δlogit| of bf16 weights against f32 ones (measured ≈ 0.09 on the reference context).
const BF16_TOLERANCE: f32 = 0.5;

/// transformers starts from the model's generation_config.json; a literal candle port never reads it.
#[test]
fn the_checkpoints_generation_config_applies_under_the_callers_arguments() {
    let mut files = hub_files(DType::F32);
    files.generation_config = Some(
        br#"{"bos_token_id": 1, "eos_token_id": 2, "do_sample": true, "temperature": 0.2, "top_p": 0.9}"#.to_vec(),
    );
    let model = Model::from_hub(&files).unwrap();
    assert!(model.info.has_generation_config);
    let (ids, logits) = reference_logits();
    let args = GenerateArgs::from_json_str(r#"{"temperature": 0.7}"#).unwrap();
    let step = StepLogits::new(Arc::new(model), logits, ids);
    let input = step.inspection(args, None).unwrap();
    let report = serde_json::to_value(step.report(&Analysis::run(&input), &Default::default())).unwrap();
    let values = &report["effective_params"];
    assert_eq!(values["temperature"], 0.7, "{values}");
    assert_eq!(values["top_p"], 0.9, "{values}");
    assert_eq!(values["do_sample"], true, "{values}");
}

#[test]
fn a_config_of_another_architecture_is_refused() {
    let mut files = hub_files(DType::F32);
    files.config = String::from_utf8(files.config)
        .unwrap()
        .replace("\"llama\"", "\"gpt2\"")
        .into_bytes();
    assert!(load_err(&files).contains("`gpt2` model"), "{}", load_err(&files));
}

#[test]
fn a_gguf_given_as_safetensors_is_named() {
    let mut files = hub_files(DType::F32);
    files.weights = gguf_bytes()[..1 << 20].to_vec();
    assert!(load_err(&files).contains("this is a GGUF file"), "{}", load_err(&files));
}

#[test]
fn truncated_safetensors_are_reported_as_truncated() {
    let mut files = hub_files(DType::F32);
    for keep in [20, files.weights.len() / 2] {
        files.weights.truncate(keep);
        assert!(
            load_err(&files).contains("truncated"),
            "{keep} bytes: {}",
            load_err(&files)
        );
    }
}

#[test]
fn safetensors_without_a_layer_tensor_are_refused_by_name() {
    let mut files = hub_files(DType::F32);
    let mut tensors = sampling_lab::model::hub::load_weights(&files.weights).unwrap();
    tensors.remove("model.layers.3.mlp.up_proj.weight");
    files.weights = safetensors::serialize(&tensors, None).unwrap();
    assert!(
        load_err(&files).contains("model.layers.3.mlp.up_proj.weight"),
        "{}",
        load_err(&files)
    );
}

#[test]
fn a_broken_tokenizer_json_is_named() {
    let mut files = hub_files(DType::F32);
    files.tokenizer = b"{\"model\": 3}".to_vec();
    assert!(load_err(&files).contains("tokenizer.json"), "{}", load_err(&files));
}
