#!/usr/bin/env bash
# Builds the page's wasm (release, +simd128 from .cargo/config.toml) and its JS bindings into pkg/,
# and vendors the chart library, the exercise sets' compiled schema and their guide into www/vendor/.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/cargo-wasm.sh build --lib --release --locked
wasm-bindgen --target web --typescript --out-dir pkg target/wasm32-unknown-unknown/release/sampling_lab.wasm
# The chart library, pinned in package-lock.json, with its licence.
mkdir -p www/vendor
cp node_modules/chart.js/dist/chart.umd.min.js www/vendor/chart.umd.min.js
cp node_modules/chart.js/LICENSE.md www/vendor/chart.js-LICENSE.md
node scripts/compile-schema.mjs
node scripts/compile-guide.mjs
echo "build-wasm: pkg/ ready ($(du -h pkg/sampling_lab_bg.wasm | cut -f1) wasm)"
