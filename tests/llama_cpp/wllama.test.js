// The llama_cpp column against the real llama.cpp: @wllama/wllama 3.13.0 (the npm package
// package-lock.json pins, libllama b12211) on the default GGUF, in headless Chromium beside this
// crate's wasm. Per prompt, wllama's raw top-4000 log-probabilities are the column's logits; for
// each generate() call, the request the column says a port sends goes to wllama, and the
// distribution wllama's chain draws from (`post_sampling_probs`) must be the column's: the same
// tokens, probabilities within 1e-6. Then the page's Monte Carlo draws equal wllama's, seed by
// seed, and libc++'s ties are settled as wllama settles them, on a tiny vocabulary built with
// logit_bias. The ollama column is the same chain with Ollama's values: for its own settings, what
// it says Ollama sends llama-server (every field, `llama_server`) goes to wllama, and wllama's
// distribution must be the column's.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { ISOLATED, serveStatic } from "../../scripts/static-server.mjs";
import { launchChromium, MODEL } from "../e2e/harness.js";

const PROMPTS = ["The capital of France is", "Once upon a time, there was a", "My favourite fruits are apples, bananas and"];
/** Raw log-probabilities asked of wllama per prompt (its JSON breaks on some byte tokens above
 * a few thousand), and the candidates asked of its chain. */
const RAW = 4000;
const POST = 1000;
const TOLERANCE = 1e-6;
/** How far wllama's raw log-probabilities' normalisation and its top_p's own f32 softmax can put
 * the same token's cumulative mass apart (2e-5 measured). */
const NORMALISATION = 3e-5;

/** generate() arguments as a Python user writes them: the column maps each to a request. */
const SETTINGS = {
  "defaults (nothing passed)": "{}",
  "temperature only": '{"do_sample": true, "temperature": 0.9, "top_k": 0, "top_p": 1.0, "min_p": 0.0}',
  "T < 1 with top_p": '{"do_sample": true, "temperature": 0.7, "top_p": 0.9}',
  "T > 1 with top_p": '{"do_sample": true, "temperature": 1.5, "top_p": 0.9}',
  "top_k off": '{"do_sample": true, "top_k": 0}',
  "top_k 200 (bucket sort)": '{"do_sample": true, "top_k": 200, "top_p": 1.0, "min_p": 0.0}',
  "top_k 1000, top_p .95, T .9": '{"do_sample": true, "temperature": 0.9, "top_k": 1000, "top_p": 0.95}',
  "top_k off, top_p .9 (unsorted top_p)": '{"do_sample": true, "top_k": 0, "top_p": 0.9, "min_p": 0.0}',
  "min_p .1 at T 2": '{"do_sample": true, "temperature": 2.0, "min_p": 0.1}',
  "typical after top_k": '{"do_sample": true, "typical_p": 0.5}',
  "greedy: do_sample=False": '{"do_sample": false}',
  "greedy: temperature below 0": '{"do_sample": true, "temperature": -1.0}',
  "clamped: top_k -5, top_p 1.7, min_p -0.2": '{"do_sample": true, "top_k": -5, "top_p": 1.7, "min_p": -0.2}',
  "top_p 0": '{"do_sample": true, "top_p": 0.0}',
};

/** generate() arguments for the ollama column: Ollama's defaults (top_k 40, top_p 0.9, min_p 0,
 * temperature 0.8), do_sample alone, temperatures around llama.cpp's only threshold (≤ 0), top_k
 * off, 1 and small, top_p 0, small and near 1, min_p with top_k and without, a None (not sent, so
 * Ollama's default), values transformers refuses and llama-server clamps, and DFlash's benchmark
 * call. */
const OLLAMA_SETTINGS = {
  "defaults (nothing passed)": "{}",
  "do_sample alone": '{"do_sample": true}',
  "temperature 0.7": '{"do_sample": true, "temperature": 0.7}',
  "temperature 1.5, top_p .95": '{"do_sample": true, "temperature": 1.5, "top_p": 0.95}',
  "greedy: temperature 0": '{"do_sample": true, "temperature": 0.0}',
  "greedy: temperature below 0": '{"do_sample": true, "temperature": -0.5}',
  "greedy: do_sample=False": '{"do_sample": false, "temperature": 0.7}',
  "temperature 1e-5": '{"do_sample": true, "temperature": 1e-5}',
  "top_k off, top_p .9 (unsorted top_p)": '{"do_sample": true, "top_k": 0}',
  "top_k 1": '{"do_sample": true, "top_k": 1}',
  "top_k 5": '{"do_sample": true, "top_k": 5}',
  "top_p 0": '{"do_sample": true, "top_p": 0.0}',
  "top_p .05": '{"do_sample": true, "top_p": 0.05}',
  "top_p .999": '{"do_sample": true, "top_p": 0.999}',
  "min_p .05 with top_k 40": '{"do_sample": true, "min_p": 0.05}',
  "min_p .1 without top_k (unsorted top_p)": '{"do_sample": true, "min_p": 0.1, "top_k": 0, "temperature": 1.3}',
  "None not sent: Ollama's top_k and top_p": '{"do_sample": true, "top_k": null, "top_p": null}',
  "clamped: top_k -5, top_p 1.7": '{"do_sample": true, "top_k": -5, "top_p": 1.7}',
  "DFlash's benchmark call": '{"do_sample": true, "temperature": 0.6, "top_p": 1.0, "top_k": 1}',
};

const state = {};

before(async () => {
  state.server = await serveStatic([
    ["/wllama/", "node_modules/@wllama/wllama/esm"], ["/pkg/", "pkg"], ["/models/", "models"], ["/", "tests/llama_cpp"],
  ], () => ISOLATED);
  state.browser = await launchChromium();
  state.page = await state.browser.newPage();
  state.page.on("pageerror", (e) => console.log(`# page error: ${e.message}`));
  await state.page.goto(`${state.server.base}page.html`);
  state.version = await state.page.evaluate((model) => window.lab.load(model), `${state.server.base}${MODEL}`);
  state.tails = {};
  for (const prompt of PROMPTS) state.tails[prompt] = (await ask("raw", prompt, RAW)).tail;
});

after(async () => {
  await state.browser?.close();
  state.server?.server.close();
});

const ask = (name, ...args) => state.page.evaluate(([n, a]) => window.lab[n](...a), [name, args]);

test("the column stands for the libllama build wllama bundles", async () => {
  const { llama } = await ask("column", PROMPTS[0], "{}");
  assert.equal(llama.version, state.version);
});

/** Both distributions over the candidates both list, each renormalised there: where the chain
 * keeps more than wllama returns, or than the column sees (its tokens past the top 4000). */
function renormalised(ours, theirs) {
  const mine = new Map(ours);
  const common = theirs.filter(([id]) => mine.has(id));
  const total = (list) => list.reduce((s, [, p]) => s + p, 0);
  const mineTotal = total(common.map(([id]) => [id, mine.get(id)]));
  const theirTotal = total(common);
  return common.map(([id, p]) => [id, mine.get(id) / mineTotal, p / theirTotal]);
}

/** The column's entry against wllama's post-sampling distribution for the same request. */
async function agrees(name, prompt, column, wllama, where) {
  if (column.kept < POST && wllama.probs.length < POST) {
    if (column.kept !== wllama.probs.length && /unsorted top_p/.test(name)) {
      await unseenTailMovesTheCut(prompt, column, wllama, where);
      return;
    }
    assert.equal(column.kept, wllama.probs.length, `${where}: kept`);
    const mine = new Map(column.support);
    for (const [id, p] of wllama.probs) {
      assert.ok(mine.has(id), `${where}: wllama keeps ${id}, the column does not`);
      assert.ok(Math.abs(mine.get(id) - p) <= TOLERANCE, `${where}: token ${id}: ${mine.get(id)} vs wllama ${p}`);
    }
  } else {
    const pairs = renormalised(column.support, wllama.probs);
    assert.ok(pairs.length >= 0.99 * Math.min(POST, column.kept), `${where}: only ${pairs.length} tokens in common`);
    for (const [id, mine, theirs] of pairs) assert.ok(Math.abs(mine - theirs) <= TOLERANCE, `${where}: token ${id}: ${mine} vs wllama ${theirs}`);
  }
}

for (const [name, params] of Object.entries(SETTINGS)) {
  test(`${name}: the column keeps wllama's tokens, probabilities within 1e-6, on every prompt`, async () => {
    for (const prompt of PROMPTS) {
      const { llama } = await ask("column", prompt, params);
      const wllama = await ask("post", prompt, llama.request, POST, 0);
      await agrees(name, prompt, llama, wllama, `${prompt} ${params} → ${JSON.stringify(llama.request)}`);
    }
  });
}

for (const [name, params] of Object.entries(OLLAMA_SETTINGS)) {
  test(`Ollama, ${name}: with every field Ollama sends llama-server, the column keeps wllama's tokens, probabilities within 1e-6, on every prompt`, async () => {
    for (const prompt of PROMPTS) {
      const { ollama } = await ask("column", prompt, params);
      assert.equal(ollama.version, "0.32.15");
      const wllama = await ask("post", prompt, ollama.llama_server, POST, 0);
      await agrees(name, prompt, ollama, wllama, `Ollama: ${prompt} ${params} → ${JSON.stringify(ollama.llama_server)}`);
    }
  });
}

/** top_p without top_k normalises over the whole vocabulary, and the column sees only the top
 * 4000: the mass of the rest (the tail) is missing from its sum, so its cut may fall earlier
 * than wllama's, but only for tokens that wllama's own softmax puts within that tail's mass of
 * top_p. Everywhere else the two keep the same tokens with the same (renormalised) probabilities.
 * (The log-probabilities and top_p's softmax are two f32 sums in different orders: they differ
 * by up to NORMALISATION.) */
async function unseenTailMovesTheCut(prompt, llama, wllama, where) {
  const p = (llama.llama_server ?? llama.request).top_p;
  const ours = new Set(llama.support.map(([id]) => id));
  const theirs = new Set(wllama.probs.map(([id]) => id));
  const differ = [...theirs].filter((id) => !ours.has(id)).concat([...ours].filter((id) => !theirs.has(id)));
  const tail = state.tails[prompt];
  const above = await ask("massAbove", prompt, differ);
  for (const [i, id] of differ.entries()) {
    assert.ok(above[i] !== null && above[i] < p + NORMALISATION && above[i] >= p - tail - TOLERANCE, `${where}: token ${id} has ${above[i]} above it, top_p ${p}, unseen tail ${tail}`);
  }
  for (const [id, mine, theirsP] of renormalised(llama.support, wllama.probs)) {
    assert.ok(Math.abs(mine - theirsP) <= TOLERANCE, `${where}: token ${id}: ${mine} vs wllama ${theirsP}`);
  }
  const range = `${Math.min(...above).toFixed(5)}–${Math.max(...above).toFixed(5)}`;
  console.log(`# ${prompt}: top_p over the whole vocabulary keeps ${llama.kept}, wllama ${wllama.probs.length}; the ${differ.length} between have ${range} above them, within the unseen tail's ${tail.toExponential(2)} of top_p ${p}`);
}

test("the page's Monte Carlo draws what wllama draws, seed by seed: 200 seeds over three prompts and two settings", async () => {
  const runs = [...PROMPTS.map((p) => [p, "{}"]), [PROMPTS[1], SETTINGS["T < 1 with top_p"]]];
  // 50 seeds a run: one request to wllama each (~0.2 s), every one a draw to agree on.
  const seeds = 50;
  for (const [prompt, params] of runs) {
    const { llama } = await ask("column", prompt, params);
    const ours = await ask("draws", prompt, params, 1000, seeds);
    const theirs = [];
    // The same prompt again and again: its cached prefill gives the same logits in one slot.
    for (let seed = 1000; seed < 1000 + seeds; seed++) theirs.push((await ask("post", prompt, llama.request, 1, seed, true)).drawn);
    assert.deepEqual(ours.each, theirs, `${prompt} ${params}`);
    const counted = new Map(ours.counts);
    const histogram = new Map();
    for (const id of theirs) histogram.set(id, (histogram.get(id) ?? 0) + 1);
    assert.deepEqual([...histogram].sort(), [...counted].sort(), `one run of ${seeds} draws counts the same tokens`);
  }
});

/** Tiny vocabularies as wllama can be given them: logit_bias puts 1e10 + 1024·c on ids 0…n−1
 * (at 1e10 an f32 steps by 1024, so the raw logit vanishes) and temperature 1024 brings them
 * back to c; every other token is 1e10 below. */
const TIES = [[[3, 2, 2, 1], 2], [[2, 2, 3], 2], [[1, 2, 2, 3], 2], [[2, 2, 2], 2], [[2, 2, 2], 3], [[2, 3, 2, 3], 2], [[2, 2, 2, 2, 2], 4]];

test("ties at the k-th score: the column keeps the tokens libc++'s heap keeps in wllama, and greedy picks its first", async () => {
  for (const [levels, k] of TIES) {
    const lab = `ties ${levels} k ${k}`;
    await ask("raw", lab, 0, levels);
    const logitBias = levels.map((c, id) => [id, 1e10 + 1024 * c]);
    const sampled = await ask("column", lab, JSON.stringify({ do_sample: true, top_k: k, temperature: 1.0, top_p: 1.0, min_p: 0.0 }));
    const wllama = await ask("post", PROMPTS[0], { logit_bias: logitBias, top_k: k, temperature: 1024, top_p: 1, min_p: 0 }, 100, 0);
    assert.deepEqual(wllama.probs.map(([id]) => id).sort(), sampled.llama.support.map(([id]) => id).sort(), lab);
    for (const [id, p] of wllama.probs) assert.ok(Math.abs(new Map(sampled.llama.support).get(id) - p) <= TOLERANCE, `${lab}: ${id}`);
    const greedy = await ask("column", lab, JSON.stringify({ do_sample: false, top_k: k }));
    const picked = await ask("post", PROMPTS[0], { logit_bias: logitBias, top_k: k, temperature: 0 }, 10, 0);
    assert.deepEqual(picked.probs.map(([id]) => id), greedy.llama.support.map(([id]) => id), `${lab}, greedy`);
  }
});
