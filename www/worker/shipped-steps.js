// The steps shipped with the page (scripts/build-steps.mjs): the next-token logits of the chats the
// page opens on, computed with the page's own exact model, so that the first figures need only the
// sampling core. The manifest is read once; a step's logits and the vocabulary when first asked for.
// A chat matches a shipped step when its system message, user message and answer prefix are the
// same text, and the site's default model is the one that made them.

export class ShippedSteps {
  #manifest = null;
  #logits = new Map();
  #vocabulary = null;

  /** @param {string | null} url the manifest's URL (steps/index.json), or null for none */
  constructor(url) {
    this.url = url;
  }

  /** The manifest, or an empty one where the site ships no steps (or the file cannot be read). */
  async manifest() {
    this.#manifest ??= this.url
      ? fetch(this.url).then((r) => (r.ok ? r.json() : { model: null, steps: [] })).catch(() => ({ model: null, steps: [] }))
      : Promise.resolve({ model: null, steps: [] });
    return this.#manifest;
  }

  /** The model the steps were made with ({path, sha256, bytes, name}), or null. */
  async model() {
    return (await this.manifest()).model;
  }

  /** The shipped step of `chat` ({chat, rendered, contextIds, logits: Float32Array}), or null. */
  async step(chat) {
    const { steps } = await this.manifest();
    const entry = steps.find((s) => sameChat(s.chat, chat));
    if (!entry) return null;
    if (!this.#logits.has(entry.logits)) this.#logits.set(entry.logits, this.#fetchLogits(entry));
    return { ...entry, contextIds: Uint32Array.from(entry.contextIds), logits: await this.#logits.get(entry.logits) };
  }

  /** Every token's display text, by id, of the model that made the steps. */
  async vocabulary() {
    const { vocabulary } = await this.manifest();
    this.#vocabulary ??= fetch(new URL(vocabulary, this.url)).then(ok).then((r) => r.json());
    return this.#vocabulary;
  }

  async #fetchLogits(entry) {
    const bytes = await fetch(new URL(entry.logits, this.url)).then(ok).then((r) => r.arrayBuffer());
    const digest = Array.from(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)), (b) => b.toString(16).padStart(2, "0")).join("");
    if (digest !== entry.sha256) throw new Error(`the shipped logits ${entry.logits} have sha256 ${digest}, not ${entry.sha256}`);
    return new Float32Array(bytes);
  }
}

const sameChat = (a, b) => (a.system ?? "") === (b.system ?? "") && a.answer_prefix === b.answer_prefix
  && JSON.stringify(a.messages) === JSON.stringify(b.messages);

function ok(response) {
  if (!response.ok) throw new Error(`${response.url}: HTTP ${response.status} ${response.statusText}`);
  return response;
}
