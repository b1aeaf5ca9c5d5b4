# sampling-lab — the two commands: `make demo` (build, fetch the model, serve the page) and
# `make test` (every test). Everything else here is what those two are made of.

PORT ?= 8080
# RUST_LIB_BACKTRACE=0: a WebDriver failure ends with ChromeDriver's own words, not the runner's backtrace.
WASM_TEST_ENV = CHROMEDRIVER=/usr/bin/chromedriver WASM_BINDGEN_TEST_TIMEOUT=1200 RUST_LIB_BACKTRACE=0

MODEL ?=
MODEL_SHA256 ?=



.PHONY: demo test setup lint pkg model site serve steps package venv-mlx test-native test-candle-range test-wasm test-page test-transformers-js test-llama-cpp test-site test-browsers fixtures onnx bench fuzz screenshots

demo: setup pkg model steps
	python3 scripts/serve.py --port $(PORT)

test: setup lint model test-native test-candle-range test-wasm test-page test-transformers-js test-llama-cpp test-site test-browsers

setup:
	scripts/setup.sh

# Format, lints and docs, each with its warnings denied. rustfmt also reads every Rust file of the
# tree by name, the fuzz workspace's too (cargo fmt formats only the workspace's crates). rustdoc fails on a broken intra-doc link and on
# a public item of the core without docs (its #![warn(missing_docs)]); ESLint's recommended rules
# and the page's own (eslint.config.js) cover the scripts.
lint: setup
	cargo fmt --all --check
	find . \( -path ./target -o -path ./fuzz/target -o -path ./node_modules -o -path './.venv*' \) -prune -o -name '*.rs' -print0 | \
	  xargs -0 rustfmt --edition 2021 --check
	cargo clippy --workspace --all-targets --locked -- -D warnings
	# The sampling core as a candle program takes it: without the lab's reports and Fluent.
	cargo clippy -p sampling-lab-core --lib --no-default-features --locked -- -D warnings
	RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --locked
	npx --no -- eslint .

# The three wasm builds: pkg-core/ (the sampling core alone: the page's first download), pkg/ (the
# model too, one thread, every browser) and pkg-threads/ (the exact model on a pool of workers,
# where the page is cross-origin isolated).
pkg:
	scripts/build-wasm-core.sh
	scripts/build-wasm.sh
	scripts/build-wasm-threads.sh

model:
	scripts/fetch-model.sh

# The shipped steps, steps/: the logits of the chats the page opens on, computed by pkg/ itself,
# so that the first figures need only pkg-core/ (scripts/build-steps.mjs).
steps: pkg model
	node scripts/build-steps.mjs

serve:
	python3 scripts/serve.py --port $(PORT)

# The page as a folder for any static host: dist/ (README, "Publish the page"). MODEL=… makes another
# file the site's default (a Hub GGUF: Org/Repo/file.gguf or its URL), MODEL_SHA256=… its checksum;
# CHATS=chats.json ships a writer's own chats' steps beside the page's (docs/publishing.md).
# The first screen of each page is then drawn into its HTML (scripts/prerender.mjs); SITE_URL=https://…
# (the site's address) gives link previews their picture.
CHATS ?=
SITE_URL ?=
site: setup pkg model
	node scripts/build-steps.mjs $(if $(MODEL),$(MODEL),) $(if $(CHATS),--chats $(CHATS),)
	MODEL="$(MODEL)" MODEL_SHA256="$(MODEL_SHA256)" node scripts/build-site.mjs
	SITE_URL="$(SITE_URL)" node scripts/prerender.mjs

# mlx-lm's own sampler for tests/mlx_lm.rs (reference/requirements-mlx.txt: mlx on its CPU backend,
# 50 MB): the venv made when missing, the pinned packages installed when they are not there.
venv-mlx:
	test -x .venv-mlx/bin/python || python3 -m venv .venv-mlx
	.venv-mlx/bin/python reference/runtimes/installed.py reference/requirements-mlx.txt || \
	  .venv-mlx/bin/pip install --no-cache-dir --no-deps -r reference/requirements-mlx.txt

test-native: venv-mlx
	cargo test --workspace --locked

# sampling-lab-core as crates.io would receive it, and its candle requirement as a program that
# depends on it meets it: the crate packaged, and the README's examples built against the package
# and run outside this workspace with candle at the lowest version the requirement admits and at
# the newest published (scripts/check-candle-range.sh; target/candle-range keeps the builds, so a
# second run compiles nothing).
test-candle-range:
	scripts/check-candle-range.sh

# The sampling core's .crate, as `cargo publish` would upload it, verified by cargo's own build.
# --allow-dirty: the package is made from the files as they are, committed or not.
package:
	cargo package -p sampling-lab-core --locked --allow-dirty

# The sampling core's transformers parity and the exact model's kernels, compiled to wasm32 and
# run in headless Chromium. In the release profile, after the page's build, so that they reuse its
# compiled dependencies (a test-profile build would compile candle and tokenizers for wasm32 a
# second time).
test-wasm: pkg
	$(WASM_TEST_ENV) scripts/cargo-wasm.sh test --release --locked -p sampling-lab-core -p sampling-lab \
	  --test transformers_parity --test kernels

test-page: pkg model steps
	# The CLI the page is compared with, from the test build (a plain `cargo build` resolves other
	# dependency features and would rebuild the whole graph).
	cargo test --locked --no-run
	mkdir -p target/screenshots
	npm run --silent test:e2e

# The transformers_js column against the real @huggingface/transformers sampler (node), with the
# CLI of the test build for the column's figures.
test-transformers-js:
	cargo test --locked --no-run
	npm run --silent test:transformers-js

# The llama_cpp column against llama.cpp itself: the pinned @wllama/wllama (npm) and this crate's
# wasm in one headless Chromium page, on the default GGUF.
test-llama-cpp: pkg model steps
	npm run --silent test:llama-cpp

# dist/ as static hosts serve it: plain, with its _headers, under a sub-path; the model from a
# link, the Hub field and a shared download; a writer's chats (the example chats file) shipped,
# step files and kept steps.
test-site: CHATS = docs/examples/chats.json
test-site: site
	npm run --silent test:site

# The page's core flows in Chromium, Firefox ESR and WebKitGTK, on dist/ with its _headers.
test-browsers: site
	npm run --silent test:browsers

# The docs' pictures of the page (docs/page*.png), redrawn from the page as it is now.
screenshots: pkg model steps
	node scripts/screenshots.mjs

# Speed and memory, side by side with wllama (llama.cpp's wasm) and transformers.js in the same
# browser, at 1 and 2 threads: tables, the issue's ratios and target/bench/latest.json. Not a test:
# figures are printed, never asserted. transformers.js needs `make onnx` first (skipped without).
bench: site
	cargo build --release --locked --bin sampling-lab
	node bench/bench.mjs

# Every parser under libFuzzer (cargo-fuzz, nightly): FUZZ_RUNS executions per target (default
# 1 000 000), a table in target/fuzz/report.md. Minutes per target; not part of `make test`, which
# replays every input a fuzzer stopped on (tests/untrusted.rs).
fuzz: model
	scripts/fuzz.sh

# The default GGUF as ONNX (fp32 and q8) for the bench's transformers.js system, under target/onnx:
# the transformers reference (as `make fixtures` installs it) plus optimum's exporter.
onnx: setup model
	scripts/export-onnx.sh

# Regenerates tests/fixtures/ with real transformers (≈4 GB install, once; the tests do not need it).
fixtures: model
	test -x .venv-ref/bin/python || (python3 -m venv .venv-ref && \
	  .venv-ref/bin/pip install --no-cache-dir --no-deps -r reference/requirements.txt)
	.venv-ref/bin/python reference/make_fixtures.py models/SmolLM2-135M-Instruct.Q4_1.gguf tests/fixtures
	.venv-ref/bin/python reference/make_model_fixtures.py models/SmolLM2-135M-Instruct.Q4_1.gguf tests/fixtures/model
	.venv-ref/bin/python reference/make_dflash_fixtures.py tests/fixtures
