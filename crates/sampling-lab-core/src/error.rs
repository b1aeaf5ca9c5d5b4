//! What the core refuses, typed; the edges (the command line, the wasm API) turn it into text once.

/// What the core refuses, typed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SamplingError {
    /// The library a column stands for refuses the call, in its own words (transformers'
    /// `ValueError`, Python's `TypeError`, torch's `RuntimeError`).
    #[error("{0}")]
    Refused(String),
    /// The input cannot be read: bad JSON, an unknown argument, a value of the wrong type.
    #[error("{0}")]
    Invalid(String),
    /// candle returned an error (its message, as a candle program would see it).
    #[error("{0}")]
    Candle(String),
}

impl SamplingError {
    /// An input that cannot be read, with the message that names the problem.
    pub fn invalid(message: impl Into<String>) -> Self {
        SamplingError::Invalid(message.into())
    }

    /// A library's refusal, word for word.
    pub fn refused(message: impl Into<String>) -> Self {
        SamplingError::Refused(message.into())
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
