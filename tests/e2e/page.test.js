// The page in Debian's Chromium: the wasm core loads in a worker and the headline figures on
// screen are the ones `sampling-lab inspect` prints for the same inputs.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, execFileSync } from "node:child_process";
import { chromium } from "playwright-core";

const PORT = 8765 + Math.floor(Math.random() * 1000);
const BASE = `http://127.0.0.1:${PORT}/`;
const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync"];
let server;
let browser;

before(async () => {
  server = spawn("python3", ["scripts/serve.py", "--port", String(PORT)], { env: { ...process.env, SERVE_QUIET: "1" }, stdio: "ignore" });
  for (let i = 0; i < 50; i++) {
    try { if ((await fetch(BASE)).ok) break; } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: FLAGS });
});

after(async () => {
  await browser?.close();
  server?.kill();
});

function cliReport(params) {
  const out = execFileSync("target/debug/sampling-lab", [
    "inspect", "--logits", "www/fixtures/reference.npy", "--params", JSON.stringify(params),
    "--context-ids", JSON.stringify(JSON.parse(execFileSync("cat", ["www/fixtures/reference.json"])).context_ids),
  ], { maxBuffer: 64 << 20 });
  return JSON.parse(out);
}

async function openPage() {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(BASE);
  await page.getByTestId("model-status").filter({ hasText: "ready" }).waitFor({ timeout: 60_000 });
  return { page, errors };
}

const PRESETS = {
  "temp 0.7": { do_sample: true, temperature: 0.7 },
  "temp 0.7, top_k 0": { do_sample: true, temperature: 0.7, top_k: 0 },
  "top_k 40": { do_sample: true, temperature: 0.7, top_k: 40 },
  "top_k 0, top_p 0.9": { do_sample: true, temperature: 0.7, top_k: 0, top_p: 0.9 },
  "top_k 40, top_p 0.9": { do_sample: true, temperature: 0.7, top_k: 40, top_p: 0.9 },
};

test("each reference preset shows the kept counts and TV that the CLI prints", async () => {
  const { page, errors } = await openPage();
  const kept = [];
  for (const [label, params] of Object.entries(PRESETS)) {
    const cli = cliReport(params);
    await page.getByRole("button", { name: label, exact: true }).click();
    await page.getByTestId("kept-hf").filter({ hasText: String(cli.hf.kept) }).waitFor();
    assert.equal(await page.getByTestId("kept-literal").textContent(), String(cli.literal.kept), label);
    assert.equal(await page.getByTestId("kept-corrected").textContent(), String(cli.corrected.kept), label);
    assert.equal(await page.getByTestId("tv-literal").textContent(), cli.compare.literal.tv.toFixed(4), label);
    assert.equal(await page.getByTestId("tv-corrected").textContent(), cli.compare.corrected.tv.toFixed(4), label);
    kept.push(Number(await page.getByTestId("kept-hf").textContent()));
  }
  assert.deepEqual(kept, [50, 49152, 40, 58, 24]);
  await page.screenshot({ path: "target/screenshots/demo-desktop.png", fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: "target/screenshots/demo-phone.png", fullPage: true });
  assert.deepEqual(errors, []);
});

test("an invalid parameter shows transformers' error and the page keeps working", async () => {
  const { page } = await openPage();
  await page.getByLabel(/generate\(\) keyword arguments/).fill('{"do_sample": true, "temperature": 0.0}');
  await page.getByRole("button", { name: "Inspect" }).click();
  await page.getByTestId("error").filter({ hasText: "`temperature` (=0.0) has to be a strictly positive float" }).waitFor();
  assert.equal(await page.getByTestId("kept-literal").textContent(), "1");
  await page.getByLabel(/generate\(\) keyword arguments/).fill('{"do_sample": tru');
  await page.getByRole("button", { name: "Inspect" }).click();
  await page.getByTestId("error").filter({ hasText: "not valid JSON" }).waitFor();
  await page.getByRole("button", { name: "top_k 40", exact: true }).click();
  await page.getByTestId("kept-hf").filter({ hasText: /^40$/ }).waitFor();
  assert.equal(await page.getByTestId("error").textContent(), "");
});
