// Shared by the browser tests: the page served locally, Debian's Chromium, and the native CLI
// whose output the page's figures must equal.
import { before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

const PORT = 8765 + Math.floor(Math.random() * 1000);
export const BASE = `http://127.0.0.1:${PORT}/`;
export const MODEL = "models/SmolLM2-135M-Instruct.Q4_1.gguf";
export const REFERENCE = { prompt: "How do you say thank you in Chinese?", answerPrefix: 'In Chinese, you can say "' };
export const PRESETS = {
  "temp 0.7": { do_sample: true, temperature: 0.7 },
  "temp 0.7, top_k 0": { do_sample: true, temperature: 0.7, top_k: 0 },
  "top_k 40": { do_sample: true, temperature: 0.7, top_k: 40 },
  "top_k 0, top_p 0.9": { do_sample: true, temperature: 0.7, top_k: 0, top_p: 0.9 },
  "top_k 40, top_p 0.9": { do_sample: true, temperature: 0.7, top_k: 40, top_p: 0.9 },
};
const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync"];

/** Debian's Chromium, headless, with nothing reaching for the network; its language English
 * unless a test asks for another (`LANG=zh_CN.UTF-8` on a machine would otherwise decide). */
export const launchChromium = () => chromium.launch({ executablePath: "/usr/bin/chromium", args: [...FLAGS, "--lang=en-US"] });
const CLI = "target/debug/sampling-lab";

/** Starts the server and the browser around the calling test file. Every page it opens reports
 * Content-Security-Policy violations (Trusted Types included); the file fails on any. */
export function useBrowser() {
  const violations = [];
  const state = { violations };
  before(async () => {
    state.server = spawn("python3", ["scripts/serve.py", "--port", String(PORT)], { env: { ...process.env, SERVE_QUIET: "1" }, stdio: "ignore" });
    for (let i = 0; i < 50; i++) {
      try { if ((await fetch(BASE)).ok) break; } catch { /* not up yet */ }
      await new Promise((r) => setTimeout(r, 100));
    }
    state.browser = await launchChromium();
    const newPage = state.browser.newPage.bind(state.browser);
    state.browser.newPage = async (options) => {
      const page = await newPage(options);
      await page.exposeFunction("samplingLabViolation", (v) => violations.push(v));
      await page.addInitScript(() => document.addEventListener("securitypolicyviolation",
        (e) => window.samplingLabViolation(`${e.effectiveDirective} blocked ${e.blockedURI} at ${e.sourceFile}:${e.lineNumber}`)));
      return page;
    };
  });
  after(async () => {
    await state.browser?.close();
    state.server?.kill();
    assert.deepEqual(violations, [], "Content-Security-Policy violations");
  });
  return state;
}

/** A fresh page with its first figures up and, unless `model` is false, the default model loaded
 * (asked for where the page waits for the reader to: an embed, an exercise set, synthetic logits);
 * `errors` collects uncaught page errors. */
export async function openPage(state, query = "", prepare = async () => {}, { model = true } = {}) {
  const page = await state.browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await prepare(page);
  await page.goto(BASE + query);
  await waitFigures(page);
  if (model) await waitReady(page);
  return { page, errors };
}

/** The first figures: the report's first sentence is on the page (hidden while an exercise's
 * task is open). */
export async function waitFigures(page) {
  // Drawn by the page's scripts: a prerendered page (dist/) shows its first screen before them.
  await page.waitForFunction(() => document.getElementById("finding")?.textContent && document.documentElement.dataset.drawn, null, { timeout: 120_000 });
}

/** The model, loaded: asked for with the page's own control where no one has asked yet. */
/** A column's kept count in the compared table's head (what an embed shows of the figures). */
export const keptIn = (page, column) => page.locator(`#compare-table tr.kept td[data-column="${column}"]`);

/** A count as the page shows it to an English reader (Intl's grouping: 49,152). */
export const shown = (count) => Number(count).toLocaleString("en-US");
/** A figure cell that says exactly `count`. */
export const exactly = (count) => new RegExp(`^${shown(count)}$`);
/** The count a figure cell says. */
export const figure = (text) => Number(text.replaceAll(",", ""));

export async function waitReady(page) {
  // The status line's state, whatever the page's language says it in.
  await page.locator("#status:not([data-state=starting])").waitFor({ timeout: 120_000 });
  const load = page.locator("#load-model");
  // The full page may start the download itself between the look and the click.
  if (await load.isVisible()) await load.click({ timeout: 5_000 }).catch(() => {});
  await page.locator("#status[data-state=ready]").waitFor({ timeout: 120_000 });
}

/** `sampling-lab inspect --model` for the reference chat in exact precision. */
export function cliInspect(params, extra = []) {
  return JSON.parse(cli(["inspect", "--model", MODEL, "--prompt", REFERENCE.prompt,
    "--answer-prefix", REFERENCE.answerPrefix, "--params", JSON.stringify(params), ...extra]).stdout);
}

/** `sampling-lab inspect --model` for another chat ({user, prefix}) in exact precision. */
export function cliInspectChat({ user, prefix = "" }, params) {
  return JSON.parse(cli(["inspect", "--model", MODEL, "--prompt", user, "--answer-prefix", prefix, "--params", JSON.stringify(params)]).stdout);
}

/** `sampling-lab port --model --format json` for the reference chat. */
export function cliPort(params) {
  return JSON.parse(cli(["port", "--model", MODEL, "--prompt", REFERENCE.prompt,
    "--answer-prefix", REFERENCE.answerPrefix, "--params", JSON.stringify(params), "--format", "json"]).stdout);
}

/** `sampling-lab inspect --logits` for synthetic logits. */
export function cliInspectLogits(logits, params) {
  const file = join(mkdtempSync(join(tmpdir(), "sampling-lab-")), "logits.json");
  writeFileSync(file, JSON.stringify(logits));
  return JSON.parse(cli(["inspect", "--logits", file, "--params", JSON.stringify(params)]).stdout);
}

/** The ids `sampling-lab generate` produces for the reference chat. */
export function cliGenerateIds(params, maxNewTokens) {
  const { stderr } = cli(["generate", "--model", MODEL, "--prompt", REFERENCE.prompt,
    "--answer-prefix", REFERENCE.answerPrefix, "--params", JSON.stringify(params), "--max-new-tokens", String(maxNewTokens)]);
  return JSON.parse(/ids: (\[[\d, ]*\])/.exec(stderr)[1]);
}

/** The core's columns, in its order (the report's: hf, then every column compared with it). */
export const cliColumns = () => ["hf", ...Object.keys(cliInspectLogits([1, 2, 3], {}).compare)];

/** The cause rules the core can name (`sampling-lab rules`), in its order. */
export const cliRules = () => cli(["rules"]).stdout.trim().split("\n").map((line) => line.split("\t")[0]);

function cli(args) {
  const run = spawnSync(CLI, args, { encoding: "utf8", maxBuffer: 256 << 20 });
  if (run.status !== 0) throw new Error(`sampling-lab ${args[0]} failed: ${run.stderr}`);
  return run;
}
