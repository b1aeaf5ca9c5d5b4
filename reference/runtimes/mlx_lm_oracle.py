"""What mlx-lm 0.32.2 samples from for a generate()-style call, computed live with its own code.

Reads on stdin a JSON list of cases
    {"logits": [floats] | "logits_file": "path.npy", "context_ids": [ints], "call": {generate kwargs}}
and writes on stdout a JSON list with one outcome per case, in the format of
tests/fixtures/runtimes/*.json:
    {"error": "<ExceptionClass>: <str(e)>"}
    {"argmax": id}                                   make_sampler chose greedy_sampler (temp == 0)
    {"kept": n, "kept_ids" | "zero_ids": [...], "probs": [[id, p], ...], ["ties_at_cut": true]}
kept = the tokens left finite in the logits categorical_sampling receives whose softmax is not 0
even in f64 (its Gumbel-max draw can return them); probs = softmax of those final logits * (1 / temp), in f64 (p >= 1e-5
listed); with a negative temp, the tokens a filter cut become +inf and are drawn alike, so kept
= those, each with the same probability; ties_at_cut = a kept and a cut token had equal log-probabilities before the filters
(argpartition decided which survived top_k).

The call becomes the request through port_request.py (temperature -> temp; do_sample=False ->
temp 0; an argument not sent takes make_sampler's own default, temp 0.0 = greedy), then runs as
mlx_lm.generate.generate_step runs it (generate.py:416-428): the repetition penalty through
make_logits_processors over the context tokens (the processor keeps the last 20) when the context
is not empty, logprobs = logits - logsumexp(logits), then make_sampler(...)(logprobs). The module
mlx_lm/sample_utils.py is loaded by file path (importing mlx_lm would pull transformers); its
global categorical_sampling is wrapped to record what it receives.

An exception inside an mx.compile'd filter leaves later compiled calls in the same process failing
("[eval] Attempting to eval an array without a primitive"), so cases run in a worker process that
stops after the first case that raises; the next worker picks up from the following case.

Usage (the mlx venv, see reference/requirements-mlx.txt):
  VENV/bin/python reference/runtimes/mlx_lm_oracle.py < cases.json > outcomes.json
"""

import importlib.util
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from port_request import port_request  # noqa: E402

# make_sampler's and make_logits_processors' parameter names for the generate() arguments.
NAMES = {"temperature": "temp", "top_k": "top_k", "top_p": "top_p", "min_p": "min_p", "repetition_penalty": "repetition_penalty"}
LISTED = 1e-5


def load_sample_utils():
    spec = importlib.util.find_spec("mlx_lm")  # locates the package without executing it
    path = os.path.join(spec.submodule_search_locations[0], "sample_utils.py")
    module_spec = importlib.util.spec_from_file_location("mlx_lm_sample_utils", path)
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    return module


def logits_of(case, cache):
    if "logits" in case:
        return np.asarray(case["logits"], dtype=np.float32)
    path = case["logits_file"]
    if path not in cache:
        cache[path] = np.load(path).astype(np.float32)
    return cache[path]


def run_case(su, mx, logits, context_ids, call):
    request, _ = port_request(call, NAMES)
    seen = {}
    original = su.categorical_sampling

    def recording(logprobs, temp):
        seen["final"], seen["temp"] = logprobs, temp
        return original(logprobs, temp)

    su.categorical_sampling = recording
    try:
        sampler = su.make_sampler(**{k: request[k] for k in ("temp", "top_p", "min_p", "top_k") if k in request})
        processors = su.make_logits_processors(repetition_penalty=request.get("repetition_penalty"))
        x = mx.array(logits)[None]
        tokens = mx.array(context_ids, dtype=mx.int32)
        if processors and len(tokens) > 0:
            for processor in processors:
                x = processor(tokens, x)
        logprobs = x - mx.logsumexp(x, keepdims=True)
        token = sampler(logprobs)
        mx.eval(token)
    finally:
        su.categorical_sampling = original
    if sampler is su.greedy_sampler:
        return {"argmax": int(token.item())}
    final = np.array(seen["final"])[0]
    scaled = np.array(seen["final"] * (1.0 / seen["temp"]))[0].astype(np.float64)
    before = np.array(logprobs)[0]
    probs = np.zeros(final.size)
    if np.isposinf(scaled).any():
        # A negative temp turns every token a filter cut (-inf) into +inf; mlx's categorical then
        # draws among those alike (seen with mlx 0.32.4: 300 draws spread evenly over them).
        kept = np.isposinf(scaled)
        probs[kept] = 1.0 / kept.sum()
    else:
        finite = np.isfinite(final)
        e = np.exp(scaled[finite] - scaled[finite].max())
        probs[finite] = e / e.sum()
        # A token whose probability is 0 even in f64 (a tiny temp: logprobs * 1e8) is never drawn.
        kept = probs > 0
    ids, zero = np.nonzero(kept)[0], np.nonzero(~kept)[0]
    outcome = {"kept": int(ids.size)}
    if ids.size <= zero.size:
        outcome["kept_ids"] = ids.tolist()
    else:
        outcome["zero_ids"] = zero.tolist()
    outcome["probs"] = [[int(i), float(f"{probs[i]:.10g}")] for i in np.nonzero(probs >= LISTED)[0]]
    dropped = np.isfinite(before) & ~kept
    if np.intersect1d(before[kept], before[dropped]).size:
        outcome["ties_at_cut"] = True
    assert kept[int(token.item())]
    return outcome


def worker(path, start):
    """Runs cases from `start` on, one JSON line each, and stops after the first that raises."""
    import mlx.core as mx

    su = load_sample_utils()
    with open(path) as f:
        cases = json.load(f)
    cache = {}
    for i in range(start, len(cases)):
        case = cases[i]
        try:
            outcome = run_case(su, mx, logits_of(case, cache), case.get("context_ids", []), case["call"])
        except Exception as e:  # noqa: BLE001  (the runtime's own refusal, recorded as text)
            print(json.dumps({"index": i, "outcome": {"error": f"{type(e).__name__}: {e}"}}), flush=True)
            return
        print(json.dumps({"index": i, "outcome": outcome}), flush=True)


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--worker":
        worker(sys.argv[2], int(sys.argv[3]))
        return
    cases = json.load(sys.stdin)
    outcomes = [None] * len(cases)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "cases.json")
        with open(path, "w") as f:
            json.dump(cases, f)
        start = 0
        while start < len(cases):
            run = subprocess.run(
                [sys.executable, os.path.abspath(__file__), "--worker", path, str(start)],
                stdout=subprocess.PIPE,
                text=True,
                check=True,
            )
            lines = [json.loads(line) for line in run.stdout.splitlines() if line.strip()]
            if not lines:
                raise SystemExit(f"the worker produced nothing from case {start}")
            for line in lines:
                outcomes[line["index"]] = line["outcome"]
            start = lines[-1]["index"] + 1
    json.dump(outcomes, sys.stdout, separators=(",", ":"))
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
