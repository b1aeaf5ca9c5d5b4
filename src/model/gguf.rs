//! A GGUF file's bytes: checked before anything is built from them, then turned into candle's
//! quantized llama (fast) or into weights under Hugging Face names for the exact runner.

use super::blocks::BlockMatrix;
use super::error::{ModelError, Result};
use super::exact::Weight;
use super::hyper::{Hyper, HF_LAYER_TENSORS};
use super::tokenizer::{missing_key, TextTokenizer};
use candle_core::quantized::gguf_file::{Content, Value};
use candle_core::quantized::GgmlDType;
use candle_core::{Device, Tensor};
use candle_transformers::models::quantized_llama::ModelWeights;
use sampling_lab_core::Message;
use std::collections::HashMap;
use std::io::Cursor;

const MAGIC: &[u8; 4] = b"GGUF";

pub struct GgufFile<'a> {
    bytes: &'a [u8],
    content: Content,
}

/// Per-layer GGUF tensor names, in the order of [`HF_LAYER_TENSORS`].
const GGUF_LAYER_TENSORS: [&str; 9] = [
    "attn_norm",
    "attn_q",
    "attn_k",
    "attn_v",
    "attn_output",
    "ffn_norm",
    "ffn_gate",
    "ffn_up",
    "ffn_down",
];

impl<'a> GgufFile<'a> {
    /// Reads the header and checks what the rest of the crate relies on: magic, architecture,
    /// every llama tensor present with its shape, every tensor's bytes inside the file.
    pub fn parse(bytes: &'a [u8]) -> Result<Self> {
        if bytes.len() < 4 || &bytes[..4] != MAGIC {
            return Err(ModelError::NotAModel(not_gguf_message(bytes)));
        }
        check_alignment(bytes)?;
        let content = read_content(bytes)?;
        let file = GgufFile { bytes, content };
        file.check_architecture()?;
        file.check_tensor_bytes()?;
        file.check_tensors()?;
        Ok(file)
    }

    pub fn metadata(&self) -> &HashMap<String, Value> {
        &self.content.metadata
    }

    fn check_architecture(&self) -> Result<()> {
        let arch = self.string("general.architecture").unwrap_or_default();
        if arch != "llama" {
            return Err(ModelError::WrongArchitecture(
                Message::new("model-gguf-architecture").verbatim("arch", arch),
            ));
        }
        Ok(())
    }

    /// Every tensor's claimed size computed without overflow (its dims multiplied in u64, not in
    /// a 32-bit wasm `usize`) and found inside the file, before anything reads or reserves it.
    fn check_tensor_bytes(&self) -> Result<()> {
        let file_len = self.bytes.len() as u64;
        for (name, info) in &self.content.tensor_infos {
            let (block, type_size) = (info.ggml_dtype.block_size() as u64, info.ggml_dtype.type_size() as u64);
            let elems = info.shape.dims().iter().try_fold(1u64, |n, &d| n.checked_mul(d as u64));
            let end = elems
                .filter(|n| n % block == 0)
                .and_then(|n| (n / block).checked_mul(type_size))
                .and_then(|size| {
                    size.checked_add(info.offset)?
                        .checked_add(self.content.tensor_data_offset)
                });
            match end {
                Some(end) if end <= file_len => {}
                Some(end) => {
                    return Err(ModelError::Truncated(
                        Message::new("model-gguf-tensor-truncated")
                            .verbatim("name", name.as_str())
                            .verbatim("end", end.to_string())
                            .verbatim("size", file_len.to_string()),
                    ))
                }
                None => {
                    return Err(ModelError::Invalid(
                        Message::new("model-gguf-tensor-impossible")
                            .verbatim("name", name.as_str())
                            .verbatim("shape", format!("{:?}", info.shape.dims()))
                            .verbatim("dtype", format!("{:?}", info.ggml_dtype)),
                    ))
                }
            }
        }
        Ok(())
    }

    fn check_tensors(&self) -> Result<()> {
        let hp = self.hyper()?;
        let tensors = self.content.tensor_infos.len();
        if hp.layers > tensors / GGUF_LAYER_TENSORS.len() {
            return Err(ModelError::Missing(
                Message::new("model-gguf-too-few-tensors")
                    .count("layers", hp.layers)
                    .count("tensors", tensors),
            ));
        }
        for (name, shape) in self.expected_shapes(&hp) {
            let info = self.content.tensor_infos.get(&name).ok_or_else(|| {
                ModelError::Missing(Message::new("model-gguf-tensor-missing").verbatim("name", name.as_str()))
            })?;
            if info.shape.dims() != shape.as_slice() {
                return Err(ModelError::Missing(
                    Message::new("model-gguf-tensor-shape")
                        .verbatim("name", name.as_str())
                        .verbatim("shape", format!("{:?}", info.shape.dims()))
                        .verbatim("implied", format!("{shape:?}")),
                ));
            }
        }
        Ok(())
    }

    fn expected_shapes(&self, hp: &Hyper) -> Vec<(String, Vec<usize>)> {
        let (h, v) = (hp.hidden, hp.vocab);
        let mut out = vec![
            ("token_embd.weight".to_string(), vec![v, h]),
            ("output_norm.weight".to_string(), vec![h]),
        ];
        let shapes = hp.layer_shapes();
        for layer in 0..hp.layers {
            for (name, shape) in GGUF_LAYER_TENSORS.iter().zip(&shapes) {
                out.push((format!("blk.{layer}.{name}.weight"), shape.clone()));
            }
        }
        out
    }

    fn string(&self, key: &str) -> Option<String> {
        self.content.metadata.get(key).and_then(|v| v.to_string().ok()).cloned()
    }

    fn number(&self, key: &str) -> Result<f64> {
        let value = self.content.metadata.get(key).ok_or_else(|| missing_key(key))?;
        value
            .to_u32()
            .map(f64::from)
            .or_else(|_| value.to_f32().map(f64::from))
            .or_else(|_| value.to_u64().map(|x| x as f64))
            .map_err(|_| ModelError::Invalid(Message::new("model-gguf-metadata-not-number").verbatim("key", key)))
    }

    pub fn hyper(&self) -> Result<Hyper> {
        let n = |key: &str| self.number(&format!("llama.{key}"));
        let vocab = self
            .content
            .metadata
            .get("tokenizer.ggml.tokens")
            .and_then(|v| v.to_vec().ok())
            .map(Vec::len)
            .ok_or_else(|| missing_key("tokenizer.ggml.tokens"))?;
        Hyper {
            hidden: n("embedding_length")? as usize,
            intermediate: n("feed_forward_length")? as usize,
            layers: n("block_count")? as usize,
            heads: n("attention.head_count")? as usize,
            kv_heads: n("attention.head_count_kv")? as usize,
            rms_norm_eps: n("attention.layer_norm_rms_epsilon")?,
            rope_theta: self.number("llama.rope.freq_base").unwrap_or(10_000.0) as f32,
            context_length: n("context_length")? as usize,
            vocab,
            tied_embeddings: !self.content.tensor_infos.contains_key("output.weight"),
        }
        .checked()
    }

    pub fn tokenizer(&self) -> Result<TextTokenizer> {
        TextTokenizer::from_gguf_metadata(&self.content.metadata)
    }

    pub fn chat_template(&self) -> Option<String> {
        self.string("tokenizer.chat_template")
    }

    pub fn special_token_id(&self, which: &str) -> Option<u32> {
        let key = format!("tokenizer.ggml.{which}_token_id");
        self.content.metadata.get(&key).and_then(|v| v.to_u32().ok())
    }

    pub fn name(&self) -> String {
        self.string("general.name").unwrap_or_else(|| "GGUF model".into())
    }

    /// The most common quantisation among the matrices, e.g. `Q4_1`.
    pub fn weight_type(&self) -> String {
        let mut counts: HashMap<String, usize> = HashMap::new();
        for info in self.content.tensor_infos.values().filter(|i| i.shape.rank() == 2) {
            *counts.entry(format!("{:?}", info.ggml_dtype)).or_default() += 1;
        }
        counts
            .into_iter()
            .max_by_key(|(_, c)| *c)
            .map(|(t, _)| t)
            .unwrap_or_default()
    }

    /// candle's quantized llama over the file's quantized tensors.
    pub fn quantized(&self) -> Result<ModelWeights> {
        let content = read_content(self.bytes)?;
        Ok(ModelWeights::from_gguf(
            content,
            &mut Cursor::new(self.bytes),
            &Device::Cpu,
        )?)
    }

    /// Every tensor dequantized to f32 under its Hugging Face name.
    pub fn dequantized(&self) -> Result<HashMap<String, Tensor>> {
        self.hf_tensors(|name, order| self.dense(name, order))
    }

    /// Every tensor under its Hugging Face name for the exact runner: in the file's blocks where
    /// a block kernel exists (read straight from the file's bytes), dequantized to f32 otherwise.
    pub fn exact_weights(&self) -> Result<HashMap<String, Weight>> {
        self.hf_tensors(|name, order| {
            Ok(match self.blocks(name) {
                Some(blocks) => Weight::Blocks(match order {
                    Some(order) => blocks.reorder_rows(order),
                    None => blocks,
                }),
                None => Weight::Dense(self.dense(name, order)?),
            })
        })
    }

    fn dense(&self, name: &str, order: Option<&[u32]>) -> Result<Tensor> {
        let q = self.content.tensor(&mut Cursor::new(self.bytes), name, &Device::Cpu)?;
        let t = q.dequantize(&Device::Cpu)?;
        Ok(match order {
            Some(order) => t.index_select(&Tensor::new(order, &Device::Cpu)?, 0)?,
            None => t,
        })
    }

    /// A matrix in a block format with a kernel, from the file's bytes (bounds checked at parse).
    fn blocks(&self, name: &str) -> Option<BlockMatrix> {
        let info = self.content.tensor_infos.get(name)?;
        let (rows, cols) = info.shape.dims2().ok()?;
        let start = (self.content.tensor_data_offset + info.offset) as usize;
        let size = rows * cols / info.ggml_dtype.block_size() * info.ggml_dtype.type_size();
        BlockMatrix::from_bytes(info.ggml_dtype, rows, cols, self.bytes.get(start..start + size)?)
    }

    /// Names each tensor a llama needs to `convert` (which reads it), with the
    /// row order that undoes llama.cpp's rotary permutation of q and k (transformers and candle's
    /// llama rotate halves; llama.cpp's converter interleaves pairs, and transformers permutes
    /// them back when it loads a GGUF).
    fn hf_tensors<T>(&self, mut convert: impl FnMut(&str, Option<&[u32]>) -> Result<T>) -> Result<HashMap<String, T>> {
        let hp = self.hyper()?;
        let mut out = HashMap::new();
        let mut put = |gguf: &str, hf: String, heads: Option<usize>| -> Result<()> {
            let rows = self.content.tensor_infos.get(gguf).map_or(0, |i| i.shape.dims()[0]);
            let order = heads.map(|h| rotary_row_order(rows, h));
            out.insert(hf, convert(gguf, order.as_deref())?);
            Ok(())
        };
        put("token_embd.weight", "model.embed_tokens.weight".into(), None)?;
        put("output_norm.weight", "model.norm.weight".into(), None)?;
        if !hp.tied_embeddings {
            put("output.weight", "lm_head.weight".into(), None)?;
        }
        for layer in 0..hp.layers {
            for (gguf, hf) in GGUF_LAYER_TENSORS.iter().zip(HF_LAYER_TENSORS) {
                let heads = match *gguf {
                    "attn_q" => Some(hp.heads),
                    "attn_k" => Some(hp.kv_heads),
                    _ => None,
                };
                put(
                    &format!("blk.{layer}.{gguf}.weight"),
                    format!("model.layers.{layer}.{hf}.weight"),
                    heads,
                )?;
            }
        }
        Ok(out)
    }

    pub fn is_quantized(&self) -> bool {
        self.content
            .tensor_infos
            .values()
            .any(|i| !matches!(i.ggml_dtype, GgmlDType::F32 | GgmlDType::F16 | GgmlDType::BF16))
    }
}

fn read_content(bytes: &[u8]) -> Result<Content> {
    Content::read(&mut Cursor::new(bytes)).map_err(|e| {
        ModelError::Truncated(Message::new("model-gguf-header-unreadable").verbatim("detail", e.to_string()))
    })
}

/// candle 0.11.1 divides by `general.alignment` unchecked, so a zero there would panic inside
/// its reader (and kill a wasm instance). The key is found by its length-prefixed name (GGUF v1's
/// u32 prefix or v2/v3's u64; memchr's SIMD search keeps a 100 MB file's scan to milliseconds) and
/// its integer value read before candle sees the file.
fn check_alignment(bytes: &[u8]) -> Result<()> {
    const KEY: &[u8] = b"general.alignment";
    let zero_at = |value_at: usize| -> Option<bool> {
        let kind = u32::from_le_bytes(bytes.get(value_at..value_at + 4)?.try_into().ok()?);
        // GGUF value types 0-5: u8, i8, u16, i16, u32, i32 (the ones candle reads as alignment).
        let width = [1, 1, 2, 2, 4, 4].get(kind as usize)?;
        let value = bytes.get(value_at + 4..value_at + 4 + width)?;
        Some(value.iter().all(|b| *b == 0))
    };
    let zero = memchr::memmem::find_iter(bytes, KEY).any(|at| {
        [4usize, 8].iter().any(|prefix| {
            at >= *prefix
                && bytes[at - prefix..at].starts_with(&[KEY.len() as u8])
                && bytes[at - prefix + 1..at].iter().all(|b| *b == 0)
                && zero_at(at + KEY.len()) == Some(true)
        })
    });
    if zero {
        return Err(ModelError::Invalid(Message::new("model-gguf-alignment-zero")));
    }
    Ok(())
}

/// Names what the bytes look like, so that a wrong pick gets a useful answer.
fn not_gguf_message(bytes: &[u8]) -> Message {
    if super::hub::looks_like_safetensors(bytes) {
        Message::new("model-not-gguf-safetensors")
    } else if bytes.is_empty() {
        Message::new("model-file-empty")
    } else {
        let head: String = bytes.iter().take(4).map(|b| format!("{b:02x}")).collect();
        Message::new("model-not-gguf").verbatim("head", head)
    }
}

/// Inverse of llama.cpp's `permute(w, n_head)`: row `(head, half, pair)` of the result is row
/// `(head, pair, half)` of the file.
fn rotary_row_order(rows: usize, heads: usize) -> Vec<u32> {
    let half = rows / heads / 2;
    (0..rows as u32)
        .map(|r| {
            let (head, within) = (r / (2 * half as u32), r % (2 * half as u32));
            let (s, p) = (within / half as u32, within % half as u32);
            head * 2 * half as u32 + p * 2 + s
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unpermute_inverts_llama_cpp_rotary_permutation() {
        // llama.cpp: w.reshape(heads, 2, half, cols).swapaxes(1, 2).reshape(rows, cols)
        let heads = 2;
        let hf = Tensor::arange(0f32, 16.0, &Device::Cpu)
            .unwrap()
            .reshape((8, 2))
            .unwrap();
        let permuted = hf
            .reshape((heads, 2, 2, 2))
            .unwrap()
            .transpose(1, 2)
            .unwrap()
            .contiguous()
            .unwrap()
            .reshape((8, 2))
            .unwrap();
        let order = Tensor::new(rotary_row_order(8, heads), &Device::Cpu).unwrap();
        let back = permuted.index_select(&order, 0).unwrap();
        assert_eq!(back.to_vec2::<f32>().unwrap(), hf.to_vec2::<f32>().unwrap());
    }

    #[test]
    fn bytes_that_are_not_gguf_are_named() {
        let err = GgufFile::parse(b"PK\x03\x04rest").err().unwrap();
        assert!(err.to_string().contains("not a GGUF file"), "{err}");
        assert!(GgufFile::parse(b"").err().unwrap().to_string().contains("empty"));
    }
}
