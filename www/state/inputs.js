// What the controls say now: the chat, the call's arguments and the generation's options, read
// from the form as the worker takes them (JSON text for the arguments, as typed).
import { DEFAULTS } from "./state.js";
import { $ } from "../panels/view.js";

/** URL field → the input that holds it. */
export const INPUTS = {
  system: "system", user: "user", prefix: "answer-prefix", params: "params", gc: "generation-config", logits: "logits",
  semantics: "semantics", seed: "seed", max: "max-new-tokens",
};

/** The conversation: optional system message, the user's turn, the answer's forced start. */
export function chat() {
  const system = $("system").value.trim();
  return {
    system: system || null,
    messages: [{ role: "user", content: $("user").value }],
    answer_prefix: $("answer-prefix").value,
  };
}

/** The model's generation_config.json as typed, or null for none. */
export const generationConfig = () => $("generation-config").value.trim() || null;

/** The synthetic logits to inspect instead of the model's, or null. */
export const syntheticLogits = () => $("logits").value.trim() || null;

export const seed = () => Number($("seed").value) || 0;

/** How a generation (or a speculative run) chooses its tokens: `semantics` and `params` JSON
 * text, with the generation_config, seed and length on screen. */
export function generationOptions(semantics, params) {
  return {
    semantics, params, generationConfig: generationConfig(), seed: seed(),
    maxNewTokens: Number($("max-new-tokens").value) || DEFAULTS.max,
  };
}
