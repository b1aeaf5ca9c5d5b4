//! The model around the sampling core: SmolLM2 (any llama) from a GGUF or the Hub layout, its
//! tokenizer and chat template, and a forward pass that yields one step's logits.
//!
//! - [`gguf`] / [`hub`]: the two file layouts, checked before use; [`export`] writes the first
//!   as the second.
//! - [`llama`]: candle's quantized llama (fast) and [`exact`], f32 arithmetic on the file's
//!   weights, kept in their quantization [`blocks`] where a kernel exists; its [`kernels`] (one
//!   file per instruction set behind one bit-exact contract) and [`arithmetic`] fix the order of
//!   every operation, so its logits are the same bits on every CPU and in the page.
//! - [`tokenizer`] / [`chat`]: text to ids as transformers does it for the same files.

pub mod arithmetic;
pub mod blocks;
pub mod chat;
mod error;
pub mod exact;
pub mod export;
pub mod gguf;
pub mod hub;
pub mod hyper;
pub mod kernels;
pub mod llama;
pub mod pool;
pub mod tokenizer;

pub use chat::{Chat, ChatTemplate, Message};
pub use error::{ModelError, Result};
pub use exact::{ExactLlama, Weight};
pub use hyper::Hyper;
pub use llama::{Backbone, KvCache, Precision};
pub use tokenizer::TextTokenizer;

use sampling_lab_core::GenerationConfig;
use serde::Serialize;

/// What is running, for the page's header and the CLI's report.
#[derive(Clone, Debug, Serialize)]
pub struct ModelInfo {
    pub name: String,
    /// `gguf` or `hub`.
    pub format: &'static str,
    pub precision: Precision,
    /// The file's weight type, e.g. `Q4_1` or `BF16`.
    pub weights: String,
    pub hyper: Hyper,
    /// Tokens a prompt plus its answer may span with this precision.
    pub max_positions: usize,
    pub eos_token_ids: Vec<u32>,
    pub has_generation_config: bool,
}

pub struct Model {
    backbone: Backbone,
    pub tokenizer: TextTokenizer,
    pub chat: ChatTemplate,
    pub info: ModelInfo,
    /// The model's `generation_config.json`, which transformers merges under the call's arguments.
    pub generation_config: Option<GenerationConfig>,
    limit_reason: &'static str,
}

impl Model {
    pub fn from_gguf(bytes: &[u8], precision: Precision) -> Result<Self> {
        let file = gguf::GgufFile::parse(bytes)?;
        let hyper = file.hyper()?;
        let tokenizer = file.tokenizer()?;
        let eos = file.special_token_id("eos").into_iter().collect::<Vec<_>>();
        let token = |which: &str| {
            file.special_token_id(which)
                .map(|id| tokenizer.token_text(id))
                .unwrap_or_default()
        };
        let template = file
            .chat_template()
            .ok_or_else(|| ModelError::Missing(sampling_lab_core::Message::new("model-gguf-no-chat-template")))?;
        let chat = ChatTemplate::new(&template, &token("bos"), &token("eos"))?;
        let backbone = match precision {
            Precision::Fast if file.is_quantized() => Backbone::Quantized(file.quantized()?),
            _ => Backbone::Exact(ExactLlama::new(file.exact_weights()?, &hyper)?),
        };
        let info = ModelInfo {
            name: file.name(),
            format: "gguf",
            precision,
            weights: file.weight_type(),
            max_positions: 0,
            hyper,
            eos_token_ids: eos,
            has_generation_config: false,
        };
        Ok(Self::assemble(backbone, tokenizer, chat, info, None))
    }

    /// The Hub layout; weights run in f32 whatever their stored type (bf16 is widened exactly).
    pub fn from_hub(files: &hub::HubFiles) -> Result<Self> {
        let (hyper, mut eos) = hub::parse_config(&files.config)?;
        let tokenizer = TextTokenizer::from_json_bytes(&files.tokenizer)?;
        let tok_config = hub::parse_tokenizer_config(files.tokenizer_config.as_deref())?;
        let template = tok_config
            .chat_template
            .ok_or_else(|| ModelError::Missing(sampling_lab_core::Message::new("model-no-chat-template")))?;
        let chat = ChatTemplate::new(&template, &tok_config.bos_token, &tok_config.eos_token)?;
        let generation_config = files
            .generation_config
            .as_deref()
            .map(|b| {
                let text = std::str::from_utf8(b).map_err(|_| {
                    ModelError::Invalid(sampling_lab_core::Message::new("model-generation-config-utf8"))
                })?;
                GenerationConfig::from_json_str(text).map_err(|e| {
                    ModelError::Invalid(match e.message() {
                        // The core's sentences about the file's JSON name the file already.
                        Some(m) if m.id().starts_with("invalid-generation-config") => m.clone(),
                        Some(m) => sampling_lab_core::Message::new("model-generation-config").arg("problem", m.clone()),
                        None => sampling_lab_core::Message::new("model-generation-config")
                            .verbatim("problem", e.to_string()),
                    })
                })
            })
            .transpose()?;
        if let Some(id) = tokenizer.token_id(&tok_config.eos_token).filter(|id| !eos.contains(id)) {
            eos.push(id);
        }
        let tensors = hub::load_weights(&files.weights)?;
        let weights = tensors
            .get("model.embed_tokens.weight")
            .map(|t| format!("{:?}", t.dtype()).to_uppercase())
            .unwrap_or_default();
        let dense = tensors.into_iter().map(|(k, t)| (k, Weight::Dense(t))).collect();
        let backbone = Backbone::Exact(ExactLlama::new(dense, &hyper)?);
        let info = ModelInfo {
            name: "Hugging Face checkpoint".into(),
            format: "hub",
            precision: Precision::Exact,
            weights,
            max_positions: 0,
            hyper,
            eos_token_ids: eos,
            has_generation_config: generation_config.is_some(),
        };
        Ok(Self::assemble(backbone, tokenizer, chat, info, generation_config))
    }

    fn assemble(
        backbone: Backbone,
        tokenizer: TextTokenizer,
        chat: ChatTemplate,
        mut info: ModelInfo,
        generation_config: Option<GenerationConfig>,
    ) -> Self {
        let (limit, limit_reason) = backbone.position_limit(info.hyper.context_length);
        info.max_positions = limit;
        Model {
            backbone,
            tokenizer,
            chat,
            info,
            generation_config,
            limit_reason,
        }
    }

    /// The prompt of a chat as the reference builds it: the template's ids, then the answer
    /// prefix tokenized on its own.
    pub fn chat_ids(&self, chat: &Chat) -> Result<Vec<u32>> {
        let mut ids = self.tokenizer.encode(&self.chat.conversation(chat)?)?;
        if !chat.answer_prefix.is_empty() {
            ids.extend(self.tokenizer.encode(&chat.answer_prefix)?);
        }
        Ok(ids)
    }

    pub fn is_eos(&self, id: u32) -> bool {
        self.info.eos_token_ids.contains(&id)
    }

    pub fn check_length(&self, tokens: usize) -> Result<()> {
        if tokens > self.info.max_positions {
            return Err(ModelError::ContextTooLong {
                tokens,
                limit: self.info.max_positions,
                why: sampling_lab_core::Message::new(self.limit_reason),
            });
        }
        Ok(())
    }

    pub fn check_ids(&self, ids: &[u32]) -> Result<()> {
        if ids.is_empty() {
            return Err(ModelError::Invalid(sampling_lab_core::Message::new(
                "model-context-empty",
            )));
        }
        self.check_length(ids.len())?;
        match ids.iter().find(|&&id| id as usize >= self.info.hyper.vocab) {
            Some(id) => Err(ModelError::Invalid(
                sampling_lab_core::Message::new("model-token-outside")
                    .verbatim("id", id.to_string())
                    .count("vocab", self.info.hyper.vocab),
            )),
            None => Ok(()),
        }
    }

    /// The `generation_config.json` a call runs with: the caller's, else the model's own.
    pub fn generation_config_or(&self, caller: Option<GenerationConfig>) -> Option<GenerationConfig> {
        caller.or_else(|| self.generation_config.clone())
    }

    pub fn new_cache(&self) -> Result<KvCache> {
        self.backbone.new_cache()
    }

    /// Extends `cache` with `ids` at positions `pos..`; the logits for the next token.
    pub fn forward(&self, cache: &mut KvCache, ids: &[u32], pos: usize) -> Result<Vec<f32>> {
        self.check_length(pos + ids.len())?;
        self.backbone.forward(cache, ids, pos)
    }

    /// Extends `cache` with `ids` at positions `pos..` in one batched pass; the logits at every
    /// position.
    pub fn forward_all(&self, cache: &mut KvCache, ids: &[u32], pos: usize) -> Result<Vec<Vec<f32>>> {
        self.check_length(pos + ids.len())?;
        self.backbone.forward_all(cache, ids, pos)
    }

    /// The next-token logits after `ids`, from a fresh cache.
    pub fn next_logits(&self, ids: &[u32]) -> Result<Vec<f32>> {
        self.check_ids(ids)?;
        let mut cache = self.new_cache()?;
        self.forward(&mut cache, ids, 0)
    }
}
