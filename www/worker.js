// Owns the wasm instance and the loaded model; answers the page's requests (protocol.js).
import { workerScript } from "./trusted.js";
import init, { Lab, exhaustMemory, inspect as inspectLogits, parseLogits, simd, trap } from "./pkg/sampling_lab.js";
import { DrawReply, DrawRequest, Reply, Request } from "./protocol.js";
import { drawAll, nextTask, partOfRun } from "./drawing.js";
import { fetchSource } from "./model-files.js";

/** @type {Lab | null} */
let lab = null;
/** The last generation, kept so that its steps can be inspected. */
let generation = null;
let running = null; // { id, cancelled, onCancel? } while a generation or Monte Carlo run is going
let queue = Promise.resolve();
/** The draw worker (draws.js), started by the first Monte Carlo run; null until then. */
let drawWorker = null;

/** The compiled wasm, instantiated here and handed to the draw worker, which then skips compiling. */
const wasmModule = compileWasm(new URL("./pkg/sampling_lab_bg.wasm", import.meta.url));
const ready = wasmModule.then((module) => init({ module_or_path: module })).then(() => postMessage({ type: Reply.started, simd: simd() }));

async function compileWasm(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status} ${response.statusText}`);
  // Compiled while it downloads, unless the server sends another type than wasm's.
  if (response.headers.get("content-type") === "application/wasm") return WebAssembly.compileStreaming(response);
  return WebAssembly.compile(await response.arrayBuffer());
}

onmessage = ({ data }) => {
  if (data.type === Request.trap && data.target === "draws") {
    drawWorker?.postMessage({ type: DrawRequest.trap });
    return;
  }
  if (data.type === Request.cancel) {
    if (running && running.id === data.id) {
      running.cancelled = true;
      running.onCancel?.();
    }
    return;
  }
  // A model's files are fetched as soon as they are asked for, while the wasm compiles or an
  // earlier request runs; parsing them still waits its turn.
  const files = data.type === Request.load ? fetchFiles(data) : null;
  // One request at a time, in order; a generation yields between tokens so cancels get through.
  queue = queue.then(() => ready).then(() => handle(data, files)).catch((e) => fail(data.id ?? null, e));
};

async function handle(data, files) {
  switch (data.type) {
    case Request.load: return load(data, await files);
    case Request.render: return postMessage({ type: Reply.rendered, id: data.id, rendered: model().renderChat(data.chat) });
    case Request.inspect: return postMessage({ type: Reply.distribution, id: data.id, report: inspect(data) });
    case Request.monteCarlo: return monteCarlo(data);
    case Request.generate: return generate(data);
    case Request.alternatives: return postMessage(alternatives(data));
    case Request.branch: return branch(data);
    case Request.restore: return restore(data);
    case Request.speculate: return postMessage({
      type: Reply.speculated, id: data.id,
      result: model().speculate(data.chat, data.options, data.draft, data.blockSize),
      curve: model().acceptanceCurve(data.chat, data.blockSize, Float64Array.from(data.temperatures)),
    });
    case Request.trap: return data.target === "memory" ? exhaustMemory() : trap();
    default: throw new Error(`unknown request type ${JSON.stringify(data.type)}`);
  }
}

function model() {
  if (!lab) throw new Error("no model is loaded");
  return lab;
}

function fail(id, e) {
  // A Rust panic surfaces as a WebAssembly.RuntimeError; the instance is unusable after it.
  const fatal = e instanceof WebAssembly.RuntimeError;
  postMessage({ type: Reply.error, id, message: fatal ? `the wasm instance crashed: ${e.message}` : String(e?.message ?? e), fatal });
  if (fatal) close();
}

function fetchFiles({ id, source }) {
  const started = performance.now();
  const onProgress = (loaded, total) => postMessage({ type: Reply.progress, id, phase: "download", loaded, total });
  const files = fetchSource(source, onProgress).then((f) => ({ ...f, fetchMs: performance.now() - started }));
  files.catch(() => {}); // reported when the request's turn comes
  return files;
}

async function load({ id, precision }, files) {
  postMessage({ type: Reply.progress, id, phase: "parse", loaded: 0, total: null });
  const started = performance.now();
  // Parsed before the running model is dropped: a file that fails to load leaves it working.
  const loaded = files.gguf
    ? Lab.fromGguf(files.gguf, precision)
    : Lab.fromHub(files.config, files.weights, files.tokenizer, files.tokenizerConfig, files.generationConfig);
  generation?.free();
  generation = null;
  lab?.free();
  lab = loaded;
  const parseMs = performance.now() - started;
  // A reload right after the first visit should find the model in Cache Storage.
  await files.stored;
  postMessage({ type: Reply.ready, id, info: lab.info(), timings: { fetchMs: files.fetchMs, parseMs, fromCache: files.fromCache } });
}

function stepSource(step) {
  if (step === null || step === undefined) return null;
  if (!generation) throw new Error("there is no generation to inspect");
  return generation;
}

function inspect({ chat, params, generationConfig, step, logits }) {
  if (logits) return inspectLogits(parseLogits(new TextEncoder().encode(`[${logits}]`)), params, generationConfig, new Uint32Array());
  const source = stepSource(step);
  return source ? source.inspect(step, params, generationConfig) : model().inspect(chat, params, generationConfig);
}

/** The five most probable tokens under hf and under the literal port at a generated token, as
 * the core's report lists them (most probable first). */
function alternatives({ id, step, params, generationConfig }) {
  const report = stepSource(step).inspect(step, params, generationConfig);
  const top = (entry) => entry.support.slice(0, 5).map(([token, p]) => [token, p, report.tokens[token] ?? ""]);
  const token = stepSource(step).generatedIds()[step];
  const of = (entry) => new Map(entry.support).get(token) ?? 0;
  return {
    type: Reply.alternatives, id, step, hf: top(report.hf), literal: top(report.literal), model: stepSource(step).candidates(step, 8),
    chosen: { hf: of(report.hf), literal: of(report.literal) },
  };
}

/** The step's logits, context and parameters as plain data, for workers without the model. */
function drawJob({ chat, params, generationConfig, step, logits }) {
  if (logits) return { logits: parseLogits(new TextEncoder().encode(`[${logits}]`)), params, generationConfig, contextIds: new Uint32Array() };
  const source = stepSource(step);
  const job = source ? source.drawJob(step, params, generationConfig) : model().drawJob(chat, params, generationConfig);
  try {
    return { logits: job.logits, params: job.params, generationConfig: job.generationConfig, contextIds: job.contextIds };
  } finally {
    job.free();
  }
}

const CONVERGENCE_MS = 300;

/** Both ports' draws, shared with the draw worker where this worker can start one: each
 * draws half of the seeded blocks, and the counts add up to exactly the draws of one thread. */
async function monteCarlo(request) {
  const { id, draws, seed } = request;
  const job = drawJob(request);
  drawWorker ??= await startDrawWorker();
  const parts = drawWorker ? 2 : 1;
  const run = partOfRun(job, draws, seed, 0, parts);
  running = { id, cancelled: false };
  let finished = false;
  try {
    // Each part's draws so far and in all; reported once every part has said how many it makes.
    const progress = Array.from({ length: parts }, () => null);
    const report = (part) => (done, total) => {
      progress[part] = { done, total };
      if (progress.includes(null)) return;
      postMessage({ type: Reply.progress, id, phase: "draws", loaded: sum(progress.map((p) => p.done)), total: sum(progress.map((p) => p.total)) });
    };
    const elsewhere = parts === 2 ? drawElsewhere(job, request, report(1)) : null;
    elsewhere?.catch(() => {}); // awaited below, unless this half fails first
    let pictured = 0;
    const here = report(0);
    const cancelled = await drawAll(run, running, (done, total) => {
      here(done, total);
      // A point of the convergence picture a few times a second, from this worker's draws.
      if (performance.now() - pictured < CONVERGENCE_MS) return;
      pictured = performance.now();
      postMessage({ type: Reply.converging, id, points: run.convergence() });
    });
    // A draw worker that failed leaves its half to this one: the same blocks, the same result.
    if (elsewhere) run.absorb(await elsewhere.catch(() => drawHere(job, request, report(1))));
    finished = true;
    postMessage({ type: Reply.monteCarlo, id, cancelled: cancelled || running.cancelled, result: run.finish() });
  } finally {
    if (!finished) {
      // Failed here: the draw worker's half is of no use any more.
      running.onCancel?.();
      run.free();
    }
    running = null;
  }
}

/** The draw worker, or null where a worker cannot start workers. */
async function startDrawWorker() {
  if (typeof Worker === "undefined") return null;
  const worker = new Worker(workerScript(new URL("./draws.js", import.meta.url)), { type: "module" });
  worker.postMessage({ type: DrawRequest.init, module: await wasmModule });
  return worker;
}

/** Part 1 of 2 of the run, on the draw worker; resolves to its counts. */
function drawElsewhere(job, { id, draws, seed }, onProgress) {
  const worker = drawWorker;
  running.onCancel = () => worker.postMessage({ type: DrawRequest.cancel, id });
  const counts = new Promise((resolve, reject) => {
    worker.onmessage = ({ data: reply }) => {
      if (reply.id !== id) return;
      if (reply.type === DrawReply.progress) onProgress(reply.done, reply.total);
      else if (reply.type === DrawReply.drawn) resolve(reply.counts);
      else reject(new Error(`the draw worker: ${reply.message}`));
    };
    worker.onerror = (e) => {
      e.preventDefault(); // handled here: the page must not take it for this worker's crash
      reject(new Error(`the draw worker failed: ${e.message ?? "it did not start"}`));
    };
  });
  worker.postMessage({ type: DrawRequest.draw, id, job, draws, seed, part: 1, parts: 2 });
  return counts.catch((e) => {
    // Its instance may be dead: the next run starts a fresh one.
    worker.terminate();
    if (drawWorker === worker) drawWorker = null;
    throw e;
  });
}

function sum(values) {
  return values.reduce((a, b) => a + b, 0);
}

/** Part 1 of 2 of the run, here. */
async function drawHere(job, { draws, seed }, onProgress) {
  const run = partOfRun(job, draws, seed, 1, 2);
  try {
    await drawAll(run, running, onProgress);
    return run.counts();
  } finally {
    run.free();
  }
}

async function generate({ id, chat, options }) {
  const started = performance.now();
  generation?.free();
  generation = null;
  generation = model().startGeneration(chat, options);
  await decode(id, started, performance.now() - started, 0);
}

/** Another token at a generated step: the answer goes on from it. */
async function branch({ id, step, token }) {
  const started = performance.now();
  const forced = lastGeneration().branch(step, token);
  postMessage({ type: Reply.rewound, id, fork: step, steps: [forced], branches: generation.branches() });
  await decode(id, started, null, 1);
}

function restore({ id, branch: number }) {
  const started = performance.now();
  const steps = lastGeneration().restore(number);
  postMessage({ type: Reply.rewound, id, fork: steps[0].index, steps, branches: generation.branches() });
  postMessage(doneReply(id, generation.finish(), started, null, 0));
}

function lastGeneration() {
  if (!generation) throw new Error("there is no generation to branch");
  return generation;
}

/** Steps the generation to its end, a token per task so that a cancel gets through. */
async function decode(id, started, prefillMs, decoded) {
  running = { id, cancelled: false };
  try {
    for (;;) {
      await nextTask();
      if (running.cancelled) break;
      const step = generation.step();
      if (step === null) break;
      decoded += 1;
      postMessage({ type: Reply.token, id, step });
    }
  } finally {
    const cancelled = running.cancelled && generation.finish() === null;
    running = null;
    postMessage(doneReply(id, cancelled ? "cancelled" : generation.finish(), started, prefillMs, decoded));
  }
}

function doneReply(id, finish, started, prefillMs, decoded) {
  return {
    type: Reply.done, id, finish, steps: generation.steps, decoded, prefillMs, decodeMs: performance.now() - started - (prefillMs ?? 0),
    ids: Array.from(generation.generatedIds()), branches: generation.branches(),
  };
}
