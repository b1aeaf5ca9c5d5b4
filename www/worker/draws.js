// A draw worker: its part of each Monte Carlo run, on a core of its own, for the model's worker
// (worker.js). It runs the sampling core's build (pkg-core/) and holds no model: a draw job (the
// step's logits, context and parameters) is all it needs, and its counts are added to the
// worker's. One more, started by answer-figures.js, reads each generated step under every
// column beside the model's decoding. Protocol: protocol.js.
import * as wasm from "../pkg-core/sampling_lab.js";
import { DrawReply, DrawRequest } from "../shared/protocol.js";
import { drawAll, partOfRun } from "./drawing.js";

let ready = null;
let running = null; // { id, cancelled } while drawing
let queue = Promise.resolve();

onmessage = ({ data }) => {
  if (data.type === DrawRequest.init) {
    ready = wasm.default({ module_or_path: data.module });
    return;
  }
  if (data.type === DrawRequest.trap) return wasm.trap();
  if (data.type === DrawRequest.cancel) {
    if (running?.id === data.id) running.cancelled = true;
    return;
  }
  const task = data.type === DrawRequest.figures ? figures : draw;
  queue = queue.then(() => task(data)).catch((e) => {
    postMessage({ type: DrawReply.error, id: data.id, message: String(e?.message ?? e) });
  });
};

/** One generated step under every column: the core's answerStep. */
async function figures({ id, job }) {
  await (ready ??= wasm.default());
  const { logits, params, generationConfig, contextIds, token } = job;
  postMessage({ type: DrawReply.figures, id, figures: wasm.answerStep(logits, params, generationConfig, contextIds, token) });
}

async function draw({ id, job, draws, seed, part, parts }) {
  await (ready ??= wasm.default());
  const run = partOfRun(wasm, job, draws, seed, part, parts);
  running = { id, cancelled: false };
  try {
    const onProgress = (done, total) => postMessage({ type: DrawReply.progress, id, done, total });
    await drawAll(run, running, onProgress);
    postMessage({ type: DrawReply.drawn, id, counts: run.counts() });
  } finally {
    running = null;
    run.free();
  }
}
