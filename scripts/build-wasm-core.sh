#!/usr/bin/env bash
# Builds the page's first download, pkg-core/: the crate without its `model` feature — the sampling
# core's wasm edge alone (inspect, Monte Carlo, the columns), no model, tokenizer or template. The
# worker draws the first figures with it from shipped logits while the model's build (pkg/ or
# pkg-threads/) is not needed, and the draw workers run on it. Its own target directory keeps the
# other builds' caches intact (the same crate with other features would be rebuilt each time).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/cargo-wasm.sh build --lib --release --locked --no-default-features --target-dir target/core
wasm-bindgen --target web --typescript --out-dir pkg-core target/core/wasm32-unknown-unknown/release/sampling_lab.wasm
echo "build-wasm-core: pkg-core/ ready ($(du -h pkg-core/sampling_lab_bg.wasm | cut -f1) wasm)"
