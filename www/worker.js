// Owns the wasm instance; answers the page's requests (protocol.js) one at a time.
import init, { inspect, monteCarlo, parseLogits } from "/pkg/sampling_lab.js";
import { Reply, Request } from "./protocol.js";

let logits = null;
let contextIds = null;

async function start() {
  await init();
  const [npy, reference] = await Promise.all([
    fetch("fixtures/reference.npy").then((r) => checked(r).arrayBuffer()),
    fetch("fixtures/reference.json").then((r) => checked(r).json()),
  ]);
  logits = parseLogits(new Uint8Array(npy));
  contextIds = Uint32Array.from(reference.context_ids);
  // The module is built with +simd128: it only instantiates where wasm SIMD is supported.
  postMessage({ type: Reply.ready, simd: true });
}

function checked(response) {
  if (!response.ok) throw new Error(`${response.url}: HTTP ${response.status}`);
  return response;
}

onmessage = ({ data }) => {
  try {
    if (data.type === Request.inspect) {
      const report = inspect(logits, data.params, data.generationConfig, contextIds);
      postMessage({ type: Reply.distribution, id: data.id, report });
    } else if (data.type === Request.monteCarlo) {
      const result = monteCarlo(logits, data.params, data.generationConfig, contextIds, data.draws, BigInt(data.seed));
      postMessage({ type: Reply.monteCarlo, id: data.id, result });
    }
  } catch (e) {
    postMessage({ type: Reply.error, id: data.id ?? null, message: String(e?.message ?? e) });
  }
};

start().catch((e) => postMessage({ type: Reply.error, id: null, message: String(e?.message ?? e) }));
