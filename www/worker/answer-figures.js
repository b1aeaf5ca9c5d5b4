// Each generated step of the answer under every column, read beside the model's decoding: on a
// draw worker of its own (draws.js, the sampling core without the model), so that on a machine
// with a spare core the answer view's figures cost the generation little (`make bench` measures
// both); here, on the model's worker, where no worker can start or one fails.
import { workerScript } from "../shared/trusted.js";
import { DrawReply, DrawRequest } from "../shared/protocol.js";
import { Said } from "../shared/said.js";

export class AnswerFigures {
  /** The draw worker, once asked for (null where none can start). */
  #worker = null;
  #next = 0;
  /** Job id → {resolve, reject} of the jobs sent and not answered yet. */
  #waiting = new Map();

  /** @param {() => object} bindings this thread's wasm bindings (the fallback's answerStep)
   * @param {() => Promise<WebAssembly.Module>} wasmModule the sampling core's module */
  constructor(bindings, wasmModule) {
    this.bindings = bindings;
    this.wasmModule = wasmModule;
  }

  /** The figures of `job` ({logits, params, generationConfig, contextIds, token}): the core's
   * AnswerStep, in the order the jobs were sent. */
  async read(job) {
    const worker = await this.#started();
    if (!worker) return this.#here(job);
    const id = this.#next++;
    const figures = new Promise((resolve, reject) => this.#waiting.set(id, { resolve, reject }));
    worker.postMessage({ type: DrawRequest.figures, id, job });
    return figures.catch(() => this.#here(job));
  }

  #here({ logits, params, generationConfig, contextIds, token }) {
    return this.bindings().answerStep(logits, params, generationConfig, contextIds, token);
  }

  #started() {
    this.#worker ??= typeof Worker === "undefined" ? Promise.resolve(null) : this.#start();
    return this.#worker;
  }

  async #start() {
    const module = await this.wasmModule();
    const worker = new Worker(workerScript(new URL("./draws.js", import.meta.url)), { type: "module" });
    worker.postMessage({ type: DrawRequest.init, module });
    worker.addEventListener("message", ({ data: reply }) => {
      const waiting = this.#waiting.get(reply.id);
      if (!waiting) return;
      this.#waiting.delete(reply.id);
      if (reply.type === DrawReply.figures) waiting.resolve(reply.figures);
      else waiting.reject(new Said("error-draw-worker", { detail: reply.message }));
    });
    worker.addEventListener("error", (e) => {
      e.preventDefault(); // handled here: the page must not take it for the model's worker's crash
      // Every job still waiting is read here; the next ones on a fresh worker.
      for (const waiting of this.#waiting.values()) waiting.reject(new Said("error-draw-worker", { detail: e.message ?? "" }));
      this.#waiting.clear();
      worker.terminate();
      this.#worker = null;
    });
    return worker;
  }
}
