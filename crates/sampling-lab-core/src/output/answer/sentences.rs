//! The answer in words: a lead that says what the figures are conditional on, then a clause per
//! column that leaves transformers' support along the answer, and one clause for every column
//! that never does.

use super::{Answer, ColumnSummary};
use crate::columns::{hf, ColumnName};
use crate::text::{list, Message};

/// Expected steps outside below this are said as "fewer than 0.01": a figure printed to two
/// significant digits would otherwise be a string of zeros.
const RARE: f64 = 0.005;

/// The lead, then the clauses: the columns of `first` in their order, then the registry's; the
/// columns that never leave transformers' support share the last clause. Nothing for an answer
/// of no steps; one sentence when transformers refuses the call (nothing to compare with).
pub(super) fn sentences(answer: &Answer, first: &[ColumnName]) -> Vec<Message> {
    let steps = answer.steps().len();
    if steps == 0 {
        return Vec::new();
    }
    if answer.summary(hf::NAME).refused_at.is_some() {
        return vec![Message::new("answer-hf-refuses")];
    }
    let order = first
        .iter()
        .copied()
        .chain(ColumnName::all())
        .filter(|name| *name != hf::NAME)
        .fold(Vec::new(), |mut seen, name| {
            if !seen.contains(&name) {
                seen.push(name);
            }
            seen
        });
    let mut out = vec![Message::new("answer-lead").count("steps", steps)];
    let mut never = Vec::new();
    for name in order {
        match clause(name, &answer.summary(name), steps) {
            Some(sentence) => out.push(sentence),
            None => never.push(Message::new("finding-column-name").arg("column", name)),
        }
    }
    if !never.is_empty() {
        out.push(Message::new("answer-columns-never").arg("columns", list(never)));
    }
    out
}

/// One column's clause; `None` for a column that never leaves transformers' support here.
fn clause(name: ColumnName, summary: &ColumnSummary, steps: usize) -> Option<Message> {
    let (Some(expected), Some(never)) = (summary.expected_outside, summary.p_never_outside) else {
        return Some(Message::new("answer-column-refuses").arg("column", name));
    };
    if expected <= 0.0 {
        return None;
    }
    let message = if expected < RARE {
        Message::new("answer-column-outside-rare")
    } else {
        match summary.first_over_1pct {
            Some(at) => Message::new("answer-column-outside-first").count("first", at + 1),
            None => Message::new("answer-column-outside-small"),
        }
    };
    Some(
        message
            .arg("column", name)
            .number("expected", expected)
            .count("steps", steps)
            .number("never", never),
    )
}
