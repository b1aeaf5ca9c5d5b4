// The message protocol between the page and its worker (worker.js), which owns the wasm instance.
//
// page → worker
//   { type: "inspect", id, params, generationConfig }        params / generationConfig: JSON text
//   { type: "monteCarlo", id, params, generationConfig, draws, seed }
// worker → page
//   { type: "ready", simd }                                   wasm and the reference logits loaded
//   { type: "distribution", id, report }                      the `sampling-lab inspect` report
//   { type: "monteCarlo", id, result }
//   { type: "error", id, message }                            id is null for start-up failures
//
// Every number the page shows comes from these messages: the page computes no semantics.

/** @typedef {{type: "inspect", id: number, params: string, generationConfig: string | null}} InspectRequest */
/** @typedef {{type: "monteCarlo", id: number, params: string, generationConfig: string | null, draws: number, seed: number}} MonteCarloRequest */

export const Request = Object.freeze({ inspect: "inspect", monteCarlo: "monteCarlo" });
export const Reply = Object.freeze({
  ready: "ready",
  distribution: "distribution",
  monteCarlo: "monteCarlo",
  error: "error",
});
