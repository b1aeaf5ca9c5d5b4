//! The design as the code must keep it (ARCHITECTURE.md): the floors and the rule that nothing
//! climbs one, no import circle between modules, and the page's folders saying what runs where.
//! Read from the sources, so that it holds for code not yet written: `cargo test --test architecture`.

#![cfg(not(target_arch = "wasm32"))]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.rs` file under `dir`, as (module path, source without comments).
fn modules(dir: &Path) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let rel = path.strip_prefix(dir).unwrap().with_extension("");
                let mut parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
                if matches!(parts.last().map(String::as_str), Some("mod" | "lib" | "main")) {
                    parts.pop();
                }
                let source = std::fs::read_to_string(&path).unwrap();
                out.insert(parts.join("::"), without_comments(&source));
            }
        }
    }
    out
}

fn without_comments(source: &str) -> String {
    source
        .lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The module paths a file's source names (`crate::a::b`, `super::c`, `use super::{d, e::f}`),
/// resolved against `module`, each cut to the longest one that exists.
fn references(module: &str, source: &str, known: &BTreeSet<String>) -> BTreeSet<String> {
    let here: Vec<&str> = if module.is_empty() {
        Vec::new()
    } else {
        module.split("::").collect()
    };
    let mut found = BTreeSet::new();
    let chars: Vec<char> = source.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let rest: String = chars[i..chars.len().min(i + 7)].iter().collect();
        let start_ok = i == 0 || !(chars[i - 1].is_alphanumeric() || chars[i - 1] == '_' || chars[i - 1] == ':');
        let base: Option<(Vec<String>, usize)> = if start_ok && rest.starts_with("crate::") {
            Some((Vec::new(), 7))
        } else if start_ok && rest.starts_with("super::") {
            // `super` of a file module is its parent; of a folder's mod.rs, the folder's parent.
            let mut parent: Vec<String> = here.iter().map(|s| s.to_string()).collect();
            parent.pop();
            Some((parent, 7))
        } else if start_ok && rest.starts_with("self::") {
            Some((here.iter().map(|s| s.to_string()).collect(), 6))
        } else {
            None
        };
        if let Some((base, skip)) = base {
            let (paths, used) = parse_tree(&chars[i + skip..]);
            for path in paths {
                let mut full = base.clone();
                full.extend(path);
                // The longest known module that prefixes the path.
                while !full.is_empty() && !known.contains(&full.join("::")) {
                    full.pop();
                }
                found.insert(full.join("::"));
            }
            i += skip + used;
        } else {
            i += 1;
        }
    }
    found
}

/// A path tree after `crate::` or `super::`: `a::b::{c, d::{e, f}}` gives [a,b,c], [a,b,d,e], …;
/// returns the paths and the characters read.
fn parse_tree(chars: &[char]) -> (Vec<Vec<String>>, usize) {
    let mut segments = Vec::new();
    let mut i = 0;
    loop {
        let start = i;
        while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
            i += 1;
        }
        if i > start {
            segments.push(chars[start..i].iter().collect::<String>());
        }
        if i + 1 < chars.len() && chars[i] == ':' && chars[i + 1] == ':' {
            i += 2;
            if i < chars.len() && chars[i] == '{' {
                let mut paths = Vec::new();
                i += 1;
                loop {
                    while i < chars.len() && chars[i].is_whitespace() {
                        i += 1;
                    }
                    if i >= chars.len() || chars[i] == '}' {
                        i += 1;
                        break;
                    }
                    let (sub, used) = parse_tree(&chars[i..]);
                    for s in sub {
                        let mut p = segments.clone();
                        p.extend(s.into_iter().filter(|x| x != "self"));
                        paths.push(p);
                    }
                    i += used;
                    while i < chars.len() && (chars[i].is_whitespace() || chars[i] == ',') {
                        i += 1;
                    }
                }
                return (paths, i);
            }
            continue;
        }
        return (vec![segments], i);
    }
}

/// Edges between modules: `a → b` when `a` names `b` and `b` is not inside `a` (a folder naming
/// its own files is how it declares and re-exports them, not a dependency).
fn graph(dir: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let sources = modules(dir);
    let known: BTreeSet<String> = sources.keys().cloned().collect();
    sources
        .iter()
        .map(|(module, source)| {
            let inside =
                |other: &String| module.is_empty() || other == module || other.starts_with(&format!("{module}::"));
            let edges = references(module, source, &known)
                .into_iter()
                .filter(|other| !inside(other) && !other.is_empty())
                .collect();
            (module.clone(), edges)
        })
        .collect()
}

/// A cycle through the graph, if there is one.
fn cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(node.to_string(), 1);
        path.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            match state.get(next).copied().unwrap_or(0) {
                1 => {
                    let at = path.iter().position(|p| p == next).unwrap();
                    let mut found = path[at..].to_vec();
                    found.push(next.clone());
                    return Some(found);
                }
                0 => {
                    if let Some(c) = visit(next, graph, state, path) {
                        return Some(c);
                    }
                }
                _ => {}
            }
        }
        path.pop();
        state.insert(node.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for node in graph.keys() {
        if state.get(node).copied().unwrap_or(0) == 0 {
            if let Some(c) = visit(node, graph, &mut state, &mut Vec::new()) {
                return Some(c);
            }
        }
    }
    None
}

#[test]
fn no_import_circle_between_the_sampling_cores_modules() {
    let g = graph(&root().join("crates/sampling-lab-core/src"));
    assert!(g.len() > 30, "the core's modules were read: {}", g.len());
    assert!(
        g["output::report"].contains("output::analysis"),
        "references are found: {:?}",
        g["output::report"]
    );
    assert_eq!(cycle(&g), None);
}

#[test]
fn no_import_circle_between_the_apps_modules() {
    let g = graph(&root().join("src"));
    assert!(g.contains_key("generation::speculative::run"));
    assert_eq!(cycle(&g), None);
}

#[test]
fn a_circle_is_found_where_there_is_one() {
    let mut g = BTreeMap::new();
    g.insert("a".to_string(), BTreeSet::from(["b".to_string()]));
    g.insert("b".to_string(), BTreeSet::from(["c".to_string()]));
    g.insert("c".to_string(), BTreeSet::from(["a".to_string()]));
    assert_eq!(cycle(&g), Some(vec!["a".into(), "b".into(), "c".into(), "a".into()]));
    let known: BTreeSet<String> = ["x", "x::y", "z"].iter().map(|s| s.to_string()).collect();
    let found = references("x::y", "use super::{y, super::z};\nfn f() { crate::z::g() }", &known);
    assert!(found.contains("z"), "{found:?}");
}

/// The floors: the sampling core, then the model, then generation, then the edges. A floor
/// names nothing above it.
#[test]
fn nothing_climbs_a_floor() {
    let core = modules(&root().join("crates/sampling-lab-core/src"));
    for (module, source) in &core {
        assert!(
            !source.contains("sampling_lab::") && !source.contains("wasm_bindgen") && !source.contains("tokenizers"),
            "the sampling core's {module} reaches above it"
        );
    }
    let app = modules(&root().join("src"));
    let above = |floor: &str| -> &'static [&'static str] {
        match floor {
            "model" => &["crate::generation", "crate::wasm", "crate::untrusted"],
            "generation" => &["crate::wasm", "crate::untrusted"],
            _ => &[],
        }
    };
    for (module, source) in &app {
        let floor = module.split("::").next().unwrap_or_default();
        for higher in above(floor) {
            assert!(!source.contains(higher), "{module} names {higher}, a floor above it");
        }
    }
}

/// The page's folders: `worker/` runs in Web Workers and imports only `worker/` and `shared/`
/// (and the wasm); `state/` and `panels/` run in the page and never import the workers; `l10n/`
/// says the page's words and imports no part of it; `shared/` is what both sides speak and
/// imports only itself.
#[test]
fn the_pages_folders_say_what_runs_where() {
    let www = root().join("www");
    let allowed: &[(&str, &[&str])] = &[
        ("worker", &["worker", "shared", "pkg-core", "pkg", "pkg-threads"]),
        ("shared", &["shared"]),
        ("state", &["state", "shared", "panels", "l10n", "vendor"]),
        ("panels", &["panels", "state", "shared", "l10n", "vendor"]),
        ("l10n", &["l10n", "shared", "vendor"]),
    ];
    let mut checked = 0;
    for (folder, may) in allowed {
        for entry in std::fs::read_dir(www.join(folder)).unwrap() {
            let path = entry.unwrap().path();
            let source = std::fs::read_to_string(&path).unwrap();
            for spec in imports(&source) {
                let target = path.parent().unwrap().join(&spec);
                let target = normalise(&target);
                let rel = target.strip_prefix(&www).unwrap_or(&target);
                let top = rel
                    .iter()
                    .next()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default();
                assert!(
                    may.contains(&top.as_str()),
                    "www/{folder}/{} imports {spec} (in {top}/)",
                    path.file_name().unwrap().to_string_lossy()
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 50, "imports were read: {checked}");
}

/// The relative specifiers of a script's imports and `new URL(…, import.meta.url)`s.
fn imports(source: &str) -> Vec<String> {
    let mut out = Vec::new();
    for marker in ["from \"", "import(\"", "new URL(\""] {
        let mut rest = source;
        while let Some(at) = rest.find(marker) {
            rest = &rest[at + marker.len()..];
            let end = rest.find('"').unwrap();
            if rest.starts_with('.') {
                out.push(rest[..end].to_string());
            }
        }
    }
    out
}

fn normalise(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// `cargo tree` of the sampling core's normal dependencies, with or without its default features.
fn core_dependencies(default_features: bool) -> String {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut command = std::process::Command::new(cargo);
    command.current_dir(root()).args([
        "tree",
        "-p",
        "sampling-lab-core",
        "-e",
        "normal",
        "--prefix",
        "none",
        "--locked",
        "--offline",
    ]);
    if !default_features {
        command.arg("--no-default-features");
    }
    let out = command.output().expect("cargo tree runs");
    assert!(
        out.status.success(),
        "cargo tree: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn a_candle_program_takes_the_sampling_core_without_fluent() {
    let with_lab = core_dependencies(true);
    assert!(
        with_lab.lines().any(|l| l.starts_with("fluent-bundle ")),
        "the lab's build renders with Fluent:\n{with_lab}"
    );
    let bare = core_dependencies(false);
    assert!(bare.lines().any(|l| l.starts_with("candle-core ")), "{bare}");
    let lab: Vec<&str> = bare
        .lines()
        .filter(|l| l.starts_with("fluent") || l.starts_with("unic-langid") || l.starts_with("intl"))
        .collect();
    assert!(
        lab.is_empty(),
        "without its default features the core still pulls in {lab:?}"
    );
}
