#!/usr/bin/env bash
# `make onnx`: the default GGUF as ONNX for the bench's transformers.js system, fp32 and q8, in the
# layout transformers.js loads from a local folder (target/onnx/SmolLM2-135M-Instruct/: config,
# tokenizer, onnx/model.onnx, onnx/model_quantized.onnx). The weights are the GGUF's own,
# dequantized by `sampling-lab export-hub`, so every system in the bench runs the same numbers.
# Needs the transformers reference (.venv-ref, as `make fixtures` installs it) plus optimum's
# exporter from tools/onnx-requirements.txt, installed apart under target/onnx/python.
set -euo pipefail
cd "$(dirname "$0")/.."

GGUF=models/SmolLM2-135M-Instruct.Q4_1.gguf
WORK=target/onnx
DEST=$WORK/SmolLM2-135M-Instruct

if [ ! -x .venv-ref/bin/python ]; then
  python3 -m venv .venv-ref
  .venv-ref/bin/pip install --no-cache-dir --no-deps -r reference/requirements.txt
fi
if [ ! -f $WORK/python/.installed ] || ! cmp -s tools/onnx-requirements.txt $WORK/python/.installed; then
  .venv-ref/bin/pip install --no-cache-dir --no-deps --upgrade --target $WORK/python -r tools/onnx-requirements.txt
  cp tools/onnx-requirements.txt $WORK/python/.installed
fi
python=(env PYTHONPATH=$WORK/python .venv-ref/bin/python)

cargo build --release --locked --bin sampling-lab
target/release/sampling-lab export-hub --model $GGUF --out $WORK/hub --dtype f32
rm -rf $WORK/out
"${python[@]}" -m optimum.exporters.onnx --model $WORK/hub --task text-generation-with-past $WORK/out
"${python[@]}" - $WORK/out/model.onnx $WORK/out/model_quantized.onnx <<'PY'
import sys
from onnxruntime.quantization import QuantType, quantize_dynamic
# q8 as transformers.js names it: int8 weights, activations quantized on the fly.
quantize_dynamic(sys.argv[1], sys.argv[2], weight_type=QuantType.QInt8)
PY
rm -rf $DEST && mkdir -p $DEST/onnx
for f in config.json generation_config.json tokenizer.json tokenizer_config.json special_tokens_map.json; do
  [ -f $WORK/out/$f ] && cp $WORK/out/$f $DEST/
done
mv $WORK/out/model.onnx $WORK/out/model_quantized.onnx $DEST/onnx/
# transformers.js reads the chat template from tokenizer_config.json, where the Hub's repos keep
# it; the exporter writes it to a file of its own.
if [ -f $WORK/out/chat_template.jinja ]; then
  "${python[@]}" - $WORK/out/chat_template.jinja $DEST/tokenizer_config.json <<'PY'
import json, sys
config = json.load(open(sys.argv[2]))
config["chat_template"] = open(sys.argv[1]).read()
json.dump(config, open(sys.argv[2], "w"), indent=2, ensure_ascii=False)
PY
fi
[ -f $WORK/out/model.onnx_data ] && mv $WORK/out/model.onnx_data $DEST/onnx/
echo "export-onnx: wrote $DEST ($(du -sh $DEST | cut -f1))"
