//! Two catalogs of one set of messages, held to each other: the same message ids, each with the
//! same attributes and the same variables. One home for the rule: the core's catalogs are held to
//! it here, the page's from the app's tests (which include this file).

use fluent_syntax::ast::{Entry, Expression, InlineExpression, Pattern, PatternElement};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Per message id: its attributes, and the variables its value and attributes reference.
pub type Shape = BTreeMap<String, (BTreeSet<String>, BTreeSet<String>)>;

/// The shape of a catalog's source; panics, naming the file, where it does not parse.
pub fn shape(name: &str, source: &str) -> Shape {
    let resource =
        fluent_syntax::parser::parse(source).unwrap_or_else(|(_, errors)| panic!("{name} does not parse: {errors:?}"));
    let mut out = Shape::new();
    for entry in resource.body {
        match entry {
            Entry::Message(message) => {
                let mut variables = BTreeSet::new();
                if let Some(value) = &message.value {
                    pattern_variables(value, &mut variables);
                }
                let attributes = message
                    .attributes
                    .iter()
                    .map(|a| {
                        pattern_variables(&a.value, &mut variables);
                        a.id.name.to_string()
                    })
                    .collect();
                assert!(
                    out.insert(message.id.name.to_string(), (attributes, variables))
                        .is_none(),
                    "{name} defines {} twice",
                    message.id.name
                );
            }
            Entry::Junk { content } => panic!("{name} has text Fluent cannot read: {content}"),
            _ => {}
        }
    }
    out
}

fn pattern_variables(pattern: &Pattern<&str>, out: &mut BTreeSet<String>) {
    for element in &pattern.elements {
        if let PatternElement::Placeable { expression } = element {
            expression_variables(expression, out);
        }
    }
}

fn expression_variables(expression: &Expression<&str>, out: &mut BTreeSet<String>) {
    match expression {
        Expression::Select { selector, variants } => {
            inline_variables(selector, out);
            for variant in variants {
                pattern_variables(&variant.value, out);
            }
        }
        Expression::Inline(inline) => inline_variables(inline, out),
    }
}

fn inline_variables(inline: &InlineExpression<&str>, out: &mut BTreeSet<String>) {
    match inline {
        InlineExpression::VariableReference { id } => {
            out.insert(id.name.to_string());
        }
        InlineExpression::FunctionReference { arguments, .. } => {
            for argument in &arguments.positional {
                inline_variables(argument, out);
            }
        }
        InlineExpression::Placeable { expression } => expression_variables(expression, out),
        _ => {}
    }
}

/// What differs between a catalog and its translation: a missing or extra message, an attribute
/// or a variable one has and the other lacks. Empty when they agree.
pub fn differences(source: &Shape, translation: &Shape) -> Vec<String> {
    let mut out = Vec::new();
    for (id, (attributes, variables)) in source {
        match translation.get(id) {
            None => out.push(format!("{id}: missing")),
            Some((other_attributes, other_variables)) => {
                if attributes != other_attributes {
                    out.push(format!("{id}: attributes {attributes:?} against {other_attributes:?}"));
                }
                if variables != other_variables {
                    out.push(format!("{id}: variables {variables:?} against {other_variables:?}"));
                }
            }
        }
    }
    out.extend(
        translation
            .keys()
            .filter(|id| !source.contains_key(*id))
            .map(|id| format!("{id}: not in the source catalog")),
    );
    out
}

/// Every `.rs` file under `dir`.
pub fn rust_sources(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(rust_sources(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out
}

/// The text of every `"…"` literal in `source` without escapes (enough for ids).
pub fn string_literals(source: &str) -> Vec<String> {
    source.split('"').skip(1).step_by(2).map(str::to_string).collect()
}
