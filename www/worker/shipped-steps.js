// The steps the worker can answer for without the model: those shipped with the page
// (scripts/build-steps.mjs: the next-token logits of the chats the site ships, computed with the
// page's own exact model), a step file a link names (a writer's own chat, beside their post), and
// the steps the model computed on an earlier visit (step-store.js). All are the site's default
// model's: the manifest says which (its sha256), and a step file or a kept step of another model
// is refused. The manifest is read once; a step's logits and the vocabulary when first asked for.
// A chat matches a step when its system message, user message and answer prefix are the same text.
import { Said } from "../shared/said.js";
import { keptStep, keepStep } from "./step-store.js";

export class ShippedSteps {
  #manifest = null;
  #logits = new Map();
  #answers = new Map();
  #vocabulary = null;
  /** The step file a link named, once read and checked: {url, step}. */
  #file = null;

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

  /** The step of `chat` ({chat, rendered?, contextIds, logits: Float32Array, completions,
   * source}) — shipped, from the link's step file, or kept from an earlier visit — or null. */
  async step(chat, core) {
    const { steps } = await this.manifest();
    const entry = steps.find((s) => sameChat(s.chat, chat));
    if (entry) {
      if (!this.#logits.has(entry.logits)) this.#logits.set(entry.logits, this.#fetchLogits(entry));
      return { ...entry, contextIds: Uint32Array.from(entry.contextIds), logits: await this.#logits.get(entry.logits), source: "shipped" };
    }
    if (this.#file && sameChat(this.#file.step.chat, chat)) return { ...asStep(this.#file.step), source: "file", url: this.#file.url };
    const model = await this.model();
    const kept = model && core ? await keptStep(model.sha256, chat) : null;
    if (!kept) return null;
    const read = core.readStep(kept, model.sha256, (await this.vocabulary()).length, JSON.stringify(chat));
    return read.step ? { ...asStep(read.step), source: "kept" } : null;
  }

  /** The answer the site ships for `chat` — `{params, semantics, seed, finish, tokens, steps}`,
   * written at build time with every step's figures — or null. Its hash is checked as a step's
   * logits are. */
  async answer(chat) {
    const { steps } = await this.manifest();
    const entry = steps.find((s) => s.answer && sameChat(s.chat, chat));
    if (!entry) return null;
    if (!this.#answers.has(entry.answer.file)) this.#answers.set(entry.answer.file, this.#fetchChecked(entry.answer.file, entry.answer.sha256).then((bytes) => JSON.parse(new TextDecoder().decode(bytes))));
    return this.#answers.get(entry.answer.file);
  }

  /** Reads and checks the step file at `url` for `chat` with the core (`core.readStep`); throws
   * a `Said` naming what is wrong with it. */
  async useFile(url, chat, core) {
    const model = await this.model();
    if (!model) throw new Said("step-file-no-site-model");
    const bytes = await readLimited(url);
    const read = core.readStep(bytes, model.sha256, (await this.vocabulary()).length, JSON.stringify(chat));
    if (read.refused) throw new Said(read.refused.id, { ...read.refused.args, url });
    this.#file = { url, step: read.step };
    return read.step;
  }

  /** The step file in use, if any: {url, step}. */
  get file() {
    return this.#file;
  }

  /** Keeps a step the model computed (the step file's text) for the next visit. */
  async keep(chat, text) {
    const model = await this.model();
    if (model) await keepStep(model.sha256, chat, text);
  }

  /** Every token's display text, by id, of the model that made the steps. */
  async vocabulary() {
    const { vocabulary } = await this.manifest();
    this.#vocabulary ??= fetch(new URL(vocabulary, this.url)).then(ok).then((r) => r.json());
    return this.#vocabulary;
  }

  async #fetchLogits(entry) {
    return new Float32Array(await this.#fetchChecked(entry.logits, entry.sha256));
  }

  /** A shipped file's bytes, its sha256 checked against the manifest's. */
  async #fetchChecked(file, sha256) {
    const bytes = await fetch(new URL(file, this.url)).then(ok).then((r) => r.arrayBuffer());
    const digest = Array.from(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)), (b) => b.toString(16).padStart(2, "0")).join("");
    if (digest !== sha256) throw new Said("error-shipped-sha256", { file, actual: digest, expected: sha256 });
    return bytes;
  }
}

/** A step as the core read it ({chat, context_ids, logits, completions}), as the worker uses one. */
const asStep = (step) => ({ chat: step.chat, contextIds: Uint32Array.from(step.context_ids), logits: Float32Array.from(step.logits), completions: step.completions });

const sameChat = (a, b) => (a.system ?? "") === (b.system ?? "") && (a.answer_prefix ?? "") === (b.answer_prefix ?? "")
  && JSON.stringify(a.messages) === JSON.stringify(b.messages);

/** The most a step file may weigh (step_file.rs's MAX_BYTES): reading stops one byte past it. */
const MAX_BYTES = 1 << 20;

/** The body at `url`, read no further than one byte past MAX_BYTES (the core names the size). */
async function readLimited(url) {
  let response;
  try {
    response = await fetch(url);
  } catch (e) {
    throw new Said("error-unreachable", { host: new URL(url).host, url, detail: e.message });
  }
  ok(response);
  const reader = response.body.getReader();
  const chunks = [];
  let length = 0;
  while (length <= MAX_BYTES) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    length += value.length;
  }
  reader.cancel().catch(() => {});
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}

function ok(response) {
  if (!response.ok) throw new Said("error-http", { url: response.url, status: response.status, statusText: response.statusText, why: "other" });
  return response;
}
