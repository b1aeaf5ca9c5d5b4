//! A GGUF written out in the Hugging Face Hub layout: what the model's Hub page serves, rebuilt
//! from the file at hand, so the Hub path can be run (and tested) where the Hub is out of reach.

use super::error::{ModelError, Result};
use super::gguf::GgufFile;
use super::hub::HubFiles;
use candle_core::{DType, Tensor};
use sampling_lab_core::Message;
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// The Hub files of a GGUF's model with its weights dequantized and stored as `dtype` (`F32`,
/// `BF16` or `F16`). There is no `generation_config.json`: a GGUF carries none.
pub fn hub_files_from_gguf(bytes: &[u8], dtype: DType) -> Result<HubFiles> {
    if !matches!(dtype, DType::F32 | DType::BF16 | DType::F16) {
        return Err(ModelError::Invalid(
            Message::new("model-export-dtype").verbatim("dtype", format!("{dtype:?}")),
        ));
    }
    let file = GgufFile::parse(bytes)?;
    let tokenizer = file.tokenizer()?;
    let token = |which: &str| file.special_token_id(which).map(|id| (id, tokenizer.token_text(id)));
    let (bos, eos) = (token("bos"), token("eos"));
    let tokenizer_config = json!({
        "chat_template": file.chat_template(),
        "bos_token": bos.as_ref().map(|(_, text)| text),
        "eos_token": eos.as_ref().map(|(_, text)| text),
    });
    Ok(HubFiles {
        config: to_bytes(&config(&file, dtype, bos.map(|b| b.0), eos.map(|e| e.0))?),
        weights: safetensors(file.dequantized()?, dtype)?,
        tokenizer: tokenizer.to_json()?.into_bytes(),
        tokenizer_config: Some(to_bytes(&tokenizer_config)),
        generation_config: None,
    })
}

fn config(file: &GgufFile, dtype: DType, bos: Option<u32>, eos: Option<u32>) -> Result<Value> {
    let hp = file.hyper()?;
    Ok(json!({
        "architectures": ["LlamaForCausalLM"],
        "model_type": "llama",
        "hidden_size": hp.hidden,
        "intermediate_size": hp.intermediate,
        "num_hidden_layers": hp.layers,
        "num_attention_heads": hp.heads,
        "num_key_value_heads": hp.kv_heads,
        "rms_norm_eps": hp.rms_norm_eps,
        "rope_theta": hp.rope_theta,
        "max_position_embeddings": hp.context_length,
        "vocab_size": hp.vocab,
        "tie_word_embeddings": hp.tied_embeddings,
        "hidden_act": "silu",
        "bos_token_id": bos,
        "eos_token_id": eos,
        "torch_dtype": match dtype {
            DType::BF16 => "bfloat16",
            DType::F16 => "float16",
            _ => "float32",
        },
    }))
}

fn safetensors(tensors: std::collections::HashMap<String, Tensor>, dtype: DType) -> Result<Vec<u8>> {
    // Sorted names: the same GGUF always gives the same bytes.
    let tensors = tensors
        .into_iter()
        .map(|(name, t)| t.to_dtype(dtype).map(|t| (name, t)))
        .collect::<candle_core::Result<BTreeMap<_, _>>>()?;
    ::safetensors::serialize(&tensors, None)
        .map_err(|e| ModelError::Invalid(Message::new("model-writing-safetensors").verbatim("detail", e.to_string())))
}

fn to_bytes(value: &Value) -> Vec<u8> {
    serde_json::to_vec_pretty(value).expect("a JSON value always serializes")
}
