// A Monte Carlo run split over two threads: the model's worker (worker.js) draws one half of the
// seeded blocks and the draw worker (draws.js, started by the first run) the other; the counts add
// up to exactly the draws one thread would have made. Where a worker cannot start workers, or the
// draw worker fails, this thread draws both halves: the same blocks, the same result.
import { workerScript } from "./trusted.js";
import { DrawReply, DrawRequest } from "./protocol.js";
import { drawAll, partOfRun } from "./drawing.js";

/** How often a point of the convergence picture is sent, from this thread's draws. */
const CONVERGENCE_MS = 300;

export class SplitDraws {
  /** @param {Promise<WebAssembly.Module>} wasmModule handed to the draw worker, which then skips compiling */
  constructor(wasmModule) {
    this.wasmModule = wasmModule;
    /** The draw worker; null until the first run, or after it failed. */
    this.helper = null;
  }

  /** Crashes the draw worker's instance, for the recovery tests. */
  trap() {
    this.helper?.postMessage({ type: DrawRequest.trap });
  }

  /**
   * `draws` seeded draws of `job` (worker.js's drawJob), cancelled when `running.cancelled`
   * turns true; `on.progress(done, total)` counts both halves, `on.converging(points)`.
   * @returns {Promise<{cancelled: boolean, result: object}>}
   */
  async run(job, { id, draws, seed }, running, on) {
    this.helper ??= await this.#startHelper();
    const parts = this.helper ? 2 : 1;
    const run = partOfRun(job, draws, seed, 0, parts);
    let finished = false;
    try {
      const report = progressOf(parts, on.progress);
      const elsewhere = parts === 2 ? this.#drawElsewhere(job, { id, draws, seed }, running, report(1)) : null;
      elsewhere?.catch(() => {}); // awaited below, unless this half fails first
      let pictured = 0;
      const here = report(0);
      const cancelled = await drawAll(run, running, (done, total) => {
        here(done, total);
        if (performance.now() - pictured < CONVERGENCE_MS) return;
        pictured = performance.now();
        on.converging(run.convergence());
      });
      if (elsewhere) run.absorb(await elsewhere.catch(() => drawHere(job, { draws, seed }, running, report(1))));
      finished = true;
      return { cancelled: cancelled || running.cancelled, result: run.finish() };
    } finally {
      if (!finished) {
        // Failed here: the draw worker's half is of no use any more.
        running.onCancel?.();
        run.free();
      }
    }
  }

  /** The draw worker, or null where a worker cannot start workers. */
  async #startHelper() {
    if (typeof Worker === "undefined") return null;
    const worker = new Worker(workerScript(new URL("./draws.js", import.meta.url)), { type: "module" });
    worker.postMessage({ type: DrawRequest.init, module: await this.wasmModule });
    return worker;
  }

  /** Part 1 of 2 of the run, on the draw worker; resolves to its counts. */
  #drawElsewhere(job, { id, draws, seed }, running, onProgress) {
    const worker = this.helper;
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
      if (this.helper === worker) this.helper = null;
      throw e;
    });
  }
}

/** Each part's draws so far and in all, reported once every part has said how many it makes. */
function progressOf(parts, onProgress) {
  const progress = Array.from({ length: parts }, () => null);
  return (part) => (done, total) => {
    progress[part] = { done, total };
    if (progress.includes(null)) return;
    onProgress(sum(progress.map((p) => p.done)), sum(progress.map((p) => p.total)));
  };
}

function sum(values) {
  return values.reduce((a, b) => a + b, 0);
}

/** Part 1 of 2 of the run, here. */
async function drawHere(job, { draws, seed }, running, onProgress) {
  const run = partOfRun(job, draws, seed, 1, 2);
  try {
    await drawAll(run, running, onProgress);
    return run.counts();
  } finally {
    run.free();
  }
}
