// The draw worker: the second half of each Monte Carlo run, on a core of its own, for the model's
// worker (worker.js). It holds no model: a draw job (the step's logits, context and parameters)
// is all it needs, and its counts are added to the worker's half. Protocol: protocol.js.
import init, { trap } from "./pkg/sampling_lab.js";
import { DrawReply, DrawRequest } from "./protocol.js";
import { drawAll, partOfRun } from "./drawing.js";

let ready = null;
let running = null; // { id, cancelled } while drawing
let queue = Promise.resolve();

onmessage = ({ data }) => {
  if (data.type === DrawRequest.init) {
    ready = init({ module_or_path: data.module });
    return;
  }
  if (data.type === DrawRequest.trap) return trap();
  if (data.type === DrawRequest.cancel) {
    if (running?.id === data.id) running.cancelled = true;
    return;
  }
  queue = queue.then(() => draw(data)).catch((e) => {
    postMessage({ type: DrawReply.error, id: data.id, message: String(e?.message ?? e) });
  });
};

async function draw({ id, job, draws, seed, part, parts }) {
  await (ready ??= init());
  const run = partOfRun(job, draws, seed, part, parts);
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
