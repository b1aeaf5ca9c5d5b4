// Monte Carlo draws in chunks, shared by the model's worker (worker.js) and its draw workers
// (draws.js): a progress report and a chance to cancel between two chunks.

/** Part `part` of `parts` of the run for a draw job (worker.js's `drawJob`), as a wasm
 * MonteCarloRun of the caller's build (`wasm`: its bindings, either build draws the same). */
export function partOfRun(wasm, job, draws, seed, part, parts) {
  return wasm.monteCarlo(job.logits, job.params, job.generationConfig, job.contextIds, draws, BigInt(seed), part, parts);
}

/** Draws between two progress reports and chances to cancel: a draw takes 1–2 ms, and a worker
 * busy for longer than a blink holds up a cancel (and the start of the draw worker). */
const CHUNK = 100;

/**
 * Advances `run` (a wasm MonteCarloRun) to its end unless `state.cancelled` turns true.
 * @returns {Promise<boolean>} whether it was cancelled before its end
 */
export async function drawAll(run, state, onProgress) {
  onProgress(run.done, run.total);
  while (run.done < run.total) {
    // A timer, not a message to itself: Chromium runs a worker's own posted messages before the
    // draw workers' replies, which would then wait for the end of the run (and the progress with
    // them count this part's draws alone).
    await nextTimer();
    if (state.cancelled) break;
    run.advance(CHUNK);
    onProgress(run.done, run.total);
  }
  return run.done < run.total;
}

/** Lets every queued task run, the other workers' messages included. */
const nextTimer = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Lets queued messages (a cancel) run; a MessageChannel avoids setTimeout's 4 ms clamp. */
export function nextTask() {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = resolve;
    channel.port2.postMessage(null);
  });
}
