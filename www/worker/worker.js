// Owns the wasm instance and the loaded model; answers the page's requests (protocol.js).
//
// Where the page is cross-origin isolated, it runs the threaded build (pkg-threads/) and starts
// the exact model's pool: `threads` workers in all, itself included — the page's `?threads=N`
// (passed in this script's URL), else one fewer than the machine's cores, 1 to 8. Elsewhere it
// runs the single-threaded build (pkg/), which is the same arithmetic, bit for bit. The draw
// workers always run pkg/: they need no shared memory.
import { Reply, Request } from "../shared/protocol.js";
import { nextTask } from "./drawing.js";
import { SplitDraws } from "./split-draws.js";
import { fetchSource } from "./model-files.js";
import { workerScript } from "../shared/trusted.js";

/** @type {import("../pkg/sampling_lab.js")} the build's bindings, once loaded */
let wasm = null;
/** @type {import("../pkg/sampling_lab.js").Lab | null} */
let lab = null;
/** Every token's display text, by id, of the loaded model. */
let vocabulary = [];
/** The last generation, kept so that its steps can be inspected. */
let generation = null;
let running = null; // { id, cancelled, onCancel? } while a generation or Monte Carlo run is going
let queue = Promise.resolve();

/** Whether wasm threads can run here: cross-origin isolated, and shared memory exists (WebKitGTK
 * is isolated without it). */
const THREADED = self.crossOriginIsolated === true && sharedMemory();
const THREADS = THREADED ? threadCount(new URL(self.location.href).searchParams.get("threads")) : 1;

function sharedMemory() {
  try {
    return new WebAssembly.Memory({ initial: 1, maximum: 1, shared: true }).buffer instanceof SharedArrayBuffer;
  } catch {
    return false;
  }
}

/** The pool's size: the page's choice, else one fewer than the cores (a core for the page). */
function threadCount(asked) {
  const wanted = Number(asked) || (navigator.hardwareConcurrency ?? 2) - 1;
  return Math.min(8, Math.max(1, Math.floor(wanted)));
}

/** The single-threaded build's module: the draw workers' (they need no shared memory). */
let drawModule = null;
const singleThreaded = () => (drawModule ??= compileWasm(new URL("../pkg/sampling_lab_bg.wasm", import.meta.url)));
const ready = start().then(() => postMessage({
  type: Reply.started, simd: wasm.simd(), threads: wasm.threads(), rules: wasm.causeRules(), columns: wasm.columns(),
}));
const splitDraws = new SplitDraws(() => wasm, singleThreaded);

/** Loads the threaded build and starts its pool where threads can run, else (or if it fails to
 * load) the single-threaded build: the same arithmetic, bit for bit. */
async function start() {
  if (THREADED) {
    try {
      const module = await compileWasm(new URL("../pkg-threads/sampling_lab_bg.wasm", import.meta.url));
      const bindings = await import("../pkg-threads/sampling_lab.js");
      const exports = await bindings.default({ module_or_path: module });
      wasm = bindings;
      await startPool(module, exports.memory);
      return;
    } catch (e) {
      console.warn(`the threaded build did not load (${e?.message ?? e}); running on one thread`);
    }
  }
  const bindings = await import("../pkg/sampling_lab.js");
  await bindings.default({ module_or_path: await singleThreaded() });
  wasm = bindings;
}

/** Starts the pool's workers on this instance's shared memory and waits until each has joined
 * (a worker blocked in a product could not let them start). One that fails to start is left out. */
async function startPool(module, memory) {
  const joined = Array.from({ length: THREADS - 1 }, () => new Promise((resolve) => {
    const helper = new Worker(workerScript(new URL("./pool-worker.js", import.meta.url)), { type: "module" });
    helper.onmessage = ({ data }) => resolve(data);
    helper.onerror = (e) => {
      e.preventDefault();
      resolve({ failed: e.message });
    };
    helper.postMessage({ module, memory });
  }));
  const answers = await Promise.all(joined);
  for (const { failed } of answers) if (failed) console.warn(`a pool worker did not start: ${failed}`);
}

async function compileWasm(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status} ${response.statusText}`);
  // Compiled while it downloads, unless the server sends another type than wasm's.
  if (response.headers.get("content-type") === "application/wasm") return WebAssembly.compileStreaming(response);
  return WebAssembly.compile(await response.arrayBuffer());
}

/** The newest request of each kind that supersedes older ones (a token's alternatives while the
 * reader moves through an answer): an older one still queued is dropped unanswered. */
const newest = {};

onmessage = ({ data }) => {
  if (data.supersedes) newest[data.supersedes] = data.id;
  if (data.type === Request.trap && data.target === "draws") {
    splitDraws.trap();
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
  if (data.supersedes && newest[data.supersedes] !== data.id) return;
  switch (data.type) {
    case Request.load: return load(data, await files);
    case Request.render: return postMessage({ type: Reply.rendered, id: data.id, rendered: model().renderChat(data.chat) });
    case Request.inspect: return postMessage({ type: Reply.distribution, id: data.id, report: inspect(data), synthetic: Boolean(data.logits) });
    case Request.monteCarlo: return monteCarlo(data);
    case Request.generate: return generate(data);
    case Request.alternatives: return postMessage(alternatives(data));
    case Request.branch: return branch(data);
    case Request.restore: return restore(data);
    case Request.speculate: return speculate(data);
    case Request.observe: return postMessage(observe(data));
    case Request.trap: return data.target === "memory" ? wasm.exhaustMemory() : data.target === "pool" ? wasm.trapPool() : wasm.trap();
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
  // `elsewhere`: another page of the site is downloading the file, and this one waits for it.
  const onProgress = (loaded, total, elsewhere = false) => postMessage({ type: Reply.progress, id, phase: elsewhere ? "download-elsewhere" : "download", loaded, total });
  const files = fetchSource(source, onProgress).then((f) => ({ ...f, fetchMs: performance.now() - started }));
  files.catch(() => {}); // reported when the request's turn comes
  return files;
}

async function load({ id, precision }, files) {
  postMessage({ type: Reply.progress, id, phase: "parse", loaded: 0, total: null });
  const started = performance.now();
  // Parsed before the running model is dropped: a file that fails to load leaves it working.
  const loaded = files.gguf
    ? wasm.Lab.fromGguf(files.gguf, precision)
    : wasm.Lab.fromHub(files.config, files.weights, files.tokenizer, files.tokenizerConfig, files.generationConfig);
  generation?.free();
  generation = null;
  lab?.free();
  lab = loaded;
  vocabulary = lab.vocabulary();
  const parseMs = performance.now() - started;
  postMessage({ type: Reply.ready, id, info: lab.info(), vocabulary, timings: { fetchMs: files.fetchMs, parseMs, fromCache: files.fromCache } });
}

/** The synthetic logits a request carries (comma-separated text), read by the core's parser. */
const syntheticLogits = (text) => wasm.parseLogits(new TextEncoder().encode(`[${text}]`));

/** The step a request is about — a generated token, else the token after the chat — as one
 * handle whatever the step, freed after `use`. */
function withStep({ chat, step }, use) {
  const handle = step === null || step === undefined ? model().nextStep(chat) : lastGeneration().stepAt(step);
  try {
    return use(handle);
  } finally {
    handle.free();
  }
}

function inspect(request) {
  const { params, generationConfig, logits } = request;
  if (logits) return wasm.inspect(syntheticLogits(logits), params, generationConfig, new Uint32Array());
  return withStep(request, (handle) => handle.inspect(params, generationConfig));
}

/** The five most probable tokens under hf and under the literal port at a generated token, as
 * the core's report lists them (most probable first). */
function alternatives(request) {
  const { id, step, params, generationConfig } = request;
  return withStep(request, (handle) => {
    const report = handle.inspect(params, generationConfig);
    const top = (entry) => entry.support.slice(0, 5).map(([token, p]) => [token, p, vocabulary[token] ?? ""]);
    const token = generation.generatedIds()[step];
    const of = (entry) => new Map(entry.support).get(token) ?? 0;
    return {
      type: Reply.alternatives, id, step, hf: top(report.hf), literal: top(report.literal), model: handle.candidates(8),
      chosen: { hf: of(report.hf), literal: of(report.literal), model: handle.modelProbability(token) },
    };
  });
}

/** The step's logits, context and parameters as plain data, for workers without the model. */
function drawJob(request) {
  const { params, generationConfig, logits } = request;
  if (logits) return { logits: syntheticLogits(logits), params, generationConfig, contextIds: new Uint32Array() };
  const job = withStep(request, (handle) => handle.drawJob(params, generationConfig));
  try {
    return { logits: job.logits, params: job.params, generationConfig: job.generationConfig, contextIds: job.contextIds };
  } finally {
    job.free();
  }
}

/** Both ports' draws, shared with the draw worker where this worker can start one (draws.js). */
async function monteCarlo(request) {
  const { id } = request;
  const job = drawJob(request);
  running = { id, cancelled: false };
  try {
    const { cancelled, result } = await splitDraws.run(job, request, running, {
      progress: (loaded, total) => postMessage({ type: Reply.progress, id, phase: "draws", loaded, total }),
      converging: (points) => postMessage({ type: Reply.converging, id, points }),
    });
    postMessage({ type: Reply.monteCarlo, id, cancelled, result });
  } finally {
    running = null;
  }
}

/** DFlash's loop a round per task, each round sent as it is made, so that a cancel gets through;
 * then the expected acceptance curve (not for a run stopped early). */
async function speculate({ id, chat, options, draft, blockSize, temperatures }) {
  const run = model().startSpeculation(chat, options, draft, blockSize);
  running = { id, cancelled: false };
  let cancelled = false;
  try {
    for (;;) {
      await nextTask();
      if (running.cancelled) break;
      const round = run.nextRound();
      if (round === null) break;
      const [done, total] = run.progress();
      postMessage({ type: Reply.speculating, id, round, done, total });
    }
  } catch (e) {
    run.free();
    throw e;
  } finally {
    cancelled = running.cancelled;
    running = null;
  }
  const result = run.finish();
  const curve = cancelled ? null : model().acceptanceCurve(chat, blockSize, Float64Array.from(temperatures));
  postMessage({ type: Reply.speculated, id, result, curve });
}

async function generate({ id, chat, options }) {
  const started = performance.now();
  generation?.free();
  generation = null;
  generation = model().startGeneration(chat, options);
  await decode(id, started, performance.now() - started, 0);
}

/** A generation apart from the page's (which stays as it is): its length, its end, and its first
 * token outside transformers' distribution at that step, as the core's report of the step says. */
function observe({ id, chat, options }) {
  const run = model().generate(chat, options, () => true);
  try {
    const ids = run.generatedIds();
    let firstOutsideHf = null;
    for (let i = 0; i < ids.length && firstOutsideHf === null; i++) {
      const step = run.stepAt(i);
      try {
        const { hf } = step.inspect(options.params, options.generationConfig);
        if (hf.error) throw new Error(`transformers refuses these arguments: ${hf.error}`);
        if (!hf.support.some(([token]) => token === ids[i])) firstOutsideHf = i;
      } finally {
        step.free();
      }
    }
    return { type: Reply.observed, id, tokens: run.steps, finish: run.finish(), firstOutsideHf };
  } finally {
    run.free();
  }
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
  if (!generation) throw new Error("there is no generation to inspect or branch");
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
