// The answer view's figures as the page reads them beside its decoding (www/worker/draws.js's
// `figures`): the sampling core's build without the model, one generated step at a time.
import init, * as wasm from "/page/pkg-core/sampling_lab.js";

const ready = init();

onmessage = async ({ data: { warm, job } }) => {
  try {
    await ready;
    if (warm) return postMessage({});
    const { logits, params, generationConfig, contextIds, token } = job;
    postMessage({ figures: wasm.answerStep(logits, params, generationConfig, contextIds, token) });
  } catch (e) {
    postMessage({ error: String(e?.message ?? e) });
  }
};
