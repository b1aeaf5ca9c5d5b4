// The in-browser half of `make bench`: one run of each figure for one system, timed here so that
// page start-up and the driver's round trips are not counted.
const now = () => performance.now();
const seconds = (since) => (now() - since) / 1000;
const PARAMS = '{"do_sample": true, "temperature": 0.7, "top_k": 40, "top_p": 0.9}';

async function download(url) {
  return new Uint8Array(await (await fetch(url, { cache: "no-store" })).arrayBuffer());
}

async function measureWasm({ precision }, { model, question, newTokens, draws }) {
  const wasm = await import("./pkg/sampling_lab.js");
  const exports = await wasm.default();
  const loadStart = now();
  const lab = wasm.Lab.fromGguf(await download(model), precision);
  const load_s = seconds(loadStart);
  const chat = { messages: [{ role: "user", content: question }] };

  const prefillStart = now();
  const generation = lab.startGeneration(chat, { params: "{}", maxNewTokens: newTokens });
  const prefill_s = seconds(prefillStart);
  const decodeStart = now();
  let tokens = 0;
  while (generation.step() !== null) tokens += 1;
  // The last step samples without running the model: tokens − 1 forward passes.
  const decode_tok_s = (tokens - 1) / seconds(decodeStart);

  const inspect = () => {
    const step = lab.nextStep(chat);
    step.inspect(PARAMS, null);
    step.free();
  };
  inspect(); // computes and keeps the prompt's logits
  const inspections = [];
  for (let i = 0; i < 5; i++) {
    const start = now();
    inspect();
    inspections.push(now() - start);
  }
  inspections.sort((a, b) => a - b);

  const step = lab.nextStep(chat);
  const job = step.drawJob(PARAMS, null);
  step.free();
  const run = wasm.monteCarlo(job.logits, job.params, job.generationConfig, job.contextIds, draws, 0n);
  const drawStart = now();
  run.advance(run.total);
  // Per port, as the page counts them; here one thread draws every candle port, one after the other.
  const elapsed = seconds(drawStart);
  const done = run.done; // finish() hands the run's memory back
  const result = run.finish();
  const ports = ["literal", "corrected", "dflash"].filter((p) => result[p] && !result[p].error).length;
  const draws_per_s = done / ports / elapsed;
  return {
    load_s, prefill_s, decode_tok_s, prompt_tokens: generation.promptIds().length, new_tokens: tokens,
    inspect_ms: inspections[2], draws_per_s, peak_memory_mb: exports.memory.buffer.byteLength / 1e6,
  };
}

/** DFlash's loop against plain decoding of the same answer, in one instance: the greedy draft on
 * the reference chat, and prompt lookup on a prompt whose answer copies it. */
async function measureSpeculative(_, { model, question, newTokens }) {
  const wasm = await import("./pkg/sampling_lab.js");
  await wasm.default();
  const lab = wasm.Lab.fromGguf(await download(model), "exact");
  const copy = "Repeat this sentence exactly, twice: the quick brown fox jumps over the lazy dog while the cat sleeps.";
  const figures = {};
  for (const [name, user, draft] of [["greedy", question, "greedy"], ["lookup", copy, "prompt-lookup"]]) {
    const chat = { messages: [{ role: "user", content: user }] };
    const options = { semantics: "dflash", params: '{"temperature": 0.0}', maxNewTokens: newTokens };
    const plainStart = now();
    const generation = lab.startGeneration(chat, options);
    while (generation.step() !== null);
    const plain_s = seconds(plainStart);
    const specStart = now();
    const result = lab.speculate(chat, options, draft, 16);
    const spec_s = seconds(specStart);
    figures[`tau_${name}`] = result.mean_acceptance_length;
    figures[`spec_over_plain_${name}`] = spec_s / plain_s;
  }
  return figures;
}

async function measureWllama({ threads }, { model, question, newTokens }) {
  const { Wllama } = await import("./wllama/index.js");
  const wllama = new Wllama({ default: "./wllama/wasm/wllama.wasm" }, { suppressNativeLog: true });
  const loadStart = now();
  await wllama.loadModelFromUrl(model, { n_threads: threads, n_ctx: 1024, n_gpu_layers: 0, useCache: false });
  const load_s = seconds(loadStart);
  const response = await wllama.createChatCompletion({
    messages: [{ role: "user", content: question }], max_tokens: newTokens, temperature: 0,
  });
  const t = response.timings;
  await wllama.exit();
  return { load_s, prefill_s: t.prompt_ms / 1000, decode_tok_s: t.predicted_per_second, prompt_tokens: t.prompt_n, new_tokens: t.predicted_n };
}

const MEASURES = { wasm: measureWasm, wllama: measureWllama, speculative: measureSpeculative };
window.measure = (system, options) => MEASURES[system.kind](system, options);
