//! What can go wrong between a file's bytes and a runnable model, named so that a user who picked
//! the wrong file learns which file and why.

use std::fmt;

#[derive(Debug, Clone, PartialEq)]
pub enum ModelError {
    /// The bytes are not a GGUF or safetensors file at all.
    NotAModel(String),
    /// A well-formed file of a model this crate does not run.
    WrongArchitecture(String),
    /// A tensor or metadata key the llama architecture needs is absent or mis-shaped.
    Missing(String),
    /// The file ends before the data its header announces.
    Truncated(String),
    /// A prompt longer than the model (or the chosen precision) can attend to.
    ContextTooLong { tokens: usize, limit: usize, why: String },
    /// Tokenizer, chat template or configuration that cannot be used.
    Invalid(String),
    /// An error inside candle while running the model.
    Candle(String),
}

impl fmt::Display for ModelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ModelError::NotAModel(m)
            | ModelError::WrongArchitecture(m)
            | ModelError::Missing(m)
            | ModelError::Truncated(m)
            | ModelError::Invalid(m) => f.write_str(m),
            ModelError::ContextTooLong { tokens, limit, why } => {
                write!(f, "the context has {tokens} tokens but at most {limit} fit ({why})")
            }
            ModelError::Candle(m) => write!(f, "model error: {m}"),
        }
    }
}

impl std::error::Error for ModelError {}

impl From<candle_core::Error> for ModelError {
    fn from(e: candle_core::Error) -> Self {
        ModelError::Candle(e.to_string())
    }
}

impl From<ModelError> for String {
    fn from(e: ModelError) -> Self {
        e.to_string()
    }
}

pub type Result<T> = std::result::Result<T, ModelError>;
