// A Monte Carlo run split over every core: the model's worker (worker.js) draws one part of the
// seeded blocks and each draw worker (draws.js, started by the first run: one per core beyond
// this one) another; the counts add up to exactly the draws one thread would have made. Where a
// worker cannot start workers, or a draw worker fails, this thread draws its part: the same
// blocks, the same result.
import { workerScript } from "../shared/trusted.js";
import { DrawReply, DrawRequest } from "../shared/protocol.js";
import { drawAll, partOfRun } from "./drawing.js";
import { Said } from "../shared/said.js";

/** How often a point of the convergence picture is sent, from this thread's draws. */
const CONVERGENCE_MS = 300;

/** Draw workers beside this thread: one per other core, at least one. */
const HELPERS = Math.max(1, (globalThis.navigator?.hardwareConcurrency ?? 2) - 1);

export class SplitDraws {
  /** @param {() => object} bindings this thread's wasm bindings (either build)
   * @param {() => Promise<WebAssembly.Module>} wasmModule the sampling core's module (pkg-core/),
   * handed to the draw workers, which then skip compiling */
  constructor(bindings, wasmModule, helpers = HELPERS) {
    this.bindings = bindings;
    this.wasmModule = wasmModule;
    this.count = helpers;
    /** The draw workers; empty until the first run, or where none can start. */
    this.helpers = null;
  }

  /** Crashes a draw worker's instance, for the recovery tests. */
  trap() {
    this.helpers?.[0]?.postMessage({ type: DrawRequest.trap });
  }

  /**
   * `draws` seeded draws of `job` (worker.js's drawJob), cancelled when `running.cancelled`
   * turns true; `on.progress(done, total)` counts every part, `on.converging(points)`.
   * @returns {Promise<{cancelled: boolean, result: object}>}
   */
  async run(job, { id, draws, seed }, running, on) {
    this.helpers ??= await this.#startHelpers();
    const helpers = [...this.helpers];
    const parts = helpers.length + 1;
    const run = partOfRun(this.bindings(), job, draws, seed, 0, parts);
    let finished = false;
    try {
      const report = progressOf(parts, on.progress);
      running.onCancel = () => helpers.forEach((w) => w.postMessage({ type: DrawRequest.cancel, id }));
      const elsewhere = helpers.map((worker, i) => {
        const counts = this.#drawElsewhere(worker, job, { id, draws, seed }, i + 1, parts, report(i + 1));
        counts.catch(() => {}); // awaited below, unless this part fails first
        return counts;
      });
      let pictured = 0;
      const here = report(0);
      const cancelled = await drawAll(run, running, (done, total) => {
        here(done, total);
        if (performance.now() - pictured < CONVERGENCE_MS) return;
        pictured = performance.now();
        on.converging(run.convergence());
      });
      for (const [i, counts] of elsewhere.entries()) {
        run.absorb(await counts.catch(() => drawHere(this.bindings(), job, { draws, seed }, i + 1, parts, running, report(i + 1))));
      }
      finished = true;
      return { cancelled: cancelled || running.cancelled, result: run.finish() };
    } finally {
      if (!finished) {
        // Failed here: the draw workers' parts are of no use any more.
        running.onCancel?.();
        run.free();
      }
    }
  }

  /** The draw workers, or none where a worker cannot start workers. */
  async #startHelpers() {
    if (typeof Worker === "undefined") return [];
    const module = await this.wasmModule();
    return Array.from({ length: this.count }, () => {
      const worker = new Worker(workerScript(new URL("./draws.js", import.meta.url)), { type: "module" });
      worker.postMessage({ type: DrawRequest.init, module });
      return worker;
    });
  }

  /** Part `part` of `parts` of the run, on a draw worker; resolves to its counts. */
  #drawElsewhere(worker, job, { id, draws, seed }, part, parts, onProgress) {
    const counts = new Promise((resolve, reject) => {
      worker.onmessage = ({ data: reply }) => {
        if (reply.id !== id) return;
        if (reply.type === DrawReply.progress) onProgress(reply.done, reply.total);
        else if (reply.type === DrawReply.drawn) resolve(reply.counts);
        else reject(new Said("error-draw-worker", { detail: reply.message }));
      };
      worker.onerror = (e) => {
        e.preventDefault(); // handled here: the page must not take it for this worker's crash
        reject(new Said("error-draw-worker", { detail: e.message ?? "" }));
      };
    });
    worker.postMessage({ type: DrawRequest.draw, id, job, draws, seed, part, parts });
    return counts.catch((e) => {
      // Its instance may be dead: the next run starts a fresh one in its place.
      worker.terminate();
      this.#replace(worker);
      throw e;
    });
  }

  /** A fresh draw worker where `worker` was. */
  #replace(worker) {
    const at = this.helpers?.indexOf(worker) ?? -1;
    if (at < 0) return;
    this.wasmModule().then((module) => {
      const fresh = new Worker(workerScript(new URL("./draws.js", import.meta.url)), { type: "module" });
      fresh.postMessage({ type: DrawRequest.init, module });
      this.helpers[at] = fresh;
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

/** Part `part` of `parts` of the run, here. */
async function drawHere(wasm, job, { draws, seed }, part, parts, running, onProgress) {
  const run = partOfRun(wasm, job, draws, seed, part, parts);
  try {
    await drawAll(run, running, onProgress);
    return run.counts();
  } finally {
    run.free();
  }
}
