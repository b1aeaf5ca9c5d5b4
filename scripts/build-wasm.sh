#!/usr/bin/env bash
# Builds the page's wasm (release, +simd128 from .cargo/config.toml) and its JS bindings into pkg/,
# and copies the reference fixture the page starts from into www/fixtures/.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/cargo-wasm.sh build --lib --release --locked
wasm-bindgen --target web --typescript --out-dir pkg target/wasm32-unknown-unknown/release/sampling_lab.wasm
mkdir -p www/fixtures
cp tests/fixtures/logits/reference.npy www/fixtures/reference.npy
python3 -c "
import json
f = json.load(open('tests/fixtures/cases.json'))
json.dump({'context_ids': f['contexts']['reference']['ids']}, open('www/fixtures/reference.json', 'w'))
"
echo "build-wasm: pkg/ ready ($(du -h pkg/sampling_lab_bg.wasm | cut -f1) wasm)"
