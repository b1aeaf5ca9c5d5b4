//! The two llama runners: candle's quantized llama (quantized matmuls, "fast") and candle's llama
//! over f32 weights ("exact"), behind one forward that returns the last position's logits.

use super::error::{ModelError, Result};
use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use candle_transformers::models::llama::{Cache, Config, Llama, LlamaEosToks};
use candle_transformers::models::quantized_llama::{self, ModelWeights};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// Per-layer Hugging Face tensor names (under `model.layers.N.`).
pub const HF_LAYER_TENSORS: [&str; 9] = [
    "input_layernorm",
    "self_attn.q_proj",
    "self_attn.k_proj",
    "self_attn.v_proj",
    "self_attn.o_proj",
    "post_attention_layernorm",
    "mlp.gate_proj",
    "mlp.up_proj",
    "mlp.down_proj",
];

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Precision {
    /// Weights dequantized to f32 and f32 matmuls: transformers' logits for the same file.
    Exact,
    /// The file's quantized weights with candle's quantized matmuls.
    Fast,
}

impl std::str::FromStr for Precision {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        match s {
            "exact" => Ok(Precision::Exact),
            "fast" => Ok(Precision::Fast),
            other => Err(format!("precision must be `exact` or `fast`, not `{other}`")),
        }
    }
}

/// The llama hyper-parameters both file layouts describe.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Hyper {
    pub hidden: usize,
    pub intermediate: usize,
    pub layers: usize,
    pub heads: usize,
    pub kv_heads: usize,
    pub rms_norm_eps: f64,
    pub rope_theta: f32,
    pub context_length: usize,
    pub vocab: usize,
    pub tied_embeddings: bool,
}

impl Hyper {
    pub fn kv_dim(&self) -> usize {
        self.hidden / self.heads * self.kv_heads
    }

    /// The shape of each per-layer tensor, in the order of [`HF_LAYER_TENSORS`] (both file layouts
    /// store the same matrices, `[out, in]`).
    pub fn layer_shapes(&self) -> [Vec<usize>; 9] {
        let (h, kv, ff) = (self.hidden, self.kv_dim(), self.intermediate);
        [
            vec![h],
            vec![h, h],
            vec![kv, h],
            vec![kv, h],
            vec![h, h],
            vec![h],
            vec![ff, h],
            vec![ff, h],
            vec![h, ff],
        ]
    }

    /// Rejects values that would make shapes meaningless (and candle panic) later.
    pub fn checked(self) -> Result<Self> {
        let positive = [
            self.hidden,
            self.intermediate,
            self.layers,
            self.heads,
            self.kv_heads,
            self.vocab,
        ];
        if positive.contains(&0) || self.hidden % self.heads != 0 || self.heads % self.kv_heads != 0 {
            return Err(ModelError::Invalid(format!(
                "inconsistent llama hyper-parameters: {self:?}"
            )));
        }
        if (self.hidden / self.heads) % 2 != 0 {
            return Err(ModelError::Invalid(
                "the attention head size must be even for rotary embeddings".into(),
            ));
        }
        Ok(self)
    }

    pub fn candle_config(&self, eos: &[u32]) -> Config {
        Config {
            hidden_size: self.hidden,
            intermediate_size: self.intermediate,
            vocab_size: self.vocab,
            num_hidden_layers: self.layers,
            num_attention_heads: self.heads,
            num_key_value_heads: self.kv_heads,
            use_flash_attn: false,
            rms_norm_eps: self.rms_norm_eps,
            rope_theta: self.rope_theta,
            bos_token_id: None,
            eos_token_id: Some(LlamaEosToks::Multiple(eos.to_vec())),
            rope_scaling: None,
            max_position_embeddings: self.context_length,
            tie_word_embeddings: self.tied_embeddings,
        }
    }

    /// Every tensor candle's llama reads, with its shape; checked first because `Llama::load`
    /// panics on a missing one.
    pub fn expected_hf_tensors(&self) -> Vec<(String, Vec<usize>)> {
        let h = self.hidden;
        let mut out = vec![
            ("model.embed_tokens.weight".to_string(), vec![self.vocab, h]),
            ("model.norm.weight".to_string(), vec![h]),
        ];
        if !self.tied_embeddings {
            out.push(("lm_head.weight".into(), vec![self.vocab, h]));
        }
        let shapes = self.layer_shapes();
        for layer in 0..self.layers {
            for (name, shape) in HF_LAYER_TENSORS.iter().zip(&shapes) {
                out.push((format!("model.layers.{layer}.{name}.weight"), shape.clone()));
            }
        }
        out
    }
}

/// The weights, shared by every session.
#[derive(Clone)]
pub enum Backbone {
    Quantized(ModelWeights),
    Full { llama: Llama, config: Config },
}

/// One conversation's attention state.
pub enum KvCache {
    /// candle's quantized llama keeps its cache inside the (cheaply cloned) weights.
    Quantized(ModelWeights),
    Full(Cache),
}

impl Backbone {
    /// candle's llama over f32 tensors named as on the Hub.
    pub fn full(tensors: HashMap<String, Tensor>, hp: &Hyper, eos: &[u32]) -> Result<Self> {
        check_hf_tensors(&tensors, hp)?;
        let tensors = tensors
            .into_iter()
            .map(|(k, t)| t.to_dtype(DType::F32).map(|t| (k, t)))
            .collect::<candle_core::Result<HashMap<_, _>>>()?;
        let config = hp.candle_config(eos);
        let vb = VarBuilder::from_tensors(tensors, DType::F32, &Device::Cpu);
        let llama = Llama::load(vb, &config)?;
        Ok(Backbone::Full { llama, config })
    }

    /// Positions the runner can attend to: the model's context, or fewer where candle's
    /// quantized llama precomputes its rotary table for 4096 positions only.
    pub fn position_limit(&self, context_length: usize) -> (usize, &'static str) {
        match self {
            Backbone::Quantized(_) if context_length > quantized_llama::MAX_SEQ_LEN => (
                quantized_llama::MAX_SEQ_LEN,
                "candle's quantized llama has rotary embeddings for 4096 positions; exact precision reaches the model's full context",
            ),
            _ => (context_length, "the model's context length"),
        }
    }

    pub fn new_cache(&self) -> Result<KvCache> {
        Ok(match self {
            Backbone::Quantized(weights) => {
                let mut weights = weights.clone();
                weights.clear_kv_cache();
                KvCache::Quantized(weights)
            }
            Backbone::Full { config, .. } => KvCache::Full(Cache::new(true, DType::F32, config, &Device::Cpu)?),
        })
    }

    /// Runs `ids` at positions `pos..`, extending `cache`; the logits of the last position.
    pub fn forward(&self, cache: &mut KvCache, ids: &[u32], pos: usize) -> Result<Vec<f32>> {
        let input = Tensor::new(ids, &Device::Cpu)?.unsqueeze(0)?;
        let logits = match (self, cache) {
            (Backbone::Quantized(_), KvCache::Quantized(weights)) => weights.forward(&input, pos)?,
            (Backbone::Full { llama, .. }, KvCache::Full(cache)) => llama.forward(&input, pos, cache)?,
            _ => return Err(ModelError::Invalid("a cache from another model was used".into())),
        };
        Ok(logits.squeeze(0)?.to_dtype(DType::F32)?.to_vec1()?)
    }
}

fn check_hf_tensors(tensors: &HashMap<String, Tensor>, hp: &Hyper) -> Result<()> {
    for (name, shape) in hp.expected_hf_tensors() {
        let t = tensors.get(&name).ok_or_else(|| {
            ModelError::Missing(format!(
                "the weights have no tensor `{name}`, which a llama model needs"
            ))
        })?;
        if t.dims() != shape.as_slice() {
            return Err(ModelError::Missing(format!(
                "tensor `{name}` has shape {:?}; the configuration implies {shape:?}",
                t.dims()
            )));
        }
    }
    Ok(())
}
