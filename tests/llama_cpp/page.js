// The in-browser half of the llama_cpp and ollama tests: wllama 3.13.0 (llama.cpp's own wasm, from
// npm) and this crate's wasm side by side in one page, each asked about the same prompt.
import { Wllama } from "/wllama/index.js";
import init, { inspect, monteCarlo } from "/pkg/sampling_lab.js";

const VOCAB = 49152;
let wllama = null;
/** Each prompt's logits as wllama gave them (`raw`), kept here for the column's questions. */
const logitsOf = new Map();

/** Loads the GGUF into wllama as the research note prescribes: one slot, one thread. */
async function load(model) {
  await init();
  wllama = new Wllama({ default: "/wllama/wasm/wllama.wasm" }, { suppressNativeLog: true });
  await wllama.loadModelFromUrl(model, { n_threads: 1, n_ctx: 512, n_gpu_layers: 0, useCache: false, n_parallel: 1 });
  return Wllama.getLibllamaVersion();
}

/** wllama's raw top-`n` log-probabilities of the token after `prompt` (T = 1, no sampler), kept
 * as the prompt's logits vector: the `n` returned, −inf elsewhere (a log-softmax is the logits
 * up to a constant, which no sampler of the chain but the penalties sees). Or, for a ties lab,
 * the `levels` given. Returns how many were returned, and the mass of the others. */
async function raw(prompt, n, levels = null) {
  if (levels) {
    logitsOf.set(prompt, Float32Array.from(levels));
    return { returned: levels.length, tail: 0 };
  }
  const response = await wllama.createCompletion({ prompt, max_tokens: 1, n_probs: n, cache_prompt: false, temperature: 0 });
  const top = response.choices[0].logprobs.content[0].top_logprobs;
  const logits = new Float32Array(VOCAB).fill(-Infinity);
  for (const { id, logprob } of top) logits[id] = logprob;
  logitsOf.set(prompt, logits);
  // The mass of the tokens not returned: what the column cannot see.
  return { returned: top.length, tail: 1 - top.reduce((sum, { logprob }) => sum + Math.exp(logprob), 0) };
}

/** For each of `ids`, the mass of the more probable tokens under wllama's own softmax over the
 * whole vocabulary (the raw log-probabilities): where top_p decides on it. */
function massAbove(prompt, ids) {
  const logits = logitsOf.get(prompt);
  const order = Array.from(logits.keys()).filter((i) => logits[i] > -Infinity).sort((a, b) => logits[b] - logits[a]);
  const above = new Map();
  let sum = 0;
  for (const id of order) {
    above.set(id, sum);
    sum += Math.exp(logits[id]);
  }
  return ids.map((id) => above.get(id) ?? null);
}

/** The distribution wllama's chain draws from for `request` (llama.cpp's keys), up to `n`
 * candidates, and the token it drew with `seed`. */
async function post(prompt, request, n, seed, cachePrompt = false) {
  const response = await wllama.createCompletion({ prompt, max_tokens: 1, n_probs: n, post_sampling_probs: true, cache_prompt: cachePrompt, seed, ...request });
  const first = response.choices[0].logprobs.content[0];
  return { drawn: first.id, probs: first.top_probs.map(({ id, prob }) => [id, prob]) };
}

/** This crate's report for the prompt's logits under the generate() arguments `params` (JSON text). */
function column(prompt, params) {
  const report = inspect(logitsOf.get(prompt), params, null, new Uint32Array());
  return { llama: report.llama_cpp, ollama: report.ollama, hf: report.hf.kept, causes: report.causes.filter((c) => c.column === "llama_cpp") };
}

/** The page's Monte Carlo for `seeds` seeds from `seed` on: each draw the first of its seed. */
function draws(prompt, params, seed, seeds) {
  const logits = logitsOf.get(prompt);
  const one = (s) => {
    const run = monteCarlo(logits, params, null, new Uint32Array(), 1, BigInt(s));
    run.advance(run.total);
    return run.finish().llama_cpp.frequencies[0][0];
  };
  const each = Array.from({ length: seeds }, (_, i) => one(seed + i));
  const run = monteCarlo(logits, params, null, new Uint32Array(), seeds, BigInt(seed));
  run.advance(run.total);
  return { each, counts: run.finish().llama_cpp.frequencies };
}

window.lab = { load, raw, massAbove, post, column, draws };
