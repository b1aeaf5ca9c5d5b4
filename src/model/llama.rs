//! The two llama runners: candle's quantized llama (quantized matmuls, "fast") and the exact
//! runner (f32 arithmetic on the file's weights), behind one forward that returns the last
//! position's logits.

use super::error::{ModelError, Result};
use super::exact::{ExactCache, ExactLlama};
use candle_core::{DType, Device, Tensor};
use candle_transformers::models::quantized_llama::{self, ModelWeights};
use serde::{Deserialize, Serialize};

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
    /// f32 arithmetic on the weights the file describes: transformers' logits for the same file.
    Exact,
    /// The file's quantized weights with candle's quantized matmuls.
    Fast,
}

impl std::str::FromStr for Precision {
    type Err = ModelError;
    fn from_str(s: &str) -> Result<Self> {
        match s {
            "exact" => Ok(Precision::Exact),
            "fast" => Ok(Precision::Fast),
            other => Err(ModelError::Invalid(format!(
                "precision must be `exact` or `fast`, not `{other}`"
            ))),
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
        let too_large = [
            ("hidden size", self.hidden, MAX_WIDTH),
            ("intermediate size", self.intermediate, 4 * MAX_WIDTH),
            ("layer count", self.layers, MAX_LAYERS),
            ("vocabulary", self.vocab, MAX_VOCAB),
        ];
        if let Some((what, n, max)) = too_large.into_iter().find(|(_, n, max)| n > max) {
            return Err(ModelError::Invalid(format!(
                "the model claims a {what} of {n}, more than the {max} sampling-lab accepts"
            )));
        }
        if (self.hidden / self.heads) % 2 != 0 {
            return Err(ModelError::Invalid(
                "the attention head size must be even for rotary embeddings".into(),
            ));
        }
        Ok(self)
    }

    /// Every tensor a llama forward pass reads, with its shape.
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
pub enum Backbone {
    Quantized(ModelWeights),
    Exact(ExactLlama),
}

/// One conversation's attention state.
pub enum KvCache {
    /// candle's quantized llama keeps its cache inside the (cheaply cloned) weights.
    Quantized(ModelWeights),
    Exact(ExactCache),
}

/// Positions the exact runner builds rotary tables for: a file's claimed context length never
/// sizes an allocation beyond this (8 MB of tables at SmolLM2's head size).
pub const EXACT_MAX_POSITIONS: usize = 1 << 15;

/// Largest sizes a file may claim, checked before any table or tensor list is built from them:
/// far above any llama a browser can hold, far below what overflows or exhausts memory.
const MAX_WIDTH: usize = 1 << 16;
const MAX_LAYERS: usize = 1 << 10;
const MAX_VOCAB: usize = 1 << 21;

impl Backbone {
    /// Positions the runner can attend to: the model's context, or fewer where candle's
    /// quantized llama precomputes its rotary table for 4096 positions only.
    pub fn position_limit(&self, context_length: usize) -> (usize, &'static str) {
        match self {
            Backbone::Quantized(_) if context_length > quantized_llama::MAX_SEQ_LEN => (
                quantized_llama::MAX_SEQ_LEN,
                "candle's quantized llama has rotary embeddings for 4096 positions; exact precision reaches the model's full context",
            ),
            Backbone::Exact(_) if context_length > EXACT_MAX_POSITIONS => (
                EXACT_MAX_POSITIONS,
                "the exact runner precomputes rotary embeddings for 32768 positions",
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
            Backbone::Exact(llama) => KvCache::Exact(llama.new_cache()),
        })
    }

    /// Runs `ids` at positions `pos..`, extending `cache`; the logits of the last position.
    pub fn forward(&self, cache: &mut KvCache, ids: &[u32], pos: usize) -> Result<Vec<f32>> {
        match (self, cache) {
            (Backbone::Quantized(_), KvCache::Quantized(weights)) => {
                let input = Tensor::new(ids, &Device::Cpu)?.unsqueeze(0)?;
                let logits = weights.forward(&input, pos)?;
                Ok(logits.squeeze(0)?.to_dtype(DType::F32)?.to_vec1()?)
            }
            (Backbone::Exact(llama), KvCache::Exact(cache)) => llama.forward(cache, ids, pos),
            _ => Err(ModelError::Invalid("a cache from another model was used".into())),
        }
    }

    /// The logits at every position of `ids`, from one batched pass (exact precision only).
    pub fn forward_all(&self, cache: &mut KvCache, ids: &[u32], pos: usize) -> Result<Vec<Vec<f32>>> {
        match (self, cache) {
            (Backbone::Exact(llama), KvCache::Exact(cache)) => llama.forward_all(cache, ids, pos),
            _ => Err(ModelError::Invalid(CUT_NEEDS_EXACT.into())),
        }
    }
}

/// candle's quantized llama keeps its cache private: it can neither be cut back nor give the
/// logits of every position.
const CUT_NEEDS_EXACT: &str =
    "speculative decoding needs exact precision: candle's quantized llama (fast) cannot cut its KV cache back";

impl KvCache {
    /// Forgets every position from `len` on.
    pub fn truncate(&mut self, len: usize) -> Result<()> {
        match self {
            KvCache::Exact(cache) => {
                cache.truncate(len);
                Ok(())
            }
            KvCache::Quantized(_) => Err(ModelError::Invalid(CUT_NEEDS_EXACT.into())),
        }
    }
}
