//! The two llama runners: candle's quantized llama (quantized matmuls, "fast") and the exact
//! runner (f32 arithmetic on the file's weights), behind one forward that returns the last
//! position's logits.

use super::error::{ModelError, Result};
use super::exact::{ExactCache, ExactLlama, EXACT_MAX_POSITIONS};
use candle_core::{DType, Device, Tensor};
use candle_transformers::models::quantized_llama::{self, ModelWeights};
use sampling_lab_core::Message;
use serde::{Deserialize, Serialize};

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
            other => Err(ModelError::Invalid(
                Message::new("model-precision").verbatim("precision", other),
            )),
        }
    }
}

/// The weights, shared by every session.
pub enum Backbone {
    Quantized(ModelWeights),
    Exact(ExactLlama),
}

/// One conversation's attention state.
// A session holds one, so the quantized variant's size costs nothing worth a box's indirection.
#[allow(clippy::large_enum_variant)]
pub enum KvCache {
    /// candle's quantized llama keeps its cache inside the (cheaply cloned) weights.
    Quantized(ModelWeights),
    Exact(ExactCache),
}

impl Backbone {
    /// Positions the runner can attend to: the model's context, or fewer where candle's
    /// quantized llama precomputes its rotary table for 4096 positions only.
    pub fn position_limit(&self, context_length: usize) -> (usize, &'static str) {
        match self {
            Backbone::Quantized(_) if context_length > quantized_llama::MAX_SEQ_LEN => {
                (quantized_llama::MAX_SEQ_LEN, "model-limit-quantized")
            }
            Backbone::Exact(_) if context_length > EXACT_MAX_POSITIONS => (EXACT_MAX_POSITIONS, "model-limit-exact"),
            _ => (context_length, "model-limit-context"),
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
            _ => Err(ModelError::Invalid(Message::new("model-cache-other-model"))),
        }
    }

    /// The logits at every position of `ids`, from one batched pass (exact precision only).
    pub fn forward_all(&self, cache: &mut KvCache, ids: &[u32], pos: usize) -> Result<Vec<Vec<f32>>> {
        match (self, cache) {
            (Backbone::Exact(llama), KvCache::Exact(cache)) => llama.forward_all(cache, ids, pos),
            _ => Err(ModelError::Invalid(Message::new(CUT_NEEDS_EXACT))),
        }
    }
}

/// candle's quantized llama keeps its cache private: it can neither be cut back nor give the
/// logits of every position.
const CUT_NEEDS_EXACT: &str = "model-cut-needs-exact";

impl KvCache {
    /// Forgets every position from `len` on.
    pub fn truncate(&mut self, len: usize) -> Result<()> {
        match self {
            KvCache::Exact(cache) => {
                cache.truncate(len);
                Ok(())
            }
            KvCache::Quantized(_) => Err(ModelError::Invalid(Message::new(CUT_NEEDS_EXACT))),
        }
    }
}
