//! Why a column differs from transformers at a step, in plain words: the typed reasons
//! ([`Rule`]) each engine declares, and the helpers their sentences share.

use super::{ColumnName, REGISTRY};
use crate::arguments::params::Source;
use crate::distribution::{Comparison, EXACT_TOLERANCE};
use serde::Serialize;

/// A reason the page can name: a stable `snake_case` name (exercise sets refer to it) and the
/// column it explains. Each engine declares its own.
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

    /// One reason for a difference, in a sentence for readers.
    pub fn says(self, text: String) -> Cause {
        Cause {
            column: self.column,
            rule: self,
            text,
        }
    }
}

impl Serialize for Rule {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name)
    }
}

/// One reason for a difference: the column that departs from hf, its rule and a sentence.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Cause {
    /// The column that departs from hf.
    pub column: ColumnName,
    /// Which reason it is, by its stable name (what exercise sets check for).
    pub rule: Rule,
    /// The reason for readers, with this step's numbers.
    pub text: String,
}

/// Whether a column's distribution is not hf's (or cannot be compared with it).
pub fn departs(comparison: Option<&Comparison>) -> bool {
    !comparison.is_some_and(|c| c.agrees_within(EXACT_TOLERANCE))
}

/// Where transformers took a value it was not passed.
pub fn source_name(source: Source) -> &'static str {
    match source {
        Source::GenerationConfig => "the model's generation_config.json",
        _ => "transformers' default",
    }
}

/// `1 token`, `24 tokens`: a count with its noun.
pub fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// `1st`, `2nd`, `23rd`, `40th`.
pub fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinals_read_as_english() {
        let read: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 40, 101, 112].map(ordinal).to_vec();
        assert_eq!(
            read,
            ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "40th", "101st", "112th"]
        );
    }

    #[test]
    fn counts_take_the_singular_for_one() {
        assert_eq!(
            (count(1, "token"), count(0, "token"), count(2, "token")),
            ("1 token".into(), "0 tokens".into(), "2 tokens".into())
        );
    }

    #[test]
    fn every_rule_has_a_distinct_name() {
        let mut names: Vec<&str> = Rule::all().map(Rule::name).collect();
        let all = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), all);
    }
}
