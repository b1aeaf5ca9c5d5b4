#!/usr/bin/env bash
# Builds the threaded wasm package, pkg-threads/: the same crate with wasm threads (atomics,
# shared memory imported from JS), which the page loads where it is cross-origin isolated and
# runs the exact model's products on a pool of workers. std itself must be rebuilt with atomics
# (-Zbuild-std from the toolchain's rust-src; RUSTC_BOOTSTRAP lets the stable compiler take the
# flag), and since Rust 1.93 shared memory and the TLS exports that wasm-bindgen's thread support
# needs are asked for explicitly. Its own target directory keeps pkg/'s build cache intact.
set -euo pipefail
cd "$(dirname "$0")/.."
# .cargo/config.toml's rustflags are replaced by RUSTFLAGS: its cfg and simd128 are repeated here.
export RUSTFLAGS='--cfg getrandom_backend="wasm_js" -C target-feature=+simd128,+atomics,+bulk-memory,+mutable-globals
  -C link-arg=--shared-memory -C link-arg=--import-memory -C link-arg=--max-memory=4294967296
  -C link-arg=--export=__wasm_init_tls -C link-arg=--export=__tls_size -C link-arg=--export=__tls_align
  -C link-arg=--export=__tls_base'
export RUSTC_BOOTSTRAP=1
CARGO=cargo
if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown \
  || ! rustup component list --installed 2>/dev/null | grep -q '^rust-src'; then
  # Debian's rustc-web (scripts/setup.sh installs it where rustup could not add the target or
  # rust-src): its std sources come with rust-web-src.
  export RUSTC=/usr/bin/rustc CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER=wasm-ld
  CARGO=/usr/bin/cargo
fi
"$CARGO" build --lib --release --locked --target wasm32-unknown-unknown -Zbuild-std=std,panic_abort --target-dir target/threads
wasm-bindgen --target web --typescript --out-dir pkg-threads target/threads/wasm32-unknown-unknown/release/sampling_lab.wasm
echo "build-wasm-threads: pkg-threads/ ready ($(du -h pkg-threads/sampling_lab_bg.wasm | cut -f1) wasm)"
