//! What can go wrong between a file's bytes and a runnable model, named so that a user who picked
//! the wrong file learns which file and why: each a sentence of the catalogs (`model-*`,
//! `locales/<lang>/app.ftl`), in English when shown as text.

use crate::text::{Explain, Said};
use sampling_lab_core::Message;

#[derive(Debug, Clone, PartialEq)]
pub enum ModelError {
    /// The bytes are not a GGUF or safetensors file at all.
    NotAModel(Message),
    /// A well-formed file of a model this crate does not run.
    WrongArchitecture(Message),
    /// A tensor or metadata key the llama architecture needs is absent or mis-shaped.
    Missing(Message),
    /// The file ends before the data its header announces.
    Truncated(Message),
    /// A prompt longer than the model (or the chosen precision) can attend to; `why`: which limit.
    ContextTooLong { tokens: usize, limit: usize, why: Message },
    /// Tokenizer, chat template or configuration that cannot be used.
    Invalid(Message),
    /// An error inside candle while running the model (candle's words).
    Candle(String),
}

impl Explain for ModelError {
    fn said(&self) -> Said {
        Said::Message(match self {
            ModelError::NotAModel(m)
            | ModelError::WrongArchitecture(m)
            | ModelError::Missing(m)
            | ModelError::Truncated(m)
            | ModelError::Invalid(m) => m.clone(),
            ModelError::ContextTooLong { tokens, limit, why } => Message::new("model-context-too-long")
                .count("tokens", *tokens)
                .count("limit", *limit)
                .arg("why", why.clone()),
            ModelError::Candle(detail) => Message::new("model-candle").verbatim("detail", detail.as_str()),
        })
    }
}

impl std::fmt::Display for ModelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.explain(sampling_lab_core::Lang::En))
    }
}

impl std::error::Error for ModelError {}

impl From<candle_core::Error> for ModelError {
    fn from(e: candle_core::Error) -> Self {
        ModelError::Candle(e.to_string())
    }
}

pub type Result<T> = std::result::Result<T, ModelError>;
