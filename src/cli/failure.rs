//! Why the command stops: one line on stderr in the reader's language (`--lang`), the catalogs'
//! sentence for the crate's and the core's errors and for the command line's own (the `cli-`
//! section of `locales/<lang>/app.ftl`), a library's words as they are.

use sampling_lab::text::{render, Explain, Said};
use sampling_lab_core::{Lang, Message};

/// A command that could not go on (see the module).
#[derive(Debug)]
pub struct Failure(Said);

impl Failure {
    /// A sentence of the command line's own.
    pub fn said(message: Message) -> Self {
        Failure(Said::Message(message))
    }

    /// The usage, after what was wrong with the command line (if anything was: `--help`).
    pub fn usage(wrong: Option<Message>, lang: Lang) -> Self {
        let usage = crate::usage(lang);
        Failure(Said::Verbatim(match wrong {
            Some(message) => format!("{}\n{usage}", render(&message, lang)),
            None => usage,
        }))
    }

    /// A file that could not be read or written: its path and the system's words.
    pub fn file(id: &'static str, path: impl std::fmt::Display, error: impl std::fmt::Display) -> Self {
        Failure::said(
            Message::new(id)
                .verbatim("path", path.to_string())
                .verbatim("detail", error.to_string()),
        )
    }

    /// Standard output that could not be written, or a report that could not be serialized.
    pub fn output(error: impl std::fmt::Display) -> Self {
        Failure::said(Message::new("cli-output").verbatim("detail", error.to_string()))
    }

    /// What the reader sees, in `lang`.
    pub fn explain(&self, lang: Lang) -> String {
        self.0.text(lang)
    }
}

/// Every error the crate explains: the core's, the model's, a generation's, a logits file's.
impl<E: Explain> From<E> for Failure {
    fn from(e: E) -> Self {
        Failure(e.said())
    }
}
