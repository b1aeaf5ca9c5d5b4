"""Writes tests/fixtures/ from real transformers: what generate() keeps and with which scores.

Every case runs `model.generate(max_new_tokens=1, output_scores=True, output_logits=True, ...)`
so that defaults, generation_config merging, processor order and validation all come from
transformers itself. Real contexts run SmolLM2-135M-Instruct (the default GGUF, dequantized to
f32); synthetic cases replace the model's forward with fixed logits, which leaves the rest of
generate() untouched.

Usage: python reference/make_fixtures.py MODEL.gguf OUT_DIR
"""

import json
import os
import sys

import reference_env  # noqa: F401  (before torch: one thread, offline, quiet)

import numpy as np
import torch
import transformers
from transformers import AutoModelForCausalLM, AutoTokenizer, GenerationConfig
from transformers.modeling_outputs import CausalLMOutputWithPast

# Supports larger than this are stored as .npy scores instead of inline JSON.
INLINE_LIMIT = 2000

# The fields of GenerationConfig that sampling-lab models, as transformers resolves them.
EFFECTIVE_FIELDS = [
    "do_sample", "temperature", "top_k", "top_p", "min_p", "typical_p",
    "epsilon_cutoff", "eta_cutoff", "repetition_penalty", "no_repeat_ngram_size",
]

REFERENCE_SETTINGS = {
    "t07_default": {"do_sample": True, "temperature": 0.7},
    "t07": {"do_sample": True, "temperature": 0.7, "top_k": 0},
    "k40": {"do_sample": True, "temperature": 0.7, "top_k": 40},
    "p09": {"do_sample": True, "temperature": 0.7, "top_k": 0, "top_p": 0.9},
    "k40p09": {"do_sample": True, "temperature": 0.7, "top_k": 40, "top_p": 0.9},
}

MORE_REFERENCE_SETTINGS = {
    "greedy": {},
    "greedy_explicit": {"do_sample": False},
    "sample_defaults": {"do_sample": True},
    "smollm_recommended": {"do_sample": True, "temperature": 0.2, "top_p": 0.9},
    "top_k_none": {"do_sample": True, "temperature": 0.7, "top_k": None},
    "top_k_over_vocab": {"do_sample": True, "temperature": 0.7, "top_k": 100000},
    "top_p_zero": {"do_sample": True, "temperature": 0.7, "top_k": 0, "top_p": 0.0},
    "top_p_above_one": {"do_sample": True, "temperature": 0.7, "top_p": 1.5},
    "k5_p09_above_topk_mass": {"do_sample": True, "temperature": 0.7, "top_k": 5, "top_p": 0.9},
    "k40_p099": {"do_sample": True, "temperature": 0.7, "top_k": 40, "top_p": 0.99},
    "min_p": {"do_sample": True, "temperature": 0.7, "min_p": 0.1},
    "min_p_with_top_p": {"do_sample": True, "temperature": 0.7, "top_k": 40, "top_p": 0.9, "min_p": 0.2},
    "typical": {"do_sample": True, "typical_p": 0.9},
    "epsilon": {"do_sample": True, "top_k": 0, "epsilon_cutoff": 3e-4},
    "eta": {"do_sample": True, "top_k": 0, "eta_cutoff": 1e-3},
    "repetition_penalty": {"do_sample": True, "temperature": 0.7, "repetition_penalty": 1.3},
    "repetition_penalty_greedy": {"repetition_penalty": 1.3},
    "no_repeat_ngram_greedy": {"no_repeat_ngram_size": 2},
    "no_repeat_ngram_sampled": {"do_sample": True, "top_k": 0, "no_repeat_ngram_size": 3},
    "greedy_ignores_temperature_zero": {"do_sample": False, "temperature": 0.0},
    "temperature_int_one_passes": {"do_sample": True, "temperature": 1},
}

VALIDATION_ERRORS = {
    "err_temperature_zero": {"do_sample": True, "temperature": 0.0},
    "err_temperature_int_zero": {"do_sample": True, "temperature": 0},
    "err_temperature_int": {"do_sample": True, "temperature": 2},
    "err_temperature_negative": {"do_sample": True, "temperature": -0.5},
    "err_top_k_negative": {"do_sample": True, "top_k": -1},
    "err_top_k_float": {"do_sample": True, "top_k": 5.0},
    "err_top_p_negative": {"do_sample": True, "top_p": -0.1},
    "err_min_p_above_one": {"do_sample": True, "min_p": 1.5},
    "err_min_p_negative": {"do_sample": True, "min_p": -0.1},
    "err_penalty_zero": {"repetition_penalty": 0.0},
    "err_penalty_int": {"do_sample": True, "repetition_penalty": 2},
    "err_penalty_negative": {"repetition_penalty": -1.0},
    "err_typical_zero": {"do_sample": True, "typical_p": 0.0},
    "err_ngram_float": {"no_repeat_ngram_size": 2.0},
}

GENERATION_CONFIG_CASES = [
    # (name, generation_config.json, kwargs)
    ("gc_model_defaults", {"do_sample": True, "temperature": 0.6, "top_p": 0.95}, {}),
    ("gc_kwargs_override", {"do_sample": True, "temperature": 0.6, "top_p": 0.95}, {"temperature": 0.9}),
    ("gc_top_k_none_removes", {"do_sample": True, "top_k": 20}, {"top_k": None}),
    ("gc_model_top_k", {"do_sample": True, "top_k": 20, "temperature": 0.7}, {}),
    ("gc_null_fields_fall_back", {"do_sample": True, "temperature": None, "top_k": None}, {}),
    ("gc_kwargs_greedy", {"do_sample": True, "temperature": 0.6}, {"do_sample": False}),
]

SYNTHETIC = [
    # (name, logits, context_ids, kwargs)
    ("ties_3221_k2", [3.0, 2.0, 2.0, 1.0], [0], {"do_sample": True, "top_k": 2}),
    ("ties_32221_k2", [3.0, 2.0, 2.0, 2.0, 1.0], [0], {"do_sample": True, "top_k": 2}),
    ("ties_k1_top_tie", [2.0, 5.0, 5.0, 1.0], [0], {"do_sample": True, "top_k": 1}),
    ("small_vocab_implicit_top_k", [0.5, 1.5, -2.0, 0.0, 3.0, 1.0], [0], {"do_sample": True}),
    ("small_vocab_top_k_over_vocab", [0.5, 1.5, -2.0, 0.0, 3.0, 1.0], [0], {"do_sample": True, "top_k": 10}),
    ("small_top_p_zero", [0.5, 1.5, -2.0, 0.0, 3.0, 1.0], [0], {"do_sample": True, "top_k": 0, "top_p": 0.0}),
    ("small_greedy_first_max", [1.0, 4.0, 4.0, 0.0], [0], {}),
    ("small_min_p", [0.5, 1.5, -2.0, 0.0, 3.0, 1.0], [0], {"do_sample": True, "min_p": 0.3}),
    ("small_penalty_prompt", [2.0, -1.0, 1.5, 0.5, 1.9], [0, 1, 1, 4], {"do_sample": True, "repetition_penalty": 1.5}),
    ("small_penalty_greedy_flip", [2.0, -1.0, 1.5, 0.5, 1.9], [0, 1], {"repetition_penalty": 1.5}),
    ("small_ngram_ban", [2.0, 1.0, 1.5, 0.5, 1.9], [1, 0, 2, 1, 0, 3, 1], {"no_repeat_ngram_size": 2}),
    ("small_k_then_p", [4.0, 3.0, 2.5, 2.0, 1.0, 0.0, -1.0], [0], {"do_sample": True, "top_k": 4, "top_p": 0.6}),
    ("small_p_above_topk_mass", [4.0, 3.5, 3.4, 3.3, 3.2, 3.1, 3.0], [0], {"do_sample": True, "top_k": 2, "top_p": 0.7}),
]


def random_tied_logits(n, seed, levels):
    """Logits drawn from few distinct values, so that ties are everywhere."""
    rng = np.random.default_rng(seed)
    return (rng.integers(0, levels, size=n).astype(np.float32) / 4.0).tolist()


def bf16_logits(n, seed):
    """Logits rounded to bfloat16 as a bf16 model's lm_head would give: many exact ties."""
    rng = np.random.default_rng(seed)
    x = torch.tensor(rng.normal(0.0, 3.0, size=n), dtype=torch.float32)
    return x.to(torch.bfloat16).to(torch.float32).tolist()


SYNTHETIC += [
    ("tied_1000_k50", random_tied_logits(1000, 1, 24), [0], {"do_sample": True, "top_k": 50}),
    ("tied_1000_k50_p09", random_tied_logits(1000, 2, 24), [0], {"do_sample": True, "temperature": 0.8, "top_k": 50, "top_p": 0.9}),
    ("tied_1000_p05", random_tied_logits(1000, 3, 24), [0], {"do_sample": True, "top_k": 0, "top_p": 0.5}),
    ("tied_1000_min_p", random_tied_logits(1000, 4, 24), [0], {"do_sample": True, "top_k": 0, "min_p": 0.5}),
    ("bf16_1000_implicit", bf16_logits(1000, 5), [0], {"do_sample": True, "temperature": 0.7}),
    ("bf16_1000_k40_p09", bf16_logits(1000, 6), [0], {"do_sample": True, "temperature": 0.7, "top_k": 40, "top_p": 0.9}),
    ("bf16_1000_typical", bf16_logits(1000, 7), [0], {"do_sample": True, "typical_p": 0.5}),
    ("bf16_1000_eta", bf16_logits(1000, 8), [0], {"do_sample": True, "top_k": 0, "eta_cutoff": 0.02}),
    ("bf16_1000_epsilon", bf16_logits(1000, 9), [0], {"do_sample": True, "top_k": 0, "epsilon_cutoff": 0.01}),
]

OTHER_CONTEXTS = {
    "france": {"messages": [{"role": "user", "content": "What is the capital of France?"}], "prefix": ""},
    "system_multi_turn": {
        "messages": [
            {"role": "system", "content": "You are a concise assistant."},
            {"role": "user", "content": "Name a prime number."},
            {"role": "assistant", "content": "7"},
            {"role": "user", "content": "Another one, bigger than 100?"},
        ],
        "prefix": "",
    },
    "plain_text": {"text": "The quick brown fox jumps over the lazy dog. The quick brown"},
}

OTHER_CONTEXT_SETTINGS = ["t07_default", "k40p09", "p09", "greedy", "repetition_penalty"]


def py_json(value):
    """JSON that keeps Python's int/float distinction (2 vs 2.0), which transformers' checks see."""
    return value


class FixedLogits:
    """Replaces a model's forward with fixed logits; generate() is otherwise unchanged."""

    def __init__(self, model, logits):
        self.model = model
        self.logits = torch.tensor(logits, dtype=torch.float32)

    def __enter__(self):
        def forward(*args, **kwargs):
            ids = kwargs.get("input_ids")
            batch = ids.shape[0] if ids is not None else 1
            return CausalLMOutputWithPast(logits=self.logits.view(1, 1, -1).expand(batch, 1, -1).clone())

        self.model.forward = forward
        return self

    def __exit__(self, *exc):
        del self.model.forward


def run_generate(model, ids, kwargs, generation_config):
    saved = model.generation_config
    if generation_config is not None:
        merged = saved.to_dict()
        merged.update(generation_config)
        model.generation_config = GenerationConfig.from_dict(merged)
    try:
        input_ids = torch.tensor([ids])
        resolved, _ = model._prepare_generation_config(None, **dict(kwargs))
        effective = {f: getattr(resolved, f) for f in EFFECTIVE_FIELDS}
        try:
            processors = model._get_logits_processor(resolved, input_ids_seq_length=len(ids), device="cpu")
            names = [type(p).__name__ for p in processors]
            out = model.generate(
                input_ids,
                attention_mask=torch.ones_like(input_ids),
                max_new_tokens=1,
                min_new_tokens=0,
                output_scores=True,
                output_logits=True,
                return_dict_in_generate=True,
                pad_token_id=2,
                **kwargs,
            )
        except ValueError as e:
            return {"error": str(e), "effective_params": effective}
        raw = out.logits[0][0].float()
        scores = out.scores[0][0].float()
        return {
            "error": None,
            "effective_params": effective,
            "processors": names,
            "raw": raw,
            "scores": scores,
            "token": int(out.sequences[0][-1]),
        }
    finally:
        model.generation_config = saved


def hf_entry(result, name, out_dir):
    if result["error"] is not None:
        return {"error": result["error"], "effective_params": result["effective_params"]}
    scores = result["scores"]
    finite = torch.isfinite(scores)
    kept = int(finite.sum())
    probs = torch.softmax(scores, dim=-1)
    entry = {
        "error": None,
        "effective_params": result["effective_params"],
        "processors": result["processors"],
        "kept": kept,
        "token": result["token"],
    }
    if kept <= INLINE_LIMIT:
        ids = torch.nonzero(finite).flatten().tolist()
        entry["support"] = [[i, float(scores[i]), float(probs[i])] for i in ids]
    else:
        path = f"scores/{name}.npy"
        np.save(os.path.join(out_dir, path), scores.numpy().astype(np.float32))
        entry["scores_file"] = path
    return entry


def chat_ids(tok, messages, prefix):
    ids = tok.apply_chat_template(messages, add_generation_prompt=True, tokenize=True)
    ids = list(ids["input_ids"]) if hasattr(ids, "keys") else list(ids)
    if prefix:
        ids += tok(prefix, add_special_tokens=False)["input_ids"]
    return ids


def main():
    gguf, out_dir = sys.argv[1], sys.argv[2]
    os.makedirs(os.path.join(out_dir, "logits"), exist_ok=True)
    os.makedirs(os.path.join(out_dir, "scores"), exist_ok=True)
    model_dir, gguf_file = os.path.split(os.path.abspath(gguf))
    tok = AutoTokenizer.from_pretrained(model_dir, gguf_file=gguf_file)
    model = AutoModelForCausalLM.from_pretrained(model_dir, gguf_file=gguf_file, dtype=torch.float32)
    model.eval()

    contexts = {
        "reference": chat_ids(
            tok, [{"role": "user", "content": "How do you say thank you in Chinese?"}], 'In Chinese, you can say "'
        )
    }
    for cname, spec in OTHER_CONTEXTS.items():
        if "text" in spec:
            contexts[cname] = tok(spec["text"], add_special_tokens=False)["input_ids"]
        else:
            contexts[cname] = chat_ids(tok, spec["messages"], spec["prefix"])

    fixture = {
        "transformers": transformers.__version__,
        "torch": torch.__version__,
        "model": gguf_file,
        "contexts": {},
        "cases": [],
    }
    raw_logits = {}

    def real_case(name, cname, kwargs, generation_config=None):
        with torch.no_grad():
            result = run_generate(model, contexts[cname], kwargs, generation_config)
        if cname not in raw_logits and result.get("raw") is not None:
            raw_logits[cname] = result["raw"]
            path = f"logits/{cname}.npy"
            np.save(os.path.join(out_dir, path), result["raw"].numpy().astype(np.float32))
            fixture["contexts"][cname] = {"ids": contexts[cname], "logits_file": path}
        elif result.get("raw") is not None:
            assert torch.equal(raw_logits[cname], result["raw"]), f"{name}: logits changed between runs"
        case = {"name": name, "context": cname, "params": kwargs}
        if generation_config is not None:
            case["generation_config"] = generation_config
        case["hf"] = hf_entry(result, name, out_dir)
        fixture["cases"].append(case)
        print(f"{name}: kept={case['hf'].get('kept')} error={case['hf']['error']}", file=sys.stderr)

    for name, kwargs in REFERENCE_SETTINGS.items():
        real_case(name, "reference", kwargs)
    for name, kwargs in MORE_REFERENCE_SETTINGS.items():
        real_case(name, "reference", kwargs)
    for name, kwargs in VALIDATION_ERRORS.items():
        real_case(name, "reference", kwargs)
    for name, config, kwargs in GENERATION_CONFIG_CASES:
        real_case(name, "reference", kwargs, generation_config=config)
    for cname in OTHER_CONTEXTS:
        for setting in OTHER_CONTEXT_SETTINGS:
            kwargs = {**REFERENCE_SETTINGS, **MORE_REFERENCE_SETTINGS}[setting]
            real_case(f"{cname}_{setting}", cname, kwargs)

    for name, logits, ids, kwargs in SYNTHETIC:
        with torch.no_grad(), FixedLogits(model, logits):
            result = run_generate(model, ids, kwargs, None)
        case = {"name": name, "logits": logits, "context_ids": ids, "params": kwargs, "hf": hf_entry(result, name, out_dir)}
        fixture["cases"].append(case)
        print(f"{name}: kept={case['hf'].get('kept')} error={case['hf']['error']}", file=sys.stderr)

    with open(os.path.join(out_dir, "cases.json"), "w") as f:
        json.dump(fixture, f, indent=1, allow_nan=False)
        f.write("\n")
    print(f"{len(fixture['cases'])} cases written to {out_dir}", file=sys.stderr)


if __name__ == "__main__":
    main()
