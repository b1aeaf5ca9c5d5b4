// The in-browser half of `make bench`: one run of each figure for one system, timed here so that
// page start-up and the driver's round trips are not counted.
const now = () => performance.now();
const seconds = (since) => (now() - since) / 1000;
const PARAMS = '{"do_sample": true, "temperature": 0.7, "top_k": 40, "top_p": 0.9}';

/** The page's memory with its workers (JS heaps and wasm memories), in MB: the same measure for
 * every system, taken while its model is still loaded. Needs cross-origin isolation. */
async function memoryMb() {
  const measured = await performance.measureUserAgentSpecificMemory?.();
  return measured ? measured.bytes / 1e6 : undefined;
}

async function download(url) {
  return new Uint8Array(await (await fetch(url, { cache: "no-store" })).arrayBuffer());
}

async function measureWasm({ precision }, { model, question, newTokens, draws, longPrompt }) {
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
  let text = "";
  for (let step; (step = generation.step()) !== null; tokens += 1) text += step.text;
  // The last step samples without running the model: tokens − 1 forward passes.
  const decode_tok_s = (tokens - 1) / seconds(decodeStart);

  const longStart = now();
  const longStep = lab.nextStep({ messages: [{ role: "user", content: longPrompt }] });
  const long_prefill_s = seconds(longStart);
  const long_prompt_tokens = longStep.contextIds.length;
  longStep.free();

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
  // Every drawing column draws `draws`: the run's total counts them all.
  const draws_per_s = (run.done * draws) / run.total / elapsed;
  run.finish(); // hands the run's memory back
  return {
    load_s, prefill_s, decode_tok_s, prompt_tokens: generation.promptIds().length, new_tokens: tokens, text,
    inspect_ms: inspections[2], draws_per_s, long_prefill_s, long_prompt_tokens,
    // The page's own measure misses an instance on the page's thread: its wasm memory and JS heap.
    memory_mb: (exports.memory.buffer.byteLength + performance.memory.usedJSHeapSize) / 1e6,
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

/** wllama (llama.cpp's wasm; one build, multi-threaded where the page is cross-origin
 * isolated and `threads` > 1), timed by llama.cpp's own counters. */
async function measureWllama({ threads }, { model, question, newTokens, longPrompt }) {
  const { Wllama } = await import("./wllama/index.js");
  const wllama = new Wllama({ default: "./wllama/wasm/wllama.wasm" }, { suppressNativeLog: true });
  const loadStart = now();
  await wllama.loadModelFromUrl(model, { n_threads: threads, n_ctx: 1024, n_gpu_layers: 0, useCache: false });
  const load_s = seconds(loadStart);
  const chat = (content, max_tokens) => wllama.createChatCompletion({
    messages: [{ role: "user", content }], max_tokens, temperature: 0, cache_prompt: false,
  });
  const response = await chat(question, newTokens);
  const t = response.timings;
  const long = (await chat(longPrompt, 1)).timings;
  const used = wllama.getNumThreads();
  const memory_mb = await memoryMb();
  await wllama.exit();
  return {
    load_s, prefill_s: t.prompt_ms / 1000, decode_tok_s: t.predicted_per_second, prompt_tokens: t.prompt_n,
    new_tokens: t.predicted_n, text: response.choices[0].message.content,
    long_prefill_s: long.prompt_ms / 1000, long_prompt_tokens: long.prompt_n, threads: used, memory_mb,
  };
}

/** transformers.js on its WASM backend (onnxruntime-web's CPU build, `threads` threads) on
 * `make onnx`'s export of the same GGUF weights; `dtype` fp32 or q8. Prefill is a one-token
 * generation; decode the time between the first and the last streamed token. */
async function measureTransformersJs({ dtype, threads }, { question, newTokens, longPrompt }) {
  const { env, AutoTokenizer, AutoModelForCausalLM } = await import("/tjs/transformers.web.js");
  env.allowRemoteModels = false;
  env.allowLocalModels = true;
  env.localModelPath = "/onnx/";
  env.useBrowserCache = false;
  env.useWasmCache = false;
  env.backends.onnx.wasm.wasmPaths = "/ort/";
  env.backends.onnx.wasm.numThreads = threads;
  const id = "SmolLM2-135M-Instruct";
  const loadStart = now();
  const tokenizer = await AutoTokenizer.from_pretrained(id);
  const model = await AutoModelForCausalLM.from_pretrained(id, { dtype, device: "wasm" });
  const load_s = seconds(loadStart);
  const prompt = (content) => tokenizer.apply_chat_template([{ role: "user", content }],
    { add_generation_prompt: true, return_dict: true });
  const greedy = { do_sample: false, repetition_penalty: 1.0 };
  const prefill = async (inputs) => {
    const start = now();
    await model.generate({ ...inputs, ...greedy, max_new_tokens: 1 });
    return seconds(start);
  };
  const inputs = prompt(question);
  await prefill(inputs); // the first run compiles onnxruntime's kernels
  const prefill_s = await prefill(inputs);
  const times = [];
  const streamer = { put: () => times.push(now()), end: () => {} };
  const output = await model.generate({ ...inputs, ...greedy, max_new_tokens: newTokens, streamer });
  const promptLength = inputs.input_ids.dims[1];
  const ids = Array.from(output.tolist()[0].slice(promptLength), Number);
  // The streamer hears the prompt first, then each new token.
  const decoded = times.slice(-ids.length);
  const decode_tok_s = (decoded.length - 1) / ((decoded.at(-1) - decoded[0]) / 1000);
  const long = prompt(longPrompt);
  const long_prefill_s = await prefill(long);
  const memory_mb = await memoryMb();
  await model.dispose();
  return {
    load_s, prefill_s, decode_tok_s, prompt_tokens: promptLength, new_tokens: ids.length,
    text: tokenizer.decode(ids, { skip_special_tokens: true }), long_prefill_s,
    long_prompt_tokens: long.input_ids.dims[1], threads, memory_mb,
  };
}

/** The exact model in a worker, as the page runs it: `build` pkg or threads (measure-worker.js). */
function measureInWorker({ build, threads }, { model, question, newTokens, longPrompt }) {
  return new Promise((resolve, reject) => {
    const worker = new Worker("./measure-worker.js");
    worker.onmessage = async ({ data }) => {
      const memory_mb = await memoryMb();
      worker.terminate();
      if (data.error) reject(new Error(data.error));
      else resolve({ ...data, memory_mb });
    };
    worker.onerror = (e) => reject(new Error(e.message));
    worker.postMessage({ build, threads, model, question, newTokens, longPrompt });
  });
}

/** Monte Carlo draws split over `workers` draw workers as the page splits them (the same seeded
 * blocks, counts equal to one thread's), timed from the job to the last part. */
async function measureDraws({ workers }, { model, question, draws }) {
  const wasm = await import("./pkg/sampling_lab.js");
  await wasm.default();
  const lab = wasm.Lab.fromGguf(await download(model), "exact");
  const step = lab.nextStep({ messages: [{ role: "user", content: question }] });
  const handle = step.drawJob(PARAMS, null);
  // Plain arrays, as the page's worker sends a job to its draw workers.
  const job = { logits: handle.logits, params: handle.params, generationConfig: handle.generationConfig, contextIds: handle.contextIds };
  handle.free();
  step.free();
  const pool = Array.from({ length: workers }, () => new Worker("./draw-worker.js", { type: "module" }));
  await Promise.all(pool.map((w) => ask(w, { warm: true })));
  const start = now();
  await Promise.all(pool.map((w, part) => ask(w, { job, draws, part, parts: workers })));
  const elapsed = seconds(start);
  pool.forEach((w) => w.terminate());
  return { draws_per_s: draws / elapsed, threads: workers };
}

/** What the answer view costs a generation, as the page pays it: 64 tokens sampled under
 * the reference call with seed 0, alone; then again with each step's figures under every column
 * read by a worker of the sampling core beside the decoding (timed until the last figures are
 * in); and with the figures read on the decoding's own thread, one step after the other. */
async function measureAnswer(_, { model }) {
  const newTokens = 64;
  const wasm = await import("./pkg/sampling_lab.js");
  await wasm.default();
  const lab = wasm.Lab.fromGguf(await download(model), "exact");
  const chat = { messages: [{ role: "user", content: "Write a short story about the sea." }] };
  const options = { params: PARAMS, seed: 0, maxNewTokens: newTokens };
  // The prompt's prefill is kept after the first run: each timing below starts from it.
  lab.startGeneration(chat, options).free();
  const jobOf = (generation, step) => {
    const handle = generation.stepAt(step.index);
    const job = handle.drawJob(PARAMS, null);
    const plain = { logits: job.logits, params: job.params, generationConfig: job.generationConfig ?? null, contextIds: job.contextIds, token: step.token };
    job.free();
    handle.free();
    return plain;
  };
  const run = async (onStep) => {
    const start = now();
    const generation = lab.startGeneration(chat, options);
    const pending = [];
    let tokens = 0;
    for (let step; (step = generation.step()) !== null; tokens += 1) pending.push(onStep(generation, step));
    await Promise.all(pending);
    generation.free();
    return { seconds: seconds(start), tokens };
  };
  const plain = await run(() => null);
  const worker = new Worker("./figures-worker.js", { type: "module" });
  await ask(worker, { warm: true });
  const replies = [];
  worker.onmessage = ({ data }) => replies.shift()(data);
  const beside = await run((generation, step) => {
    const job = jobOf(generation, step);
    return new Promise((resolve) => { replies.push(resolve); worker.postMessage({ job }); });
  });
  worker.terminate();
  const core = await import("/page/pkg-core/sampling_lab.js");
  await core.default();
  const serial = await run((generation, step) => {
    const { logits, params, generationConfig, contextIds, token } = jobOf(generation, step);
    core.answerStep(logits, params, generationConfig, contextIds, token);
  });
  return { answer_tokens: plain.tokens, answer_plain_s: plain.seconds, answer_figures_s: beside.seconds, answer_serial_s: serial.seconds };
}

function ask(worker, message) {
  return new Promise((resolve, reject) => {
    worker.onmessage = ({ data }) => (data.error ? reject(new Error(data.error)) : resolve(data));
    worker.postMessage(message);
  });
}

const MEASURES = {
  wasm: measureWasm, wllama: measureWllama, speculative: measureSpeculative,
  "transformers-js": measureTransformersJs, worker: measureInWorker, draws: measureDraws, answer: measureAnswer,
};
window.measure = (system, options) => MEASURES[system.kind](system, options);
