// Steps as files, on the model's side of the worker: the step file of a chat the model computed
// (for "Embed this", and kept for the next visit), and the link's step file held to the model's
// own logits once the site's model is there. Reading and checking a step file is the shipped
// steps' (shipped-steps.js); writing one, the core's (writeStep).
import { Said } from "../shared/said.js";

/** The most probable tokens whose byte tokens a step file completes (build-steps.mjs ships as many). */
const COMPLETED = 64;

/**
 * @param {object} worker what the worker lends: `shipped` (its ShippedSteps), `core()` (the core's
 *   bindings), `withStep(request, use)` (a step of the model as a handle) and `isSiteModel()`
 *   (whether the loaded model is the site's default, whose steps a file may stand for)
 */
export function stepFiles({ shipped, core, withStep, isSiteModel }) {
  /** The site's model ({sha256, name}), once the manifest is read. */
  let siteModel = null;
  shipped.model().then((model) => { siteModel = model; });
  /** Per chat, the completions kept with its step so far. */
  const keptCompletions = new Map();

  /** The step file of `chat`'s next step: its logits and the completions of its byte tokens
   * (those given, else the most probable tokens'). */
  function text(chat, completions = null) {
    return withStep({ chat, step: null }, (handle) => {
      const done = completions ?? handle.completions(Uint32Array.from(handle.candidates(COMPLETED).map(([token]) => token)));
      return core().writeStep(JSON.stringify(chat), handle.contextIds, handle.logits, JSON.stringify(done), siteModel.sha256, siteModel.name);
    });
  }

  return {
    /** The step file of `chat` for a writer: only the site's own model writes one. */
    file(chat) {
      if (!isSiteModel()) throw new Said("step-file-not-site-model");
      return text(chat);
    },

    /** Keeps the model's step of `chat` for the next visit (with the completions asked so far):
     * written once per chat, and again when its completions grow — not at every inspection. */
    keep(chat, completions = []) {
      if (!isSiteModel()) return;
      const key = JSON.stringify(chat);
      if (keptCompletions.has(key) && !completions.length) return;
      const all = [...(keptCompletions.get(key) ?? []), ...completions];
      keptCompletions.set(key, all);
      shipped.keep(chat, text(chat, all)).catch(() => {});
    },

    /** The link's step file held to the model's own logits for its chat, bit for bit:
     * `{url, same}`, or null where there is none or the model is not the site's. */
    check() {
      const file = shipped.file;
      if (!file || !isSiteModel()) return null;
      const logits = withStep({ chat: file.step.chat, step: null }, (handle) => handle.logits);
      const same = logits.length === file.step.logits.length && logits.every((x, i) => Object.is(x, Math.fround(file.step.logits[i])));
      return { url: file.url, same };
    },
  };
}
