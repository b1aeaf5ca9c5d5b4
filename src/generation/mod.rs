//! Driving the model: sessions that generate token by token under a chosen semantics, and the
//! inspection of any step's logits with the sampling core.

pub mod answer;
pub mod completion;
pub mod prompt_cache;
pub mod sampler;
pub mod session;
pub mod speculative;
pub mod step_logits;

pub use answer::{AnswerFigures, AnswerOutput};
pub use completion::Completion;
pub use prompt_cache::PromptCache;
pub use sampler::{Decoding, Sampler};
pub use sampling_lab_core::ColumnName;
pub use session::{Finish, Prefill, Session, Step};
pub use step_logits::{StepLogits, StepReport};

use crate::logits_file::LogitsFileError;
use crate::model::{Model, ModelError};
use crate::step_file::StepFileError;
use crate::text::{Explain, Said};
use sampling_lab_core::{Message, SamplingError};
use serde_json::{Map, Value};

/// What a generation refuses or meets, typed; the edges turn it into text once.
#[derive(Debug, thiserror::Error)]
pub enum GenerationError {
    #[error(transparent)]
    Sampling(#[from] SamplingError),
    #[error(transparent)]
    Model(#[from] ModelError),
    #[error(transparent)]
    LogitsFile(#[from] LogitsFileError),
    #[error(transparent)]
    StepFile(#[from] StepFileError),
    /// A request that does not fit the run: a step that does not exist, a block of no tokens (a
    /// sentence of the catalogs, `generation-*`).
    #[error("{}", crate::text::render(.0, sampling_lab_core::Lang::En))]
    Invalid(Message),
}

impl GenerationError {
    pub fn invalid(message: Message) -> Self {
        GenerationError::Invalid(message)
    }
}

impl Explain for GenerationError {
    fn said(&self) -> Said {
        match self {
            GenerationError::Sampling(e) => e.said(),
            GenerationError::Model(e) => e.said(),
            GenerationError::LogitsFile(e) => e.said(),
            // The page says a step file's problem from its own catalog (`step-file-*`).
            GenerationError::StepFile(e) => Said::Verbatim(e.to_string()),
            GenerationError::Invalid(message) => Said::Message(message.clone()),
        }
    }
}

/// Each id's display text, by id: how a result names the tokens it lists, for the page.
pub(crate) fn token_texts(model: &Model, ids: impl IntoIterator<Item = u32>) -> Map<String, Value> {
    ids.into_iter()
        .map(|id| (id.to_string(), Value::String(model.tokenizer.token_text(id))))
        .collect()
}
