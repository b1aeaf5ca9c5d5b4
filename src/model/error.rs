//! What can go wrong between a file's bytes and a runnable model, named so that a user who picked
//! the wrong file learns which file and why.

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ModelError {
    /// The bytes are not a GGUF or safetensors file at all.
    #[error("{0}")]
    NotAModel(String),
    /// A well-formed file of a model this crate does not run.
    #[error("{0}")]
    WrongArchitecture(String),
    /// A tensor or metadata key the llama architecture needs is absent or mis-shaped.
    #[error("{0}")]
    Missing(String),
    /// The file ends before the data its header announces.
    #[error("{0}")]
    Truncated(String),
    /// A prompt longer than the model (or the chosen precision) can attend to.
    #[error("the context has {tokens} tokens but at most {limit} fit ({why})")]
    ContextTooLong { tokens: usize, limit: usize, why: String },
    /// Tokenizer, chat template or configuration that cannot be used.
    #[error("{0}")]
    Invalid(String),
    /// An error inside candle while running the model.
    #[error("model error: {0}")]
    Candle(String),
}

impl From<candle_core::Error> for ModelError {
    fn from(e: candle_core::Error) -> Self {
        ModelError::Candle(e.to_string())
    }
}

pub type Result<T> = std::result::Result<T, ModelError>;
