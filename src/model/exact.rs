//! The exact runner: llama's forward pass in f32 with candle's ops, over weights that stay in the
//! file's blocks where a kernel exists ([`BlockMatrix`]) and are f32 tensors otherwise.
//!
//! The arithmetic is candle's llama (and transformers'): RMS norm, rotary embeddings on halves,
//! grouped-query attention with a causal mask, SwiGLU, logits of the last position only.

use super::blocks::BlockMatrix;
use super::error::{ModelError, Result};
use super::hyper::{Hyper, HF_LAYER_TENSORS};
use candle_core::{DType, Device, IndexOp, Tensor};
use std::collections::HashMap;

/// Positions the exact runner builds rotary tables for: a file's claimed context length never
/// sizes an allocation beyond this (8 MB of tables at SmolLM2's head size).
pub const EXACT_MAX_POSITIONS: usize = 1 << 15;

/// One weight matrix `[out, in]`.
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

    /// Vectors (norm weights) are always dense.
    fn vector(&self) -> Result<Tensor> {
        match self {
            Weight::Dense(t) => Ok(t.to_dtype(DType::F32)?),
            Weight::Blocks(b) => Ok(b.dequantize()?.flatten_all()?),
        }
    }

    fn into_f32(self) -> Result<Self> {
        Ok(match self {
            Weight::Dense(t) => Weight::Dense(t.to_dtype(DType::F32)?),
            blocks => blocks,
        })
    }

    /// `x · wᵀ` for `x: [batch, positions, in]`.
    fn linear(&self, x: &Tensor) -> Result<Tensor> {
        Ok(match self {
            Weight::Blocks(b) => b.apply(x)?,
            Weight::Dense(w) => x.broadcast_matmul(&w.t()?)?,
        })
    }

    /// Rows `ids` of an embedding matrix, `[1, ids, in]`.
    fn rows(&self, ids: &[u32]) -> Result<Tensor> {
        let rows = match self {
            Weight::Blocks(b) => {
                let ids: Vec<usize> = ids.iter().map(|&i| i as usize).collect();
                Tensor::from_vec(b.dequantize_rows(&ids), (ids.len(), b.cols()), &Device::Cpu)?
            }
            Weight::Dense(t) => t.index_select(&Tensor::new(ids, &Device::Cpu)?, 0)?,
        };
        Ok(rows.unsqueeze(0)?)
    }
}

/// Projections of the same input: one product where they are blocks of one format (the threads
/// meet once instead of once per projection), else one product each.
enum Stacked {
    One { matrix: BlockMatrix, widths: Vec<usize> },
    Apart(Vec<Weight>),
}

impl Stacked {
    fn new(parts: Vec<Weight>) -> Self {
        let blocks: Vec<&BlockMatrix> = parts
            .iter()
            .filter_map(|w| match w {
                Weight::Blocks(b) => Some(b),
                Weight::Dense(_) => None,
            })
            .collect();
        match (blocks.len() == parts.len())
            .then(|| BlockMatrix::stack(&blocks))
            .flatten()
        {
            Some(matrix) => Stacked::One {
                widths: blocks.iter().map(|b| b.rows()).collect(),
                matrix,
            },
            None => Stacked::Apart(parts),
        }
    }

    /// Each projection's `x · wᵀ`, in the order given to [`Stacked::new`].
    fn apply(&self, x: &Tensor) -> Result<Vec<Tensor>> {
        match self {
            Stacked::One { matrix, widths } => {
                let y = matrix.apply(x)?;
                let mut at = 0;
                let mut parts = Vec::with_capacity(widths.len());
                for &width in widths {
                    parts.push(y.narrow(candle_core::D::Minus1, at, width)?);
                    at += width;
                }
                Ok(parts)
            }
            Stacked::Apart(weights) => weights.iter().map(|w| w.linear(x)).collect(),
        }
    }
}

struct Layer {
    attn_norm: Tensor,
    /// q, k and v.
    qkv: Stacked,
    o: Weight,
    mlp_norm: Tensor,
    /// gate and up.
    gate_up: Stacked,
    down: Weight,
}

pub struct ExactLlama {
    embed: Weight,
    /// `None` when tied to `embed`.
    lm_head: Option<Weight>,
    norm: Tensor,
    layers: Vec<Layer>,
    cos: Tensor,
    sin: Tensor,
    hp: Hyper,
}

/// Keys and values of every layer so far.
pub struct ExactCache {
    kvs: Vec<Option<KvBuffer>>,
}

impl ExactCache {
    /// Positions held.
    pub fn len(&self) -> usize {
        self.kvs.first().and_then(|kv| kv.as_ref()).map_or(0, |kv| kv.len)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Forgets every position from `len` on: the next forward writes over them.
    pub fn truncate(&mut self, len: usize) {
        for kv in self.kvs.iter_mut().flatten() {
            kv.len = kv.len.min(len);
        }
    }
}

/// One layer's keys and values, `[1, kv_heads, capacity, head]`, the first `len` positions used.
/// Appending writes in place and the capacity doubles when full, so a step copies only its own
/// keys and values rather than the whole history.
struct KvBuffer {
    k: Tensor,
    v: Tensor,
    len: usize,
}

impl KvBuffer {
    /// Room for this many positions at first: a chat prompt fits without growing.
    const INITIAL: usize = 256;

    fn append(slot: &mut Option<KvBuffer>, k: &Tensor, v: &Tensor) -> Result<(Tensor, Tensor)> {
        let n = k.dim(2)?;
        let len = slot.as_ref().map_or(0, |b| b.len);
        let capacity = slot.as_ref().map_or(0, |b| b.k.dim(2).unwrap_or(0));
        if len + n > capacity {
            let grown = (2 * capacity).max(len + n).max(Self::INITIAL);
            let (mut dims, dtype) = (k.dims().to_vec(), k.dtype());
            dims[2] = grown;
            let bigger = KvBuffer {
                k: Tensor::zeros(dims.as_slice(), dtype, &Device::Cpu)?,
                v: Tensor::zeros(dims.as_slice(), dtype, &Device::Cpu)?,
                len,
            };
            if let Some(old) = slot.as_ref().filter(|b| b.len > 0) {
                bigger.k.slice_set(&old.k.narrow(2, 0, len)?.contiguous()?, 2, 0)?;
                bigger.v.slice_set(&old.v.narrow(2, 0, len)?.contiguous()?, 2, 0)?;
            }
            *slot = Some(bigger);
        }
        let buffer = slot.as_mut().expect("allocated above");
        buffer.k.slice_set(&k.contiguous()?, 2, len)?;
        buffer.v.slice_set(&v.contiguous()?, 2, len)?;
        buffer.len = len + n;
        Ok((buffer.k.narrow(2, 0, len + n)?, buffer.v.narrow(2, 0, len + n)?))
    }
}

impl ExactLlama {
    /// From weights under their Hugging Face names (see [`Hyper::expected_hf_tensors`]).
    pub fn new(mut weights: HashMap<String, Weight>, hp: &Hyper) -> Result<Self> {
        check_shapes(&weights, hp)?;
        let mut take = |name: String| weights.remove(&name).expect("checked").into_f32();
        let embed = take("model.embed_tokens.weight".into())?;
        let lm_head = if hp.tied_embeddings {
            None
        } else {
            Some(take("lm_head.weight".into())?)
        };
        let norm = take("model.norm.weight".into())?.vector()?;
        let mut layers = Vec::with_capacity(hp.layers);
        for layer in 0..hp.layers {
            let mut w = HF_LAYER_TENSORS
                .iter()
                .map(|name| take(format!("model.layers.{layer}.{name}.weight")))
                .collect::<Result<Vec<_>>>()?
                .into_iter();
            let mut next = || w.next().expect("nine tensors per layer");
            let attn_norm = next().vector()?;
            let qkv = Stacked::new(vec![next(), next(), next()]);
            let o = next();
            let mlp_norm = next().vector()?;
            let gate_up = Stacked::new(vec![next(), next()]);
            layers.push(Layer {
                attn_norm,
                qkv,
                o,
                mlp_norm,
                gate_up,
                down: next(),
            });
        }
        let (cos, sin) = rotary_tables(hp)?;
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
        ExactCache {
            kvs: (0..self.layers.len()).map(|_| None).collect(),
        }
    }

    /// Runs `ids` at positions `pos..`, extending `cache`; the logits of the last position.
    pub fn forward(&self, cache: &mut ExactCache, ids: &[u32], pos: usize) -> Result<Vec<f32>> {
        let hidden = self.hidden_states(cache, ids, pos)?;
        let last = hidden.i((.., ids.len() - 1..ids.len(), ..))?.contiguous()?;
        Ok(self.logits(&last)?.remove(0))
    }

    /// Runs `ids` at positions `pos..` in one batched pass, extending `cache`; the logits at every
    /// position (what a speculative decoder verifies a drafted block with).
    pub fn forward_all(&self, cache: &mut ExactCache, ids: &[u32], pos: usize) -> Result<Vec<Vec<f32>>> {
        let hidden = self.hidden_states(cache, ids, pos)?;
        self.logits(&hidden)
    }

    /// The final norm and the LM head, one row of logits per position of `hidden`.
    fn logits(&self, hidden: &Tensor) -> Result<Vec<Vec<f32>>> {
        let normed = candle_nn::ops::rms_norm(hidden, &self.norm, self.hp.rms_norm_eps as f32)?;
        let logits = self.lm_head.as_ref().unwrap_or(&self.embed).linear(&normed)?;
        Ok(logits.squeeze(0)?.to_vec2()?)
    }

    fn hidden_states(&self, cache: &mut ExactCache, ids: &[u32], pos: usize) -> Result<Tensor> {
        let eps = self.hp.rms_norm_eps as f32;
        let mut x = self.embed.rows(ids)?;
        for (layer, kv) in self.layers.iter().zip(cache.kvs.iter_mut()) {
            let h = candle_nn::ops::rms_norm(&x, &layer.attn_norm, eps)?;
            x = (self.attention(layer, &h, pos, kv)? + x)?;
            let h = candle_nn::ops::rms_norm(&x, &layer.mlp_norm, eps)?;
            let [gate, up] = <[Tensor; 2]>::try_from(layer.gate_up.apply(&h)?).expect("gate and up");
            let gated = (candle_nn::ops::silu(&gate)? * up)?;
            x = (layer.down.linear(&gated)? + x)?;
        }
        Ok(x)
    }

    fn attention(&self, layer: &Layer, h: &Tensor, pos: usize, kv: &mut Option<KvBuffer>) -> Result<Tensor> {
        let hp = &self.hp;
        let (head, n) = (hp.hidden / hp.heads, h.dim(1)?);
        let split = |t: Tensor, heads: usize| -> Result<Tensor> {
            Ok(t.reshape((1, n, heads, head))?.transpose(1, 2)?.contiguous()?)
        };
        let (cos, sin) = (self.cos.narrow(0, pos, n)?, self.sin.narrow(0, pos, n)?);
        let [q, k, v] = <[Tensor; 3]>::try_from(layer.qkv.apply(h)?).expect("q, k and v");
        let q = candle_nn::rotary_emb::rope(&split(q, hp.heads)?, &cos, &sin)?;
        let k = candle_nn::rotary_emb::rope(&split(k, hp.kv_heads)?, &cos, &sin)?;
        let v = split(v, hp.kv_heads)?;
        let (k, v) = KvBuffer::append(kv, &k, &v)?;
        // Grouped-query attention without copying keys and values per query head: the query heads
        // that share a key head (consecutive, as transformers' repeat_kv pairs them) become rows
        // of one matrix, `[1, kv_heads, groups·n, head]`.
        let groups = hp.heads / hp.kv_heads;
        let q = q.reshape((1, hp.kv_heads, groups * n, head))?;
        let mut scores = (q.matmul(&k.t()?)? / (head as f64).sqrt())?;
        if n > 1 {
            scores = scores.broadcast_add(&causal_mask(n, pos)?.repeat((groups, 1))?)?;
        }
        let att = candle_nn::ops::softmax_last_dim(&scores)?;
        let y = att.matmul(&v)?.reshape((1, hp.heads, n, head))?;
        let y = y.transpose(1, 2)?.reshape((1, n, hp.hidden))?;
        layer.o.linear(&y)
    }
}

/// `-inf` where position `pos + i` would see a later key `j`, else 0.
fn causal_mask(n: usize, pos: usize) -> Result<Tensor> {
    let keys = pos + n;
    let mask: Vec<f32> = (0..n)
        .flat_map(|i| (0..keys).map(move |j| if j > pos + i { f32::NEG_INFINITY } else { 0.0 }))
        .collect();
    Ok(Tensor::from_vec(mask, (n, keys), &Device::Cpu)?)
}

/// cos/sin of `position · θ^(-2i/head)` for every position the runner reaches (the context,
/// at most [`EXACT_MAX_POSITIONS`]), in f32 as transformers computes them.
fn rotary_tables(hp: &Hyper) -> Result<(Tensor, Tensor)> {
    let positions = hp.context_length.min(EXACT_MAX_POSITIONS);
    let head = hp.hidden / hp.heads;
    let inv_freq: Vec<f32> = (0..head)
        .step_by(2)
        .map(|i| 1f32 / hp.rope_theta.powf(i as f32 / head as f32))
        .collect();
    let angles: Vec<f32> = (0..positions)
        .flat_map(|p| inv_freq.iter().map(move |f| p as f32 * f))
        .collect();
    let angles = Tensor::from_vec(angles, (positions, head / 2), &Device::Cpu)?;
    Ok((angles.cos()?, angles.sin()?))
}

/// Every tensor the runner reads, present and with its shape, before anything is built.
fn check_shapes(weights: &HashMap<String, Weight>, hp: &Hyper) -> Result<()> {
    for (name, shape) in hp.expected_hf_tensors() {
        let w = weights.get(&name).ok_or_else(|| {
            ModelError::Missing(format!(
                "the weights have no tensor `{name}`, which a llama model needs"
            ))
        })?;
        let dims = w.dims();
        if dims != shape {
            return Err(ModelError::Missing(format!(
                "tensor `{name}` has shape {dims:?}; the configuration implies {shape:?}"
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kv_buffer_grows_past_its_capacity_and_keeps_every_position() {
        let chunk = |from: usize, n: usize| {
            let values: Vec<f32> = (0..2 * n * 3).map(|i| (from * 1000 + i) as f32).collect();
            Tensor::from_vec(values, (1, 2, n, 3), &Device::Cpu).unwrap()
        };
        let mut slot = None;
        let mut expected: Option<Tensor> = None;
        for (from, n) in [(0, 200), (200, 1), (201, 90), (291, 400)] {
            let (k, v) = KvBuffer::append(&mut slot, &chunk(from, n), &(chunk(from, n) * 2.0).unwrap()).unwrap();
            let all = match expected.take() {
                Some(e) => Tensor::cat(&[&e, &chunk(from, n)], 2).unwrap(),
                None => chunk(from, n),
            };
            assert_eq!(k.dims(), all.dims());
            assert_eq!(
                k.flatten_all().unwrap().to_vec1::<f32>().unwrap(),
                all.flatten_all().unwrap().to_vec1::<f32>().unwrap()
            );
            let doubled = (&all * 2.0).unwrap().flatten_all().unwrap().to_vec1::<f32>().unwrap();
            assert_eq!(v.flatten_all().unwrap().to_vec1::<f32>().unwrap(), doubled);
            expected = Some(all);
        }
        assert!(slot.unwrap().k.dim(2).unwrap() >= 691);
    }
}
