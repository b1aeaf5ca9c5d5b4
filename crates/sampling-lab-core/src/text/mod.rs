//! What the crate says to readers: messages with stable ids, rendered in a language.
//!
//! The finding, the causes, the "temperature zero" rows, the columns' names and definitions,
//! "port this call"'s verdicts are [`Message`]s: a stable id and typed arguments, rendered in the
//! reader's [`Lang`] from Project Fluent catalogs (`locales/<lang>/*.ftl`, one for what every
//! column shares and one per column) by [`Render`](crate::Render).
//!
//! A report keeps both: the id and the arguments (the same in every language, what a program or
//! a test reads) and the text (what a reader reads). A library's own words — transformers'
//! `ValueError`, vLLM's refusal — are never translated: they travel as [`Arg::Verbatim`] and a
//! message quotes them beside its explanation.
//!
//! ```
//! use sampling_lab_core::text::{Lang, Message};
//! use sampling_lab_core::Render;
//!
//! let kept = Message::new("finding-hf-keeps").count("count", 24);
//! assert_eq!(kept.render(Lang::En), "keeps 24 tokens here");
//! assert_eq!(kept.render(Lang::ZhHans), "这里留下 24 个候选");
//! ```

use serde::ser::SerializeMap;
use serde::Serialize;

/// A language the catalogs are written in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Lang {
    /// English, the catalogs' source.
    #[default]
    En,
    /// Simplified Chinese, in the words the Chinese write-ups behind the lab use.
    ZhHans,
}

impl Lang {
    /// Every language, English first.
    pub const ALL: [Lang; 2] = [Lang::En, Lang::ZhHans];

    /// Its place in [`Lang::ALL`], where per-language tables keep its entry.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The BCP 47 tag: `en`, `zh-Hans` (what `?lang=` and `--lang` take).
    pub fn tag(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::ZhHans => "zh-Hans",
        }
    }
}

impl std::fmt::Display for Lang {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.tag())
    }
}

impl<'de> serde::Deserialize<'de> for Lang {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let tag = String::deserialize(deserializer)?;
        tag.parse().map_err(serde::de::Error::custom)
    }
}

impl std::str::FromStr for Lang {
    type Err = crate::SamplingError;

    /// `en` or `zh-Hans`; a regional tag picks its language's catalog (`en-GB`, `zh-CN`, `zh-SG`).
    fn from_str(tag: &str) -> Result<Self, Self::Err> {
        let lower = tag.to_ascii_lowercase();
        let mut parts = lower.split(['-', '_']);
        match (parts.next(), parts.next()) {
            (Some("en"), _) => Ok(Lang::En),
            (Some("zh"), None | Some("hans" | "cn" | "sg")) => Ok(Lang::ZhHans),
            _ => Err(crate::SamplingError::invalid(
                Message::new("invalid-language").verbatim("tag", tag),
            )),
        }
    }
}

/// One argument of a message.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Arg {
    /// Text used as it is, in every language: code, a parameter's name, a value's Python repr,
    /// a library's own words.
    Verbatim(String),
    /// A whole number, which a message may count with (its plural form follows it).
    Count(usize),
    /// A number; the message says how many digits it shows (`NUMBER($tv, maximumFractionDigits: 3)`).
    Number(f64),
    /// A column by its name, rendered as its catalog names it in a sentence
    /// (`column-<name>-in-sentence`); its name in the arguments.
    Column(&'static str),
    /// Another message, rendered in the same language first.
    Message(Box<Message>),
}

impl From<&str> for Arg {
    fn from(text: &str) -> Self {
        Arg::Verbatim(text.to_string())
    }
}

impl From<String> for Arg {
    fn from(text: String) -> Self {
        Arg::Verbatim(text)
    }
}

impl From<usize> for Arg {
    fn from(n: usize) -> Self {
        Arg::Count(n)
    }
}

impl From<f64> for Arg {
    fn from(x: f64) -> Self {
        Arg::Number(x)
    }
}

impl From<Message> for Arg {
    fn from(message: Message) -> Self {
        Arg::Message(Box::new(message))
    }
}

/// A sentence for readers, by its catalog id and its arguments.
#[derive(Clone, Debug, PartialEq)]
pub struct Message {
    id: &'static str,
    args: Vec<(&'static str, Arg)>,
}

impl Message {
    /// The message `id` of the catalogs, with no arguments yet.
    pub fn new(id: &'static str) -> Self {
        Message { id, args: Vec::new() }
    }

    /// With the argument `name`.
    pub fn arg(mut self, name: &'static str, value: impl Into<Arg>) -> Self {
        self.args.push((name, value.into()));
        self
    }

    /// With a count `name` (the message picks its plural form by it).
    pub fn count(self, name: &'static str, n: usize) -> Self {
        self.arg(name, Arg::Count(n))
    }

    /// With a number `name`, shown as the message formats it.
    pub fn number(self, name: &'static str, x: f64) -> Self {
        self.arg(name, Arg::Number(x))
    }

    /// With text `name` used as it is in every language (code, names, a library's words).
    pub fn verbatim(self, name: &'static str, text: impl Into<String>) -> Self {
        self.arg(name, Arg::Verbatim(text.into()))
    }

    /// The message `id` about a JSON text that does not parse: its `line` and `column`, and
    /// serde_json's words for what it found there (`detail`, quoted as they are).
    pub fn json(id: &'static str, e: &serde_json::Error) -> Self {
        let text = e.to_string();
        // serde_json ends its words with " at line L column C"; the message says where itself.
        let detail = match text.rsplit_once(" at line ") {
            Some((words, _)) if e.line() > 0 => words.to_string(),
            _ => text,
        };
        Message::new(id)
            .count("line", e.line())
            .count("column", e.column())
            .verbatim("detail", detail)
    }

    /// The catalog id: stable across languages and releases (exercise sets and tests read it).
    pub fn id(&self) -> &'static str {
        self.id
    }

    /// The argument `name`, if the message has it.
    pub fn get(&self, name: &str) -> Option<&Arg> {
        self.args.iter().find(|(n, _)| *n == name).map(|(_, v)| v)
    }

    /// The arguments, in the order they were given.
    pub fn args(&self) -> &[(&'static str, Arg)] {
        &self.args
    }
}

/// The message in English, as the catalogs write it; without them (the `lab` feature off), its id
/// and arguments, `invalid-language(tag: "xx")`, so that an error still names its problem.
impl std::fmt::Display for Message {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        #[cfg(feature = "lab")]
        {
            f.write_str(&crate::Render::render(self, Lang::En))
        }
        #[cfg(not(feature = "lab"))]
        {
            f.write_str(self.id)?;
            if self.args.is_empty() {
                return Ok(());
            }
            f.write_str("(")?;
            for (i, (name, arg)) in self.args.iter().enumerate() {
                write!(f, "{}{name}: ", if i == 0 { "" } else { ", " })?;
                match arg {
                    Arg::Verbatim(text) => write!(f, "{text:?}")?,
                    Arg::Count(n) => write!(f, "{n}")?,
                    Arg::Number(x) => write!(f, "{x}")?,
                    Arg::Column(column) => f.write_str(column)?,
                    Arg::Message(inner) => write!(f, "{inner}")?,
                }
            }
            f.write_str(")")
        }
    }
}

/// `{"id": …, "args": {…}}`: the arguments by name, a column by its name, a nested message as an
/// object of its own.
impl Serialize for Message {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(2))?;
        map.serialize_entry("id", self.id)?;
        map.serialize_entry("args", &Args(&self.args))?;
        map.end()
    }
}

struct Args<'a>(&'a [(&'static str, Arg)]);

impl Serialize for Args<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (name, value) in self.0 {
            match value {
                Arg::Verbatim(text) => map.serialize_entry(name, text)?,
                Arg::Count(n) => map.serialize_entry(name, n)?,
                Arg::Number(x) => map.serialize_entry(name, x)?,
                Arg::Column(column) => map.serialize_entry(name, column)?,
                Arg::Message(message) => map.serialize_entry(name, message)?,
            }
        }
        map.end()
    }
}

/// Items as a sentence lists them: `a`, `a and b`, `a, b and c` (each language its own way:
/// the catalogs' `list-pair` and `list-more`).
pub(crate) fn list(mut items: Vec<Message>) -> Message {
    let last = items.pop().unwrap_or_else(|| Message::new("list-nothing"));
    match items.pop() {
        None => last,
        Some(before) => {
            let mut tail = Message::new("list-pair").arg("first", before).arg("second", last);
            while let Some(item) = items.pop() {
                tail = Message::new("list-more").arg("first", item).arg("rest", tail);
            }
            tail
        }
    }
}

/// A message and its text in one language: `{"id", "args", "text"}` in a report.
#[derive(Clone, Debug, PartialEq)]
pub struct Text {
    /// The message, the same in every language.
    pub message: Message,
    /// Its sentence in the report's language.
    pub text: String,
}

impl Serialize for Text {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(3))?;
        map.serialize_entry("id", self.message.id)?;
        map.serialize_entry("args", &Args(&self.message.args))?;
        map.serialize_entry("text", &self.text)?;
        map.end()
    }
}

impl std::fmt::Display for Text {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

#[cfg(test)]
mod tests {
    use super::Lang;

    #[test]
    fn each_language_is_at_its_index_in_all() {
        for (i, lang) in Lang::ALL.into_iter().enumerate() {
            assert_eq!(lang.index(), i, "{lang}");
        }
    }
}
