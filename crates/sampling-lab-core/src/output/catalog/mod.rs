//! The catalogs, compiled in — `locales/<lang>/core.ftl` (what every column shares) and each
//! registered column's `locales/<lang>/columns/<name>.ftl`, parsed once per language — and what
//! renders the core's messages with them: a [`Message`] ([`Render`]), a column's names and
//! definition ([`Column::label`], [`Column::info`]), a cause, a row of the temperature table.

mod number;

use crate::columns::causes::{Cause, CauseText};
use crate::columns::thresholds::{Threshold, ThresholdText};
use crate::columns::{Column, ColumnName, REGISTRY};
use crate::text::{Arg, Lang, Message, Text};
use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use number::format_number;
use serde::Serialize;
use std::sync::OnceLock;

/// The shared catalog of each language, in [`Lang::ALL`]'s order.
const CORE: [&str; 2] = [
    include_str!("../../../locales/en/core.ftl"),
    include_str!("../../../locales/zh-Hans/core.ftl"),
];

/// One language's messages: the core's, or the core's and a program's own
/// ([`Catalog::extended`]), so that the program's errors and reports are said alike.
pub struct Catalog {
    lang: Lang,
    bundle: FluentBundle<FluentResource>,
}

impl Catalog {
    /// The catalog of `lang`, parsed on first use.
    pub fn get(lang: Lang) -> &'static Catalog {
        static PARSED: [OnceLock<Catalog>; 2] = [OnceLock::new(), OnceLock::new()];
        PARSED[lang.index()].get_or_init(|| Catalog::parse(lang, lang.index(), None))
    }

    /// The core's catalog of `lang` and `source`, a program's own messages in that language
    /// (Fluent; no id of the core's again). Parsed here: a program keeps it, once per language.
    ///
    /// # Panics
    /// If `source` does not parse or defines an id twice: a catalog is the program's own file.
    pub fn extended(lang: Lang, source: &str) -> Catalog {
        Catalog::parse(lang, lang.index(), Some(source))
    }

    fn parse(lang: Lang, index: usize, extra: Option<&str>) -> Catalog {
        let tag = lang.tag().parse().expect("a Lang's tag is a language identifier");
        let mut bundle = FluentBundle::new_concurrent(vec![tag]);
        // Plain text: the page puts it in textContent, the command line on a terminal.
        bundle.set_use_isolating(false);
        bundle.set_formatter(Some(format_number));
        bundle.add_builtins().expect("NUMBER is not defined twice");
        let sources = std::iter::once(CORE[index])
            .chain(REGISTRY.iter().map(|c| c.catalogs[index]))
            .chain(extra);
        for source in sources {
            let resource = FluentResource::try_new(source.to_string())
                .unwrap_or_else(|(_, errors)| panic!("a {lang} catalog does not parse: {errors:?}"));
            bundle
                .add_resource(resource)
                .unwrap_or_else(|errors| panic!("a {lang} catalog defines a message twice: {errors:?}"));
        }
        Catalog { lang, bundle }
    }

    /// The message in this catalog's language. A message the catalog lacks, or one whose
    /// arguments do not fit it, is a bug the tests catch (debug builds panic); a release build
    /// shows its id rather than nothing.
    pub fn render(&self, message: &Message) -> String {
        let mut args = FluentArgs::new();
        for (name, value) in message.args() {
            let value: FluentValue = match value {
                Arg::Verbatim(text) => text.clone().into(),
                Arg::Count(n) => (*n).into(),
                Arg::Number(x) => (*x).into(),
                Arg::Column(column) => self.pattern(&format!("column-{column}-in-sentence"), None).into(),
                Arg::Message(inner) => self.render(inner).into(),
            };
            args.set(*name, value);
        }
        self.pattern(message.id(), Some(&args))
    }

    fn pattern(&self, id: &str, args: Option<&FluentArgs>) -> String {
        let Some(pattern) = self.bundle.get_message(id).and_then(|m| m.value()) else {
            debug_assert!(false, "the {} catalog has no message `{id}`", self.lang);
            return format!("⟨{id}⟩");
        };
        let mut errors = Vec::new();
        let text = self.bundle.format_pattern(pattern, args, &mut errors).into_owned();
        debug_assert!(errors.is_empty(), "message `{id}` in {}: {errors:?}", self.lang);
        match self.lang {
            Lang::ZhHans => tighten(&text),
            Lang::En => text,
        }
    }
}

/// Chinese text without the spaces a placeable leaves between two Chinese characters: a
/// message writes `{ $column } 留下` so that `DFlash 的 sample() 留下` reads well, and a name
/// that ends in Chinese (`照字面搬的 candle 移植`) must not then read `移植 留下`.
fn tighten(text: &str) -> String {
    let chinese = |c: char| matches!(c, '\u{3000}'..='\u{303F}' | '\u{4E00}'..='\u{9FFF}' | '\u{FF00}'..='\u{FFEF}');
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    for (i, &c) in chars.iter().enumerate() {
        let between = i > 0 && i + 1 < chars.len() && chinese(chars[i - 1]) && chinese(chars[i + 1]);
        if !(c == ' ' && between) {
            out.push(c);
        }
    }
    out
}

/// Rendering a message in a language: `message.render(Lang::ZhHans)`.
pub trait Render {
    /// The sentence in `lang`.
    fn render(&self, lang: Lang) -> String;

    /// The message with its text in `lang`, as a report carries it.
    fn in_lang(&self, lang: Lang) -> Text;
}

impl Render for Message {
    fn render(&self, lang: Lang) -> String {
        Catalog::get(lang).render(self)
    }

    fn in_lang(&self, lang: Lang) -> Text {
        Text {
            text: self.render(lang),
            message: self.clone(),
        }
    }
}

impl Column {
    /// Its name for readers, as the figures table and the legend show it.
    pub fn label(&self, lang: Lang) -> String {
        self.says("label", lang)
    }

    /// The same, short, where space is tight (the table's heads, menus).
    pub fn short(&self, lang: Lang) -> String {
        self.says("short", lang)
    }

    /// Two lines for the glossary: which library, which call, which version.
    pub fn definition(&self, lang: Lang) -> String {
        self.says("definition", lang)
    }

    /// The column's catalog message `column-<name>-<what>` in `lang`.
    fn says(&self, what: &str, lang: Lang) -> String {
        Catalog::get(lang).pattern(&format!("column-{}-{what}", self.name.name()), None)
    }

    /// What the page and the command line list about the column, in `lang`.
    pub fn info(&self, lang: Lang) -> ColumnInfo {
        ColumnInfo {
            name: self.name,
            label: self.label(lang),
            short: self.short(lang),
            definition: self.definition(lang),
            code: self.code,
            draws: self.draws,
        }
    }
}

/// A column as the page lists it: `{name, label, short, definition, code, draws}`.
#[derive(Clone, Debug, Serialize)]
#[non_exhaustive]
pub struct ColumnInfo {
    /// The column's name (the report's key).
    pub name: ColumnName,
    /// Its name for readers.
    pub label: String,
    /// The same, short.
    pub short: String,
    /// Which library, which call, which version.
    pub definition: String,
    /// The language of its code, if it has any.
    pub code: Option<&'static str>,
    /// Whether Monte Carlo draws it.
    pub draws: bool,
}

impl Cause {
    /// The cause as a report lists it: `{column, rule, id, args, text}`, the text in `lang`.
    pub fn in_lang(&self, lang: Lang) -> CauseText {
        CauseText {
            column: self.column,
            rule: self.rule,
            text: self.message.in_lang(lang),
        }
    }
}

impl Threshold {
    /// The row as a report lists it, its detail in `lang`.
    pub fn in_lang(&self, lang: Lang) -> ThresholdText {
        ThresholdText {
            system: self.system,
            behaviour: self.behaviour,
            detail: self.detail.in_lang(lang),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chinese_text_keeps_no_space_between_two_chinese_characters_and_every_other() {
        assert_eq!(
            tighten("照字面搬的 candle 移植 留下 40 个候选，有 9.6%"),
            "照字面搬的 candle 移植留下 40 个候选，有 9.6%"
        );
        assert_eq!(tighten("DFlash 的 sample() 留下"), "DFlash 的 sample() 留下");
        let literal = Message::new("finding-column-name").arg("column", Arg::Column("literal"));
        let rendered = Message::new("finding-column-agrees")
            .arg("column", literal)
            .render(Lang::ZhHans);
        assert!(!rendered.contains("移植 的"), "{rendered}");
    }
}
