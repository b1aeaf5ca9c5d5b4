//! The llama hyper-parameters both file layouts (GGUF, the Hub's) describe, the per-layer tensors
//! they imply, and the bounds a file's claims are checked against before anything is sized by them.

use super::error::{ModelError, Result};
use sampling_lab_core::Message;
use serde::Serialize;

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
        if positive.contains(&0) || !self.hidden.is_multiple_of(self.heads) || !self.heads.is_multiple_of(self.kv_heads)
        {
            return Err(ModelError::Invalid(
                Message::new("model-hyper-inconsistent").verbatim("detail", format!("{self:?}")),
            ));
        }
        let too_large = [
            ("model-hyper-too-large-hidden", self.hidden, MAX_WIDTH),
            ("model-hyper-too-large-intermediate", self.intermediate, 4 * MAX_WIDTH),
            ("model-hyper-too-large-layers", self.layers, MAX_LAYERS),
            ("model-hyper-too-large-vocab", self.vocab, MAX_VOCAB),
        ];
        if let Some((id, n, max)) = too_large.into_iter().find(|(_, n, max)| n > max) {
            return Err(ModelError::Invalid(Message::new(id).count("n", n).count("max", max)));
        }
        if !(self.hidden / self.heads).is_multiple_of(2) {
            return Err(ModelError::Invalid(Message::new("model-head-size-odd")));
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

/// Largest sizes a file may claim, checked before any table or tensor list is built from them:
/// far above any llama a browser can hold, far below what overflows or exhausts memory.
const MAX_WIDTH: usize = 1 << 16;
const MAX_LAYERS: usize = 1 << 10;
const MAX_VOCAB: usize = 1 << 21;
