// The difference seen, not only said: where each column's draws land at the step on screen (a bar
// per column, hatched outside transformers' support), and the whole answer as a heat strip with a
// sentence per column — the answer the site ships, before any request for the model, at desktop,
// phone and embed size, in English and Chinese; then the same answer read again on the model, and
// a generation of the reader's own.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { BASE, cliInspect, MODEL, openPage, REFERENCE, useBrowser, waitFigures, waitReady } from "./harness.js";

const browser = useBrowser();
const CALL = { do_sample: true, temperature: 0.7, top_k: 40, top_p: 0.9 };

/** `sampling-lab answer` for the reference chat under the page's default call, seed 0, 64 tokens:
 * what the site ships, computed natively. */
function cliAnswer(lang = "en") {
  const run = spawnSync("target/debug/sampling-lab", ["answer", "--model", MODEL, "--prompt", REFERENCE.prompt,
    "--answer-prefix", REFERENCE.answerPrefix, "--params", JSON.stringify(CALL), "--seed", "0", "--max-new-tokens", "64", "--lang", lang],
  { encoding: "utf8", maxBuffer: 64 << 20 });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout);
}

/** A page on `query` at `viewport`, the model never answered: every request for it is recorded
 * (and held), so that what the page shows before it is what a cold visit shows. */
async function coldPage(query, viewport) {
  const page = await browser.browser.newPage({ viewport });
  const models = [];
  await page.route(`**/${MODEL}`, (_route) => { models.push(Date.now()); });
  // The moment the answer view has its coloured tokens and its sentences, by the page's clock.
  await page.addInitScript(() => {
    new MutationObserver((_, observer) => {
      if (document.querySelector("#completion button[data-outside-hf]") && document.querySelector("#answer-summary li")) {
        window.answerShownAt = Date.now();
        observer.disconnect();
      }
    }).observe(document, { subtree: true, childList: true, attributes: true });
  });
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(BASE + query);
  await waitFigures(page);
  return { page, models, errors };
}

/** Waits for the shipped answer's tokens and sentences, and says when they were there. */
async function waitAnswer(page) {
  await page.locator("#completion button[data-outside-hf]").first().waitFor({ state: "attached", timeout: 60_000 });
  await page.locator("#answer-summary li").first().waitFor({ state: "attached", timeout: 60_000 });
  return page.evaluate(() => window.answerShownAt ?? Date.now());
}

/** Every answer token's step, text width and box width, and the figure it carries. */
const tokenBoxes = (page) => page.locator("#completion button[data-step]").evaluateAll((buttons) => buttons.map((b) => ({
  step: Number(b.dataset.step), outside: b.dataset.outsideHf, scroll: b.scrollWidth, width: b.getBoundingClientRect().width, text: b.textContent,
})));

test("the first screen draws the literal port's mass outside transformers' support as a mark beside the corrected port's solid bar", async () => {
  const report = cliInspect(CALL);
  for (const lang of ["en", "zh-Hans"]) {
    const { page, errors } = await coldPage(`?lang=${lang}`, { width: 1280, height: 800 });
    const mark = page.locator('.mass-out[data-column="literal"]');
    await mark.waitFor();
    const outside = Number(await mark.getAttribute("data-outside-hf"));
    // The page's f32 arithmetic runs wasm's expf, the command's the CPU's: the same to float noise.
    assert.ok(Math.abs(outside - report.compare.literal.mass_outside_hf) < 1e-6, `${outside}`);
    const box = await mark.boundingBox();
    assert.ok(box.width >= 20, `${lang}: the literal port's mark is ${box.width} px long`);
    assert.ok(box.y + box.height <= 800, `${lang}: the mark is in the first screen (${box.y} px down)`);
    assert.equal(await page.locator('.mass-out[data-column="corrected"]').getAttribute("data-outside-hf"), "0");
    const corrected = await page.locator('.mass-item[data-column="corrected"] .mass-in').boundingBox();
    assert.ok(Math.abs(corrected.y - box.y) < 60, "the corrected port's bar stands beside it");
    // Every column but hf has its bar (the compared ones long, the rest short); none overflows.
    const items = await page.locator(".mass-item").evaluateAll((lis) => lis.map((li) => ({ column: li.dataset.column, over: li.scrollWidth - li.clientWidth })));
    assert.equal(items.length, Object.keys(report.compare).length);
    assert.deepEqual(items.filter((i) => i.over > 1), []);
    await page.screenshot({ path: `target/screenshots/mass-${lang}.png` });
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test("a cold visit shows the shipped answer's heat strip and sentences before any request for the model, with the figures the command computes", async () => {
  const expected = cliAnswer();
  for (const lang of ["en", "zh-Hans"]) {
    const { page, models, errors } = await coldPage(`?lang=${lang}`, { width: 1280, height: 800 });
    const shownAt = await waitAnswer(page);
    assert.ok(models.every((at) => at > shownAt), `${lang}: the model was asked for before the answer view was drawn`);
    const tokens = await tokenBoxes(page);
    assert.deepEqual(tokens.map((t) => t.step), expected.tokens.map((_, i) => i));
    for (const token of tokens) {
      const figures = expected.steps[token.step].columns.literal;
      assert.ok(Math.abs(Number(token.outside) - figures.mass_outside_hf) < 1e-6, `step ${token.step}`);
      assert.ok(token.scroll <= Math.ceil(token.width) + 1, `step ${token.step}'s text (${token.scroll} px) overflows its cell (${token.width} px)`);
    }
    const sentences = await page.locator("#answer-summary li").allTextContents();
    const cli = lang === "en" ? expected : cliAnswer(lang);
    assert.deepEqual([...sentences].sort(), cli.sentences.slice(1).map((s) => s.text).sort());
    // The compared columns' sentences in sight; the others behind "N more columns".
    assert.equal(await page.locator('#answer-summary > ul > li[data-column="literal"]').isVisible(), true);
    assert.equal(await page.locator('#answer-summary li[data-column="dflash"]').isVisible(), false);
    assert.equal(await page.locator("#answer-summary .answer-lead").textContent(), cli.sentences[0].text);
    // The legend says what the colour is, with its scale.
    const ticks = await page.locator("#answer-legend .heat-ticks span").allTextContents();
    assert.equal(ticks.length, 3);
    assert.equal(ticks[0], "0%");
    assert.match(ticks[2], /^≥\s?10%$/);
    await page.locator("#answer").scrollIntoViewIfNeeded();
    await page.locator("#answer").screenshot({ path: `target/screenshots/answer-${lang}.png` });
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test("on a phone the heat strip wraps with the text, and an embed's answer pane fits 720×600", async () => {
  const phone = await coldPage("", { width: 390, height: 844 });
  await waitAnswer(phone.page);
  const overflow = await phone.page.evaluate(() => {
    const box = document.getElementById("completion");
    return { box: box.scrollWidth - box.clientWidth, page: document.documentElement.scrollWidth - innerWidth };
  });
  assert.deepEqual(overflow, { box: 0, page: 0 });
  await phone.page.locator("#answer").screenshot({ path: "target/screenshots/answer-phone.png" });
  await phone.page.close();
  for (const lang of ["en", "zh-Hans"]) {
    const embed = await coldPage(`?embed=1&pane=answer&lang=${lang}`, { width: 720, height: 600 });
    await waitAnswer(embed.page);
    const fits = await embed.page.evaluate(() => {
      const box = document.getElementById("answer").getBoundingClientRect();
      return { right: box.right, bottom: box.bottom, width: document.documentElement.scrollWidth };
    });
    assert.ok(fits.right <= 720 && fits.bottom <= 600 && fits.width <= 720, `${lang}: ${JSON.stringify(fits)}`);
    assert.equal(await embed.page.locator(".first-screen").isVisible(), false, "the answer pane replaces the step");
    await embed.page.getByTestId("pane-step").click();
    assert.equal(await embed.page.locator("#answer").isVisible(), false);
    assert.match(embed.page.url(), /pane=step|^(?!.*pane=)/);
    await embed.page.getByTestId("pane-answer").click();
    await embed.page.screenshot({ path: `target/screenshots/answer-embed-${lang}.png` });
    assert.deepEqual(embed.errors, []);
    await embed.page.close();
  }
});

test("a token of the shipped answer opens its step once the model has read the answer again, with the same figures", async () => {
  // The model's download is held until the token has been clicked once without it.
  let release;
  const held = new Promise((resolve) => { release = resolve; });
  const { page, errors } = await openPage(browser, "", (p) => p.route(`**/${MODEL}`, async (route) => { await held; await route.continue(); }), { model: false });
  await waitAnswer(page);
  const before = await tokenBoxes(page);
  await page.locator('#completion button[data-step="2"]').click();
  // Before the model: the token's figures, and what the model would add.
  await page.getByTestId("alternatives").waitFor();
  assert.match(await page.getByTestId("alternatives").textContent(), /literal candle port: p 0\.\d{3}, outside hf/);
  release();
  await waitReady(page);
  await page.locator('#completion button[data-step="2"]').click();
  await page.getByTestId("inspecting").filter({ hasText: "generated token 2" }).waitFor({ timeout: 60_000 });
  await page.waitForFunction(() => document.querySelector("#answer-source")?.textContent.startsWith("Drawn by"));
  const after = await tokenBoxes(page);
  assert.deepEqual(after.map((t) => [t.step, t.outside]), before.map((t) => [t.step, t.outside]), "read again on the model, the figures are the shipped ones");
  assert.deepEqual(errors, []);
  await page.close();
});

test("a generated answer carries each step's figures, and its sentences follow the comparison", async () => {
  const { page, errors } = await openPage(browser);
  await page.fill("#max-new-tokens", "12");
  await page.locator("#generate").click();
  await page.locator("#cancel:disabled").waitFor({ timeout: 60_000 });
  await page.waitForFunction(() => document.querySelector("#answer-source")?.textContent.startsWith("Drawn by"));
  await page.locator("#answer-summary li").first().waitFor();
  const tokens = await tokenBoxes(page);
  assert.ok(tokens.length > 0 && tokens.every((t) => t.outside !== ""), JSON.stringify(tokens));
  assert.match(await page.locator("#answer-summary li").first().textContent(), /^a literal candle port would draw/);
  // Coloured by vLLM instead: its mass outside is what the tokens carry.
  await page.selectOption("#answer-column", "vllm");
  const vllm = await page.locator('#completion button[data-step="0"]').getAttribute("data-outside-hf");
  assert.equal(Number(vllm), 0);
  // The strip chart draws a line per compared column over every step.
  assert.equal(await page.getByTestId("answer-chart").getAttribute("data-steps"), String(tokens.length));
  // Its steps export as CSV, a row each, every column's four figures; and as JSON with the summary.
  await page.getByTestId("answer").getByText("Export", { exact: true }).click();
  const saved = async (testid) => {
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId(testid).click()]);
    return readFileSync(await download.path(), "utf8");
  };
  const rows = (await saved("answer-csv")).trim().split("\n");
  assert.equal(rows.length, tokens.length + 1);
  assert.match(rows[0], /^step,token_id,token,hf_entropy,kept_hf,tv_hf,mass_outside_hf_hf,p_token_hf,kept_literal,/);
  const json = JSON.parse(await saved("answer-json"));
  assert.equal(json.steps.length, tokens.length);
  assert.equal(json.summary.vllm.expected_outside, 0);
  assert.deepEqual(errors, []);
  await page.close();
});

test("an exercise on the answer view is judged by the core's summary of the shipped answer, before the model", async () => {
  const expected = cliAnswer();
  const set = JSON.parse(readFileSync("www/exercises/default.json", "utf8"));
  const first = set.exercises.findIndex((e) => e.answer.kind === "answer" && e.answer.figure === "first_over_1pct");
  const { page, errors } = await openPage(browser, `?exercises=default&task=${first}`, async () => {}, { model: false });
  await page.getByTestId("exercise-task").filter({ hasText: "first pass 1 %" }).waitFor();
  const token = expected.summary.literal.first_over_1pct + 1;
  await page.getByLabel(/a token's number in the answer/).fill(String(token + 1));
  await page.getByRole("button", { name: "Check" }).click();
  await page.getByTestId("exercise-result").filter({ hasText: /^Not quite/ }).waitFor({ timeout: 60_000 });
  await page.getByLabel(/a token's number in the answer/).fill(String(token));
  await page.getByRole("button", { name: "Check" }).click();
  await page.getByTestId("exercise-result").filter({ hasText: new RegExp(`^Right: .*first passes 1% at token ${token}\\.`) }).waitFor({ timeout: 60_000 });
  // The next one: DFlash's expected steps outside, within its tolerance.
  await page.getByRole("button", { name: "Next" }).click();
  await page.getByTestId("exercise-task").filter({ hasText: "DFlash's sample()" }).waitFor();
  await page.getByLabel("Your answer (a number)").fill(expected.summary.dflash.expected_outside.toFixed(2));
  await page.getByRole("button", { name: "Check" }).click();
  await page.getByTestId("exercise-result").filter({ hasText: /^Right/ }).waitFor({ timeout: 60_000 });
  assert.deepEqual(errors, []);
  await page.close();
});
