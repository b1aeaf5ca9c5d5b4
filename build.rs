//! Embeds tests/fixtures/ in the test binaries (`include!(concat!(env!("OUT_DIR"), "/fixtures.rs"))`)
//! so that the same parity tests run natively and, compiled to wasm32, inside a browser.

use std::path::Path;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    println!("cargo:rerun-if-changed={}", root.display());
    let mut entries = Vec::new();
    for dir in ["", "logits", "scores"] {
        let Ok(read) = std::fs::read_dir(root.join(dir)) else {
            continue;
        };
        let mut names: Vec<_> = read.flatten().map(|e| e.path()).filter(|p| p.is_file()).collect();
        names.sort();
        for path in names {
            let rel = path.strip_prefix(&root).unwrap().to_string_lossy().replace('\\', "/");
            entries.push(format!(
                "    ({rel:?}, include_bytes!({:?})),",
                path.display().to_string()
            ));
        }
    }
    let code = format!(
        "pub static FIXTURE_FILES: &[(&str, &[u8])] = &[\n{}\n];\n",
        entries.join("\n")
    );
    let out = Path::new(&std::env::var("OUT_DIR").unwrap()).join("fixtures.rs");
    std::fs::write(out, code).unwrap();
}
