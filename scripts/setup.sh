#!/usr/bin/env bash
# Installs what sampling-lab needs and skips what is already there. Each need is checked on its own
# (never inside another need's branch), so a machine that has some of them gets exactly the rest:
#   - Debian packages: curl, the three browser engines the page is tested in (Chromium +
#     ChromeDriver, Firefox ESR, WebKitGTK's WebDriver and an Xvfb display for it), Node and npm,
#     pip and venv, and the CJK and emoji fonts;
#   - the wasm32-unknown-unknown target (pkg/), and the std sources the threaded build rebuilds std
#     from (pkg-threads/); where rustup cannot download either, Debian's rustc-web, which has both
#     (scripts/cargo-wasm.sh picks it per build);
#   - clippy and rustfmt, which `make lint` runs;
#   - wasm-bindgen-cli equal to the wasm-bindgen crate in Cargo.lock;
#   - the npm dependencies from package-lock.json.
# tests/setup.rs runs this script against stub commands for a bare machine, a complete one and one
# where rustup cannot download.
set -euo pipefail
cd "$(dirname "$0")/.."

WASM_BINDGEN_VERSION=$(sed -n '/^name = "wasm-bindgen"$/{n;s/version = "\(.*\)"/\1/p}' Cargo.lock)
APT_UPDATED=
say() { printf '\033[1msetup:\033[0m %s\n' "$*"; }

apt_install() {
  if [ -z "$APT_UPDATED" ]; then apt-get update -qq; APT_UPDATED=1; fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

need_apt() {  # need_apt COMMAND PACKAGE...
  command -v "$1" >/dev/null 2>&1 && return 0
  say "installing ${*:2} from Debian (no $1)"
  apt_install "${@:2}"
}

need_apt curl curl
need_apt chromium chromium
need_apt chromedriver chromium-driver
need_apt firefox-esr firefox-esr
need_apt WebKitWebDriver webkit2gtk-driver
need_apt Xvfb xvfb
need_apt node nodejs
need_apt npm npm
python3 -m pip --version >/dev/null 2>&1 || { say "installing pip"; apt_install python3-pip; }
# `python3 -m venv` (mlx-lm's environment for its live test, the reference's for `make fixtures`)
# needs ensurepip, which Debian ships apart from Python.
python3 -c 'import ensurepip' >/dev/null 2>&1 || { say "installing python3-venv (python3 -m venv needs it)"; apt_install python3-venv; }
# CJK and emoji glyphs: generated Chinese and emoji show as characters, not boxes, in the page and
# in the browser tests' screenshots.
dpkg -s fonts-noto-cjk fonts-noto-color-emoji >/dev/null 2>&1 || { say "installing CJK and emoji fonts"; apt_install fonts-noto-cjk fonts-noto-color-emoji; }

# The two wasm builds. pkg/ needs the wasm32 target; pkg-threads/ also rebuilds std with atomics,
# which needs rust-src. Either one that rustup cannot add sends that build to Debian's rustc-web.
debian_rust=
# Read once into variables: a `rustup … | grep -q` pipe could fail under pipefail when grep stops early.
targets=$(rustup target list --installed 2>/dev/null || true)
components=$(rustup component list --installed 2>/dev/null || true)
if ! grep -qx wasm32-unknown-unknown <<<"$targets"; then
  if rustup target add wasm32-unknown-unknown; then
    say "added the wasm32-unknown-unknown target"
  else
    debian_rust=1
  fi
fi
if ! grep -q '^rust-src' <<<"$components"; then
  if rustup component add rust-src; then
    say "added rust-src (the threaded wasm build rebuilds std with atomics)"
  else
    debian_rust=1
  fi
fi
# `make lint`'s checkers: rustup's components for the toolchain in use (a minimal profile lacks
# them). Nothing else provides them for rustup's toolchain, so a failed download stops here.
for component in clippy rustfmt; do
  grep -q "^$component" <<<"$components" && continue
  if rustup component add "$component"; then
    say "added $component (make lint runs it)"
  else
    say "rustup cannot add $component, which make lint needs: add it by hand (rustup component add $component)"
    exit 1
  fi
done
if [ -n "$debian_rust" ] && ! dpkg -s rustc-web cargo-web rust-web-src lld >/dev/null 2>&1; then
  # scripts/cargo-wasm.sh builds with these where rustup's target or std sources are missing.
  say "rustup cannot add what the wasm builds need; installing Debian's rustc-web toolchain instead"
  apt_install rustc-web cargo-web rust-web-src lld
fi

if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$WASM_BINDGEN_VERSION" ]; then
  say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (must equal the wasm-bindgen crate)"
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --locked --quiet
fi

if [ -L node_modules ]; then
  # Another checkout's install (a git worktree's link to the main one's): `npm ci` empties the
  # directory a link points to, so that checkout's set-up keeps it up to date, not this one.
  say "node_modules links to $(readlink node_modules): leaving it to that checkout's set-up"
elif [ ! -d node_modules ] || [ package-lock.json -nt node_modules ]; then
  say "installing npm dependencies from package-lock.json"
  # onnxruntime-node (under @huggingface/transformers) would download CUDA binaries from a host
  # outside the registry; its CPU binary ships inside the npm package.
  # puppeteer-core drives Debian's Firefox: no browser is downloaded either.
  ONNXRUNTIME_NODE_INSTALL=skip PUPPETEER_SKIP_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error
  touch node_modules
fi
