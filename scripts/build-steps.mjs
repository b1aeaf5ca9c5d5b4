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
import { DEFAULTS } from "../www/state/state.js";

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
  const all = [{ chat: chatOf({}) }, ...set.exercises.filter((e) => !e.setup.logits).map((e) => ({ chat: chatOf(e.setup) })), ...own];
  const seen = new Set();
  return all.filter(({ chat }) => {
    const key = JSON.stringify(chat);
    return !seen.has(key) && seen.add(key);
  });
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
    return { chat: chatOf({ system: entry.system ?? "", user: entry.user, prefix: entry.prefix ?? "" }), params: entry.params };
  });
}

const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");

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
  const steps = wanted.map(({ chat, params }) => {
    const step = lab.nextStep(chat);
    try {
      const logits = Buffer.from(step.logits.buffer);
      const hash = sha256(logits);
      writeFileSync(join(OUT, `data/${hash}.f32`), logits);
      const top = step.candidates(COMPLETED).map(([token]) => token);
      const completions = step.completions(Uint32Array.from(top));
      return { chat, ...(params ? { params } : {}), rendered: lab.renderChat(chat), contextIds: Array.from(step.contextIds), logits: `data/${hash}.f32`, sha256: hash, completions };
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
}

const args = process.argv.slice(2);
const chats = args.indexOf("--chats");
const chatsFile = chats >= 0 ? args.splice(chats, 2)[1] : null;
if (chats >= 0 && !chatsFile) throw new Error("--chats needs a file");
await build(args[0] ?? DEFAULT_MODEL, chatsFile);
