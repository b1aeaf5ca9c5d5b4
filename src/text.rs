//! What the crate says to readers beside the core's sentences: why a model file, a logits file or
//! a request cannot be used (`locales/<lang>/app.ftl`), rendered with the core's catalogs by the
//! core's [`Catalog`], and how an error is told at the edges — the command line in its `--lang`,
//! the page in every language the catalogs have, so that it can say it again in another.

use sampling_lab_core::output::Catalog;
use sampling_lab_core::{Lang, Message, SamplingError};
use std::sync::OnceLock;

/// This crate's catalog of each language, in [`Lang::ALL`]'s order.
const APP: [&str; 2] = [
    include_str!("../locales/en/app.ftl"),
    include_str!("../locales/zh-Hans/app.ftl"),
];

/// `message` (this crate's or the core's) in `lang`.
pub fn render(message: &Message, lang: Lang) -> String {
    static PARSED: [OnceLock<Catalog>; 2] = [OnceLock::new(), OnceLock::new()];
    let index = lang.index();
    PARSED[index]
        .get_or_init(|| Catalog::extended(lang, APP[index]))
        .render(message)
}

/// What an error tells a reader: a sentence of the catalogs, or a library's words as they are
/// (transformers' refusal, candle's error), which no catalog translates.
#[derive(Clone, Debug, PartialEq)]
pub enum Said {
    Message(Message),
    Verbatim(String),
}

impl Said {
    /// What it says in `lang`.
    pub fn text(&self, lang: Lang) -> String {
        match self {
            Said::Message(message) => render(message, lang),
            Said::Verbatim(text) => text.clone(),
        }
    }
}

/// An error as the edges tell it.
pub trait Explain {
    /// What it tells.
    fn said(&self) -> Said;

    /// The same in `lang`.
    fn explain(&self, lang: Lang) -> String {
        self.said().text(lang)
    }
}

impl Explain for SamplingError {
    fn said(&self) -> Said {
        match self.message() {
            Some(message) => Said::Message(message.clone()),
            None => Said::Verbatim(self.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_crate_says_its_own_sentences_and_the_cores_in_each_language() {
        let own = Message::new("model-file-empty");
        assert_eq!(render(&own, Lang::En), "the model file is empty");
        assert_eq!(render(&own, Lang::ZhHans), "模型文件是空的");
        let core = Message::new("invalid-logits-empty");
        assert_eq!(render(&core, Lang::ZhHans), core_render(&core, Lang::ZhHans));
    }

    #[test]
    fn a_librarys_words_are_told_as_they_are_in_every_language() {
        let refused = SamplingError::refused("ValueError: `top_k` has to be a strictly positive integer");
        for lang in Lang::ALL {
            assert_eq!(
                refused.explain(lang),
                "ValueError: `top_k` has to be a strictly positive integer"
            );
        }
    }

    fn core_render(message: &Message, lang: Lang) -> String {
        use sampling_lab_core::Render;
        message.render(lang)
    }
}
