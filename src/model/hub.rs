//! The Hugging Face Hub layout of a model: `config.json`, `model.safetensors` (f32, bf16 or f16),
//! `tokenizer.json`, `tokenizer_config.json` and `generation_config.json`.

use super::error::{ModelError, Result};
use super::hyper::Hyper;
use candle_core::{Device, Tensor};
use sampling_lab_core::Message;
use serde::Deserialize;
use serde_json::Value;
use std::collections::HashMap;

/// The files' bytes, as a page fetches them or a user picks them.
#[derive(Clone)]
pub struct HubFiles {
    pub config: Vec<u8>,
    pub weights: Vec<u8>,
    pub tokenizer: Vec<u8>,
    pub tokenizer_config: Option<Vec<u8>>,
    pub generation_config: Option<Vec<u8>>,
}

#[derive(Deserialize)]
struct HubConfig {
    #[serde(default)]
    model_type: Option<String>,
    hidden_size: usize,
    intermediate_size: usize,
    num_hidden_layers: usize,
    num_attention_heads: usize,
    num_key_value_heads: Option<usize>,
    rms_norm_eps: f64,
    #[serde(default = "default_rope_theta")]
    rope_theta: f32,
    max_position_embeddings: usize,
    vocab_size: usize,
    #[serde(default)]
    tie_word_embeddings: bool,
    #[serde(default)]
    rope_scaling: Option<Value>,
    #[serde(default)]
    eos_token_id: Option<Value>,
}

fn default_rope_theta() -> f32 {
    10_000.0
}

/// `config.json` as llama hyper-parameters and eos ids.
pub fn parse_config(bytes: &[u8]) -> Result<(Hyper, Vec<u32>)> {
    let config: HubConfig =
        serde_json::from_slice(bytes).map_err(|e| ModelError::Invalid(Message::json("model-config-not-llama", &e)))?;
    if let Some(kind) = config.model_type.as_deref().filter(|k| *k != "llama") {
        return Err(ModelError::WrongArchitecture(
            Message::new("model-config-architecture").verbatim("kind", kind),
        ));
    }
    if config.rope_scaling.as_ref().is_some_and(|v| !v.is_null()) {
        return Err(ModelError::Invalid(Message::new("model-config-rope-scaling")));
    }
    let hyper = Hyper {
        hidden: config.hidden_size,
        intermediate: config.intermediate_size,
        layers: config.num_hidden_layers,
        heads: config.num_attention_heads,
        kv_heads: config.num_key_value_heads.unwrap_or(config.num_attention_heads),
        rms_norm_eps: config.rms_norm_eps,
        rope_theta: config.rope_theta,
        context_length: config.max_position_embeddings,
        vocab: config.vocab_size,
        tied_embeddings: config.tie_word_embeddings,
    }
    .checked()?;
    Ok((hyper, token_ids(config.eos_token_id.as_ref())))
}

/// `eos_token_id` as an int or a list of ints.
pub fn token_ids(value: Option<&Value>) -> Vec<u32> {
    match value {
        Some(Value::Number(n)) => n.as_u64().map(|n| vec![n as u32]).unwrap_or_default(),
        Some(Value::Array(items)) => items.iter().filter_map(|v| v.as_u64()).map(|n| n as u32).collect(),
        _ => Vec::new(),
    }
}

/// A safetensors file starts with its header length (u64, little-endian) and a JSON object.
pub fn looks_like_safetensors(bytes: &[u8]) -> bool {
    bytes.len() > 9
        && bytes[8] == b'{'
        && u64::from_le_bytes(bytes[..8].try_into().unwrap()).saturating_add(8) <= bytes.len() as u64
}

pub fn load_weights(bytes: &[u8]) -> Result<HashMap<String, Tensor>> {
    if bytes.len() >= 4 && &bytes[..4] == b"GGUF" {
        return Err(ModelError::NotAModel(Message::new("model-safetensors-is-gguf")));
    }
    if !looks_like_safetensors(bytes) {
        let header = if bytes.len() >= 8 {
            u64::from_le_bytes(bytes[..8].try_into().unwrap())
        } else {
            0
        };
        return Err(if bytes.len() > 9 && bytes[8] == b'{' {
            ModelError::Truncated(
                Message::new("model-safetensors-truncated")
                    .verbatim("needs", header.saturating_add(8).to_string())
                    .verbatim("size", bytes.len().to_string()),
            )
        } else {
            ModelError::NotAModel(Message::new("model-not-safetensors"))
        });
    }
    candle_core::safetensors::load_buffer(bytes, &Device::Cpu).map_err(|e| {
        ModelError::Truncated(Message::new("model-safetensors-unreadable").verbatim("detail", e.to_string()))
    })
}

/// What `tokenizer_config.json` contributes: the chat template and the bos / eos strings.
pub struct TokenizerConfig {
    pub chat_template: Option<String>,
    pub bos_token: String,
    pub eos_token: String,
}

pub fn parse_tokenizer_config(bytes: Option<&[u8]>) -> Result<TokenizerConfig> {
    let value: Value = match bytes {
        Some(b) => serde_json::from_slice(b)
            .map_err(|e| ModelError::Invalid(Message::json("model-tokenizer-config-json", &e)))?,
        None => Value::Null,
    };
    let token = |key: &str| match &value[key] {
        Value::String(s) => s.clone(),
        Value::Object(o) => o.get("content").and_then(Value::as_str).unwrap_or_default().to_string(),
        _ => String::new(),
    };
    // A list of named templates is allowed; the one named "default" is the chat template.
    let chat_template = match &value["chat_template"] {
        Value::String(s) => Some(s.clone()),
        Value::Array(items) => items
            .iter()
            .find(|t| t["name"] == "default")
            .and_then(|t| t["template"].as_str())
            .map(str::to_string),
        _ => None,
    };
    Ok(TokenizerConfig {
        chat_template,
        bos_token: token("bos_token"),
        eos_token: token("eos_token"),
    })
}
