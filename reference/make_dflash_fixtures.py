"""Writes tests/fixtures/dflash.json: what DFlash's sample() draws from, computed with torch.

DFlash (z-lab/dflash, dflash/model.py @ 44947fb) samples a position as: below a temperature of
1e-5 `torch.argmax(logits)`, otherwise `torch.multinomial(torch.softmax(logits / T))`. This script
evaluates that rule with torch on CPU for the committed fixtures' logits and for synthetic logits
whose top two scores are nearly tied at the 1e-5 threshold, and records what multinomial can
draw: the argmax, or every token whose f32 probability is nonzero. The probabilities recorded are
the softmax of torch's own f32 `logits / T`, taken in f64: torch's f32 softmax adds rounding of
its own over 49152 terms (up to ~1e-5 here, recorded as `f32_softmax_error`), which is numerics,
not the rule.

Usage: python reference/make_dflash_fixtures.py tests/fixtures
"""

import json
import os
import sys

import reference_env  # noqa: F401  (before torch: one thread, offline, quiet)

import numpy as np
import torch

TEMPERATURES = [0.0, 1e-6, 9.9e-6, 1e-5, 0.3, 0.6, 1.0, 1.7]
# Probabilities below this are recorded only through the kept set (the tests hold such a token
# below LISTED + 1e-6): the listed ones are compared within 1e-6.
LISTED = 1e-5


def synthetic():
    """Logits whose top two differ by 1e-5 (so (l1 - l2) / T is 1 at T = 1e-5), with a tie below."""
    near = np.full(1000, -5.0, dtype=np.float32)
    near[7] = 3.0
    near[400] = np.float32(3.0) - np.float32(1e-5)
    near[401] = np.float32(3.0) - np.float32(3e-5)
    tied = np.array([1.0, 4.0, 4.0, 0.0, 3.5], dtype=np.float32)
    return {"near_tie_at_threshold": near, "tied_maximum": tied}


def sample_distribution(logits, temperature):
    """What DFlash's sample() draws from, as torch computes it."""
    x = torch.from_numpy(logits).view(1, 1, -1)
    if temperature < 1e-5:
        return {"argmax": int(torch.argmax(x, dim=-1).item())}
    vocab = x.shape[-1]
    scaled = x.view(-1, vocab) / temperature
    drawable = torch.softmax(scaled, dim=-1)[0].numpy()
    probs = torch.softmax(scaled.double(), dim=-1)[0].numpy()
    kept = np.nonzero(drawable > 0)[0]
    zero = np.nonzero(drawable == 0)[0]
    listed = np.nonzero(probs >= LISTED)[0]
    case = {"kept": int(kept.size), "f32_softmax_error": float(np.abs(drawable - probs).max())}
    if kept.size <= zero.size:
        case["kept_ids"] = kept.tolist()
    else:
        case["zero_ids"] = zero.tolist()
    case["probs"] = [[int(i), float(probs[i])] for i in listed]
    return case


def main(out_dir):
    contexts = {}
    logits_dir = os.path.join(out_dir, "logits")
    for name in sorted(os.listdir(logits_dir)):
        contexts[name.removesuffix(".npy")] = np.load(os.path.join(logits_dir, name)).astype(np.float32)
    synthetic_logits = synthetic()
    contexts.update(synthetic_logits)
    cases = []
    for name, logits in contexts.items():
        for t in TEMPERATURES:
            cases.append({"logits": name, "temperature": t, **sample_distribution(logits, t)})
    fixture = {
        "torch": torch.__version__,
        "synthetic": {k: v.tolist() for k, v in synthetic_logits.items()},
        "cases": cases,
    }
    with open(os.path.join(out_dir, "dflash.json"), "w") as f:
        json.dump(fixture, f, separators=(",", ":"))
        f.write("\n")
    print(f"{len(cases)} cases, torch {torch.__version__}")


if __name__ == "__main__":
    main(sys.argv[1])
