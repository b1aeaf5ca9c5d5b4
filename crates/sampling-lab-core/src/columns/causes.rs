//! Why a column differs from transformers at a step, in plain words: the typed reasons
//! ([`Rule`]) each engine declares, each stated as a catalog [`Message`] with this step's numbers.

use super::{ColumnName, REGISTRY};
use crate::arguments::params::Source;
use crate::distribution::{Comparison, EXACT_TOLERANCE};
use crate::text::{Message, Text};
use serde::Serialize;

/// A reason the page can name: a stable `snake_case` name (exercise sets refer to it) and the
/// column it explains. Each column declares its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rule {
    name: &'static str,
    column: ColumnName,
}

impl Rule {
    /// A rule of `column`'s; `name` must be unique among every column's rules (a test checks).
    pub(crate) const fn new(name: &'static str, column: ColumnName) -> Self {
        Rule { name, column }
    }

    /// The name the report and exercise sets use.
    pub fn name(self) -> &'static str {
        self.name
    }

    /// The column whose difference from hf this rule explains.
    pub fn column(self) -> ColumnName {
        self.column
    }

    /// Every rule of every registered column, in the registry's order.
    pub fn all() -> impl Iterator<Item = Rule> {
        REGISTRY.iter().flat_map(|c| c.rules.iter().copied())
    }

    /// One reason for a difference: the catalog's sentence for it, with this step's numbers.
    pub fn says(self, message: Message) -> Cause {
        Cause {
            column: self.column,
            rule: self,
            message,
        }
    }
}

impl Serialize for Rule {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name)
    }
}

/// One reason for a difference: the column that departs from hf, its rule and its sentence.
#[derive(Clone, Debug, PartialEq)]
pub struct Cause {
    /// The column that departs from hf.
    pub column: ColumnName,
    /// Which reason it is, by its stable name (what exercise sets check for).
    pub rule: Rule,
    /// The reason for readers, with this step's numbers.
    pub message: Message,
}

/// A cause with its sentence in one language.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CauseText {
    /// The column that departs from hf.
    pub column: ColumnName,
    /// The rule's stable name.
    pub rule: Rule,
    /// The message's id and arguments, and its text.
    #[serde(flatten)]
    pub text: Text,
}

/// Whether a column's distribution is not hf's (or cannot be compared with it).
pub(crate) fn departs(comparison: Option<&Comparison>) -> bool {
    !comparison.is_some_and(|c| c.agrees_within(EXACT_TOLERANCE))
}

/// Where transformers took a value it was not passed, as a catalog selector
/// (`-source(source: …)`): `generation_config` or `default`.
pub(crate) fn source_key(source: Source) -> &'static str {
    match source {
        Source::GenerationConfig => "generation_config",
        _ => "default",
    }
}

/// Names joined for a sentence: code and arguments (`top_k=50, top_p=0.9`), the same in every
/// language.
pub(crate) fn listed(names: &[String]) -> String {
    names.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_has_a_distinct_name() {
        let mut names: Vec<&str> = Rule::all().map(Rule::name).collect();
        let all = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), all);
    }
}
