//! Text ↔ token ids: a `tokenizers::Tokenizer` read from a Hub `tokenizer.json`, or built from a
//! GGUF's `tokenizer.ggml.*` metadata the way transformers builds it from the same file.

use super::error::{ModelError, Result};
use candle_core::quantized::gguf_file::Value;
use sampling_lab_core::Message;
use std::collections::HashMap;
use tokenizers::models::bpe::{Vocab, BPE};
use tokenizers::pre_tokenizers::byte_level::ByteLevel;
use tokenizers::{AddedToken, Tokenizer};

/// What tokenizers 0.23.2 would panic on instead of returning an error, refused first: text that
/// is not JSON (its decoder section is read with `.expect`) and a `Precompiled` normalizer (a
/// SentencePiece charsmap, parsed with `.expect`; byte-level BPE models such as SmolLM2 have none).
fn check_tokenizer_json(bytes: &[u8]) -> Result<()> {
    let value: serde_json::Value =
        serde_json::from_slice(bytes).map_err(|e| ModelError::Invalid(Message::json("model-tokenizer-json", &e)))?;
    fn precompiled(v: &serde_json::Value) -> bool {
        match v {
            serde_json::Value::Object(o) => {
                o.get("type").is_some_and(|t| t == "Precompiled") || o.values().any(precompiled)
            }
            serde_json::Value::Array(items) => items.iter().any(precompiled),
            _ => false,
        }
    }
    if precompiled(&value["normalizer"]) {
        return Err(ModelError::Invalid(Message::new("model-tokenizer-precompiled")));
    }
    Ok(())
}

/// GGUF token types (llama.cpp's `llama_token_type`): control tokens are special.
const TOKEN_TYPE_CONTROL: i32 = 3;
const TOKEN_TYPE_USER_DEFINED: i32 = 4;

pub struct TextTokenizer {
    inner: Tokenizer,
    /// Each id's text for display: byte-level pieces mapped back to bytes, invalid UTF-8 escaped.
    texts: Vec<String>,
    /// Each id's bytes, where its piece is byte-level (none for added and special tokens).
    bytes: Vec<Option<Box<[u8]>>>,
}

impl TextTokenizer {
    pub fn from_json_bytes(bytes: &[u8]) -> Result<Self> {
        check_tokenizer_json(bytes)?;
        let inner = Tokenizer::from_bytes(bytes).map_err(|e| invalid("model-tokenizer", e))?;
        Ok(Self::wrap(inner))
    }

    /// transformers' GGUF conversion for `tokenizer.ggml.model = gpt2`: byte-level BPE with GPT-2's
    /// split regex, no normaliser, and the control tokens as special added tokens.
    pub fn from_gguf_metadata(md: &HashMap<String, Value>) -> Result<Self> {
        let model = string(md, "tokenizer.ggml.model")?;
        if model != "gpt2" {
            return Err(ModelError::Invalid(
                Message::new("model-gguf-tokenizer-model").verbatim("model", model.as_str()),
            ));
        }
        let tokens = strings(md, "tokenizer.ggml.tokens")?;
        let merges = strings(md, "tokenizer.ggml.merges")?
            .into_iter()
            .map(|m| split_merge(&m))
            .collect::<Result<Vec<_>>>()?;
        let types = md
            .get("tokenizer.ggml.token_type")
            .and_then(|v| v.to_vec().ok())
            .map(|v| v.iter().map(|t| t.to_i32().unwrap_or(1)).collect::<Vec<_>>())
            .unwrap_or_default();
        let mut vocab = Vocab::default();
        for (id, token) in tokens.iter().enumerate() {
            vocab.insert(token.clone(), id as u32);
        }
        let bpe = BPE::builder()
            .vocab_and_merges(vocab, merges)
            .build()
            .map_err(|e| invalid("model-gguf-tokenizer", e))?;
        let mut inner = Tokenizer::new(bpe);
        inner
            .with_pre_tokenizer(Some(ByteLevel::new(false, true, true)))
            .with_decoder(Some(ByteLevel::new(true, true, true)));
        let added = |wanted: i32, special: bool| -> Vec<AddedToken> {
            types
                .iter()
                .enumerate()
                .filter(|(_, t)| **t == wanted)
                // A type list longer than the token list names no token past its end.
                .filter_map(|(id, _)| tokens.get(id))
                .map(|token| AddedToken::from(token.clone(), special).normalized(false))
                .collect()
        };
        let invalid = |e: tokenizers::Error| invalid("model-gguf-tokenizer", e);
        inner
            .add_special_tokens(added(TOKEN_TYPE_CONTROL, true))
            .map_err(invalid)?;
        inner
            .add_tokens(added(TOKEN_TYPE_USER_DEFINED, false))
            .map_err(invalid)?;
        Ok(Self::wrap(inner))
    }

    fn wrap(inner: Tokenizer) -> Self {
        let added = inner.get_added_tokens_decoder();
        let table = byte_of_char();
        let (texts, bytes) = (0..inner.get_vocab_size(true) as u32)
            .map(|id| match (added.get(&id), inner.id_to_token(id)) {
                (Some(token), _) => (token.content.clone(), None),
                (None, Some(piece)) => match piece_bytes(&piece, &table) {
                    Some(bytes) => (escape_invalid_utf8(&bytes), Some(bytes.into_boxed_slice())),
                    None => (piece, None),
                },
                (None, None) => (String::new(), None),
            })
            .unzip();
        TextTokenizer { inner, texts, bytes }
    }

    /// The bytes a token writes, where its piece is byte-level; none for special tokens.
    pub fn token_bytes(&self, id: u32) -> Option<&[u8]> {
        self.bytes.get(id as usize)?.as_deref()
    }

    /// Ids of `text` as `tokenizer(text, add_special_tokens=False)`: special tokens written in the
    /// text are recognised, nothing is added around it.
    pub fn encode(&self, text: &str) -> Result<Vec<u32>> {
        self.inner
            .encode_fast(text, false)
            .map(|e| e.get_ids().to_vec())
            .map_err(|e| invalid("model-cannot-tokenize", e))
    }

    /// `tokenizer.decode(ids)`: special tokens kept, bytes that do not form UTF-8 become U+FFFD.
    pub fn decode(&self, ids: &[u32]) -> Result<String> {
        self.inner
            .decode(ids, false)
            .map_err(|e| invalid("model-cannot-decode", e))
    }

    /// The tokenizer as a `tokenizer.json`.
    pub fn to_json(&self) -> Result<String> {
        self.inner
            .to_string(false)
            .map_err(|e| invalid("model-writing-tokenizer", e))
    }

    pub fn token_id(&self, token: &str) -> Option<u32> {
        self.inner.token_to_id(token)
    }

    /// One token's text for display; a lone byte of a multi-byte character reads `\xE6`.
    pub fn token_text(&self, id: u32) -> String {
        self.texts
            .get(id as usize)
            .cloned()
            .unwrap_or_else(|| format!("<id {id} outside the vocabulary>"))
    }

    pub fn vocab_size(&self) -> usize {
        self.texts.len()
    }
}

fn string(md: &HashMap<String, Value>, key: &str) -> Result<String> {
    md.get(key)
        .and_then(|v| v.to_string().ok().cloned())
        .ok_or_else(|| missing_key(key))
}

fn strings(md: &HashMap<String, Value>, key: &str) -> Result<Vec<String>> {
    let values = md
        .get(key)
        .and_then(|v| v.to_vec().ok())
        .ok_or_else(|| missing_key(key))?;
    values
        .iter()
        .map(|v| v.to_string().cloned())
        .collect::<std::result::Result<_, _>>()
        .map_err(|_| ModelError::Invalid(Message::new("model-gguf-metadata-not-strings").verbatim("key", key)))
}

/// GGUF metadata without `key`.
pub(super) fn missing_key(key: &str) -> ModelError {
    ModelError::Missing(Message::new("model-gguf-metadata-missing").verbatim("key", key))
}

/// The tokenizers library's error `e`, as message `id` quotes it.
fn invalid(id: &'static str, e: impl std::fmt::Display) -> ModelError {
    ModelError::Invalid(Message::new(id).verbatim("detail", e.to_string()))
}

fn split_merge(merge: &str) -> Result<(String, String)> {
    merge
        .split_once(' ')
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .ok_or_else(|| ModelError::Invalid(Message::new("model-gguf-merge").verbatim("merge", merge)))
}

/// GPT-2's byte ↔ printable-character table, inverted: which byte each piece character stands for.
fn byte_of_char() -> HashMap<char, u8> {
    let printable = |b: u8| matches!(b, b'!'..=b'~' | 0xA1..=0xAC | 0xAE..=0xFF);
    let mut next = 256u32;
    (0..=255u8)
        .map(|b| {
            if printable(b) {
                (char::from(b), b)
            } else {
                let c = char::from_u32(next).expect("below the surrogates");
                next += 1;
                (c, b)
            }
        })
        .collect()
}

/// A byte-level piece's bytes; none where a character is outside GPT-2's table.
fn piece_bytes(piece: &str, table: &HashMap<char, u8>) -> Option<Vec<u8>> {
    piece.chars().map(|c| table.get(&c).copied()).collect()
}

/// Valid UTF-8 runs as text, every other byte as `\xNN`.
fn escape_invalid_utf8(mut bytes: &[u8]) -> String {
    let mut out = String::new();
    while !bytes.is_empty() {
        match std::str::from_utf8(bytes) {
            Ok(s) => {
                out.push_str(s);
                break;
            }
            Err(e) => {
                let (valid, rest) = bytes.split_at(e.valid_up_to());
                out.push_str(std::str::from_utf8(valid).expect("checked"));
                let bad = e.error_len().unwrap_or(rest.len());
                for b in &rest[..bad] {
                    out.push_str(&format!("\\x{b:02X}"));
                }
                bytes = &rest[bad..];
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lone_bytes_of_a_multibyte_character_are_escaped() {
        assert_eq!(escape_invalid_utf8("谢".as_bytes()), "谢");
        assert_eq!(escape_invalid_utf8(&[0xE6]), "\\xE6");
        assert_eq!(escape_invalid_utf8(&[b'a', 0xE8, 0xB0, b'b']), "a\\xE8\\xB0b");
    }

    #[test]
    fn byte_table_covers_every_byte_once() {
        let table = byte_of_char();
        assert_eq!(table.len(), 256);
        assert_eq!(table[&'Ġ'], b' ');
        assert_eq!(table[&'Ċ'], b'\n');
        assert_eq!(table[&'a'], b'a');
    }
}
