// One part of a Monte Carlo run for the bench's draws-per-worker figure: the page's own split
// (www/worker/drawing.js's partOfRun), drawn to the end in one go.
import init, * as wasm from "/page/pkg/sampling_lab.js";
import { partOfRun } from "/page/worker/drawing.js";

const ready = init();

onmessage = async ({ data: { warm, job, draws, part, parts } }) => {
  try {
    await ready;
    if (warm) return postMessage({});
    const run = partOfRun(wasm, job, draws, 0, part, parts);
    run.advance(run.total);
    run.finish();
    postMessage({});
  } catch (e) {
    postMessage({ error: String(e?.message ?? e) });
  }
};
