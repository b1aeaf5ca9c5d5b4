// Runs the exact model in a worker on one build — pkg/ (one thread) or pkg-threads/ with a pool
// of `threads` workers, started as the page's worker starts them — and hashes every logit it
// gives: a prompt's (panels), 16 greedy decode steps (row by row), a speculative round's batched
// verify (panels again) and the round's ids; and the logits of every step the site ships
// (steps/index.json), next to the sha256 the manifest gives them. Posts the hashes, whether the
// worker was cross-origin isolated, the threads the pool ran and the rows each thread computed.
const CHAT = { messages: [{ role: "user", content: "How do you say thank you in Chinese?" }], answer_prefix: 'In Chinese, you can say "' };

onmessage = async ({ data: { build, threads } }) => {
  try {
    postMessage(await probe(build, threads));
  } catch (e) {
    postMessage({ error: String(e?.message ?? e) });
  }
};

async function probe(build, threads) {
  const base = build === "threads" ? "/www/pkg-threads/" : "/pkg/";
  const wasm = await import(`${base}sampling_lab.js`);
  const module = await WebAssembly.compileStreaming(fetch(`${base}sampling_lab_bg.wasm`));
  const exports = await wasm.default({ module_or_path: module });
  if (build === "threads") await startPool(module, exports.memory, threads);
  const bytes = new Uint8Array(await (await fetch("/models/SmolLM2-135M-Instruct.Q4_1.gguf")).arrayBuffer());
  const lab = wasm.Lab.fromGguf(bytes, "exact");
  const hashes = [];
  const step = lab.nextStep(CHAT);
  hashes.push(await hash(step.logits));
  step.free();
  const generation = lab.startGeneration(CHAT, { params: "{}", maxNewTokens: 16 });
  while (generation.step() !== null);
  for (let i = 0; i < generation.steps; i++) {
    const at = generation.stepAt(i);
    hashes.push(await hash(at.logits));
    at.free();
  }
  const ids = Array.from(generation.generatedIds());
  const round = lab.speculate(CHAT, { semantics: "dflash", params: "{}", maxNewTokens: 12 }, "greedy", 8);
  hashes.push(await hash(new TextEncoder().encode(JSON.stringify(round.rounds))));
  const manifest = await (await fetch("/steps/index.json")).json();
  const shipped = [];
  for (const { chat, sha256 } of manifest.steps) {
    const at = lab.nextStep(chat);
    shipped.push({ shipped: sha256, computed: await hash(at.logits) });
    at.free();
  }
  return {
    shipped, isolated: self.crossOriginIsolated, threaded: wasm.threaded(), threads: wasm.threads(), rows: Array.from(wasm.poolRows()), ids, hashes,
  };
}

async function hash(values) {
  const bytes = new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
  const digest = await crypto.subtle.digest("SHA-256", bytes.slice());
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The pool's workers (www/worker/pool-worker.js) on this instance's memory, each joined first. */
async function startPool(module, memory, threads) {
  await Promise.all(Array.from({ length: threads - 1 }, () => new Promise((resolve, reject) => {
    const helper = new Worker("/www/worker/pool-worker.js", { type: "module" });
    helper.onmessage = ({ data }) => (data.failed ? reject(new Error(data.failed)) : resolve());
    helper.onerror = (e) => reject(new Error(e.message));
    helper.postMessage({ module, memory });
  })));
}
