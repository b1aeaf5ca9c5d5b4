// `make bench`: this crate's wasm builds in headless Chromium (one thread, and the threaded exact
// build at 1, 2 and — with ≥ 4 cores — 4 threads), the native build, and the peers people pick in
// the same browser: wllama (llama.cpp's wasm) and transformers.js (onnxruntime-web's CPU backend,
// fp32 and q8), each at 1 and 2 threads, on the same GGUF weights and chat; each figure measured
// at least 3 times on an idle machine. Prints a table, whether the greedy answers agree, and
// writes target/bench/latest.json.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { chromium } from "playwright-core";
import { ISOLATED, serveStatic } from "../scripts/static-server.mjs";
import { serveSite, visit, visits } from "./first-figures.mjs";

const ROOT = new URL("..", import.meta.url).pathname;
const MODEL = "models/SmolLM2-135M-Instruct.Q4_1.gguf";
const QUESTION = "How do you say thank you in Chinese?";
/** What long contexts cost: ~600 tokens of prose, prefilled by every system. */
const LONG_PROMPT = Array.from({ length: 19 }, (_, i) =>
  `Paragraph ${i + 1}: a language model turns its last hidden state into logits, one per token of the vocabulary, and a sampler keeps some of them.`).join(" ");
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const NEW_TOKENS = 128;
/** The answer view's measure: the page's default answer length. */
const ANSWER_TOKENS = 64;
// Draws per port: enough for a stable rate; the cost of more draws scales linearly.
const DRAWS = 5_000;
/** `BENCH_SYSTEMS=wasm,wllama` measures only those (all by default; a prefix picks a family). */
const ONLY = process.env.BENCH_SYSTEMS?.split(",").map((s) => s.trim());
const CORES = cpus().length;
/** The CPU every figure of this run comes from: its model name and the vector units the kernels
 * can pick (`/proc/cpuinfo`'s flags), so that figures from two machines are never mixed up. */
const CPU = cpuInfo();
/** transformers.js's model folder, as `make onnx` writes it. */
const ONNX = "target/onnx";
const TJS_MISSING = "bench: *** transformers.js NOT MEASURED: no ONNX export under target/onnx. Run `make onnx` " +
  "(the transformers reference and optimum's exporter, ≈4 GB, once); no ratio against transformers.js can be quoted from this run. ***";
const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
  // measureUserAgentSpecificMemory() at once rather than at the next garbage collection.
  "--enable-blink-features=ForceEagerMeasureMemory",
  // More flags for a profile, e.g. BENCH_CHROMIUM_ARGS="--js-flags=--perf-prof" under `perf record -k 1`.
  ...(process.env.BENCH_CHROMIUM_ARGS?.split(" ").filter(Boolean) ?? [])];
/** URL prefix → folder: the page and its three wasm builds, the model, the peers' own files, the bench. */
const MOUNTS = [["/page/pkg-core/", "pkg-core"], ["/page/pkg/", "pkg"], ["/page/pkg-threads/", "pkg-threads"], ["/page/models/", "models"], ["/page/", "www"],
  ["/pkg/", "pkg"], ["/models/", "models"], ["/wllama/", "node_modules/@wllama/wllama/esm"],
  ["/tjs/", "node_modules/@huggingface/transformers/dist"], ["/ort/", "node_modules/onnxruntime-web/dist"],
  ["/onnx/", ONNX], ["/", "bench"]].map(([prefix, folder]) => [prefix, join(ROOT, folder)]);

function cpuInfo() {
  let text;
  try {
    text = readFileSync("/proc/cpuinfo", "utf8");
  } catch {
    return { model: cpus()[0]?.model ?? "unknown CPU", avx2: undefined, avx512: undefined, label: cpus()[0]?.model ?? "unknown CPU" };
  }
  const model = /^model name\s*:\s*(.*)$/m.exec(text)?.[1]?.trim() ?? cpus()[0]?.model ?? "unknown CPU";
  const flags = new Set((/^(?:flags|Features)\s*:\s*(.*)$/m.exec(text)?.[1] ?? "").split(/\s+/));
  const avx2 = flags.has("avx2");
  // The native kernels take AVX-512 where F and BW are both there (src/model/kernels/choice.rs).
  const avx512 = flags.has("avx512f") && flags.has("avx512bw");
  const units = flags.has("asimd") ? "NEON" : avx512 ? "AVX2, AVX-512" : avx2 ? "AVX2, no AVX-512" : "no AVX2";
  const kernels = flags.has("asimd") ? "neon" : avx512 ? "avx512" : avx2 ? "avx2" : "portable";
  return { model, avx2, avx512, units, kernels, label: `${CORES} × ${model} (${units})` };
}

/** Share of all cores busy over the next `ms` milliseconds (from the kernel's CPU times). */
async function busyShare(ms) {
  const total = () => cpus().reduce((t, c) => {
    const all = Object.values(c.times).reduce((a, b) => a + b, 0);
    return { all: t.all + all, idle: t.idle + c.times.idle };
  }, { all: 0, idle: 0 });
  const before = total();
  await new Promise((r) => setTimeout(r, ms));
  const after = total();
  return 1 - (after.idle - before.idle) / Math.max(after.all - before.all, 1);
}

/** Waits (up to two minutes) until the cores are mostly idle. Measured over two seconds rather
 * than from the load average, which still counts the previous measurement for a minute. */
async function waitForIdle(label) {
  for (let waited = 0; waited < 120; waited += 2) {
    const busy = await busyShare(2000);
    if (busy < 0.25) return;
    if (waited === 0) process.stderr.write(`bench: waiting for an idle machine before ${label} (${Math.round(100 * busy)} % busy)\n`);
  }
}

/** One run of every figure of `system` in a fresh page. */
async function browserRun(browser, base, system) {
  const page = await browser.newPage();
  page.on("pageerror", (e) => process.stderr.write(`bench page: ${e.message}\n`));
  await page.goto(`${base}bench.html`);
  const result = await page.evaluate(([system, options]) => window.measure(system, options),
    [system, { model: `${base}${MODEL}`, question: QUESTION, newTokens: NEW_TOKENS, draws: DRAWS, longPrompt: LONG_PROMPT }]);
  await page.close();
  return result;
}

/** The page itself, as a user meets it: open with an empty cache until the first chart, reload
 * (the model now comes from Cache Storage) until the first chart again, then draw every drawing
 * column (on the page's own draw workers) for the reference settings. */
async function pageRun(browser, base) {
  const context = await browser.newContext();
  const page = await context.newPage();
  page.on("pageerror", (e) => process.stderr.write(`bench page: ${e.message}\n`));
  const firstChart = async (open) => {
    const start = performance.now();
    await open();
    await page.getByTestId("kept-hf").filter({ hasText: /^\d+$/ }).waitFor({ timeout: 120_000 });
    return (performance.now() - start) / 1000;
  };
  const cold_first_chart_s = await firstChart(() => page.goto(`${base}page/`));
  const cached_first_chart_s = await firstChart(() => page.reload());
  await page.getByLabel("draws per port").fill(String(DRAWS));
  const drawStart = performance.now();
  await page.getByRole("button", { name: "Draw", exact: true }).click();
  await page.getByTestId("mc-status").filter({ hasText: "done" }).waitFor({ timeout: 300_000 });
  const draws_per_s = DRAWS / ((performance.now() - drawStart) / 1000);
  await context.close();
  return { cold_first_chart_s, cached_first_chart_s, draws_per_s };
}

/** The CLI's `generate`: its own timings of the load, the prefill and the decode (one thread). */
function nativeGenerate(precision, prompt, newTokens) {
  const run = spawnSync(join(ROOT, "target/release/sampling-lab"), ["generate", "--model", join(ROOT, MODEL),
    "--prompt", prompt, "--precision", precision, "--max-new-tokens", String(newTokens), "--params", "{}"], { encoding: "utf8" });
  if (run.status !== 0) throw new Error(run.stderr);
  const load = /loaded .* in ([\d.]+) s/.exec(run.stderr);
  const stats = /prefill (\d+) tokens ([\d.]+) s; (\d+) tokens in ([\d.]+) s \(([\d.]+) tok\/s\)/.exec(run.stderr);
  return { load_s: Number(load[1]), prompt_tokens: Number(stats[1]), prefill_s: Number(stats[2]), decode_tok_s: Number(stats[5]) };
}

/** `generate` and `answer` on the same chat, call and seed: decoding alone, and with every step's
 * figures read beside it (the command's second thread). */
function nativeAnswer() {
  const args = ["--model", join(ROOT, MODEL), "--prompt", "Write a short story about the sea.", "--max-new-tokens", String(ANSWER_TOKENS),
    "--params", '{"do_sample": true, "temperature": 0.7, "top_k": 40, "top_p": 0.9}', "--seed", "0"];
  const generate = spawnSync(join(ROOT, "target/release/sampling-lab"), ["generate", ...args], { encoding: "utf8" });
  const answer = spawnSync(join(ROOT, "target/release/sampling-lab"), ["answer", ...args], { encoding: "utf8", maxBuffer: 64 << 20 });
  if (generate.status !== 0 || answer.status !== 0) throw new Error(generate.stderr + answer.stderr);
  const plain = /(\d+) tokens in ([\d.]+) s \(/.exec(generate.stderr);
  const both = /(\d+) tokens in ([\d.]+) s after the prefill; every step's figures under every column ([\d.]+) s/.exec(answer.stderr);
  return { answer_tokens: Number(both[1]), answer_plain_s: Number(plain[2]), answer_figures_s: Number(both[3]) };
}

function nativeRun(precision) {
  const chat = nativeGenerate(precision, QUESTION, NEW_TOKENS);
  const long = nativeGenerate(precision, LONG_PROMPT, 1);
  return { ...chat, long_prefill_s: long.prefill_s, long_prompt_tokens: long.prompt_tokens };
}

function summary(runs) {
  const out = {};
  for (const key of Object.keys(runs[0])) {
    const values = runs.map((r) => r[key]).filter((v) => typeof v === "number").sort((a, b) => a - b);
    if (values.length && key !== "threads") out[key] = { min: values[0], median: values[Math.floor(values.length / 2)], max: values[values.length - 1] };
  }
  return out;
}

/** `RUNS` runs of one system: its figures' medians and ranges, its threads, its greedy answer. */
async function measure(label, threads, once) {
  const runs = [];
  for (let i = 0; i < RUNS; i++) {
    await waitForIdle(label);
    runs.push(await once());
  }
  return { label, threads: runs[0].threads ?? threads, ...summary(runs), ...(runs[0].text !== undefined && { text: runs[0].text }) };
}

/** Every system of this run: [key, label, threads, one run]. */
function systemsToRun(browser, base, site) {
  const inBrowser = (system) => () => browserRun(browser, base, system);
  const list = [
    ["page", "the page (its own draw workers)", undefined, () => pageRun(browser, base)],
    ["wasm", "wasm exact (pkg/, page thread)", 1, inBrowser({ kind: "wasm", precision: "exact" })],
    ["wasm_fast", "wasm fast (pkg/, page thread)", 1, inBrowser({ kind: "wasm", precision: "fast" })],
  ];
  for (const threads of [1, 2, ...(CORES >= 4 ? [4] : [])]) {
    list.push([`wasm-mt@${threads}`, "wasm exact (pkg-threads/, worker)", threads, inBrowser({ kind: "worker", build: "threads", threads })]);
  }
  list.push(["wllama@1", "wllama 3.13 (llama.cpp wasm)", 1, inBrowser({ kind: "wllama", threads: 1 })]);
  list.push(["wllama-mt@2", "wllama 3.13 multi-thread", 2, inBrowser({ kind: "wllama", threads: 2 })]);
  if (existsSync(join(ROOT, ONNX, "SmolLM2-135M-Instruct/onnx/model.onnx"))) {
    for (const dtype of ["fp32", "q8"]) {
      for (const threads of [1, 2]) {
        list.push([`transformers-js-${dtype}@${threads}`, `transformers.js 4.3 ${dtype} (WASM)`, threads,
          inBrowser({ kind: "transformers-js", dtype, threads })]);
      }
    }
  } else if (!ONLY || ONLY.some((o) => "transformers-js".startsWith(o) || o.startsWith("transformers-js"))) {
    process.stderr.write(`\n${TJS_MISSING}\n\n`);
  }
  for (const workers of [...new Set([1, 2, CORES])]) {
    list.push([`draws@${workers}`, "Monte Carlo, draw workers", workers, inBrowser({ kind: "draws", workers })]);
  }
  list.push(["speculative", "DFlash's loop (wasm, exact)", 1, inBrowser({ kind: "speculative" })]);
  list.push(["answer", "the answer view's figures (wasm)", 2, inBrowser({ kind: "answer" })]);
  list.push(["native_answer", "the answer view's figures (native)", 2, () => nativeAnswer()]);
  for (const [key, label, options] of visits()) list.push([key, label, undefined, () => visit(browser, site, options)]);
  list.push(["native", `native exact (${CPU.kernels} kernels)`, 1, () => nativeRun("exact")]);
  list.push(["native_fast", "native fast", 1, () => nativeRun("fast")]);
  return list.filter(([key]) => !ONLY || ONLY.some((o) => key === o || key.startsWith(o)));
}

function table(systems, figures) {
  const rows = Object.entries(systems).filter(([, s]) => figures.some((f) => s[f]));
  const lines = [`every figure on ${CPU.label}:`, "",
    `| system | threads | ${figures.join(" | ")} |`, `|---|---|${figures.map(() => "---").join("|")}|`];
  for (const [key, s] of rows) {
    const cells = figures.map((f) => (s[f] ? `${fmt(s[f].median)} [${fmt(s[f].min)}–${fmt(s[f].max)}]` : "–"));
    lines.push(`| ${key} | ${s.threads ?? "–"} | ${cells.join(" | ")} |`);
  }
  return lines.join("\n");
}

const fmt = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(3));

/** The targets as ratios of this run's medians, each beside the figures it divides: `want` is ≥
 * (higher is better) or ≤. A target whose figures this run lacks is said to be unmeasured. */
function targets(systems) {
  const m = (key, f) => systems[key]?.[f]?.median;
  // transformers.js at its best dtype for that many threads: the fastest decode, the quickest prefill.
  const tjs = (threads, f, pick) => {
    const figures = ["fp32", "q8"].map((d) => [d, m(`transformers-js-${d}@${threads}`, f)]).filter(([, x]) => x !== undefined);
    if (!figures.length) return [undefined, "transformers.js (not measured)"];
    const best = figures.reduce((a, b) => (pick(a[1], b[1]) === a[1] ? a : b));
    return [best[1], `transformers.js ${best[0]}@${threads}`];
  };
  const lines = [];
  const unit = (f) => (f.endsWith("_tok_s") ? "tok/s" : f.endsWith("_s") ? "s" : "");
  const line = (met, what, value, want, bound, figures) =>
    lines.push(`${met === undefined ? "unmeasured" : met ? "met       " : "NOT met   "}  ${what}: ${value === undefined ? "–" : fmt(value)} (target ${want} ${bound})${figures ? `; ${figures}` : ""}`);
  const check = (what, value, want, bound, figures) => {
    if (value === undefined || !Number.isFinite(value)) return line(undefined, what, undefined, want, bound, figures);
    line(want === "≥" ? value >= bound : value <= bound, what, value, want, bound, figures);
  };
  /** ours ÷ theirs for figure `f`, with both figures named. */
  const ratio = (what, [ours, oursName], [theirs, theirsName], f, want, bound) => {
    const u = unit(f);
    const figures = `${oursName} ${ours === undefined ? "–" : fmt(ours)} ${u}, ${theirsName} ${theirs === undefined ? "–" : fmt(theirs)} ${u}`;
    check(what, ours !== undefined && theirs !== undefined ? ours / theirs : undefined, want, bound, figures);
  };
  const fig = (key, f) => [m(key, f), key];
  const absolute = (what, key, f, want, bound) => check(what, m(key, f), want, bound, `${key} ${m(key, f) === undefined ? "–" : fmt(m(key, f))} ${unit(f)}`);

  lines.push("wasm, 1 thread (pkg/, the page's default):");
  ratio("chat prefill ÷ transformers.js@1's best", fig("wasm", "prefill_s"), tjs(1, "prefill_s", Math.min), "prefill_s", "≤", 1);
  absolute("chat prefill, s", "wasm", "prefill_s", "≤", 0.25);
  ratio("611-token prefill ÷ transformers.js@1's best", fig("wasm", "long_prefill_s"), tjs(1, "long_prefill_s", Math.min), "long_prefill_s", "≤", 1);
  ratio("decode ÷ wllama@1", fig("wasm", "decode_tok_s"), fig("wllama@1", "decode_tok_s"), "decode_tok_s", "≥", 2);
  ratio("decode ÷ transformers.js@1's best", fig("wasm", "decode_tok_s"), tjs(1, "decode_tok_s", Math.max), "decode_tok_s", "≥", 2);
  ratio("chat prefill ÷ wllama@1's", fig("wasm", "prefill_s"), fig("wllama@1", "prefill_s"), "prefill_s", "≤", 1);
  lines.push("wasm-mt, 2 threads (pkg-threads/):");
  ratio("decode ÷ our 1 thread (pkg/)", fig("wasm-mt@2", "decode_tok_s"), fig("wasm", "decode_tok_s"), "decode_tok_s", "≥", 1.85);
  ratio("decode ÷ wasm-mt@1", fig("wasm-mt@2", "decode_tok_s"), fig("wasm-mt@1", "decode_tok_s"), "decode_tok_s", "≥", 1.85);
  ratio("decode ÷ wllama-mt@2", fig("wasm-mt@2", "decode_tok_s"), fig("wllama-mt@2", "decode_tok_s"), "decode_tok_s", "≥", 2);
  ratio("decode ÷ transformers.js@2's best", fig("wasm-mt@2", "decode_tok_s"), tjs(2, "decode_tok_s", Math.max), "decode_tok_s", "≥", 2);
  ratio("chat prefill ÷ transformers.js@2's best", fig("wasm-mt@2", "prefill_s"), tjs(2, "prefill_s", Math.min), "prefill_s", "≤", 1);
  lines.push(`native exact (the CLI, 1 thread, ${CPU.kernels} kernels):`);
  absolute("chat prefill, s", "native", "prefill_s", "≤", 0.2);
  absolute("decode, tok/s", "native", "decode_tok_s", "≥", 30);
  lines.push("the answer view (64 tokens, every step's figures under every column):");
  ratio("generation with its figures ÷ without, wasm", fig("answer", "answer_figures_s"), fig("answer", "answer_plain_s"), "answer_figures_s", "≤", 1.2);
  ratio("generation with its figures ÷ without, native", fig("native_answer", "answer_figures_s"), fig("native_answer", "answer_plain_s"), "answer_figures_s", "≤", 1.2);
  lines.push("the page:");
  check(`draws/s: ${CORES} draw workers ÷ 1`, m(`draws@${CORES}`, "draws_per_s") / m("draws@1", "draws_per_s"), "≥", 1);
  absolute("first chart from a cached model, s", "page", "cached_first_chart_s", "≤", 1.5);
  absolute("first chart cold from localhost, s", "page", "cold_first_chart_s", "≤", 3);
  absolute("first figures at 10 Mbit/s, cold, the page (prerendered), s", "first-figures/shipped/page@10mbit/cold", "first_figures_s", "≤", 1);
  absolute("first figures at 10 Mbit/s, cold, an embed (prerendered), s", "first-figures/shipped/embed@10mbit/cold", "first_figures_s", "≤", 1);
  check("bytes before the first figures, cold, the page, MB", m("first-figures/shipped/page@10mbit/cold", "bytes") / 1e6, "≤", 0.1);
  absolute("first figures at 10 Mbit/s, cold, an embed of a writer's step file, s", "first-figures/step-file/embed@10mbit/cold", "first_figures_s", "≤", 3);
  check("bytes before the first figures, cold, an embed of a writer's step file, MB", m("first-figures/step-file/embed@10mbit/cold", "bytes") / 1e6, "≤", 1.5);
  return lines.join("\n");
}

/** Whether each system's greedy answer is ours (pkg/, one thread), word for word. */
function agreement(systems) {
  const ours = systems.wasm?.text ?? systems["wasm-mt@1"]?.text;
  if (ours === undefined) return "";
  const clean = (t) => t.replace(/<\|im_end\|>/g, "").trim();
  return Object.entries(systems).filter(([, s]) => s.text !== undefined).map(([key, s]) => {
    const [a, b] = [clean(ours), clean(s.text)];
    if (a === b) return `agrees   ${key}`;
    let at = 0;
    while (a[at] === b[at]) at += 1;
    return `differs  ${key}: after ${JSON.stringify(a.slice(Math.max(0, at - 30), at))}, ${JSON.stringify(b.slice(at, at + 30))} instead of ${JSON.stringify(a.slice(at, at + 30))}`;
  }).join("\n");
}

function wasmSize(folder) {
  const bytes = readFileSync(join(ROOT, folder, "sampling_lab_bg.wasm"));
  return { bytes: bytes.length, gzip_bytes: gzipSync(bytes, { level: 9 }).length };
}

async function serve() {
  return serveStatic(MOUNTS, () => ISOLATED);
}

async function main() {
  const { server, base } = await serve();
  const site = await serveSite();
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: FLAGS });
  const systems = {};
  try {
    for (const [key, label, threads, run] of systemsToRun(browser, base, site.base)) {
      systems[key] = await measure(label, threads, run);
    }
  } finally {
    await browser.close();
    server.close();
    site.server.close();
  }
  const report = {
    date: new Date().toISOString(),
    machine: CPU.label,
    cpu: CPU,
    transformers_js: Object.keys(systems).some((k) => k.startsWith("transformers-js")) ? "measured"
      : existsSync(join(ROOT, ONNX, "SmolLM2-135M-Instruct/onnx/model.onnx")) ? "not selected (BENCH_SYSTEMS)" : "not measured: no `make onnx` export",
    prompt: QUESTION,
    runs: RUNS,
    wasm_size: { "pkg-core": wasmSize("pkg-core"), pkg: wasmSize("pkg"), "pkg-threads": wasmSize("pkg-threads") },
    systems,
  };
  mkdirSync(join(ROOT, "target/bench"), { recursive: true });
  writeFileSync(join(ROOT, "target/bench/latest.json"), JSON.stringify(report, null, 1));
  console.log(table(systems, ["load_s", "prefill_s", "long_prefill_s", "decode_tok_s", "memory_mb"]));
  console.log();
  console.log(table(systems, ["inspect_ms", "draws_per_s", "cold_first_chart_s", "cached_first_chart_s",
    "tau_greedy", "spec_over_plain_greedy", "tau_lookup", "spec_over_plain_lookup"]));
  console.log();
  console.log(table(systems, ["first_figures_s", "bytes", "model_requested"]));
  console.log(table(systems, ["answer_tokens", "answer_plain_s", "answer_figures_s", "answer_serial_s"]));
  console.log(`\nmedian [min–max] of ${RUNS} runs on ${CPU.label}; prefill: the ${systems.wasm?.prompt_tokens?.median ?? 39}-token chat, long: ~${systems.wasm?.long_prompt_tokens?.median ?? systems["wllama@1"]?.long_prompt_tokens?.median ?? 600} tokens`);
  for (const [name, size] of Object.entries(report.wasm_size)) {
    console.log(`${name}: ${(size.bytes / 1e6).toFixed(2)} MB wasm, ${(size.gzip_bytes / 1e6).toFixed(2)} MB gzipped`);
  }
  console.log(`\ngreedy answers against ours:\n${agreement(systems)}`);
  console.log(`\ntargets (ratios of this run's medians, on ${CPU.label}):\n${targets(systems)}`);
  if (report.transformers_js.startsWith("not measured")) console.log(`\n${TJS_MISSING}`);
  console.log("JSON: target/bench/latest.json");
}

if (process.argv[2] === "--serve") {
  const { base } = await serve();
  console.log(base);
} else {
  await main();
}
