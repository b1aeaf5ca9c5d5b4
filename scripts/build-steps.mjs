// The shipped steps, steps/: the next-token logits of every context the page opens on without a
// model — the reference chat the presets use, and each chat of the default exercise set — so that
// the first figures need only the sampling core (pkg-core/, a few hundred KB) and not the model
// (98 MB). They are computed here with the very build the page runs (pkg/, the exact model, in
// Node), so they are the page's own logits bit for bit; tests/e2e hold the page's model, and the
// threaded build, to them after the model loads.
//
//   steps/index.json            the manifest (never cached): the model it was made with, the
//                               vocabulary's file, and per context its chat, rendered prompt, ids,
//                               logits file and the logits' sha256
//   steps/data/<sha256>.f32     one step's logits, little-endian float32, named by their hash
//   steps/data/vocabulary-<sha>.json  every token's display text, by id
//
// Usage: node scripts/build-steps.mjs [MODEL.gguf] (default: the site's default model). A model that
// is not a local file (a Hub URL) ships no steps: the page then loads the model first.
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

/** Every context the page opens on without a model: the defaults, then each exercise's chat
 * (an exercise with synthetic logits needs no model at all). */
function contexts() {
  const set = JSON.parse(readFileSync(join(ROOT, "www/exercises/default.json"), "utf8"));
  const chats = [chatOf({}), ...set.exercises.filter((e) => !e.setup.logits).map((e) => chatOf(e.setup))];
  const seen = new Set();
  return chats.filter((chat) => {
    const key = JSON.stringify(chat);
    return !seen.has(key) && seen.add(key);
  });
}

const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");

async function build(modelPath) {
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
  const steps = contexts().map((chat) => {
    const step = lab.nextStep(chat);
    try {
      const logits = Buffer.from(step.logits.buffer);
      const hash = sha256(logits);
      writeFileSync(join(OUT, `data/${hash}.f32`), logits);
      return { chat, rendered: lab.renderChat(chat), contextIds: Array.from(step.contextIds), logits: `data/${hash}.f32`, sha256: hash };
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

await build(process.argv[2] ?? DEFAULT_MODEL);
