// The shipped steps, steps/: the next-token logits of every context the page opens on without a
// model — the reference chat the presets use, and each chat of the default exercise set — so that
// the first figures need only the sampling core (pkg-core/, a few hundred KB) and not the model
// (98 MB). They are computed here with the very build the page runs (pkg/, the exact model, in
// Node), so they are the page's own logits bit for bit; tests/e2e hold the page's model, and the
// threaded build, to them after the model loads.
//
//   steps/index.json            the manifest (never cached): the model it was made with, the
//                               vocabulary's file, and per context its chat, rendered prompt, ids,
//                               logits file, the logits' sha256 and the characters its byte tokens
//                               begin, as the model completes them (among its COMPLETED most
//                               probable tokens: every row a table or a panel can show)
//   steps/data/<sha256>.f32     one step's logits, little-endian float32, named by their hash
//   steps/data/vocabulary-<sha>.json  every token's display text, by id
//   steps/data/answer-<sha>.json  an answer to a chat, written by the page's own generation under
//                               hf with the chat's arguments (the page's default call for its
//                               own chat, a writer's `params` for theirs) and seed 0: its tokens
//                               and every step's figures under every column, so that the answer
//                               view draws before the model loads (the default chat's, and each
//                               of a writer's chats)
//
// Usage: node scripts/build-steps.mjs [MODEL.gguf] [--chats CHATS.json] (default: the site's default
// model). A model that is not a local file (a Hub URL) ships no steps: the page then loads the
// model first. CHATS.json is the writer's own chats, shipped beside the page's:
//
//   {"chats": [{"user": "…", "prefix": "…", "system": "…", "params": {"do_sample": true, …}}]}
//
// (`prefix`, `system` and `params` optional; `params`, a chat's generate() arguments, are kept in
// the manifest for the embeds a writer links to).
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULTS, stateQuery } from "../www/state/state.js";

const ROOT = new URL("..", import.meta.url).pathname;
const OUT = join(ROOT, "steps");
const DEFAULT_MODEL = "models/SmolLM2-135M-Instruct.Q4_1.gguf";

/** The chat the page builds from its three fields (www/state/inputs.js). */
const chatOf = ({ system = "", user = DEFAULTS.user, prefix = DEFAULTS.prefix }) => ({
  system: system.trim() || null, messages: [{ role: "user", content: user }], answer_prefix: prefix,
});

/** Every context the page opens on without a model: the defaults, each exercise's chat (an
 * exercise with synthetic logits needs no model at all), then the writer's own chats, each
 * `{chat, params}`. */
function contexts(chatsFile) {
  const set = JSON.parse(readFileSync(join(ROOT, "www/exercises/default.json"), "utf8"));
  const own = chatsFile ? writersChats(chatsFile) : [];
  const all = [{ chat: chatOf({}), answer: JSON.parse(DEFAULTS.params) }, ...set.exercises.filter((e) => !e.setup.logits).map((e) => ({ chat: chatOf(e.setup) })), ...own];
  // One entry per chat; a later one's arguments and answer (a writer's chat that is also an
  // exercise's) join the first.
  const byChat = new Map();
  for (const entry of all) {
    const key = JSON.stringify(entry.chat);
    const first = byChat.get(key);
    if (first) Object.assign(first, { params: first.params ?? entry.params, answer: first.answer ?? entry.answer });
    else byChat.set(key, { ...entry });
  }
  return [...byChat.values()];
}

/** The writer's chats file, checked: a sentence naming the entry and the field that is wrong. */
function writersChats(file) {
  let read;
  try {
    read = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new Error(`${file}: not a JSON file (${e.message})`, { cause: e });
  }
  if (!Array.isArray(read?.chats) || read.chats.length === 0) throw new Error(`${file}: expected {"chats": [{"user": "…"}, …]}`);
  return read.chats.map((entry, i) => {
    const at = `${file}: chat ${i + 1}`;
    const known = ["user", "prefix", "system", "params"];
    const unknown = Object.keys(entry ?? {}).filter((key) => !known.includes(key));
    if (unknown.length) throw new Error(`${at}: unknown field ${unknown.map((k) => `“${k}”`).join(", ")} (the fields are ${known.join(", ")})`);
    if (typeof entry.user !== "string" || !entry.user) throw new Error(`${at}: “user” must be the user's message, a non-empty string`);
    for (const key of ["prefix", "system"]) if (entry[key] !== undefined && typeof entry[key] !== "string") throw new Error(`${at}: “${key}” must be a string`);
    if (entry.params !== undefined && (typeof entry.params !== "object" || entry.params === null || Array.isArray(entry.params))) {
      throw new Error(`${at}: “params” must be a JSON object of generate() arguments`);
    }
    const chat = chatOf({ system: entry.system ?? "", user: entry.user, prefix: entry.prefix ?? "" });
    return { chat, params: entry.params, answer: entry.params ?? JSON.parse(DEFAULTS.params) };
  });
}

const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");

/** The shipped answers' length: the page's default `max new tokens`. */
const ANSWER_TOKENS = DEFAULTS.max;

/** An answer to `chat` under hf with `params` and seed 0, generated by the page's build, with every
 * step's figures under every column: written beside the logits, named by its hash. `null` (and a
 * line saying why) where transformers refuses the arguments. */
function shipAnswer(wasm, lab, chat, params) {
  const options = { semantics: "hf", params: JSON.stringify(params), seed: DEFAULTS.seed, maxNewTokens: ANSWER_TOKENS };
  let generation;
  try {
    generation = lab.startGeneration(chat, options);
    const tokens = [];
    const steps = [];
    for (let step = generation.step(); step !== null; step = generation.step()) {
      tokens.push({ id: step.token, token_text: step.token_text, text: step.text });
      // The figures as the page reads a generated step: the core's answerStep on its draw job.
      const handle = generation.stepAt(step.index);
      const job = handle.drawJob(options.params, null);
      steps.push(wasm.answerStep(job.logits, job.params, job.generationConfig ?? null, job.contextIds, step.token));
      job.free();
      handle.free();
    }
    const answer = Buffer.from(JSON.stringify({ params: options.params, semantics: options.semantics, seed: options.seed, finish: generation.finish(), tokens, steps }));
    const hash = sha256(answer);
    writeFileSync(join(OUT, `data/answer-${hash}.json`), answer);
    return { file: `data/answer-${hash}.json`, sha256: hash };
  } catch (e) {
    console.log(`steps: no answer shipped for “${chat.messages[0].content}”: ${e.message}`);
    return null;
  } finally {
    generation?.free();
  }
}

/** The most probable tokens whose byte tokens are completed: more than the page's table shows. */
const COMPLETED = 64;

async function build(modelPath, chatsFile) {
  const wanted = contexts(chatsFile);
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(join(OUT, "data"), { recursive: true });
  if (!existsSync(join(ROOT, modelPath))) {
    writeFileSync(join(OUT, "index.json"), JSON.stringify({ model: null, steps: [] }));
    console.log(`steps: ${modelPath} is not a local file; no steps shipped (the page loads the model first)`);
    return;
  }
  const wasm = await import(join(ROOT, "pkg/sampling_lab.js"));
  wasm.initSync({ module: readFileSync(join(ROOT, "pkg/sampling_lab_bg.wasm")) });
  const gguf = readFileSync(join(ROOT, modelPath));
  const lab = wasm.Lab.fromGguf(gguf, "exact");
  const vocabulary = Buffer.from(JSON.stringify(lab.vocabulary()));
  const vocabularyFile = `data/vocabulary-${sha256(vocabulary).slice(0, 16)}.json`;
  writeFileSync(join(OUT, vocabularyFile), vocabulary);
  const steps = wanted.map(({ chat, params, answer }) => {
    const step = lab.nextStep(chat);
    try {
      const logits = Buffer.from(step.logits.buffer);
      const hash = sha256(logits);
      writeFileSync(join(OUT, `data/${hash}.f32`), logits);
      const top = step.candidates(COMPLETED).map(([token]) => token);
      const completions = step.completions(Uint32Array.from(top));
      const shippedAnswer = answer ? shipAnswer(wasm, lab, chat, answer) : null;
      return { chat, ...(params ? { params } : {}), ...(shippedAnswer ? { answer: shippedAnswer } : {}), rendered: lab.renderChat(chat), contextIds: Array.from(step.contextIds), logits: `data/${hash}.f32`, sha256: hash, completions };
    } finally {
      step.free();
    }
  });
  const manifest = {
    model: { path: modelPath, sha256: sha256(gguf), bytes: gguf.length, precision: "exact", name: lab.info().name },
    vocabulary: vocabularyFile,
    steps,
  };
  writeFileSync(join(OUT, "index.json"), `${JSON.stringify(manifest, null, 1)}\n`);
  lab.free();
  console.log(`steps: ${steps.length} context(s) of ${modelPath} in steps/ (${steps.map((s) => s.sha256.slice(0, 12)).join(", ")})`);
  // The writer's embeds: each chat's link, to put after the site's address.
  for (const { chat, params } of chatsFile ? writersChats(chatsFile) : []) console.log(`  embed: ${embedQuery(chat, params)}`);
}

/** The embed of a writer's chat, as the page's own "Embed this" writes its query. */
function embedQuery(chat, params) {
  const state = { ...DEFAULTS, embed: true, user: chat.messages[0].content, prefix: chat.answer_prefix, system: chat.system ?? "" };
  if (params) state.params = JSON.stringify(params);
  return stateQuery(state);
}

const args = process.argv.slice(2);
const chats = args.indexOf("--chats");
const chatsFile = chats >= 0 ? args.splice(chats, 2)[1] : null;
if (chats >= 0 && !chatsFile) throw new Error("--chats needs a file");
await build(args[0] ?? DEFAULT_MODEL, chatsFile);
