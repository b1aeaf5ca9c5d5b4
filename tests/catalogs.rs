//! The page's catalogs (www/locales/<lang>/page.ftl): every language says the same messages with
//! the same arguments (the rule the core's catalogs are held to, from the core's own tests), and
//! every message the page's scripts and its HTML name is in them.

#[path = "../crates/sampling-lab-core/tests/catalog_check/mod.rs"]
mod catalog_check;

use catalog_check::{differences, rust_sources, shape, string_literals, Shape};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn page_catalog(lang: &str) -> Shape {
    let file = Path::new(ROOT).join("www/locales").join(lang).join("page.ftl");
    shape(&file.display().to_string(), &std::fs::read_to_string(&file).unwrap())
}

/// The languages the page speaks, as www/shared/languages.js lists them.
fn languages() -> Vec<String> {
    let source = std::fs::read_to_string(Path::new(ROOT).join("www/shared/languages.js")).unwrap();
    let list = source.split("LANGUAGES = [").nth(1).unwrap().split(']').next().unwrap();
    list.split(',')
        .map(|s| s.trim().trim_matches('"').to_string())
        .collect()
}

#[test]
fn every_page_message_exists_in_every_language_with_the_same_arguments() {
    let languages = languages();
    assert_eq!(languages, ["en", "zh-Hans"]);
    let english = page_catalog(&languages[0]);
    assert!(
        english.len() > 300,
        "the page's catalog was read: {} messages",
        english.len()
    );
    for lang in &languages[1..] {
        let wrong = differences(&english, &page_catalog(lang));
        assert!(wrong.is_empty(), "www/locales/{lang}/page.ftl:\n{}", wrong.join("\n"));
    }
}

/// Every script and page of www/ (the vendored libraries aside).
fn page_sources() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                if !path.ends_with("vendor") && !path.ends_with("locales") {
                    walk(&path, out);
                }
            } else if path.extension().is_some_and(|e| e == "js" || e == "html") {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(&Path::new(ROOT).join("www"), &mut out);
    out
}

/// The message ids a source names literally: `t("id"`, `localize(el, "id"`, `data-l10n-id="id"`,
/// `new Said("id"`, `{ id: "id"`, `Wrong("id"`, `wrong("id"`.
fn named_ids(source: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for marker in [
        "t(\"",
        "tAttribute(\"",
        "data-l10n-id=\"",
        "new Said(\"",
        "{ id: \"",
        "Wrong(\"",
        "wrong(\"",
        "t(page.plainRate ? \"",
    ] {
        for (at, _) in source.match_indices(marker) {
            // `t("` as a call of its own, not the end of `element("` or `get("`.
            let before = source[..at].chars().next_back().unwrap_or(' ');
            if marker.starts_with(|c: char| c.is_ascii_alphabetic())
                && (before.is_ascii_alphanumeric() || "_$.".contains(before))
            {
                continue;
            }
            let rest = &source[at + marker.len()..];
            let id: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
                .collect();
            let after = &rest[id.len()..];
            // `{ id: "…", args }` is a message; `{ id: "ex-input", value }` an element's id.
            let message = marker != "{ id: \"" || after.starts_with("\", args") || after.starts_with("\" }");
            if !id.is_empty() && after.starts_with('"') && message {
                out.insert(id);
            }
        }
    }
    for (at, _) in source.match_indices("localize(") {
        let call = &source[at..];
        if let Some(quote) = call.find(", \"").filter(|q| *q < 60) {
            let rest = &call[quote + 3..];
            let id: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                .collect();
            if id.starts_with(|c: char| c.is_ascii_alphabetic()) {
                out.insert(id);
            }
        }
    }
    out
}

#[test]
fn every_message_the_page_names_is_in_its_catalog() {
    let catalog = page_catalog("en");
    let mut named = 0;
    let mut missing = Vec::new();
    for file in page_sources() {
        let source = std::fs::read_to_string(&file).unwrap();
        for id in named_ids(&source) {
            named += 1;
            if !catalog.contains_key(&id) {
                missing.push(format!("{}: {id}", file.strip_prefix(ROOT).unwrap().display()));
            }
        }
    }
    assert!(named > 200, "the page's messages were read: {named}");
    assert!(
        missing.is_empty(),
        "messages www/locales/en/page.ftl lacks:\n{}",
        missing.join("\n")
    );
}

/// The step file's refusals are said by the page from its catalog (`StepFileError::message`).
#[test]
fn every_step_file_refusal_is_a_page_message() {
    let catalog = page_catalog("en");
    let source = std::fs::read_to_string(Path::new(ROOT).join("src/step_file.rs")).unwrap();
    let ids: Vec<&str> = source
        .match_indices("(\"step-file-")
        .map(|(at, _)| {
            let rest = &source[at + 2..];
            &rest[..rest.find('"').unwrap()]
        })
        .collect();
    assert!(ids.len() >= 9, "the refusals were read: {ids:?}");
    let missing: Vec<_> = ids.iter().filter(|id| !catalog.contains_key(**id)).collect();
    assert!(missing.is_empty(), "www/locales/en/page.ftl lacks {missing:?}");
}

/// The crate's own catalog (locales/<lang>/app.ftl: why a model file, a logits file or a request
/// cannot be used) in `lang`.
fn app_catalog(lang: &str) -> Shape {
    let file = Path::new(ROOT).join("locales").join(lang).join("app.ftl");
    shape(&file.display().to_string(), &std::fs::read_to_string(&file).unwrap())
}

#[test]
fn every_app_message_exists_in_chinese_with_the_same_arguments() {
    let english = app_catalog("en");
    assert!(
        english.len() > 60,
        "the crate's catalog was read: {} messages",
        english.len()
    );
    let wrong = differences(&english, &app_catalog("zh-Hans"));
    assert!(wrong.is_empty(), "locales/zh-Hans/app.ftl:\n{}", wrong.join("\n"));
}

/// The crate's messages are the string literals that start as its catalog's sections do (a
/// command-line flag, `--generation-config`, is not one).
fn is_app_id(text: &str) -> bool {
    ["model-", "generation-", "logits-file-", "cli-"]
        .iter()
        .any(|p| text.starts_with(p))
        && text
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && text != "generation-config"
}

#[test]
fn every_message_the_crate_names_is_in_its_catalog_and_every_one_there_is_named() {
    let catalog = app_catalog("en");
    let mut named = BTreeSet::new();
    for file in rust_sources(&Path::new(ROOT).join("src")) {
        let source = std::fs::read_to_string(&file).unwrap();
        named.extend(string_literals(&source).into_iter().filter(|s| is_app_id(s)));
    }
    assert!(named.len() > 60, "the crate's messages were read: {}", named.len());
    let missing: Vec<_> = named.iter().filter(|id| !catalog.contains_key(*id)).collect();
    assert!(missing.is_empty(), "locales/en/app.ftl lacks {missing:?}");
    let unsaid: Vec<_> = catalog.keys().filter(|id| !named.contains(*id)).collect();
    assert!(
        unsaid.is_empty(),
        "locales/en/app.ftl says what no code names: {unsaid:?}"
    );
}
