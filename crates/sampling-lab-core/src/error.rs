//! What the core refuses, typed; the edges (the command line, the wasm API) turn it into text once.

use crate::text::Message;
#[cfg(feature = "lab")]
use crate::{text::Lang, Render};

/// What the core refuses, typed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum SamplingError {
    /// The library a column stands for refuses the call, in its own words (transformers'
    /// `ValueError`, Python's `TypeError`, torch's `RuntimeError`).
    #[error("{0}")]
    Refused(String),
    /// The input cannot be read: bad JSON, an unknown argument, a value of the wrong type. A
    /// sentence of the core's catalogs (`invalid-*`), in English when shown as text (its id and
    /// arguments without the `lab` feature, which renders the catalogs).
    #[error("{0}")]
    Invalid(Message),
    /// candle returned an error (its message, as a candle program would see it).
    #[error("{0}")]
    Candle(String),
}

impl SamplingError {
    /// An input that cannot be read, with the message that names the problem.
    pub fn invalid(message: Message) -> Self {
        SamplingError::Invalid(message)
    }

    /// A library's refusal, word for word.
    pub fn refused(message: impl Into<String>) -> Self {
        SamplingError::Refused(message.into())
    }

    /// What a reader is told, in `lang`: the core's own sentence in that language, a library's
    /// words (its refusal, candle's error) as they are.
    #[cfg(feature = "lab")]
    pub fn render(&self, lang: Lang) -> String {
        match self {
            SamplingError::Invalid(message) => message.render(lang),
            SamplingError::Refused(text) | SamplingError::Candle(text) => text.clone(),
        }
    }

    /// The core's sentence, if it is one (a library's words are not).
    pub fn message(&self) -> Option<&Message> {
        match self {
            SamplingError::Invalid(message) => Some(message),
            SamplingError::Refused(_) | SamplingError::Candle(_) => None,
        }
    }
}

impl From<candle_core::Error> for SamplingError {
    /// candle's message; a backtrace it captured (it appends one to its text) is for a debugger,
    /// not for a reader of the report.
    fn from(e: candle_core::Error) -> Self {
        let text = e.to_string();
        SamplingError::Candle(text.lines().next().unwrap_or_default().to_string())
    }
}
