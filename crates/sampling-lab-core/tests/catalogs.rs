//! The core's catalogs in every language say the same messages with the same arguments, and
//! every message the core's code names is in them.

mod catalog_check;

use catalog_check::{differences, rust_sources, shape, string_literals, Shape};
use std::path::Path;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The shapes of every catalog of `lang`, file by file (core.ftl and columns/*.ftl).
fn catalogs(lang: &str) -> Vec<(String, Shape)> {
    let dir = Path::new(ROOT).join("locales").join(lang);
    let mut files = vec![dir.join("core.ftl")];
    let mut columns: Vec<_> = std::fs::read_dir(dir.join("columns"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    columns.sort();
    files.extend(columns);
    files
        .into_iter()
        .map(|file| {
            let name = file.strip_prefix(ROOT).unwrap().display().to_string();
            let source = std::fs::read_to_string(&file).unwrap();
            (name.clone(), shape(&name, &source))
        })
        .collect()
}

#[test]
fn every_core_message_exists_in_chinese_with_the_same_arguments() {
    let english = catalogs("en");
    let chinese = catalogs("zh-Hans");
    assert_eq!(english.len(), chinese.len(), "the same files in both languages");
    assert!(english.len() > 10, "the core's catalog and one per column were read");
    for ((name, en), (_, zh)) in english.iter().zip(&chinese) {
        let wrong = differences(en, zh);
        assert!(wrong.is_empty(), "{name}:\n{}", wrong.join("\n"));
    }
}

#[test]
fn every_message_the_core_names_is_in_the_english_catalog() {
    let ids: std::collections::BTreeSet<String> = catalogs("en").into_iter().flat_map(|(_, s)| s.into_keys()).collect();
    let mut named = 0;
    let mut missing = Vec::new();
    for file in rust_sources(&Path::new(ROOT).join("src")) {
        let source = std::fs::read_to_string(&file).unwrap();
        // Every kebab-case string literal is a message id: the core writes no other, but for
        // names that are written so.
        let names = ["mlx-lm", sampling_lab_core::columns::llama_cpp::VERSION];
        for id in string_literals(&source)
            .into_iter()
            .filter(|s| is_message_id(s) && !names.contains(&s.as_str()))
        {
            named += 1;
            if !ids.contains(&id) {
                missing.push(format!("{}: {id}", file.display()));
            }
        }
    }
    assert!(named > 100, "the core's messages were read: {named}");
    assert!(
        missing.is_empty(),
        "messages the catalog lacks:\n{}",
        missing.join("\n")
    );
}

/// `cause-literal-top-p-skipped`: words of lower-case letters, digits and `_`, joined by `-`.
fn is_message_id(text: &str) -> bool {
    let words: Vec<&str> = text.split('-').collect();
    words.len() >= 2
        && words[0].starts_with(|c: char| c.is_ascii_lowercase())
        && words.iter().all(|w| {
            !w.is_empty()
                && w.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        })
}
