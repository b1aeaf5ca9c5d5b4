// The exact model's speed in a worker, as the page runs it: the single-threaded build (pkg/) or
// the threaded one (pkg-threads/) on a pool of `threads` workers, which needs a thread that may
// block (not the page's). Same GGUF, same chat, `newTokens` greedy tokens; then the prefill of a
// long prompt. Posts the figures, the greedy answer (compared across systems) and the rows each
// thread computed.
const now = () => performance.now();
const seconds = (since) => (now() - since) / 1000;

onmessage = async ({ data: { build, threads, model, question, newTokens, longPrompt } }) => {
  try {
    postMessage(await measure(build, threads, { model, question, newTokens, longPrompt }));
  } catch (e) {
    postMessage({ error: String(e?.message ?? e) });
  }
};

async function measure(build, threads, { model, question, newTokens, longPrompt }) {
  const base = build === "threads" ? "/page/pkg-threads/" : "/page/pkg/";
  const wasm = await import(`${base}sampling_lab.js`);
  const module = await WebAssembly.compileStreaming(fetch(`${base}sampling_lab_bg.wasm`));
  const exports = await wasm.default({ module_or_path: module });
  if (build === "threads") await startPool(module, exports.memory, threads);
  // Load counts the download, as it does for every other system.
  const loadStart = now();
  const bytes = new Uint8Array(await (await fetch(model, { cache: "no-store" })).arrayBuffer());
  const lab = wasm.Lab.fromGguf(bytes, "exact");
  const load_s = seconds(loadStart);
  const chat = { messages: [{ role: "user", content: question }] };
  const prefillStart = now();
  const generation = lab.startGeneration(chat, { params: "{}", maxNewTokens: newTokens });
  const prefill_s = seconds(prefillStart);
  const decodeStart = now();
  let tokens = 0;
  let text = "";
  for (let step; (step = generation.step()) !== null; tokens += 1) text += step.text;
  // The last step samples without running the model: tokens − 1 forward passes.
  const decode_tok_s = (tokens - 1) / seconds(decodeStart);
  const long = { messages: [{ role: "user", content: longPrompt }] };
  const longStart = now();
  const longStep = lab.nextStep(long);
  const long_prefill_s = seconds(longStart);
  const long_prompt_tokens = longStep.contextIds.length;
  longStep.free();
  return {
    load_s, prefill_s, decode_tok_s, prompt_tokens: generation.promptIds().length, new_tokens: tokens, text,
    long_prefill_s, long_prompt_tokens, threads: wasm.threads(), rows: Array.from(wasm.poolRows()),
  };
}

/** The pool's workers on this instance's memory, each joined before the first product. */
async function startPool(module, memory, threads) {
  await Promise.all(Array.from({ length: threads - 1 }, () => new Promise((resolve, reject) => {
    const helper = new Worker("/page/worker/pool-worker.js", { type: "module" });
    helper.onmessage = ({ data }) => (data.failed ? reject(new Error(data.failed)) : resolve());
    helper.onerror = (e) => reject(new Error(e.message));
    helper.postMessage({ module, memory });
  })));
}
