//! The exact runner: llama's forward pass in f32 over the file's weights, kept in their blocks
//! where a kernel exists ([`BlockMatrix`]) and as f32 rows otherwise, with the fixed-order
//! [`arithmetic`] between the products.
//!
//! The arithmetic is transformers' llama (and candle's): RMS norm, rotary embeddings on halves,
//! grouped-query attention with a causal mask, SwiGLU, logits of the last position only. Every
//! operation's order is fixed by this crate's code, so the logits are the same bits on every CPU,
//! for every thread count, and in the page.

use super::arithmetic::{self, KvBuffer};
use super::blocks::BlockMatrix;
use super::error::{ModelError, Result};
use super::hyper::{Hyper, HF_LAYER_TENSORS};
use candle_core::{DType, Tensor};
use sampling_lab_core::Message;
use std::collections::HashMap;

/// Positions the exact runner builds rotary tables for: a file's claimed context length never
/// sizes an allocation beyond this (8 MB of tables at SmolLM2's head size).
pub const EXACT_MAX_POSITIONS: usize = 1 << 15;

/// One weight matrix `[out, in]` as a loader hands it over.
pub enum Weight {
    Blocks(BlockMatrix),
    Dense(Tensor),
}

impl Weight {
    pub fn dims(&self) -> Vec<usize> {
        match self {
            Weight::Blocks(b) => vec![b.rows(), b.cols()],
            Weight::Dense(t) => t.dims().to_vec(),
        }
    }

    /// A vector (norm weights), as f32.
    fn vector(self) -> Result<Vec<f32>> {
        Ok(match self {
            Weight::Dense(t) => t.to_dtype(DType::F32)?.flatten_all()?.to_vec1()?,
            Weight::Blocks(b) => b.dequantize_rows(&(0..b.rows()).collect::<Vec<_>>()),
        })
    }

    /// A matrix: the file's blocks, or f32 rows.
    fn matrix(self) -> Result<BlockMatrix> {
        Ok(match self {
            Weight::Blocks(b) => b,
            Weight::Dense(t) => BlockMatrix::dense(&t)?,
        })
    }
}

/// Projections of the same input as one product (the threads meet once instead of once per
/// projection) where they share a format, else one product each; the outputs side by side.
enum Stacked {
    One(BlockMatrix),
    Apart(Vec<BlockMatrix>),
}

impl Stacked {
    fn new(parts: Vec<BlockMatrix>) -> Self {
        match BlockMatrix::stack(&parts.iter().collect::<Vec<_>>()) {
            Some(matrix) => Stacked::One(matrix),
            None => Stacked::Apart(parts),
        }
    }

    /// Each row of `xs` times every projection: `[n][Σ widths]`, the projections in order.
    fn product(&self, xs: &[f32]) -> Vec<f32> {
        match self {
            Stacked::One(matrix) => matrix.product(xs),
            Stacked::Apart(parts) => {
                let n = xs.len() / parts[0].cols();
                let outputs: Vec<Vec<f32>> = parts.iter().map(|p| p.product(xs)).collect();
                let mut rows = Vec::with_capacity(n * parts.iter().map(BlockMatrix::rows).sum::<usize>());
                for t in 0..n {
                    for (part, out) in parts.iter().zip(&outputs) {
                        rows.extend_from_slice(&out[t * part.rows()..][..part.rows()]);
                    }
                }
                rows
            }
        }
    }
}

struct Layer {
    attn_norm: Vec<f32>,
    /// q, k and v.
    qkv: Stacked,
    o: BlockMatrix,
    mlp_norm: Vec<f32>,
    /// gate and up.
    gate_up: Stacked,
    down: BlockMatrix,
}

pub struct ExactLlama {
    embed: BlockMatrix,
    /// `None` when tied to `embed`.
    lm_head: Option<BlockMatrix>,
    norm: Vec<f32>,
    layers: Vec<Layer>,
    cos: Vec<f32>,
    sin: Vec<f32>,
    hp: Hyper,
}

/// Keys and values of every layer so far.
pub struct ExactCache {
    kvs: Vec<KvBuffer>,
}

impl ExactCache {
    /// Positions held.
    pub fn len(&self) -> usize {
        self.kvs.first().map_or(0, |kv| kv.len)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Forgets every position from `len` on: the next forward writes over them.
    pub fn truncate(&mut self, len: usize) {
        for kv in &mut self.kvs {
            kv.len = kv.len.min(len);
        }
    }
}

impl ExactLlama {
    /// From weights under their Hugging Face names (see [`Hyper::expected_hf_tensors`]).
    pub fn new(mut weights: HashMap<String, Weight>, hp: &Hyper) -> Result<Self> {
        check_shapes(&weights, hp)?;
        let mut take = |name: String| weights.remove(&name).expect("checked");
        let embed = take("model.embed_tokens.weight".into()).matrix()?;
        let lm_head = if hp.tied_embeddings {
            None
        } else {
            Some(take("lm_head.weight".into()).matrix()?)
        };
        let norm = take("model.norm.weight".into()).vector()?;
        let mut layers = Vec::with_capacity(hp.layers);
        for layer in 0..hp.layers {
            let mut w = HF_LAYER_TENSORS
                .iter()
                .map(|name| take(format!("model.layers.{layer}.{name}.weight")))
                .collect::<Vec<_>>()
                .into_iter();
            let mut next = || w.next().expect("nine tensors per layer");
            let attn_norm = next().vector()?;
            let qkv = Stacked::new(vec![next().matrix()?, next().matrix()?, next().matrix()?]);
            let o = next().matrix()?;
            let mlp_norm = next().vector()?;
            let gate_up = Stacked::new(vec![next().matrix()?, next().matrix()?]);
            layers.push(Layer {
                attn_norm,
                qkv,
                o,
                mlp_norm,
                gate_up,
                down: next().matrix()?,
            });
        }
        let positions = hp.context_length.min(EXACT_MAX_POSITIONS);
        let (cos, sin) = arithmetic::rotary_tables(positions, hp.hidden / hp.heads, hp.rope_theta);
        Ok(ExactLlama {
            embed,
            lm_head,
            norm,
            layers,
            cos,
            sin,
            hp: hp.clone(),
        })
    }

    pub fn new_cache(&self) -> ExactCache {
        let head = self.hp.hidden / self.hp.heads;
        ExactCache {
            kvs: (0..self.layers.len())
                .map(|_| KvBuffer::new(self.hp.kv_heads, head))
                .collect(),
        }
    }

    /// Runs `ids` at positions `pos..`, extending `cache`; the logits of the last position.
    pub fn forward(&self, cache: &mut ExactCache, ids: &[u32], pos: usize) -> Result<Vec<f32>> {
        let hidden = self.hidden_states(cache, ids, pos)?;
        let last = &hidden[(ids.len() - 1) * self.hp.hidden..];
        Ok(self.logits(last).remove(0))
    }

    /// Runs `ids` at positions `pos..` in one batched pass, extending `cache`; the logits at every
    /// position (what a speculative decoder verifies a drafted block with).
    pub fn forward_all(&self, cache: &mut ExactCache, ids: &[u32], pos: usize) -> Result<Vec<Vec<f32>>> {
        let hidden = self.hidden_states(cache, ids, pos)?;
        Ok(self.logits(&hidden))
    }

    /// The final norm and the LM head, one row of logits per row of `hidden`.
    fn logits(&self, hidden: &[f32]) -> Vec<Vec<f32>> {
        let normed = arithmetic::rms_norm(hidden, &self.norm, self.hp.rms_norm_eps as f32);
        let head = self.lm_head.as_ref().unwrap_or(&self.embed);
        head.product(&normed)
            .chunks_exact(head.rows())
            .map(<[f32]>::to_vec)
            .collect()
    }

    /// The hidden states of `ids` after the last layer, `[n][hidden]`.
    fn hidden_states(&self, cache: &mut ExactCache, ids: &[u32], pos: usize) -> Result<Vec<f32>> {
        if pos + ids.len() > self.cos.len() / (self.hp.hidden / self.hp.heads / 2) {
            return Err(ModelError::Invalid(
                Message::new("model-rotary-past")
                    .verbatim("from", pos.to_string())
                    .verbatim("to", (pos + ids.len()).to_string()),
            ));
        }
        let eps = self.hp.rms_norm_eps as f32;
        let rows: Vec<usize> = ids.iter().map(|&i| i as usize).collect();
        let mut x = self.embed.dequantize_rows(&rows);
        for (layer, kv) in self.layers.iter().zip(cache.kvs.iter_mut()) {
            let h = arithmetic::rms_norm(&x, &layer.attn_norm, eps);
            let attended = self.attention(layer, &h, pos, kv);
            add_in_place(&mut x, &layer.o.product(&attended));
            let h = arithmetic::rms_norm(&x, &layer.mlp_norm, eps);
            let gated = arithmetic::swiglu(&layer.gate_up.product(&h), layer.down.cols());
            add_in_place(&mut x, &layer.down.product(&gated));
        }
        Ok(x)
    }

    /// q, k and v of `h`, rotated and appended to the cache; the attention's output, `[n][hidden]`.
    fn attention(&self, layer: &Layer, h: &[f32], pos: usize, kv: &mut KvBuffer) -> Vec<f32> {
        let hp = &self.hp;
        let head = hp.hidden / hp.heads;
        let (q_width, kv_width) = (hp.heads * head, hp.kv_heads * head);
        let qkv = layer.qkv.product(h);
        let n = qkv.len() / (q_width + 2 * kv_width);
        let (mut q, mut k, mut v) = (
            Vec::with_capacity(n * q_width),
            Vec::with_capacity(n * kv_width),
            Vec::with_capacity(n * kv_width),
        );
        for row in qkv.chunks_exact(q_width + 2 * kv_width) {
            q.extend_from_slice(&row[..q_width]);
            k.extend_from_slice(&row[q_width..q_width + kv_width]);
            v.extend_from_slice(&row[q_width + kv_width..]);
        }
        arithmetic::rope(&mut q, head, pos, &self.cos, &self.sin, q_width);
        arithmetic::rope(&mut k, head, pos, &self.cos, &self.sin, kv_width);
        assert_eq!(kv.len, pos, "the cache holds every position before this pass");
        kv.append(&k, &v);
        arithmetic::attention(&q, kv, hp.heads, pos)
    }
}

/// `x += y`, element by element.
fn add_in_place(x: &mut [f32], y: &[f32]) {
    for (x, y) in x.iter_mut().zip(y) {
        *x += y;
    }
}

/// Every tensor the runner reads, present and with its shape, before anything is built.
fn check_shapes(weights: &HashMap<String, Weight>, hp: &Hyper) -> Result<()> {
    for (name, shape) in hp.expected_hf_tensors() {
        let w = weights.get(&name).ok_or_else(|| {
            ModelError::Missing(Message::new("model-weights-tensor-missing").verbatim("name", name.as_str()))
        })?;
        let dims = w.dims();
        if dims != shape {
            return Err(ModelError::Missing(
                Message::new("model-weights-tensor-shape")
                    .verbatim("name", name.as_str())
                    .verbatim("shape", format!("{dims:?}"))
                    .verbatim("implied", format!("{shape:?}")),
            ));
        }
    }
    Ok(())
}
