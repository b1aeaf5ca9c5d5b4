// `make bench`: the wasm build in headless Chromium, the native build, and wllama (llama.cpp's
// wasm) in the same browser on the same GGUF and chat, single thread, each figure measured at
// least 3 times on an idle machine. Prints a table and writes target/bench/latest.json.
import { spawnSync } from "node:child_process";
import { createReadStream, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { cpus } from "node:os";
import { extname, join, normalize } from "node:path";
import { gzipSync } from "node:zlib";
import { chromium } from "playwright-core";

const ROOT = new URL("..", import.meta.url).pathname;
const MODEL = "models/SmolLM2-135M-Instruct.Q4_1.gguf";
const QUESTION = "How do you say thank you in Chinese?";
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const NEW_TOKENS = 128;
// Draws per port: enough for a stable rate; the cost of more draws scales linearly.
const DRAWS = 5_000;
/** `BENCH_SYSTEMS=wasm,wllama` measures only those (all by default). */
const ONLY = process.env.BENCH_SYSTEMS?.split(",").map((s) => s.trim());
const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync"];
/** URL prefix → folder; the bench page, the wasm build, the model and wllama's own files. */
const MOUNTS = [["/page/pkg/", "pkg"], ["/page/pkg-threads/", "pkg-threads"], ["/page/models/", "models"], ["/page/", "www"],
  ["/pkg/", "pkg"], ["/models/", "models"], ["/wllama/", "node_modules/@wllama/wllama/esm"], ["/", "bench"]];
const TYPES = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm", ".json": "application/json" };

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

function serve() {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    const [prefix, folder] = MOUNTS.find(([p]) => path.startsWith(p));
    const file = normalize(join(ROOT, folder, path.slice(prefix.length) || "index.html"));
    if (!file.startsWith(join(ROOT, folder)) || !existsSync(file) || statSync(file).isDirectory()) {
      res.writeHead(404).end();
      return;
    }
    // Cross-origin isolation, as a host serving threaded wasm would send (wllama checks for it).
    res.writeHead(200, {
      "Content-Type": TYPES[extname(file)] ?? "application/octet-stream",
      "Content-Length": statSync(file).size,
      "Cross-Origin-Opener-Policy": "same-origin",
      "Cross-Origin-Embedder-Policy": "require-corp",
    });
    createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

/** One run of every figure of `system` in a fresh page. */
async function browserRun(browser, base, system) {
  const page = await browser.newPage();
  page.on("pageerror", (e) => process.stderr.write(`bench page: ${e.message}\n`));
  await page.goto(`${base}bench.html`);
  const result = await page.evaluate(([system, options]) => window.measure(system, options),
    [system, { model: `${base}${MODEL}`, question: QUESTION, newTokens: NEW_TOKENS, draws: DRAWS }]);
  await page.close();
  return result;
}

/** The page itself, as a user meets it: open with an empty cache until the first chart, reload
 * (the model now comes from Cache Storage) until the first chart again, then draw both ports
 * (on two draw workers) for the reference settings. */
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

function nativeRun(precision) {
  const run = spawnSync(join(ROOT, "target/release/sampling-lab"), ["generate", "--model", join(ROOT, MODEL),
    "--prompt", QUESTION, "--precision", precision, "--max-new-tokens", String(NEW_TOKENS), "--params", "{}"], { encoding: "utf8" });
  if (run.status !== 0) throw new Error(run.stderr);
  const load = /loaded .* in ([\d.]+) s/.exec(run.stderr);
  const stats = /prefill (\d+) tokens ([\d.]+) s; (\d+) tokens in ([\d.]+) s \(([\d.]+) tok\/s\)/.exec(run.stderr);
  return { load_s: Number(load[1]), prompt_tokens: Number(stats[1]), prefill_s: Number(stats[2]), decode_tok_s: Number(stats[5]) };
}

function summary(runs) {
  const out = {};
  for (const key of Object.keys(runs[0])) {
    const values = runs.map((r) => r[key]).filter((v) => typeof v === "number").sort((a, b) => a - b);
    if (values.length) out[key] = { min: values[0], median: values[Math.floor(values.length / 2)], max: values[values.length - 1] };
  }
  return out;
}

async function measure(label, once) {
  const runs = [];
  for (let i = 0; i < RUNS; i++) {
    await waitForIdle(label);
    runs.push(await once());
  }
  return summary(runs);
}

function table(systems) {
  const figures = ["load_s", "prefill_s", "decode_tok_s", "inspect_ms", "draws_per_s", "peak_memory_mb",
    "cold_first_chart_s", "cached_first_chart_s", "tau_greedy", "spec_over_plain_greedy", "tau_lookup", "spec_over_plain_lookup"];
  const wllama = systems.wllama ?? {};
  const lines = [`| system | ${figures.join(" | ")} |`, `|---|${figures.map(() => "---").join("|")}|`];
  for (const [name, figs] of Object.entries(systems)) {
    const cells = figures.map((f) => {
      if (!figs[f]) return "–";
      const { min, median, max } = figs[f];
      const ratio = wllama[f] && name !== "wllama" ? ` (×${(median / wllama[f].median).toFixed(2)})` : "";
      return `${fmt(median)} [${fmt(min)}–${fmt(max)}]${ratio}`;
    });
    lines.push(`| ${name} | ${cells.join(" | ")} |`);
  }
  return lines.join("\n");
}

const fmt = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(3));

async function main() {
  const server = await serve();
  const base = `http://127.0.0.1:${server.address().port}/`;
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: FLAGS });
  const systems = {};
  try {
    const runs = {
      page: ["the page", () => pageRun(browser, base)],
      wasm: ["wasm (exact)", () => browserRun(browser, base, { kind: "wasm", precision: "exact" })],
      wasm_fast: ["wasm (fast)", () => browserRun(browser, base, { kind: "wasm", precision: "fast" })],
      wllama: ["wllama", () => browserRun(browser, base, { kind: "wllama", threads: 1 })],
      speculative: ["DFlash's loop (wasm, exact)", () => browserRun(browser, base, { kind: "speculative" })],
      native: ["native (exact)", () => nativeRun("exact")],
      native_fast: ["native (fast)", () => nativeRun("fast")],
    };
    for (const [key, [label, run]] of Object.entries(runs)) {
      if (!ONLY || ONLY.includes(key)) systems[key] = await measure(label, run);
    }
  } finally {
    await browser.close();
    server.close();
  }
  const wasmBytes = readFileSync(join(ROOT, "pkg/sampling_lab_bg.wasm"));
  const report = {
    date: new Date().toISOString(),
    machine: `${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, single thread`,
    prompt: QUESTION,
    runs: RUNS,
    wasm_size: { bytes: wasmBytes.length, gzip_bytes: gzipSync(wasmBytes, { level: 9 }).length },
    systems,
  };
  mkdirSync(join(ROOT, "target/bench"), { recursive: true });
  writeFileSync(join(ROOT, "target/bench/latest.json"), JSON.stringify(report, null, 1));
  console.log(table(systems));
  console.log(`\nwasm: ${(report.wasm_size.bytes / 1e6).toFixed(1)} MB, ${(report.wasm_size.gzip_bytes / 1e6).toFixed(1)} MB gzipped`);
  console.log(`median [min–max] of ${RUNS} runs; (×r) is the ratio to wllama's median. JSON: target/bench/latest.json`);
  console.log(JSON.stringify(report));
}

if (process.argv[2] === "--serve") {
  const server = await serve();
  console.log(`http://127.0.0.1:${server.address().port}/`);
} else {
  await main();
}
