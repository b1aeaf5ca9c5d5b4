#!/usr/bin/env bash
# `make fuzz`: every fuzz target under fuzz/ (libFuzzer through cargo-fuzz, on nightly) for
# FUZZ_RUNS executions each (default 1 000 000), from seed corpora built out of the real files.
# Prints executions, speed and crashes per target, also into target/fuzz/report.md. A crash's
# input is left in target/fuzz/artifacts/<target>/; `materialize` turns it into the plain file(s)
# that tests/untrusted.rs replays (fuzz/regressions/<target>/). Not part of `make test`.
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${FUZZ_RUNS:-1000000}
TARGETS=${FUZZ_TARGETS:-logits step_file generate_call gguf gguf_structured hub}
# Panics and overflow are what is hunted (debug assertions stay on); `address` adds ASan at about
# a third of the speed.
SANITIZER=${FUZZ_SANITIZER:-none}
CARGO_FUZZ_VERSION=0.13.2
OUT=target/fuzz
say() { printf '\033[1mfuzz:\033[0m %s\n' "$*"; }

rustup toolchain list | grep -q '^nightly' || { say "installing the nightly toolchain"; rustup toolchain install nightly --profile minimal; }
if [ "$(cargo fuzz --version 2>/dev/null | awk '{print $2}')" != "$CARGO_FUZZ_VERSION" ]; then
  say "installing cargo-fuzz $CARGO_FUZZ_VERSION"
  cargo install cargo-fuzz --version "$CARGO_FUZZ_VERSION" --locked --quiet
fi

say "building the targets"
(cd fuzz && cargo +nightly fuzz build -s "$SANITIZER") >/dev/null
(cd fuzz && cargo build --release --locked --example materialize --quiet)
BIN=fuzz/target/x86_64-unknown-linux-gnu/release
MATERIALIZE=fuzz/target/release/examples/materialize

seed() {  # seed TARGET: the corpus directory, grown from committed seeds and the real files
  local dir=$OUT/corpus/$1
  mkdir -p "$dir"
  [ -d "fuzz/seeds/$1" ] && cp -n fuzz/seeds/"$1"/* "$dir"/ 2>/dev/null || true
  case $1 in
    logits) cp -n tests/fixtures/logits/*.npy "$dir"/ 2>/dev/null || true ;;
    gguf)
      # The real model's header and the start of its metadata, and tiny whole models.
      head -c 65536 models/SmolLM2-135M-Instruct.Q4_1.gguf >"$dir/smollm2-head.gguf"
      cp -n fuzz/regressions/gguf/* "$dir"/ 2>/dev/null || true
      for i in 1 2 3 4 5 6 7 8; do
        head -c 4096 /dev/urandom >"$OUT/random-$i"
        "$MATERIALIZE" gguf_structured "$OUT/random-$i" "$dir/tiny-$i.gguf"
      done ;;
  esac
}

mkdir -p "$OUT"
printf '| target | executions | exec/s | seconds | crashes |\n|---|---:|---:|---:|---:|\n' >"$OUT/report.md"
failed=0
for target in $TARGETS; do
  seed "$target"
  mkdir -p "$OUT/artifacts/$target"
  say "$target: $RUNS executions"
  start=$(date +%s)
  set +e
  "$BIN/$target" "$OUT/corpus/$target" -runs="$RUNS" -max_len=65536 -timeout=20 -rss_limit_mb=3072 \
    -print_final_stats=1 -artifact_prefix="$OUT/artifacts/$target/" >"$OUT/$target.log" 2>&1
  status=$?
  set -e
  seconds=$(( $(date +%s) - start ))
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$OUT/$target.log" | tail -1)
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$OUT/$target.log" | tail -1)
  crashes=$(find "$OUT/artifacts/$target" -type f | wc -l)
  printf '| %s | %s | %s | %s | %s |\n' "$target" "${execs:-?}" "${speed:-?}" "$seconds" "$crashes" | tee -a "$OUT/report.md"
  if [ "$status" -ne 0 ] || [ "$crashes" -ne 0 ]; then
    failed=1
    say "$target stopped on an input: see $OUT/$target.log and $OUT/artifacts/$target/"
  fi
done
exit $failed
