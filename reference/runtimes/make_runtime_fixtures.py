"""Writes tests/fixtures/runtimes/{vllm,sglang}.json: what vLLM 0.33.0 and SGLang 0.5.23 sample
from for a generate()-style call, computed with the runtimes' own code.

Neither runtime can be installed here (both pin a CUDA torch of their own and pull hundreds of
modules and dozens of packages), so this script never imports them. It reads the pinned wheels as
zip files and executes their real source files, or real functions and classes taken out of them
with `ast`, inside synthetic `vllm` / `sglang` packages whose other modules are the smallest stubs
that let that code run on CPU torch (the transformers reference env's). Every file and name run for
real, and everything stubbed, is listed in each JSON's header.

For each context (the committed logits of `reference`, `france`, `plain_text`, and the synthetic
tie-crafted `ties`) and each call in CALLS (generate() keyword arguments):
  1. `port_request` maps the call to the request a port sends (the spec, written independently of
     the runtimes): a Python user's temperature/top_k/top_p/min_p/repetition_penalty carry over by
     name exactly as passed, invalid values included; do_sample=False sends temperature 0;
     do_sample=True sends nothing; a None is not sent; anything else (typical_p) is "ignored".
  2. The runtime's own parameter layer takes the request: vLLM's OpenAI server (`--generation-config
     auto`; SmolLM2's generation_config.json has no sampling field, so the server defaults are the
     OpenAI ones) and `SamplingParams` (its `__post_init__` clamps and `_verify_args`); SGLang's
     `/generate` contract gate, `SamplingParams(**sampling_params)`, `.normalize()`, `.verify(V)`.
     A refusal is recorded word for word as the server returns it.
  3. An accepted request goes through the runtime's real sampler on the logits row in f32: vLLM's
     `Sampler(logprobs_mode="processed_logprobs").forward` (the torch-native top-k/top-p path);
     SGLang's `Sampler.forward` with the pytorch sampling backend. The outcome is the argmax the
     runtime takes (greedy), or the set of tokens the runtime's draw can return with their
     probabilities, in the format of reference/make_dflash_fixtures.py.

Usage:
  python reference/runtimes/make_runtime_fixtures.py [--wheels DIR] tests/fixtures
DIR holds (or receives) vllm-0.33.0-cp38-abi3-manylinux_2_28_x86_64.whl and
sglang-0.5.23-cp311-cp311-manylinux_2_34_x86_64.whl; by default target/runtimes/wheels (git-ignored),
filled with `pip download --no-deps` when a wheel is missing. The wheels' sha256 are checked.
Needs the reference env plus reference/runtimes/requirements.txt (msgspec).
"""

import argparse
import ast
import hashlib
import json
import logging
import os
import subprocess
import sys
import types
import zipfile
from contextlib import contextmanager
from types import SimpleNamespace

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

import reference_env  # noqa: E402,F401  (before torch: one thread, offline, quiet)

import numpy as np  # noqa: E402
import torch  # noqa: E402
from port_request import SENT, port_request  # noqa: E402

WHEELS = {
    "vllm": {
        "requirement": "vllm==0.33.0",
        "version": "0.33.0",
        "file": "vllm-0.33.0-cp38-abi3-manylinux_2_28_x86_64.whl",
        "sha256": "4b6bdec4ab269990bf70d45a3c1e94c3760a27064513760193b26d6f0da883aa",
        "torch_pinned": "2.14.0",
    },
    "sglang": {
        "requirement": "sglang==0.5.23",
        "version": "0.5.23",
        "file": "sglang-0.5.23-cp311-cp311-manylinux_2_34_x86_64.whl",
        "sha256": "00b3cd5b265ac76c64185fbb6b95424f324ddd9f428d0306b77bc9db9d859937",
        "torch_pinned": "2.14.1",
    },
}

CONTEXTS = ["reference", "france", "plain_text"]  # committed logits; plus the synthetic "ties"

# generate() keyword arguments, as a Python user passes them.
CALLS = [
    {},
    {"do_sample": True},
    {"do_sample": True, "temperature": 0.7},
    {"do_sample": True, "temperature": 0.7, "top_k": 40, "top_p": 0.9},
    {"do_sample": True, "temperature": 0.005},
    {"do_sample": True, "temperature": 5e-7},
    {"do_sample": True, "temperature": 1e-5},
    {"do_sample": True, "temperature": 0.0},
    {"do_sample": True, "temperature": 2.5},
    {"do_sample": True, "temperature": -0.5},
    {"do_sample": True, "top_k": 0},
    {"do_sample": True, "top_k": -1},
    {"do_sample": True, "top_k": 1, "temperature": 0.6},
    {"do_sample": True, "top_k": 5},
    {"do_sample": True, "top_k": 100000},
    {"do_sample": True, "top_k": None},
    {"do_sample": True, "top_p": 0.0},
    {"do_sample": True, "top_p": 0.05},
    {"do_sample": True, "top_p": 0.999},
    {"do_sample": True, "top_p": 1.5},
    {"do_sample": True, "min_p": 0.05},
    {"do_sample": True, "min_p": 0.05, "top_k": 20, "temperature": 0.8},
    {"do_sample": True, "min_p": 0.1, "top_p": 0.9, "temperature": 1.3},
    {"do_sample": True, "min_p": 1.5},
    {"do_sample": True, "temperature": 0.6, "top_p": 1.0, "top_k": 1},
    {"do_sample": False, "temperature": 0.7},
    {"do_sample": True, "repetition_penalty": 1.3},
    {"do_sample": True, "repetition_penalty": 0.0},
    {"do_sample": True, "repetition_penalty": 2.5},
    {"do_sample": True, "temperature": 0.7, "typical_p": 0.9, "top_p": 0.9},
]

# Probabilities below this are recorded only through the kept set, as in dflash.json.
LISTED = 1e-5

OUTCOME_FIELDS = {
    "error": "the runtime's refusal, word for word as its server returns it",
    "argmax": "greedy: the token id the runtime takes",
    "kept": "how many tokens the runtime's draw can return (f32 probability > 0)",
    "kept_ids | zero_ids": "whichever list is shorter",
    "probs": "[id, p] for every kept token with p >= 1e-5; p = f64 softmax of the runtime's own f32 "
    "tempered logits over the tokens its filters kept (10 significant digits)",
    "f32_softmax_error": "max |p - the runtime's own f32 probabilities, normalised| over the vocabulary",
    "filter_kept": "(vLLM, when it differs from kept) tokens the filters left finite, f32 underflow included",
    "subnormal": "kept tokens whose f32 probability is subnormal: a flush-to-zero device cannot draw them",
    "ties_at_cut": "a kept and a cut token had equal values where the cut was decided: torch's sort chose",
    "topk_top_k_ids": "(SGLang) the top-k set the production call's torch.topk(probs, max_top_k) picks, "
    "when it differs from the full sort's (which a request with return_sampling_mask takes)",
    "f64": "{kept, gained, lost}: the same real filter code run on the same values held in f64 decides "
    "differently (among tokens with a nonzero f32 probability): an f32 effect near a threshold",
    "cut_by_top_p_1": "(SGLang) tokens cut with top_p = 1.0 because the f32 cumulative probability before "
    "them exceeds 1 (torch's f32 softmax sums to slightly more than 1)",
}


def ties_logits():
    """64 f32 scores with exact ties at the 2nd, 5th and 20th highest score and three very low ones.

    Every gap from the top score keeps exp(gap / T) out of f32's subnormal range at every
    temperature the calls reach (0.005 and 1e-5 in SGLang, 0.01 after vLLM's clamp, 0.6 ... 2.5),
    so whether a token's f32 probability underflows to 0 does not depend on how a device's exp
    rounds near the subnormals. Ranks 62-64 underflow at T = 1 (gaps 300 and 10000) or not (40)."""
    ranked = (
        [8.0, 7.625, 7.625, 7.25, 6.75, 6.75]
        + [6.625 - 0.0625 * i for i in range(13)]  # ranks 7..19: 6.625 .. 5.875
        + [5.75, 5.75]  # ranks 20, 21: min_p 0.05 at T 0.8 keeps 22 tokens, so top_k 20 cuts this tie
        + [5.625 - 0.125 * i for i in range(40)]  # ranks 22..61: 5.625 .. 0.75
        + [-32.0, -292.0, -9992.0]
    )
    assert len(ranked) == 64
    fixed = {0: 17, 1: 40, 2: 5, 3: 23, 4: 61, 5: 12, 19: 33, 20: 2, 61: 0, 62: 63, 63: 50}
    rest = iter(sorted((i for i in range(64) if i not in fixed.values()), key=lambda i: (i * 37) % 64))
    logits = np.zeros(64, dtype=np.float32)
    for rank, score in enumerate(ranked):
        logits[fixed[rank] if rank in fixed else next(rest)] = score
    return logits


# ---------------------------------------------------------------------------------------------
# Loading real code out of a wheel


class Wheel:
    def __init__(self, path, expected_sha256):
        with open(path, "rb") as f:
            self.sha256 = hashlib.sha256(f.read()).hexdigest()
        if self.sha256 != expected_sha256:
            raise SystemExit(f"{path}: sha256 {self.sha256}, expected {expected_sha256}")
        self.name = os.path.basename(path)
        self.zip = zipfile.ZipFile(path)
        self.real = []  # [file, "whole file" | [names]]

    def source(self, path):
        return self.zip.read(path).decode("utf-8")

    def filename(self, path):
        return f"{self.name}!/{path}"

    def exec_file(self, path, module_name):
        """Executes a real source file of the wheel as module `module_name`."""
        module = new_module(module_name)
        module.__file__ = self.filename(path)
        exec(compile(self.source(path), module.__file__, "exec"), module.__dict__)
        self.real.append([path, "whole file"])
        return module

    def extract(self, path, names, namespace, drop_decorators=False):
        """Executes only the top-level definitions `names` of a real source file into `namespace`
        (line numbers kept, so tracebacks point into the wheel's file). A dotted name
        `Class.attr` executes one class-level assignment of `Class`."""
        tree = ast.parse(self.source(path), self.filename(path))
        body = []
        for name in names:
            if "." in name:
                cls, attr = name.split(".")
                node = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls)
                stmt = next(
                    s
                    for s in node.body
                    if isinstance(s, (ast.Assign, ast.AnnAssign))
                    and attr in [t.id for t in (s.targets if isinstance(s, ast.Assign) else [s.target])]
                )
                value = ast.Assign(targets=[ast.Name(id=name.replace(".", "__"), ctx=ast.Store())], value=stmt.value)
                body.append(ast.copy_location(value, stmt))
                continue
            found = [
                n
                for n in tree.body
                if (isinstance(n, (ast.FunctionDef, ast.ClassDef)) and n.name == name)
                or (isinstance(n, ast.Assign) and name in [getattr(t, "id", None) for t in n.targets])
                or (isinstance(n, ast.AnnAssign) and getattr(n.target, "id", None) == name)
            ]
            if len(found) != 1:
                raise SystemExit(f"{path}: {len(found)} top-level definitions of {name}")
            node = found[0]
            if drop_decorators and isinstance(node, ast.FunctionDef):
                node.decorator_list = []
            body.append(node)
        module = ast.fix_missing_locations(ast.Module(body=body, type_ignores=[]))
        exec(compile(module, self.filename(path), "exec"), namespace)
        self.real.append([path, list(names)])
        return namespace

    def annotations(self, path, cls, fields):
        """The source text of the annotation and default of `fields` of class `cls`."""
        source = self.source(path)
        tree = ast.parse(source)
        node = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls)
        out = {}
        for stmt in node.body:
            if isinstance(stmt, ast.AnnAssign) and stmt.target.id in fields:
                out[stmt.target.id] = (ast.get_source_segment(source, stmt.annotation), ast.literal_eval(stmt.value))
        return out


def new_module(name, package=False, **attrs):
    module = types.ModuleType(name)
    if package:
        module.__path__ = []
    module.__dict__.update(attrs)
    sys.modules[name] = module
    parent, _, child = name.rpartition(".")
    if parent:
        if parent not in sys.modules:
            new_module(parent, package=True)
        setattr(sys.modules[parent], child, module)
    return module


class Stubs:
    """Records what is stubbed, for the JSON header."""

    def __init__(self):
        self.items = []

    def module(self, name, why, package=False, **attrs):
        self.items.append({"module": name, "names": sorted(attrs), "why": why})
        return new_module(name, package=package, **attrs)


class QuietLogger(logging.Logger):
    """vllm.logger.init_logger's loggers have *_once variants."""

    def info_once(self, *a, **k):
        pass

    def warning_once(self, *a, **k):
        pass

    def debug_once(self, *a, **k):
        pass


def init_logger(name):
    logger = QuietLogger(name)
    logger.setLevel(logging.ERROR)  # vLLM's temperature-clamp warning would fire per case
    return logger


class NoPlatform:
    """vllm.platforms.current_platform on a machine with no GPU runtime: every is_*() is False."""

    simple_compile_backend = "eager"

    def __getattr__(self, name):
        if name.startswith("is_"):
            return lambda *a, **k: False
        raise AttributeError(name)


@contextmanager
def capture(module, name, record):
    """Replaces module.name (looked up at call time by the real code) with a wrapper that records
    its arguments and result, then calls the original."""
    original = getattr(module, name)

    def wrapper(*args, **kwargs):
        record.setdefault(name, []).append({"args": [a.clone() if torch.is_tensor(a) else a for a in args], "kwargs": dict(kwargs)})
        result = original(*args, **kwargs)
        record[name][-1]["result"] = result.clone() if torch.is_tensor(result) else result
        return result

    setattr(module, name, wrapper)
    try:
        yield
    finally:
        setattr(module, name, original)


# ---------------------------------------------------------------------------------------------
# Outcomes


def distribution(drawable, scores, filtered, pre, runtime_probs, f32_probs):
    """The outcome for a sampled case.

    drawable: bool[V], the tokens the runtime's draw can return (its f32 probability > 0).
    scores: f32[V], the runtime's own f32 scores (tempered logits) the draw's probabilities come
        from; p = softmax over `filtered` of scores, in f64.
    filtered: bool[V], the tokens the runtime's filters kept (may include f32 underflows).
    pre: f32[V] or None, the values the runtime's cut was decided on, and the tokens it considered
        (finite / positive); a kept token and a cut token with equal value = ties_at_cut.
    runtime_probs: f32/f64[V], the probabilities the runtime itself hands to its draw, normalised.
    f32_probs: f32[V], those probabilities as the runtime holds them: a kept token whose f32
        probability is subnormal is counted in "subnormal" (a flush-to-zero device drops it)."""
    x = scores.astype(np.float64)
    x[~filtered] = -np.inf
    e = np.exp(x - x.max())
    probs = e / e.sum()
    kept = np.nonzero(drawable)[0]
    zero = np.nonzero(~drawable)[0]
    case = {"kept": int(kept.size)}
    if int(filtered.sum()) != kept.size:
        case["filter_kept"] = int(filtered.sum())
    case["f32_softmax_error"] = float(np.abs(runtime_probs.astype(np.float64) - probs).max())
    subnormal = int(((f32_probs > 0) & (f32_probs < np.finfo(np.float32).tiny)).sum())
    if subnormal:
        case["subnormal"] = subnormal
    if kept.size <= zero.size:
        case["kept_ids"] = kept.tolist()
    else:
        case["zero_ids"] = zero.tolist()
    case["probs"] = [[int(i), float(f"{probs[i]:.10g}")] for i in np.nonzero(probs >= LISTED)[0]]
    if pre is not None:
        considered, values = pre
        dropped = considered & ~filtered
        if np.intersect1d(values[considered & filtered], values[dropped]).size:
            case["ties_at_cut"] = True
    return case


def compare_f64(outcome, kept32, kept64, considered):
    """Records how the filters' decisions differ when the same real code runs in f64, among the
    tokens the f32 run considered (so f32 underflow alone does not count)."""
    kept64 = kept64 & considered
    kept32 = kept32 & considered
    if (kept64 != kept32).any():
        outcome["f64"] = {
            "kept": int(kept64.sum()),
            "gained": int((kept64 & ~kept32).sum()),
            "lost": int((kept32 & ~kept64).sum()),
        }


# ---------------------------------------------------------------------------------------------
# vLLM 0.33.0


class Vllm:
    def __init__(self, wheel):
        self.wheel = w = wheel
        self.stubs = s = Stubs()
        s.module("vllm", "package root: only the names the loaded files import from it", package=True)
        w.exec_file("vllm/envs.py", "vllm.envs")  # the real environment defaults (VLLM_MAX_N_SEQUENCES, ...)
        w.exec_file("vllm/exceptions.py", "vllm.exceptions")
        s.module("vllm.logger", "logging setup; loggers silenced", init_logger=init_logger)
        s.module(
            "vllm.platforms",
            "no GPU runtime here: every current_platform.is_*() is False, which selects the "
            "torch-native paths (TopKTopPSampler.forward_native, logits.argmax for greedy); "
            "simple_compile_backend='eager'",
            package=True,
            current_platform=NoPlatform(),
            CpuArchEnum=SimpleNamespace(RISCV="riscv", POWERPC="powerpc", X86="x86"),
        )
        s.module("vllm.platforms.interface", "type used in annotations only", DeviceCapability=type("DeviceCapability", (), {}))
        s.module(
            "vllm.triton_utils",
            "no Triton: apply_top_k_top_p takes apply_top_k_top_p_pytorch (on a CUDA GPU with "
            "Triton, vLLM runs apply_top_k_top_p_triton, documented to have the same semantics)",
            package=True,
            HAS_TRITON=False,
        )
        s.module("vllm._aiter_ops", "ROCm only", rocm_aiter_ops=SimpleNamespace(is_enabled=lambda: False))
        config = s.module(
            "vllm.config",
            "types used in annotations only",
            package=True,
            ModelConfig=type("ModelConfig", (), {}),
            SpeculativeConfig=type("SpeculativeConfig", (), {}),
            StructuredOutputsConfig=type("StructuredOutputsConfig", (), {}),
        )
        model = new_module("vllm.config.model")
        model.Literal = __import__("typing").Literal
        w.extract("vllm/config/model.py", ["LogprobsMode", "PROCESSED_LOGPROBS_MODES"], model.__dict__)
        config.model = model
        s.module("vllm.tokenizers", "type used in annotations only", package=True, TokenizerLike=type("TokenizerLike", (), {}))
        s.module("vllm.utils.mistral", "no tokenizer involved", is_mistral_tokenizer=lambda obj: False)
        tu = s.module(
            "vllm.utils.torch_utils",
            "PIN_MEMORY=False (the real value is is_pin_memory_available(): False without CUDA); "
            "the functions listed are the wheel's own",
            PIN_MEMORY=False,
        )
        tu.__dict__.update(torch=torch, np=np, npt=__import__("numpy.typing").typing, T=__import__("typing").TypeVar("T"))
        tu.TORCH_DTYPE_TO_NUMPY_DTYPE = {torch.int64: np.int64, torch.int32: np.int32, torch.float32: np.float32}
        w.extract("vllm/utils/torch_utils.py", ["make_ndarray_with_pad", "make_tensor_with_pad", "async_tensor_h2d"], tu.__dict__)
        w.exec_file("vllm/utils/gpu_sync_debug.py", "vllm.utils.gpu_sync_debug")
        su = new_module("vllm.v1.serial_utils")
        su.__dict__.update(
            msgspec=__import__("msgspec"),
            core_schema=__import__("pydantic_core").core_schema,
            GetCoreSchemaHandler=__import__("pydantic").GetCoreSchemaHandler,
            **{n: getattr(__import__("typing"), n) for n in ("Any", "ClassVar", "cast", "get_type_hints")},
        )
        w.extract("vllm/v1/serial_utils.py", ["PydanticMsgspecMixin"], su.__dict__)
        self.sp = w.exec_file("vllm/sampling_params.py", "vllm.sampling_params")
        sys.modules["vllm"].SamplingParams = self.sp.SamplingParams
        w.exec_file("vllm/v1/sample/logits_processor/interface.py", "vllm.v1.sample.logits_processor.interface")
        self.builtin = w.exec_file("vllm/v1/sample/logits_processor/builtin.py", "vllm.v1.sample.logits_processor.builtin")
        state = w.exec_file("vllm/v1/sample/logits_processor/state.py", "vllm.v1.sample.logits_processor.state")
        lp = sys.modules["vllm.v1.sample.logits_processor"]
        lp.__dict__.update({k: getattr(self.builtin, k) for k in ("MinTokensLogitsProcessor", "LogitBiasLogitsProcessor", "MinPLogitsProcessor")})
        lp.LogitsProcessors = state.LogitsProcessors
        lp.LogitsProcessor = sys.modules["vllm.v1.sample.logits_processor.interface"].LogitsProcessor
        w.extract("vllm/v1/sample/logits_processor/__init__.py", ["BUILTIN_LOGITS_PROCESSORS"], lp.__dict__)
        w.exec_file("vllm/v1/sample/thinking_budget_state.py", "vllm.v1.sample.thinking_budget_state")
        w.exec_file("vllm/v1/sample/metadata.py", "vllm.v1.sample.metadata")
        outputs = new_module("vllm.v1.outputs")
        outputs.__dict__.update(torch=torch, np=np, NamedTuple=__import__("typing").NamedTuple, Sequence=__import__("collections.abc").abc.Sequence, dataclass=__import__("dataclasses").dataclass)
        w.extract("vllm/v1/outputs.py", ["LogprobsTensors", "SamplerOutput"], outputs.__dict__)
        ops = new_module("vllm._custom_ops")
        ops.torch = torch
        w.extract(
            "vllm/_custom_ops.py",
            ["apply_repetition_penalties_torch", "apply_repetition_penalties_cuda", "apply_repetition_penalties"],
            ops.__dict__,
        )
        layers = new_module("vllm.model_executor.layers.utils")
        layers.torch = torch
        w.extract("vllm/model_executor/layers/utils.py", ["get_token_bin_counts_and_mask", "apply_penalties"], layers.__dict__)
        w.exec_file("vllm/v1/sample/ops/bad_words.py", "vllm.v1.sample.ops.bad_words")
        w.exec_file("vllm/v1/sample/ops/logprobs.py", "vllm.v1.sample.ops.logprobs")
        w.exec_file("vllm/v1/sample/ops/penalties.py", "vllm.v1.sample.ops.penalties")
        self.topk = w.exec_file("vllm/v1/sample/ops/topk_topp_sampler.py", "vllm.v1.sample.ops.topk_topp_sampler")
        self.sampler_module = w.exec_file("vllm/v1/sample/sampler.py", "vllm.v1.sample.sampler")
        self.sanitize = w.exec_file(
            "vllm/entrypoints/serve/exception_handling/utils.py", "vllm.entrypoints.serve.exception_handling.utils"
        ).sanitize_message
        # The OpenAI chat request's sampling fields, with the wheel's own annotations, defaults and
        # model config (extra="allow"), so pydantic coerces values as the server's model does.
        protocol = "vllm/entrypoints/openai/chat_completion/protocol.py"
        ns = {}
        w.extract(protocol, ["ChatCompletionRequest._DEFAULT_SAMPLING_PARAMS"], ns)
        self.openai_defaults = ns["ChatCompletionRequest___DEFAULT_SAMPLING_PARAMS"]
        fields = w.annotations(protocol, "ChatCompletionRequest", list(self.openai_defaults))
        import pydantic

        self.request_model = pydantic.create_model(
            "ChatCompletionRequestSamplingFields",
            __config__=pydantic.ConfigDict(extra="allow"),
            **{name: (eval(annotation), default) for name, (annotation, default) in fields.items()},
        )
        self.request_fields = {name: annotation for name, (annotation, _) in fields.items()}
        w.real.append([protocol, ["ChatCompletionRequest field annotations: " + ", ".join(f"{k}: {v}" for k, v in self.request_fields.items())]])
        self.stubs.items.append(
            {
                "module": "vllm.entrypoints.openai.chat_completion.protocol",
                "names": ["ChatCompletionRequest", "to_sampling_params"],
                "why": "the request model is rebuilt with pydantic.create_model from the wheel's own field "
                "annotations and defaults (not importable: its closure is the whole server); "
                "to_sampling_params' priority rule (protocol.py:748-761, request value if not None, else "
                "default_sampling_params, else _DEFAULT_SAMPLING_PARAMS) is re-stated, then the real "
                "SamplingParams.from_optional is called",
            }
        )
        self.glue = [
            "InputBatch.add_request / _make_sampling_metadata (v1/worker/gpu_input_batch.py:395-423, 851-950) "
            "re-stated for one request: GREEDY -> temperature 0.0 and all_greedy (temperature None); "
            "top_p row only if top_p < 1; top_k row only if 0 < top_k < V (else V); penalties only if "
            "repetition_penalty != 1.0, with the prompt (the context ids) padded with V; f32/int32 tensors",
            "the builtin logits processors (MinTokens, LogitBias, MinP) are the wheel's classes, built with "
            "vllm_config.scheduler_config.max_num_seqs=1 on device cpu and fed one real BatchUpdate",
            "max_num_logprobs=-1 (the full processed row); no output tokens yet; no per-request seed",
        ]
        torch.manual_seed(0)

    def header(self):
        return {
            "runtime": "vllm",
            "version": WHEELS["vllm"]["version"],
            "wheel": self.wheel.name,
            "wheel_sha256": self.wheel.sha256,
            "torch": torch.__version__,
            "torch_pinned_by_wheel": WHEELS["vllm"]["torch_pinned"],
            "server": "OpenAI-compatible server (/v1/chat/completions), --generation-config auto: SmolLM2's "
            "generation_config.json has no sampling field, so default_sampling_params is {} and an omitted "
            "field takes ChatCompletionRequest._DEFAULT_SAMPLING_PARAMS",
            "openai_defaults": self.openai_defaults,
            "sampler": "v1 Sampler(logprobs_mode='processed_logprobs').forward -> TopKTopPSampler.forward_native "
            "(the torch path that CUDA also takes when processed logprobs are requested); the draw is "
            "random_sample's exponential race on softmax(final logits) in f32",
            "outcome_semantics": "argmax: SamplingParams is GREEDY (temperature < 1e-5, i.e. 0) and the runtime "
            "returns argmax of the penalised logits; otherwise kept = tokens whose f32 probability handed to the "
            "draw is > 0 (filter_kept, when present, counts the tokens the filters left finite); probs = f64 "
            "softmax of the runtime's own final f32 logits; ties_at_cut = a kept and a cut token had equal "
            "tempered logits before top-k/top-p (torch's sort decided)",
            "run_for_real": self.wheel.real,
            "stubbed": self.stubs.items,
            "glue": self.glue,
            "not_covered": [
                "Model Runner V2, which 0.33.0 selects by default when Triton is available (config/vllm.py:748-767: "
                "VLLM_USE_V2_MODEL_RUNNER unset, HAS_TRITON, no unsupported feature), i.e. on a CUDA GPU: "
                "v1/worker/gpu/sample/sampler.py runs the same order (logits processors and penalties, temperature, "
                "min_p, then apply_top_k_top_p) with Triton kernels; its min_p masks logit < max + log(min_p) "
                "(v1/worker/gpu/sample/min_p.py) rather than p < min_p * max(p), and it draws by Gumbel-max",
                "the Triton (apply_top_k_top_p_triton) and FlashInfer kernels; the CPU build's forward_cpu draw "
                "(torch.ops._C.fused_gumbel_argmax) and greedy (torch.ops._C.greedy_argmax)",
            ],
        }

    def params(self, request):
        """The server's parameter layer: (SamplingParams, None) or (None, error message)."""
        sp = self.sp
        typed = self.request_model(**request)  # raises pydantic.ValidationError (not reached here)
        default_sampling_params = {}  # get_diff_sampling_param() of SmolLM2's generation_config
        sampling_params = {
            name: (value if (value := getattr(typed, name)) is not None else default_sampling_params.get(name, default))
            for name, default in self.openai_defaults.items()
        }
        try:
            return sp.SamplingParams.from_optional(n=1, **sampling_params, max_tokens=16, skip_clone=True), None
        except sys.modules["vllm.exceptions"].VLLMValidationError as e:
            return None, self.sanitize(str(e))

    def metadata(self, params, context_ids, vocab):
        greedy = params.sampling_type == self.sp.SamplingType.GREEDY
        temperature = torch.tensor([0.0 if greedy else params.temperature], dtype=torch.float32)
        top_p = torch.tensor([params.top_p], dtype=torch.float32) if params.top_p < 1 else None
        top_k = torch.tensor([params.top_k], dtype=torch.int32) if 0 < params.top_k < vocab else None
        no_penalties = params.repetition_penalty == 1.0 and params.frequency_penalty == 0.0 and params.presence_penalty == 0.0
        prompt = torch.tensor([context_ids], dtype=torch.int64).view(1, len(context_ids))
        interface = sys.modules["vllm.v1.sample.logits_processor.interface"]
        lp = sys.modules["vllm.v1.sample.logits_processor"]
        config = SimpleNamespace(scheduler_config=SimpleNamespace(max_num_seqs=1))
        processors = [cls(config, torch.device("cpu"), False) for cls in lp.BUILTIN_LOGITS_PROCESSORS]
        update = interface.BatchUpdate(batch_size=1, removed=[], added=[(0, params, list(context_ids), [])], moved=[])
        for p in processors:
            p.update_state(update)
        md = sys.modules["vllm.v1.sample.metadata"].SamplingMetadata(
            temperature=None if greedy else temperature,
            all_greedy=greedy,
            all_random=not greedy,
            top_p=top_p,
            top_k=top_k,
            generators={},
            max_num_logprobs=-1,
            no_penalties=no_penalties,
            prompt_token_ids=None if no_penalties else prompt,
            frequency_penalties=torch.tensor([params.frequency_penalty], dtype=torch.float32),
            presence_penalties=torch.tensor([params.presence_penalty], dtype=torch.float32),
            repetition_penalties=torch.tensor([params.repetition_penalty], dtype=torch.float32),
            output_token_ids=[[]],
            allowed_token_ids_mask=None,
            bad_words_token_ids={},
            logitsprocs=lp.LogitsProcessors(processors),
        )
        return md, greedy

    def run(self, logits, context_ids, request):
        params, error = self.params(request)
        if error is not None:
            return None, {"error": error}
        effective = {k: getattr(params, k) for k in SENT} | {"sampling_type": params.sampling_type.name}
        vocab = logits.size
        md, greedy = self.metadata(params, context_ids, vocab)
        sampler = self.sampler_module.Sampler(logprobs_mode="processed_logprobs")
        record = {}
        with capture(self.topk, "apply_top_k_top_p", record), capture(self.topk, "random_sample", record):
            out = sampler.forward(torch.from_numpy(logits.copy()).view(1, -1), md)
        token = int(out.sampled_token_ids.view(-1)[0])
        if greedy:
            assert not record, record
            return effective, {"argmax": token}
        processed = out.logprobs_tensors.logprobs[0].numpy()
        (topk_call,) = record["apply_top_k_top_p"]
        (draw,) = record["random_sample"]
        final = topk_call["result"][0].numpy()
        pre = topk_call["args"][0][0].numpy()  # tempered (and min_p-masked) logits before top-k/top-p
        probs = draw["args"][0][0].numpy()  # the f32 probabilities random_sample draws from
        filtered = np.isfinite(final)
        assert (np.isfinite(processed) == filtered).all()
        outcome = distribution(probs > 0, final, filtered, (np.isfinite(pre), pre), probs, probs)
        assert outcome["kept"] > 0 and (probs > 0)[token]
        # The same real code on the same values held in f64 (Sampler.forward would cast to f32 first,
        # so this calls the two steps it runs after the cast): which filter decisions are f32 effects.
        md64, _ = self.metadata(params, context_ids, vocab)
        x64 = sampler.apply_logits_processors(torch.from_numpy(logits.astype(np.float64)).view(1, -1), md64, False)
        _, processed64 = sampler.sample(x64, md64)
        compare_f64(outcome, filtered, np.isfinite(processed64[0].numpy()), np.ones(vocab, dtype=bool))
        return effective, outcome


# ---------------------------------------------------------------------------------------------
# SGLang 0.5.23


class Sglang:
    def __init__(self, wheel):
        self.wheel = w = wheel
        self.stubs = s = Stubs()
        for pkg in ("sglang", "sglang.srt", "sglang.srt.sampling", "sglang.srt.layers", "sglang.api", "sglang.api.v1"):
            new_module(pkg, package=True)
        s.module(
            "sglang.srt.sampling.watermarking.core",
            "watermarking is off (no request sets watermark): normalize_watermark_request(None) is None",
            normalize_watermark_request=lambda value: value,
            WatermarkRequestConfig=type("WatermarkRequestConfig", (), {}),
        )
        self.sp = w.exec_file("sglang/srt/sampling/sampling_params.py", "sglang.srt.sampling.sampling_params")
        w.exec_file("sglang/api/v1/api_types.py", "sglang.api.v1.api_types")
        self.contract = w.exec_file("sglang/srt/entrypoints/api_contract.py", "sglang.srt.entrypoints.api_contract")
        ns = {"Optional": __import__("typing").Optional, "torch": torch}
        s.module(
            "sglang.kernels.cake_kernels.sampling",
            "the 'cake' softmax kernel exists only for CUDA SM 10.3: supports_softmax is False here, so the "
            "real sampling.softmax falls back to torch.softmax",
            supports_softmax=lambda logits: False,
        )
        w.extract("sglang/kernels/ops/sampling/__init__.py", ["softmax"], ns)
        self.penalty = {"torch": torch}
        w.extract(
            "sglang/srt/sampling/penaltylib/repetition_penalty.py", ["apply_scaling_penalties"], self.penalty, drop_decorators=True
        )
        sampler_ns = {
            "torch": torch,
            "nn": torch.nn,
            "dist": torch.distributed,
            "partial": __import__("functools").partial,
            **{n: getattr(__import__("typing"), n) for n in ("Callable", "Dict", "List", "NamedTuple", "Optional", "Tuple")},
            "TOP_K_ALL": self.sp.TOP_K_ALL,
            "sampler_softmax": ns["softmax"],
            "SamplingBatchInfo": object,
            "LogitsProcessorOutput": object,
            "SamplingMaskOutput": object,
            "maybe_detect_nan": lambda tensor, msg="": None,
            "sanitize_nan_logits": lambda logits, msg="": None,
            "_is_hip": False,
            "_use_aiter": False,
            "SYNC_TOKEN_IDS_ACROSS_TP": False,
            "SGLANG_RETURN_ORIGINAL_LOGPROB": False,
            "envs": SimpleNamespace(
                SGLANG_TRACE_SAMPLER_E2E=SimpleNamespace(get=lambda: False),
                SGLANG_OPT_USE_GUMBEL_SAMPLE=SimpleNamespace(get=lambda: False),
            ),
            "get_parallel": lambda: SimpleNamespace(tp_group=SimpleNamespace(device_group=None)),
            "is_dp_attention_enabled": lambda: False,
            "get_exec": lambda: SimpleNamespace(
                deterministic=SimpleNamespace(rl_on_policy_target=None, enable_deterministic_inference=False),
                kernel=SimpleNamespace(sampling_backend="pytorch"),
                features=SimpleNamespace(sampling_mask_max_tokens=None),
            ),
            "OutputLogprobProcessor": lambda: None,
        }
        w.extract(
            "sglang/srt/layers/sampler.py",
            [
                "_trace_e2e_sampler",
                "_SamplingMaskCapture",
                "_select_sampling_mask_rows",
                "Sampler",
                "top_k_top_p_min_p_sampling_from_probs_torch",
                "sampling_from_probs_torch",
            ],
            sampler_ns,
        )
        self.sampler_ns = sampler_ns
        self.stubs.items += [
            {
                "module": "sglang.srt.layers.sampler (its other imports)",
                "names": ["get_exec", "get_parallel", "is_dp_attention_enabled", "envs", "OutputLogprobProcessor", "maybe_detect_nan", "sanitize_nan_logits"],
                "why": "server context for Sampler.__init__/forward: sampling_backend='pytorch' (what SGLang selects "
                "without FlashInfer, and forces in deterministic mode; on a CUDA GPU it defaults to flashinfer), "
                "no deterministic inference, no RL on-policy target, TP size 1, tracing and gumbel sampling off; "
                "the NaN probes are no-ops (the logits here are finite, where sanitize_nan_logits is the identity)",
            },
        ]
        self.glue = [
            "SamplingBatchInfo.from_schedule_batch (srt/sampling/sampling_batch_info.py:126-310) re-stated for one "
            "request: f32 temperatures [[T]], f32 top_ps/min_ps, int32 top_ks; is_all_greedy = top_k <= 1; "
            "need_top_p = top_p != 1.0; need_top_k = top_k != TOP_K_ALL; need_min_p = min_p > 0; "
            "max_top_k = top_k if 1 <= top_k < TOP_K_ALL",
            "the tokenizer manager's order (srt/managers/tokenizer_manager.py:1565-1567): "
            "SamplingParams(**sampling_params), .normalize(tokenizer), .verify(vocab_size); "
            "the HTTP layer's contract gate first (srt/entrypoints/http_server.py:937-939)",
            "penalties: the repetition penalizer scales by cumulated_repetition_penalties, all ones before any "
            "output token (penaltylib/repetition_penalty.py:_prepare), through the real apply_scaling_penalties "
            "(run eagerly: its torch.compile decorator is dropped)",
            "top_k_top_p_min_p_sampling_from_probs_torch is called with return_filtered_probs=True (the path a "
            "request with return_sampling_mask takes); the Sampler's own call is wrapped to force it and record "
            "the filtered probabilities. Without it, when 1 <= top_k < V, the real call sorts only "
            "torch.topk(probs, max_top_k, sorted=True): the same set unless ties straddle the k-th place",
        ]
        torch.manual_seed(0)

    def header(self):
        return {
            "runtime": "sglang",
            "version": WHEELS["sglang"]["version"],
            "wheel": self.wheel.name,
            "wheel_sha256": self.wheel.sha256,
            "torch": torch.__version__,
            "torch_pinned_by_wheel": WHEELS["sglang"]["torch_pinned"],
            "server": "/generate with {'input_ids': context, 'sampling_params': request}; an omitted field takes "
            "the SamplingParams class default (/generate ignores generation_config)",
            "defaults": {k: self.sp.SamplingParams().__getattribute__(k) for k in SENT},
            "sampler": "Sampler.forward, pytorch sampling backend: logits.div_(temperatures), torch.softmax, then "
            "sampling_from_probs_torch (multinomial) when no top-k/top-p/min-p is needed, else "
            "top_k_top_p_min_p_sampling_from_probs_torch (top-k and top-p on the full-vocabulary cumsum, then min_p)",
            "outcome_semantics": "argmax: is_all_greedy (top_k <= 1, which includes 0 <= T < 1e-6) and the runtime "
            "returns torch.argmax of the logits; otherwise kept = tokens with a nonzero probability in what "
            "multinomial draws from; probs = the kept tokens' f64 softmax of the runtime's own f32 logits / T; "
            "ties_at_cut = a kept and a cut token had equal f32 probabilities before the cut (torch's sort decided)",
            "run_for_real": self.wheel.real,
            "stubbed": self.stubs.items,
            "glue": self.glue,
            "not_covered": [
                "the flashinfer sampling backend, SGLang's default on a CUDA GPU (srt/arg_groups/overrides.py): "
                "the same joint top-k/top-p set without min_p, but with min_p it renormalises top-k, then top-p, then "
                "applies min_p (srt/layers/sampler.py:407-410), a different kept set",
                "seeded sampling (--enable-deterministic-inference: multinomial_with_seed, a Triton hash)",
                "the OpenAI endpoints (/v1/chat/completions: top_k default -1 and generation_config defaults)",
            ],
        }

    def params(self, request, vocab):
        body = {"input_ids": [1], "sampling_params": request}
        contract_error = self.contract.generate_contract_error(json.loads(json.dumps(body)))
        if contract_error is not None:
            return None, {"error": contract_error}  # the 400 body is {"error": "<text>"}
        params = self.sp.SamplingParams(**request)
        effective = {k: getattr(params, k) for k in SENT}
        effective["greedy"] = params.top_k <= 1
        try:
            params.normalize(None)
            params.verify(vocab)
        except ValueError as e:
            return effective, {"error": str(e)}  # the 400 body is {"error": {"message": "<text>"}}
        return effective, params

    def run(self, logits, context_ids, request):
        vocab = logits.size
        effective, params = self.params(request, vocab)
        if isinstance(params, dict):
            return effective, params
        p = params
        info = SimpleNamespace(
            temperatures=torch.tensor([p.temperature], dtype=torch.float).view(-1, 1),
            top_ps=torch.tensor([p.top_p], dtype=torch.float),
            top_ks=torch.tensor([p.top_k], dtype=torch.int32),
            min_ps=torch.tensor([p.min_p], dtype=torch.float),
            sampling_seed=None,
            is_all_greedy=p.top_k <= 1,
            need_top_p_sampling=p.top_p != 1.0,
            need_top_k_sampling=p.top_k != self.sp.TOP_K_ALL,
            need_min_p_sampling=p.min_p > 0,
            max_top_k=p.top_k if 1 <= p.top_k < self.sp.TOP_K_ALL else None,
            has_custom_logit_processor=False,
            sampling_mask_batch_indices=None,
            sampling_support_logprobs_capture_indices=None,
            grammars=None,
        )
        x = torch.from_numpy(logits.copy()).view(1, -1)
        if p.repetition_penalty != 1.0:  # BatchedRepetitionPenalizer._is_required
            self.penalty["apply_scaling_penalties"](x, torch.ones((1, vocab), dtype=torch.float32))
        sampler = self.sampler_ns["Sampler"]()
        record = {}
        ns = self.sampler_ns
        real_filter = ns["top_k_top_p_min_p_sampling_from_probs_torch"]

        def forced(*args, **kwargs):
            record["filter_args"] = [a.clone() if torch.is_tensor(a) else a for a in args]
            record["filter_kwargs"] = dict(kwargs)
            wanted = kwargs.get("return_filtered_probs", False)
            kwargs["return_filtered_probs"] = True
            result = real_filter(*args, **kwargs)
            record["filter_result"] = [r.clone() for r in result]
            return result if wanted else result[0]

        real_softmax = ns["sampler_softmax"]

        def softmax(logits, *args, **kwargs):
            record["scaled"] = logits.clone()  # the Sampler's own f32 logits / T
            return real_softmax(logits, *args, **kwargs)

        ns["top_k_top_p_min_p_sampling_from_probs_torch"] = forced
        ns["sampler_softmax"] = softmax
        real_simple = ns["sampling_from_probs_torch"]
        try:

            def simple(probs, *args, **kwargs):
                record["simple_probs"] = probs.clone()
                return real_simple(probs, *args, **kwargs)

            ns["sampling_from_probs_torch"] = simple
            logits_output = SimpleNamespace(next_token_logits=x)
            token = sampler.forward(logits_output, info, False, [], [], torch.zeros(1, dtype=torch.int64))
        finally:
            ns["top_k_top_p_min_p_sampling_from_probs_torch"] = real_filter
            ns["sampling_from_probs_torch"] = real_simple
            ns["sampler_softmax"] = real_softmax
        token = int(token.view(-1)[0])
        if info.is_all_greedy:
            assert not record
            return effective, {"argmax": token}
        if "simple_probs" in record:
            probs = record["simple_probs"][0].numpy()
            drawable = probs > 0
            pre = None
            runtime = probs / probs.astype(np.float64).sum()
            f32 = probs
        else:
            input_probs = record["filter_args"][0][0].numpy()
            _, probs_sort, probs_idx, _ = record["filter_result"]
            weights = np.zeros(vocab, dtype=np.float32)
            weights[probs_idx[0].numpy().astype(np.int64)] = probs_sort[0].numpy()
            drawable = weights > 0
            pre = (input_probs > 0, input_probs)
            runtime = weights / weights.astype(np.float64).sum()
            f32 = weights
            # The production call (no return_sampling_mask) sorts only torch.topk(probs, max_top_k).
            k = info.max_top_k
            if k is not None and k < vocab:
                top = torch.topk(torch.from_numpy(input_probs).view(1, -1), k=k, sorted=True).indices[0].numpy()
                if set(top.tolist()) != set(probs_idx[0].numpy()[:k].tolist()):
                    record["topk_differs"] = sorted(top.tolist())
        scaled = record["scaled"][0].numpy()
        outcome = distribution(drawable, scaled, drawable, pre, runtime, f32)
        if "filter_args" in record:
            args = record["filter_args"]
            # The same real filter on the same f32 logits / T, softmaxed and filtered in f64.
            probs64 = torch.softmax(record["scaled"].double(), dim=-1)
            _, sort64, idx64, _ = real_filter(probs64, *args[1:], return_filtered_probs=True)
            kept64 = np.zeros(vocab, dtype=bool)
            kept64[idx64[0].numpy().astype(np.int64)] = sort64[0].numpy() > 0
            compare_f64(outcome, drawable, kept64, pre[0])
            if p.top_p == 1.0:
                # top_p = 1.0 still cuts where the f32 cumsum before a token exceeds 1: rerun with a
                # top_p no sum reaches to count those tokens.
                _, sort2, idx2, _ = real_filter(args[0], args[1], torch.full_like(args[2], 2.0), *args[3:], return_filtered_probs=True)
                if int((sort2 > 0).sum()) != outcome["kept"]:
                    outcome["cut_by_top_p_1"] = int((sort2 > 0).sum()) - outcome["kept"]
        if "topk_differs" in record:
            outcome["topk_top_k_ids"] = record["topk_differs"]
        assert drawable[token]
        return effective, outcome


# ---------------------------------------------------------------------------------------------


def wheel_paths(directory):
    os.makedirs(directory, exist_ok=True)
    missing = [spec["requirement"] for spec in WHEELS.values() if not os.path.exists(os.path.join(directory, spec["file"]))]
    if missing:
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--quiet", "-d", directory, *missing], check=True)
    return {name: os.path.join(directory, spec["file"]) for name, spec in WHEELS.items()}


def load_contexts(fixtures):
    with open(os.path.join(fixtures, "cases.json")) as f:
        contexts = json.load(f)["contexts"]
    out = {}
    for name in CONTEXTS:
        logits = np.load(os.path.join(fixtures, contexts[name]["logits_file"])).astype(np.float32)
        out[name] = (logits, contexts[name]["ids"])
    out["ties"] = (ties_logits(), [])
    return out


def write(path, header, cases):
    with open(path, "w") as f:
        f.write("{\n")
        for key, value in header.items():
            f.write(f"{json.dumps(key)}:{json.dumps(value, separators=(',', ':'))},\n")
        f.write('"cases":[\n')
        f.write(",\n".join(json.dumps(c, separators=(",", ":")) for c in cases))
        f.write("\n]}\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("fixtures", help="tests/fixtures")
    parser.add_argument("--wheels", default=os.path.join(REPO, "target", "runtimes", "wheels"))
    args = parser.parse_args()
    paths = wheel_paths(args.wheels)
    contexts = load_contexts(args.fixtures)
    out_dir = os.path.join(args.fixtures, "runtimes")
    os.makedirs(out_dir, exist_ok=True)
    for name, runtime in (("vllm", Vllm), ("sglang", Sglang)):
        r = runtime(Wheel(paths[name], WHEELS[name]["sha256"]))
        cases = []
        for context, (logits, ids) in contexts.items():
            for call in CALLS:
                request, ignored = port_request(call)
                effective, outcome = r.run(logits, ids, request)
                cases.append(
                    {"context": context, "call": call, "request": request, "ignored": ignored, "effective": effective, "outcome": outcome}
                )
        header = r.header()
        header["vocab"] = {c: int(l.size) for c, (l, _) in contexts.items()}
        header["contexts"] = {c: ids for c, (_, ids) in contexts.items()}
        header["synthetic"] = {"ties": contexts["ties"][0].tolist()}
        header["calls"] = CALLS
        header["outcome_fields"] = OUTCOME_FIELDS
        path = os.path.join(out_dir, f"{name}.json")
        write(path, header, cases)
        print(f"{path}: {len(cases)} cases, {os.path.getsize(path)} bytes")


if __name__ == "__main__":
    main()
