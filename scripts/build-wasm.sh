#!/usr/bin/env bash
# Builds the page's wasm (release, +simd128 from .cargo/config.toml) and its JS bindings into pkg/,
# and vendors what the page loads beside it (scripts/vendor-page.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/cargo-wasm.sh build --lib --release --locked
wasm-bindgen --target web --typescript --out-dir pkg target/wasm32-unknown-unknown/release/sampling_lab.wasm
scripts/vendor-page.sh
echo "build-wasm: pkg/ ready ($(du -h pkg/sampling_lab_bg.wasm | cut -f1) wasm)"
