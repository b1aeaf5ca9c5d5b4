#!/usr/bin/env bash
# Proves sampling-lab-core as crates.io would receive it, and the candle range it declares: the
# crate is packaged (`cargo package`: the files it ships, its manifest as published), and a program
# that stands outside this workspace and depends on that package, whose binaries are the core
# README's examples, builds and runs with candle-core, candle-nn and candle-transformers at the
# lowest version the requirement admits and at the newest one published. candle's `Tensor` and
# `LogitsProcessor` are in the core's API, so a program on any version of the range must get one
# candle, the core's.
#
# Cheap on purpose: the newest candle, when the workspace's lock holds it, is proven by the
# workspace's doctests (the README's examples); otherwise one build per candle version proves the
# package and the range together (the package is not built again by `cargo package`'s own
# verification); the program and its target directory live under target/candle-range (kept between
# runs, so a second run builds nothing), unoptimised, without debug info.
# `make test-candle-range`; needs cargo and the crates.io index (to find the newest candle).
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '\033[1mcheck-candle-range:\033[0m %s\n' "$*"; }
die() { say "$*" >&2; exit 1; }

command -v cargo >/dev/null 2>&1 || die "needs cargo (https://rustup.rs)"
CORE="$PWD/crates/sampling-lab-core"
[ -f "$CORE/Cargo.toml" ] && [ -f "$CORE/README.md" ] || die "no $CORE: run from a sampling-lab checkout"
CANDLE=(candle-core candle-nn candle-transformers)

# The requirement in the core's manifest, one for all three crates: a caret requirement, whose
# lowest admitted version is the one it names (`0.11` is 0.11.0).
requirement() { sed -n "s/^$1 = \"\([^\"]*\)\"$/\1/p" "$CORE/Cargo.toml"; }
REQUIREMENT=$(requirement candle-core)
for crate in "${CANDLE[@]}"; do
  [ -n "$(requirement "$crate")" ] || die "$crate has no plain \`$crate = \"…\"\` requirement in $CORE/Cargo.toml"
  [ "$(requirement "$crate")" = "$REQUIREMENT" ] ||
    die "$crate's requirement ($(requirement "$crate")) differs from candle-core's ($REQUIREMENT): candle releases them together"
done
LOWEST=${REQUIREMENT#^}
case "$LOWEST" in
  [0-9]*.[0-9]*.[0-9]*) ;;
  [0-9]*.[0-9]*) LOWEST=$LOWEST.0 ;;
  *) die "candle's requirement \"$REQUIREMENT\" is not a caret requirement (\"0.11.0\"): there is no lowest version to prove" ;;
esac

HERE=target/candle-range
PROGRAM=$HERE/downstream
# The package as crates.io would receive it, unpacked where the program finds it. --allow-dirty:
# packaged from the files as they are, committed or not.
NAME=sampling-lab-core
VERSION=$(sed -n 's/^version = "\(.*\)"$/\1/p' "$CORE/Cargo.toml" | head -n 1)
cargo package -p "$NAME" --locked --allow-dirty --no-verify --quiet ||
  die "cargo package -p $NAME fails: the crate cannot be published as it is"
PACKAGED=$HERE/$NAME-$VERSION
rm -rf "$PACKAGED"
mkdir -p "$HERE"
tar -xzf "target/package/$NAME-$VERSION.crate" -C "$HERE"
[ -f "$PACKAGED/Cargo.toml" ] || die "the package target/package/$NAME-$VERSION.crate holds no $NAME-$VERSION/Cargo.toml"
export CARGO_TARGET_DIR="$PWD/$HERE/target"
rm -rf "$PROGRAM"
mkdir -p "$PROGRAM/src/bin"
cat >"$PROGRAM/Cargo.toml" <<EOF
[package]
name = "downstream"
version = "0.0.0"
edition = "2021"
publish = false

# A workspace of its own: the program stands outside sampling-lab's, as a user's does.
[workspace]

[dependencies]
sampling-lab-core = { path = "$PWD/$PACKAGED" }
candle-core = "$REQUIREMENT"
serde_json = "1"

[profile.dev]
opt-level = 0
debug = false
EOF
# Each \`\`\`rust block of the README is a whole program: one binary each.
awk -v dir="$PROGRAM/src/bin" '
  /^```rust$/ { n++; file = sprintf("%s/readme_%d.rs", dir, n); next }
  /^```$/ { file = ""; next }
  file != "" { print > file }
' "$PACKAGED/README.md"
EXAMPLES=$(find "$PROGRAM/src/bin" -name 'readme_*.rs' | sort)
[ -n "$EXAMPLES" ] || die "the package's README.md has no \`\`\`rust example to run"
# The workspace's lock as a start: every other dependency at the version its tests ran with.
cp Cargo.lock "$PROGRAM/Cargo.lock"

cargo_here() { cargo "$@" --manifest-path "$PROGRAM/Cargo.toml"; }
version_of() { cargo_here pkgid "$1" | sed 's/.*[@#]//'; }

# The newest release the requirement admits: what a program that adds the core today gets.
cargo_here update "${CANDLE[@]/#/--package=}" ||
  die "cannot read the crates.io index for the newest candle: this check needs the network"
HIGHEST=$(version_of candle-core)

run_at() {  # run_at VERSION: every README example, with the three candle crates at VERSION
  for crate in "${CANDLE[@]}"; do
    [ "$(version_of "$crate")" = "$1" ] || die "$crate resolves to $(version_of "$crate"), not $1"
  done
  for example in $EXAMPLES; do
    local bin
    bin=$(basename "$example" .rs)
    say "candle $1: cargo run --bin $bin (README example)"
    cargo_here run --quiet --locked --bin "$bin" >/dev/null ||
      die "the README example $bin fails with candle $1 (requirement \"$REQUIREMENT\")"
  done
}

# The workspace's own lock: where it holds the newest release, `cargo test` has run the README's
# examples with it already (the README is the core's front page, its examples its doctests), and
# a second build of candle here would prove nothing more.
LOCKED=$(sed -n '/^name = "candle-core"$/{n;s/version = "\(.*\)"/\1/p}' Cargo.lock)
if [ "$HIGHEST" = "$LOCKED" ] && [ "$LOWEST" != "$HIGHEST" ]; then
  say "candle $HIGHEST (newest) is the workspace's: its doctests run the README's examples with it"
else
  run_at "$HIGHEST"
fi
if [ "$LOWEST" != "$HIGHEST" ]; then
  # Dependents first: each newer candle crate requires its siblings at its own version.
  for crate in candle-transformers candle-nn candle-core; do
    cargo_here update -p "$crate" --precise "$LOWEST" ||
      die "candle $LOWEST cannot be selected for $crate: is it published (cargo info $crate@$LOWEST)?"
  done
  run_at "$LOWEST"
fi
say "the package $NAME-$VERSION builds and its requirement \"$REQUIREMENT\" holds: candle $LOWEST (lowest) and $HIGHEST (newest)"
