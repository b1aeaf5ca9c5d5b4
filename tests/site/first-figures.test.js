// The answer before the download, on dist/ served gzipped with its _headers as static hosts send
// it: the first figures come from the sampling core and the step the site ships, within 1.5 MB;
// the model is asked for only when something needs it (in the background on the full page, never
// in an embed until its reader asks), and everything that needs no model works while it is held.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { MODEL } from "../e2e/harness.js";
import { BUDGET_BYTES, useSite, visit } from "./visit.js";

const state = useSite();

/** A first visit to dist/ on `query`, its first figures drawn (visit.js). */
async function firstVisit(query, options) {
  const visited = await visit(state.browser, state.site.base, query, options);
  await visited.figures();
  return visited;
}

test("the first figures come from the core and the shipped step within 1.5 MB transferred, before any request for the model", async (t) => {
  const { context, page, errors, seen, release } = await firstVisit("", { hold: true });
  try {
    t.diagnostic(`${seen.bytes} bytes transferred before the first figures`);
    assert.ok(seen.bytes > 0 && seen.bytes <= BUDGET_BYTES, `${seen.bytes} bytes before the first figures`);
    assert.ok(seen.model.every((at) => at >= seen.figuresAt), "the model was asked for before the figures were up");
    assert.equal(await page.getByTestId("kept-hf").textContent(), "24");
    assert.match(await page.getByTestId("finding").textContent(), /^transformers keeps 24 tokens here; /);
    // The full page then loads the model in the background, its progress on show.
    await page.getByTestId("model-status").filter({ hasText: /^(loading the model|downloading)/ }).waitFor();
    release();
    await page.getByTestId("model-status").filter({ hasText: /^ready$/ }).waitFor({ timeout: 120_000 });
    assert.deepEqual(errors, []);
  } finally {
    release();
    await context.close();
  }
});

test("with the model's download held, presets, arguments, the temperature table, Monte Carlo, export and share work on the shipped step, and the ties lab needs no model", async () => {
  const { context, page, errors, release } = await firstVisit("", { hold: true });
  try {
    await page.getByRole("button", { name: "top_k 40", exact: true }).click();
    await page.getByTestId("kept-hf").filter({ hasText: /^40$/ }).waitFor();
    await page.locator("#value-top_k").fill("7");
    await page.locator("#value-top_k").press("Enter");
    await page.getByTestId("kept-hf").filter({ hasText: /^7$/ }).waitFor();
    assert.ok(await page.getByTestId("thresholds").locator("tr").count() > 3, "the temperature table has its rows");
    await page.getByLabel("draws per port").fill("3000");
    await page.getByRole("button", { name: "Draw", exact: true }).click();
    await page.getByTestId("mc-status").filter({ hasText: "done" }).waitFor({ timeout: 120_000 });
    const download = page.waitForEvent("download");
    await page.getByRole("region", { name: "Distributions" }).getByText("Export", { exact: true }).click();
    await page.getByRole("button", { name: "JSON", exact: true }).click();
    assert.match((await download).suggestedFilename(), /\.json$/);
    await page.getByRole("button", { name: "Copy link" }).click();
    assert.match(await page.getByLabel("Link to this state").inputValue(), /top_k%22%3A\+?7%7D/);
    await page.getByRole("button", { name: "ties lab" }).click();
    await page.getByTestId("kept-hf").filter({ hasText: /^3$/ }).waitFor();
    // Generate says what it waits for, and is not refused.
    assert.match(await page.locator("#generate").textContent(), /^Generate \(after the model loads\)$/);
    assert.equal(await page.getByTestId("model-status").textContent().then((t) => /^ready$/.test(t)), false);
    assert.deepEqual(errors, []);
  } finally {
    release();
    await context.close();
  }
});

test("an embed asks for no model until its reader uses a control that needs it, and that control names the download's size", async () => {
  const { context, page, errors, seen } = await firstVisit(`?embed=1&params=${encodeURIComponent('{"do_sample":true,"temperature":0.7,"top_k":40}')}`, { viewport: { width: 720, height: 600 } });
  try {
    assert.equal(await page.getByTestId("kept-hf").textContent(), "40");
    await page.waitForTimeout(3000);
    assert.deepEqual(seen.model, [], "the embed asked for the model on its own");
    const size = Math.round(readFileSync(MODEL).length / 1e6);
    const load = page.getByRole("button", { name: `Load the model (${size} MB)` });
    await load.click();
    await page.getByTestId("model-status").filter({ hasText: /^ready$/ }).waitFor({ timeout: 120_000 });
    assert.equal(seen.model.length, 1);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test("a link to a chat the site does not ship says where the figures go that it needs the model: the page loads it, an embed waits to be asked", async () => {
  const query = `?user=${encodeURIComponent("Name a colour.")}`;
  for (const embed of [false, true]) {
    const context = await state.browser.newContext();
    const requests = [];
    await context.route(`**/${MODEL}`, (route) => { requests.push(route.request().url()); return route.continue(); });
    const page = await context.newPage();
    try {
      await page.goto(`${state.site.base}${query}${embed ? "&embed=1" : ""}`);
      const notice = page.locator("#needs-model");
      await notice.filter({ hasText: "This chat's next token needs the model" }).waitFor({ timeout: 60_000 });
      if (embed) {
        await page.waitForTimeout(2000);
        assert.deepEqual(requests, [], "the embed asked for the model on its own");
        await page.locator("#needs-model-load").click();
      }
      await page.waitForFunction(() => document.documentElement.dataset.drawn, null, { timeout: 120_000 });
      assert.equal(await notice.isVisible(), false, "the notice goes once the figures are up");
      assert.equal(requests.length, 1);
      assert.equal(await page.getByLabel("User message").inputValue(), "Name a colour.");
    } finally {
      await context.close();
    }
  }
});
