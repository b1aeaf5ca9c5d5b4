//! Structure-aware inputs for the model-file targets: a tiny llama GGUF built from the fuzzer's
//! bytes with candle's own GGUF writer (so that most inputs get past the magic, the metadata and
//! the tensor table and reach the tokenizer, the template and the weights), then damaged on
//! purpose — metadata values swapped for others of any type, bytes overwritten, the file cut.

use arbitrary::{Arbitrary, Result, Unstructured};
use candle_core::quantized::gguf_file::{self, Value};
use candle_core::quantized::{GgmlDType, QTensor};
use candle_core::{Device, Tensor};
use sampling_lab::model::export::hub_files_from_gguf;
use sampling_lab::model::hub::HubFiles;
use serde_json::{Map, Value as JsonValue};
use std::io::Cursor;

/// Chat templates to start from: SmolLM2's shape, one that raises, one that loops.
const TEMPLATES: [&str; 4] = [
    "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}",
    "{{ raise_exception('no system role') }}",
    "{% for i in range(999999) %}{{ messages[0].content * 9 }}{% endfor %}",
    "{{ bos_token }}{{ messages | tojson }}{{ eos_token }}",
];

const SPECIALS: [&str; 3] = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"];

/// Metadata keys a llama GGUF carries, for overrides to aim at.
const KEYS: [&str; 17] = [
    "general.architecture",
    "general.alignment",
    "llama.embedding_length",
    "llama.feed_forward_length",
    "llama.block_count",
    "llama.attention.head_count",
    "llama.attention.head_count_kv",
    "llama.attention.layer_norm_rms_epsilon",
    "llama.context_length",
    "llama.rope.freq_base",
    "tokenizer.ggml.model",
    "tokenizer.ggml.tokens",
    "tokenizer.ggml.merges",
    "tokenizer.ggml.token_type",
    "tokenizer.ggml.eos_token_id",
    "tokenizer.ggml.bos_token_id",
    "tokenizer.chat_template",
];

/// A small llama: sizes a forward pass takes microseconds over, in F32 or in a block format.
#[derive(Clone, Debug)]
pub struct TinyLlama {
    heads: usize,
    kv_heads: usize,
    head_dim: usize,
    intermediate: usize,
    layers: usize,
    context: u32,
    dtype: GgmlDType,
    tied: bool,
    extra_tokens: Vec<String>,
    merges: Vec<String>,
    token_types: Vec<i32>,
    template: String,
    weights: Vec<f32>,
    overrides: Vec<(usize, Value)>,
    damage: Damage,
}

/// Bytes overwritten at offsets and a cut, applied after the file is written.
#[derive(Clone, Debug, Default, Arbitrary)]
pub struct Damage {
    writes: Vec<(u32, u8)>,
    cut: Option<u32>,
}

impl Damage {
    pub fn apply(&self, bytes: &mut Vec<u8>) {
        if bytes.is_empty() {
            return;
        }
        for &(at, byte) in self.writes.iter().take(16) {
            let at = at as usize % bytes.len();
            bytes[at] = byte;
        }
        if let Some(cut) = self.cut {
            bytes.truncate(cut as usize % (bytes.len() + 1));
        }
    }
}

/// A metadata value of any GGUF type; the integer types take one number cut to their width.
#[rustfmt::skip] // a table of the types, one row per width
fn any_value(u: &mut Unstructured, depth: usize) -> Result<Value> {
    let (n, x): (i64, f64) = (u.arbitrary()?, u.arbitrary()?);
    Ok(match u.int_in_range(0..=12)? {
        0 => Value::U8(n as u8), 1 => Value::I8(n as i8),
        2 => Value::U16(n as u16), 3 => Value::I16(n as i16),
        4 => Value::U32(n as u32), 5 => Value::I32(n as i32),
        6 => Value::U64(n as u64), 7 => Value::I64(n),
        8 => Value::F32(x as f32), 9 => Value::F64(x),
        10 => Value::Bool(n & 1 == 1),
        11 => Value::String(u.arbitrary()?),
        // Arrays hold one type, as GGUF requires.
        _ if depth < 2 => {
            let first = any_value(u, depth + 1)?;
            let len = u.int_in_range(0..=6)?;
            let mut items = vec![first];
            for _ in 1..len {
                let next = any_value(u, depth + 1)?;
                if std::mem::discriminant(&next) == std::mem::discriminant(&items[0]) {
                    items.push(next);
                }
            }
            Value::Array(items)
        }
        _ => Value::Bool(false),
    })
}

impl<'a> Arbitrary<'a> for TinyLlama {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        let quantized = u.ratio(1, 4)?;
        // A block format needs rows of 32 values: hidden = 32 then.
        let (heads, head_dim) = match quantized {
            true => {
                let heads = *u.choose(&[1, 2, 4])?;
                (heads, 32 / heads)
            }
            false => (u.int_in_range(1..=2)?, *u.choose(&[2, 4])?),
        };
        let kv_heads = *u.choose(&(1..=heads).filter(|k| heads % k == 0).collect::<Vec<_>>())?;
        let intermediate = if quantized {
            32 * u.int_in_range(1..=2)?
        } else {
            u.int_in_range(1..=8)?
        };
        let overrides = (0..u.int_in_range(0..=3)?)
            .map(|_| Ok((u.choose_index(KEYS.len())?, any_value(u, 0)?)))
            .collect::<Result<_>>()?;
        Ok(TinyLlama {
            heads,
            kv_heads,
            head_dim,
            intermediate,
            layers: u.int_in_range(1..=2)?,
            context: u.int_in_range(0..=64)?,
            dtype: if quantized {
                *u.choose(&[GgmlDType::Q4_1, GgmlDType::Q8_0, GgmlDType::Q4_0])?
            } else {
                *u.choose(&[GgmlDType::F32, GgmlDType::F16])?
            },
            tied: u.arbitrary()?,
            extra_tokens: u.arbitrary_iter()?.take(12).collect::<Result<_>>()?,
            merges: u.arbitrary_iter()?.take(12).collect::<Result<_>>()?,
            token_types: u.arbitrary_iter()?.take(8).collect::<Result<_>>()?,
            template: match u.choose_index(TEMPLATES.len() + 1)? {
                i if i < TEMPLATES.len() => TEMPLATES[i].to_string(),
                _ => u.arbitrary()?,
            },
            weights: u.arbitrary_iter()?.take(64).collect::<Result<_>>()?,
            overrides,
            damage: u.arbitrary()?,
        })
    }
}

impl TinyLlama {
    fn hidden(&self) -> usize {
        self.heads * self.head_dim
    }

    fn tokens(&self) -> Vec<String> {
        // GPT-2's byte-level alphabet, so that any text tokenizes, then the specials and the rest.
        let bytes = (0u8..=255).map(|b| byte_level_char(b).to_string());
        let specials = SPECIALS.iter().map(|s| s.to_string());
        bytes.chain(specials).chain(self.extra_tokens.iter().cloned()).collect()
    }

    fn metadata(&self, vocab: usize) -> Vec<(String, Value)> {
        let u32v = |n: usize| Value::U32(n as u32);
        let mut types = vec![Value::I32(1); vocab];
        for (i, slot) in types.iter_mut().enumerate().skip(256).take(3) {
            *slot = Value::I32(if i < 259 { 3 } else { 1 });
        }
        for (slot, t) in types.iter_mut().skip(259).zip(&self.token_types) {
            *slot = Value::I32(*t);
        }
        let strings = |items: Vec<String>| Value::Array(items.into_iter().map(Value::String).collect());
        let mut md = vec![
            ("general.architecture", Value::String("llama".into())),
            ("general.name", Value::String("tiny".into())),
            ("llama.embedding_length", u32v(self.hidden())),
            ("llama.feed_forward_length", u32v(self.intermediate)),
            ("llama.block_count", u32v(self.layers)),
            ("llama.attention.head_count", u32v(self.heads)),
            ("llama.attention.head_count_kv", u32v(self.kv_heads)),
            ("llama.attention.layer_norm_rms_epsilon", Value::F32(1e-5)),
            ("llama.context_length", Value::U32(self.context)),
            ("llama.rope.freq_base", Value::F32(10000.0)),
            ("tokenizer.ggml.model", Value::String("gpt2".into())),
            ("tokenizer.ggml.tokens", strings(self.tokens())),
            ("tokenizer.ggml.merges", strings(self.merges.clone())),
            ("tokenizer.ggml.token_type", Value::Array(types)),
            ("tokenizer.ggml.bos_token_id", Value::U32(256)),
            ("tokenizer.ggml.eos_token_id", Value::U32(258)),
            ("tokenizer.chat_template", Value::String(self.template.clone())),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect::<Vec<_>>();
        for (key, value) in &self.overrides {
            match md.iter_mut().find(|(k, _)| k == KEYS[*key]) {
                Some(slot) => slot.1 = value.clone(),
                None => md.push((KEYS[*key].to_string(), value.clone())),
            }
        }
        md
    }

    fn tensors(&self, vocab: usize) -> candle_core::Result<Vec<(String, QTensor)>> {
        let (h, f) = (self.hidden(), self.intermediate);
        let kv = self.kv_heads * self.head_dim;
        let mut shapes = vec![
            ("token_embd.weight".to_string(), vec![vocab, h]),
            ("output_norm.weight".to_string(), vec![h]),
        ];
        if !self.tied {
            shapes.push(("output.weight".into(), vec![vocab, h]));
        }
        for l in 0..self.layers {
            for (name, shape) in [
                ("attn_norm", vec![h]),
                ("attn_q", vec![h, h]),
                ("attn_k", vec![kv, h]),
                ("attn_v", vec![kv, h]),
                ("attn_output", vec![h, h]),
                ("ffn_norm", vec![h]),
                ("ffn_gate", vec![f, h]),
                ("ffn_up", vec![f, h]),
                ("ffn_down", vec![h, f]),
            ] {
                shapes.push((format!("blk.{l}.{name}.weight"), shape));
            }
        }
        let mut next = self.weights.iter().cycle().copied().chain(std::iter::repeat(0.02));
        shapes
            .into_iter()
            .map(|(name, shape)| {
                let n = shape.iter().product();
                let values: Vec<f32> = (&mut next).take(n).collect();
                let tensor = Tensor::from_vec(values, shape.as_slice(), &Device::Cpu)?;
                // Norms stay F32, as in llama.cpp's files.
                let dtype = if shape.len() == 1 { GgmlDType::F32 } else { self.dtype };
                Ok((name, QTensor::quantize(&tensor, dtype)?))
            })
            .collect()
    }

    /// The GGUF file's bytes, damage included.
    pub fn to_bytes(&self) -> Vec<u8> {
        let vocab = self.tokens().len();
        let md = self.metadata(vocab);
        let tensors = self.tensors(vocab).expect("tiny tensors quantize");
        let md_refs: Vec<(&str, &Value)> = md.iter().map(|(k, v)| (k.as_str(), v)).collect();
        let t_refs: Vec<(&str, &QTensor)> = tensors.iter().map(|(k, t)| (k.as_str(), t)).collect();
        let mut out = Cursor::new(Vec::new());
        // candle's writer refuses nothing the reader would: only values it cannot encode fail.
        if gguf_file::write(&mut out, &md_refs, &t_refs).is_err() {
            return b"GGUF".to_vec();
        }
        let mut bytes = out.into_inner();
        self.damage.apply(&mut bytes);
        bytes
    }
}

/// GPT-2's byte-to-unicode table: printable Latin-1 bytes stand for themselves, the rest map to
/// U+0100 onwards.
fn byte_level_char(b: u8) -> char {
    let printable = |b: u8| (b'!'..=b'~').contains(&b) || (0xA1..=0xAC).contains(&b) || (0xAE..=0xFF).contains(&b);
    if printable(b) {
        return b as char;
    }
    let rank = (0..b).filter(|&x| !printable(x)).count() as u32;
    char::from_u32(256 + rank).expect("below U+0200")
}

/// The Hub files of a tiny llama (through the crate's own exporter), each possibly damaged or
/// replaced, with a `generation_config.json` of the fuzzer's choosing.
#[derive(Debug, Arbitrary)]
pub struct TinyHub {
    model: TinyLlama,
    bf16: bool,
    damage: [Damage; 4],
    replace: Option<(u8, Vec<u8>)>,
    generation_config: Option<String>,
}

impl TinyHub {
    pub fn files(&self) -> Option<HubFiles> {
        // The damage goes into the Hub files, not into the GGUF they are exported from.
        let clean = TinyLlama {
            damage: Damage::default(),
            overrides: vec![],
            ..self.model.clone()
        };
        let dtype = if self.bf16 {
            candle_core::DType::BF16
        } else {
            candle_core::DType::F32
        };
        let mut files = hub_files_from_gguf(&clean.to_bytes(), dtype).ok()?;
        let mut tc = files.tokenizer_config.take().unwrap_or_default();
        for (bytes, damage) in [&mut files.config, &mut files.weights, &mut files.tokenizer, &mut tc]
            .into_iter()
            .zip(&self.damage)
        {
            damage.apply(bytes);
        }
        files.tokenizer_config = Some(tc);
        if let Some((which, bytes)) = &self.replace {
            let slot = match which % 4 {
                0 => &mut files.config,
                1 => &mut files.weights,
                2 => &mut files.tokenizer,
                _ => files.tokenizer_config.get_or_insert_with(Vec::new),
            };
            *slot = bytes.clone();
        }
        files.generation_config = self.generation_config.clone().map(String::into_bytes);
        Some(files)
    }
}

/// An argument name: one of transformers' sampling fields (the crate's own list), `seed`, or one
/// it does not know.
fn name(index: u8) -> &'static str {
    let fields = sampling_lab_core::Field::ALL;
    match fields.get(index as usize % (fields.len() + 2)) {
        Some(field) => field.name(),
        None if index % 2 == 0 => "seed",
        None => "top_q",
    }
}

#[derive(Debug, Arbitrary)]
enum ArgValue {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Text(String),
    List(Vec<f64>),
}

impl ArgValue {
    fn value(&self) -> JsonValue {
        match self {
            ArgValue::Null => JsonValue::Null,
            ArgValue::Bool(b) => JsonValue::Bool(*b),
            ArgValue::Int(i) => JsonValue::from(*i),
            ArgValue::Float(f) => serde_json::Number::from_f64(*f).map_or(JsonValue::Null, JsonValue::Number),
            ArgValue::Text(s) => JsonValue::String(s.clone()),
            ArgValue::List(v) => v.iter().map(|f| ArgValue::Float(*f).value()).collect(),
        }
    }
}

/// One `generate()` call: the arguments are either the fuzzer's text or JSON built from the real
/// argument names (so that most inputs get past the parser), the logits any f32 (NaN, ±inf).
#[derive(Debug, Arbitrary)]
pub struct Call {
    raw: Option<String>,
    args: Vec<(u8, ArgValue)>,
    config: Vec<(u8, ArgValue)>,
    logits: Vec<f32>,
    pub context: Vec<u32>,
}

impl Call {
    /// The arguments' JSON and generation_config.json's (empty: none).
    pub fn texts(&self) -> (String, String) {
        let params = self.raw.clone().unwrap_or_else(|| object(&self.args));
        let config = if self.config.is_empty() {
            String::new()
        } else {
            object(&self.config)
        };
        (params, config)
    }

    /// At most 512 logits: the analysis is linear in the vocabulary, the rules are not.
    pub fn logits(&self) -> Vec<f32> {
        self.logits.iter().copied().take(512).collect()
    }
}

fn object(fields: &[(u8, ArgValue)]) -> String {
    let map: Map<String, JsonValue> = fields.iter().map(|(k, v)| (name(*k).to_string(), v.value())).collect();
    JsonValue::Object(map).to_string()
}
