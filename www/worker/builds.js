// The wasm builds a worker runs, and how each starts:
//
//   pkg-core/     the sampling core alone (no model): the model's worker starts on it, and draws
//                 the first figures with it from the shipped steps; the draw workers run on it
//   pkg/          the core and the model, one thread: loaded when a model is first asked for
//   pkg-threads/  the same with the exact model's products on a pool of workers, where the page is
//                 cross-origin isolated and shared memory exists (WebKitGTK is isolated without
//                 it); bit for bit pkg/'s arithmetic, so a failure to start falls back to pkg/
import { workerScript } from "../shared/trusted.js";
import { Said } from "../shared/said.js";

/** Whether wasm threads can run here. */
export const THREADED = self.crossOriginIsolated === true && sharedMemory();

function sharedMemory() {
  try {
    return new WebAssembly.Memory({ initial: 1, maximum: 1, shared: true }).buffer instanceof SharedArrayBuffer;
  } catch {
    return false;
  }
}

/** The pool's size: the page's choice (`?threads=N`), else one fewer than the cores (a core for
 * the page), 1 to 8. */
export function threadCount(asked) {
  const wanted = Number(asked) || (navigator.hardwareConcurrency ?? 2) - 1;
  return Math.min(8, Math.max(1, Math.floor(wanted)));
}

/** The sampling core's build: its bindings, instantiated, and its compiled module (which the draw
 * workers instantiate too). */
export async function loadCore() {
  const module = await compileWasm(new URL("../pkg-core/sampling_lab_bg.wasm", import.meta.url));
  const bindings = await import("../pkg-core/sampling_lab.js");
  await bindings.default({ module_or_path: module });
  return { bindings, module };
}

/** The model's build: the threaded one with a pool of `threads` where threads can run, else (or if
 * it fails to start) the single-threaded one. */
export async function loadModelBuild(threads) {
  if (THREADED) {
    try {
      const module = await compileWasm(new URL("../pkg-threads/sampling_lab_bg.wasm", import.meta.url));
      const bindings = await import("../pkg-threads/sampling_lab.js");
      const exports = await bindings.default({ module_or_path: module });
      await startPool(module, exports.memory, threads);
      return bindings;
    } catch (e) {
      console.warn(`the threaded build did not load (${e?.message ?? e}); running on one thread`);
    }
  }
  const bindings = await import("../pkg/sampling_lab.js");
  await bindings.default({ module_or_path: await compileWasm(new URL("../pkg/sampling_lab_bg.wasm", import.meta.url)) });
  return bindings;
}

/** Starts the pool's workers on this instance's shared memory and waits until each has joined
 * (a worker blocked in a product could not let them start). One that fails to start is left out. */
async function startPool(module, memory, threads) {
  const joined = Array.from({ length: threads - 1 }, () => new Promise((resolve) => {
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
  if (!response.ok) throw new Said("error-http", { url: String(url), status: response.status, statusText: response.statusText, why: "other" });
  // Compiled while it downloads, unless the server sends another type than wasm's.
  if (response.headers.get("content-type") === "application/wasm") return WebAssembly.compileStreaming(response);
  return WebAssembly.compile(await response.arrayBuffer());
}
