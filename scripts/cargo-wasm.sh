#!/usr/bin/env bash
# `cargo ARGS --target wasm32-unknown-unknown`, with rustup's wasm32 target when it is installed
# and Debian's rustc-web (std built from source with -Zbuild-std) when it is not.
set -euo pipefail
if rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  exec cargo "$@" --target wasm32-unknown-unknown
fi
export RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER=wasm-ld
exec /usr/bin/cargo "$@" --target wasm32-unknown-unknown -Zbuild-std=std,panic_abort
