// Owns the wasm instances and the loaded model; answers the page's requests (protocol.js).
//
// It starts on the sampling core alone (pkg-core/, builds.js), which answers for the chats the
// page ships steps of (shipped-steps.js) and for synthetic logits: the first figures need no
// model. The model's build (pkg/, or pkg-threads/ with its pool where the page is cross-origin
// isolated) and the model itself load when the page asks for them (`load`); from then on the
// model answers for every chat, with the very logits the shipped steps hold. The draw workers
// always run the core's build: they need no model and no shared memory.
import { Reply, Request } from "../shared/protocol.js";
import { loadCore, loadModelBuild, threadCount, THREADED } from "./builds.js";
import { nextTask } from "./drawing.js";
import { SplitDraws } from "./split-draws.js";
import { AnswerFigures } from "./answer-figures.js";
import { fetchSource } from "./model-files.js";
import { ShippedSteps } from "./shipped-steps.js";
import { stepFiles } from "./step-files.js";
import { Said, saidBy } from "../shared/said.js";
import { LANGUAGES } from "../shared/languages.js";

const options = new URL(self.location.href).searchParams;
/** The exact model's threads: the page's `?threads=N`, else one fewer than the cores. */
const THREADS = THREADED ? threadCount(options.get("threads")) : 1;
const shipped = new ShippedSteps(options.get("steps"));

/** @type {import("../pkg-core/sampling_lab.js")} the sampling core's bindings */
let core = null;
/** The core's compiled module, for the draw workers. */
let coreModule = null;
/** @type {import("../pkg/sampling_lab.js") | null} the model's build, once a model is asked for */
let full = null;
/** @type {import("../pkg/sampling_lab.js").Lab | null} */
let lab = null;
/** Every token's display text, by id, of the loaded model. */
let vocabulary = [];
/** The last generation, kept so that its steps can be inspected, and the call its steps' figures
 * are read under ({params, generationConfig}). */
let generation = null;
let generationCall = null;
let running = null; // { id, cancelled, onCancel? } while a generation or Monte Carlo run is going
let queue = Promise.resolve();
/** Set once the wasm has trapped: the requests still queued behind the failed one are dropped
 * unanswered, not run on the dead instance (the page starts another worker). */
let crashed = false;

const ready = loadCore().then((loaded) => {
  ({ bindings: core, module: coreModule } = loaded);
  const columns = Object.fromEntries(LANGUAGES.map((lang) => [lang, core.columns(lang)]));
  postMessage({ type: Reply.started, simd: core.simd(), rules: core.causeRules(), columns });
});
const splitDraws = new SplitDraws(() => core, () => Promise.resolve(coreModule));
const answerFigures = new AnswerFigures(() => core, () => Promise.resolve(coreModule));

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
  if (data.type === Request.load) return queueLoad(data);
  enqueue(data);
};

/** One request at a time, in order; a generation yields between tokens so cancels get through. */
function enqueue(data, files = null) {
  queue = queue.then(() => ready).then(() => handle(data, files)).catch((e) => fail(data.id ?? null, e));
}

/** Loads, in the order they were asked for. */
let loads = Promise.resolve();

/** A model's files download, and the model's build compiles, off the queue: the figures of the
 * shipped steps, presets, Monte Carlo… go on meanwhile. Parsing takes its turn in the queue once
 * both are there. */
function queueLoad(data) {
  const files = fetchFiles(data);
  const prepared = Promise.all([files, modelBuildOnce()]);
  loads = loads.then(() => prepared.then(() => enqueue(data, files), () => enqueue(data, files)));
}

async function handle(data, files) {
  if (crashed) return;
  if (data.supersedes && newest[data.supersedes] !== data.id) return;
  switch (data.type) {
    case Request.load: return load(data, await files);
    case Request.render: return render(data);
    case Request.inspect: return inspect(data);
    case Request.monteCarlo: return monteCarlo(data);
    case Request.port: return port(data);
    case Request.completions: return completions(data);
    case Request.useStep: return useStep(data);
    case Request.stepFile: return postMessage({ type: Reply.stepFile, id: data.id, text: steps.file(data.chat) });
    case Request.generate: return generate(data);
    case Request.answer: return answer(data);
    case Request.alternatives: return postMessage(alternatives(data));
    case Request.branch: return branch(data);
    case Request.restore: return restore(data);
    case Request.speculate: return speculate(data);
    case Request.observe: return postMessage(observe(data));
    case Request.trap: return trap(data.target);
    default: throw new Said("error-unknown-request", { type: JSON.stringify(data.type) });
  }
}

function model() {
  if (!lab) throw new Said("error-no-model");
  return lab;
}

/** Aborts the wasm as a Rust panic does (the recovery tests): the model's build where it runs. */
function trap(target) {
  const wasm = full ?? core;
  if (target === "memory") return wasm.exhaustMemory();
  if (target === "pool") return full.trapPool();
  return wasm.trap();
}

function fail(id, e) {
  if (crashed) return;
  // A Rust panic surfaces as a WebAssembly.RuntimeError; the instance is unusable after it.
  const fatal = e instanceof WebAssembly.RuntimeError;
  crashed = fatal;
  const said = fatal ? { id: "error-crashed", args: { detail: e.message } } : saidBy(e);
  postMessage({ type: Reply.error, id, message: String(e?.message ?? e), said, fatal });
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

/** The model's build, loaded the first time a model is asked for. */
let modelBuild = null;
const modelBuildOnce = () => (modelBuild ??= loadModelBuild(THREADS).then((bindings) => (full = bindings)));

/** Whether the loaded model is the site's default (its sha256 the shipped steps'): only then do
 * its steps stand for the site's, to keep or to check a step file against. */
let loadedIsDefault = false;

async function load({ id, precision, source }, files) {
  await modelBuildOnce();
  postMessage({ type: Reply.progress, id, phase: "parse", loaded: 0, total: null });
  const started = performance.now();
  // Parsed before the running model is dropped: a file that fails to load leaves it working.
  const loaded = files.gguf
    ? full.Lab.fromGguf(files.gguf, precision)
    : full.Lab.fromHub(files.config, files.weights, files.tokenizer, files.tokenizerConfig, files.generationConfig);
  generation?.free();
  generation = null;
  lab?.free();
  lab = loaded;
  vocabulary = lab.vocabulary();
  // Ready means kept too: a reload at once takes the model from Cache Storage. The write began
  // before the parse and mostly ends within it.
  await files.stored;
  const parseMs = performance.now() - started;
  const site = await shipped.model();
  loadedIsDefault = Boolean(site && source.sha256 && source.sha256.toLowerCase() === site.sha256 && precision === "exact");
  postMessage({
    type: Reply.ready, id, info: lab.info(), vocabulary, threads: full.threads(),
    timings: { fetchMs: files.fetchMs, parseMs, fromCache: files.fromCache },
  });
  const checked = steps.check();
  if (checked) postMessage({ type: Reply.stepChecked, id, ...checked });
}

/** Reads and checks the step file a link names (`useStep`), for the link's chat. */
async function useStep({ id, url, chat }) {
  await shipped.useFile(url, chat, core);
  postMessage({ type: Reply.stepUsed, id, url });
}

const steps = stepFiles({ shipped, core: () => core, withStep, isSiteModel: () => loadedIsDefault });

/** The synthetic logits a request carries (comma-separated text), read by the core's parser. */
const syntheticLogits = (text) => core.parseLogits(new TextEncoder().encode(`[${text}]`));

/** The step a request is about — a generated token, else the token after the chat — as one
 * handle of the model, freed after `use`. */
function withStep({ chat, step }, use) {
  const handle = step === null || step === undefined ? model().nextStep(chat) : lastGeneration().stepAt(step);
  try {
    return use(handle);
  } finally {
    handle.free();
  }
}

/** The token after `chat` as the shipped steps have it, while no model is loaded: `null` when
 * the chat is not shipped, after telling the page that it needs the model. The first time, the
 * page gets the vocabulary the shipped reports name tokens by. */
let vocabularySent = false;
async function shippedStep({ id, chat }) {
  const step = await shipped.step(chat, core);
  if (!step) {
    postMessage({ type: Reply.needsModel, id, model: await shipped.model() });
    return null;
  }
  if (!vocabularySent) {
    postMessage({ type: Reply.shipped, id, vocabulary: await shipped.vocabulary(), model: await shipped.model() });
    vocabularySent = true;
  }
  return step;
}

async function render(request) {
  const rendered = lab ? lab.renderChat(request.chat) : (await shippedStep(request))?.rendered;
  if (rendered) postMessage({ type: Reply.rendered, id: request.id, rendered });
}

/** The report of the step on screen: synthetic logits, a generated token, the token after the
 * chat by the model, or by the shipped steps while there is no model. */
async function inspect(request) {
  const { id, params, generationConfig, logits, step, options } = request;
  const reply = (report, source, completions = [], url = null) => postMessage({ type: Reply.distribution, id, report, source, completions, url });
  if (logits) return reply(core.inspect(syntheticLogits(logits), params, generationConfig, new Uint32Array(), options), "synthetic");
  if (lab || (step !== null && step !== undefined)) {
    reply(withStep(request, (handle) => handle.inspect(params, generationConfig, options)), "model");
    if (step === null || step === undefined) steps.keep(request.chat);
    return;
  }
  const shippedAt = await shippedStep(request);
  if (shippedAt) reply(core.inspect(shippedAt.logits, params, generationConfig, shippedAt.contextIds, options), shippedAt.source, shippedAt.completions ?? [], shippedAt.url);
}

/** The characters the byte tokens among `tokens` begin, as the model completes them at the step. */
function completions(request) {
  const completed = withStep(request, (handle) => handle.completions(Uint32Array.from(request.tokens)));
  postMessage({ type: Reply.completions, id: request.id, completions: completed });
  if (request.step === null || request.step === undefined) steps.keep(request.chat, completed);
}

/** The five most probable tokens under hf and under the literal port at a generated token, as
 * the core's report lists them (most probable first). */
function alternatives(request) {
  const { id, step, params, generationConfig } = request;
  return withStep(request, (handle) => {
    const report = handle.inspect(params, generationConfig, null);
    const top = (entry) => entry.support.slice(0, 5).map(([token, p]) => [token, p, vocabulary[token] ?? ""]);
    const token = generation.generatedIds()[step];
    const of = (entry) => new Map(entry.support).get(token) ?? 0;
    return {
      type: Reply.alternatives, id, step, hf: top(report.hf), literal: top(report.literal), model: handle.candidates(8),
      chosen: { hf: of(report.hf), literal: of(report.literal), model: handle.modelProbability(token) },
    };
  });
}

/** The step's logits, context and parameters as plain data, for workers without the model; null
 * for a chat neither the model nor the shipped steps can give. */
async function drawJob(request) {
  const { params, generationConfig, logits, step } = request;
  if (logits) return { logits: syntheticLogits(logits), params, generationConfig, contextIds: new Uint32Array() };
  if (!lab && (step === null || step === undefined)) {
    const shippedAt = await shippedStep(request);
    return shippedAt && { logits: shippedAt.logits, params, generationConfig, contextIds: shippedAt.contextIds };
  }
  const job = withStep(request, (handle) => handle.drawJob(params, generationConfig));
  try {
    return { logits: job.logits, params: job.params, generationConfig: job.generationConfig, contextIds: job.contextIds };
  } finally {
    job.free();
  }
}

/** Each column's request that samples from transformers' distribution at the step on screen. */
async function port(request) {
  const job = await drawJob(request);
  if (job) postMessage({ type: Reply.port, id: request.id, ports: core.port(job.logits, job.params, job.generationConfig, job.contextIds, request.options) });
}

/** Both ports' draws, shared with the draw worker where this worker can start one (draws.js). */
async function monteCarlo(request) {
  const { id } = request;
  const job = await drawJob(request);
  if (!job) return;
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
  let cancelled;
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
  generationCall = { params: options.params, generationConfig: options.generationConfig ?? null };
  await decode(id, started, performance.now() - started, 0);
}

/** Generated token `index` of request `id` under every column, read beside the decoding; its
 * `figures` reply follows the token's. */
function readStep(id, index) {
  const job = withStep({ step: index }, (handle) => handle.drawJob(generationCall.params, generationCall.generationConfig));
  const plain = { logits: job.logits, params: job.params, generationConfig: job.generationConfig ?? null, contextIds: job.contextIds, token: generation.generatedIds()[index] };
  job.free();
  answerFigures.read(plain).then((figures) => postMessage({ type: Reply.figures, id, step: index, figures }), (e) => fail(id, e));
}

/** The report of the answer on screen — of the figures the page holds, or of the answer the site
 * ships for the chat — the core's summary and sentences. */
async function answer({ id, chat, options, steps, params }) {
  if (steps) return postMessage({ type: Reply.answer, id, source: "generated", report: core.answerReport(JSON.stringify(steps), params, options) });
  const written = await shipped.answer(chat);
  if (!written) return postMessage({ type: Reply.answer, id, source: null, report: null });
  const { steps: figures, ...rest } = written;
  postMessage({ type: Reply.answer, id, source: "shipped", report: core.answerReport(JSON.stringify(figures), rest.params, options), ...rest });
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
        const { hf } = step.inspect(options.params, options.generationConfig, null);
        if (hf.error) throw new Said("error-hf-refuses", { error: hf.error });
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
  readStep(id, step);
  await decode(id, started, null, 1);
}

function restore({ id, branch: number }) {
  const started = performance.now();
  const steps = lastGeneration().restore(number);
  postMessage({ type: Reply.rewound, id, fork: steps[0].index, steps, branches: generation.branches() });
  for (const step of steps) readStep(id, step.index);
  postMessage(doneReply(id, generation.finish(), started, null, 0));
}

function lastGeneration() {
  if (!generation) throw new Said("error-no-generation");
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
      readStep(id, step.index);
    }
  } finally {
    const cancelled = running.cancelled && generation.finish() === null;
    running = null;
    postMessage(doneReply(id, cancelled ? "cancelled" : generation.finish(), started, prefillMs, decoded));
  }
}

function doneReply(id, finish, started, prefillMs, decoded) {
  return {
    type: Reply.done, id, finish, steps: generation.steps, decoded, prefillMs, promptReused: generation.promptReused, decodeMs: performance.now() - started - (prefillMs ?? 0),
    ids: Array.from(generation.generatedIds()), branches: generation.branches(),
  };
}
