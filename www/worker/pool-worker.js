// A thread of the exact model's pool (the threaded build only): the model's worker (worker.js)
// starts it with its compiled module and its shared memory; it joins the pool, says so, and then
// computes its rows of every product until the page closes. If its instance traps, it tells the
// pool, so that the model's worker fails (and the page restarts it) instead of waiting forever.
import init, { poolCrashed, poolRegister, poolServe } from "../pkg-threads/sampling_lab.js";

onmessage = async ({ data: { module, memory } }) => {
  let joined = false;
  try {
    await init({ module_or_path: module, memory });
    const index = poolRegister();
    joined = true;
    postMessage({ joined: index });
    poolServe(index);
  } catch (e) {
    if (joined) poolCrashed();
    postMessage({ failed: String(e?.message ?? e) });
  }
};
