// The first screen in the HTML (scripts/prerender.mjs), on dist/ as static hosts serve it: each
// page and embed, in English and Chinese, reads complete with scripts off; its figures are those
// the page draws once its scripts ran (a stale build fails here); the scripts take over without
// moving anything; what the HTML needs before its numbers show is a few tens of KB; a link to
// another state does not show the prerendered one meanwhile; link previews have their tags.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { cliInspect, MODEL } from "../e2e/harness.js";
import { DIST, useSite } from "./visit.js";

const state = useSite();
const CALL = { do_sample: true, temperature: 0.7, top_k: 40, top_p: 0.9 };
const PAGES = [["index.html", "en", { width: 1280, height: 800 }], ["index.zh-Hans.html", "zh-Hans", { width: 1280, height: 800 }],
  ["embed.html", "en", { width: 720, height: 600 }], ["embed.zh-Hans.html", "zh-Hans", { width: 720, height: 600 }]];

/** What a reader of the first screen reads: the finding, every cause, the table's cells, the mass
 * bars' shares and the answer's tokens with their figures. */
const firstScreen = () => ({
  finding: document.getElementById("finding").textContent,
  causes: [...document.querySelectorAll("#causes > li[data-rule]")].map((li) => li.textContent),
  table: [...document.querySelectorAll("#compare-table tr")].map((tr) => tr.textContent),
  mass: [...document.querySelectorAll(".mass-out")].map((el) => el.dataset.outsideHf),
  answer: [...document.querySelectorAll("#completion button[data-step]")].map((b) => `${b.textContent}:${b.dataset.outsideHf}`),
});

test("with scripts off, each page reads complete: the finding, the causes, the compared table, the columns' bars and what needs scripts", async () => {
  const report = { en: cliInspect(CALL), "zh-Hans": cliInspect(CALL, ["--lang", "zh-Hans"]) };
  for (const [file, lang, viewport] of PAGES) {
    const context = await state.browser.newContext({ javaScriptEnabled: false, viewport });
    const page = await context.newPage();
    await page.goto(state.site.base + file);
    assert.equal(await page.getByTestId("finding").textContent(), report[lang].finding.text, file);
    assert.equal(await page.locator("#compare-table tr.token-row").count() >= 5, true, file);
    assert.equal(await page.getByTestId("finding").isVisible(), true, `${file}: visible without scripts`);
    const mark = await page.locator('.mass-out[data-column="literal"]').boundingBox();
    assert.ok(mark && mark.width >= 20, `${file}: the literal port's mark is ${mark?.width} px`);
    assert.equal(await page.locator(".noscript-note").isVisible(), true, `${file}: says what needs scripts`);
    assert.equal(await page.evaluate(() => document.documentElement.lang), lang);
    if (file.startsWith("index")) {
      assert.equal(await page.locator("#causes > li[data-rule]").count(), report[lang].causes.length, file);
      assert.ok((await page.locator("#glossary-list dt").count()) >= 10, `${file}: what the columns are`);
    }
    await page.screenshot({ path: `target/screenshots/noscript-${file.replace(/\.html$/, "")}.png` });
    await context.close();
  }
});

test("each page's HTML holds what its scripts then draw, in the same places: a stale build or a shift fails here", async () => {
  for (const [file, , viewport] of PAGES) {
    const context = await state.browser.newContext({ viewport });
    await context.route(`**/${MODEL}`, (route) => route.abort());
    // Layout shifts from the first paint on, as the page's own observer records them.
    await context.addInitScript(() => {
      window.shifts = 0;
      new PerformanceObserver((list) => { for (const e of list.getEntries()) if (!e.hadRecentInput) window.shifts += e.value; })
        .observe({ type: "layout-shift", buffered: true });
    });
    const page = await context.newPage();
    // The shipped HTML read as it is, scripts off.
    const still = await state.browser.newContext({ javaScriptEnabled: false, viewport });
    const shippedPage = await still.newPage();
    await shippedPage.goto(state.site.base + file);
    const shipped = await shippedPage.evaluate(firstScreen);
    await still.close();
    await page.goto(state.site.base + file);
    await page.waitForFunction(() => document.documentElement.dataset.drawn && !document.querySelector("[data-ps]"), null, { timeout: 60_000 });
    await page.waitForTimeout(500);
    const live = await page.evaluate(firstScreen);
    assert.deepEqual(shipped, live, `${file}: the HTML's first screen is what the page draws`);
    const shifts = await page.evaluate(() => window.shifts);
    assert.ok(shifts <= 0.02, `${file}: cumulative layout shift ${shifts}`);
    await context.close();
  }
});

test("what the HTML needs before its numbers show is under 100 KB, and its head names the other language and a preview", async () => {
  const context = await state.browser.newContext();
  await context.route(`**/${MODEL}`, (route) => route.abort());
  const page = await context.newPage();
  const blocking = [];
  page.on("requestfinished", async (request) => {
    const type = request.resourceType();
    if (type === "document" || type === "stylesheet" || request.url().endsWith("/first-screen.js")) {
      const sizes = await request.sizes();
      blocking.push({ url: request.url(), bytes: sizes.responseBodySize + sizes.responseHeadersSize });
    }
  });
  await page.goto(state.site.base);
  await page.waitForFunction(() => document.documentElement.dataset.drawn);
  // The document, its style sheets and the first screen's guard: the scripts (deferred modules)
  // come after the numbers are on screen.
  const before = blocking;
  const total = before.reduce((sum, r) => sum + r.bytes, 0);
  assert.ok(total <= 100_000, `${total} bytes before the numbers: ${JSON.stringify(before)}`);
  const links = await page.locator('link[rel="alternate"]').evaluateAll((ls) => ls.map((l) => [l.hreflang, l.getAttribute("href")]));
  assert.deepEqual(links, [["en", "index.html"], ["zh-Hans", "index.zh-Hans.html"]]);
  assert.match(await page.locator('meta[property="og:title"]').getAttribute("content"), /^sampling-lab/);
  assert.ok((await page.locator('meta[property="og:description"]').getAttribute("content")).length > 40);
  assert.equal(await page.locator('meta[name="twitter:card"]').getAttribute("content"), "summary_large_image");
  assert.ok(existsSync(`${DIST}/preview.png`) && existsSync(`${DIST}/preview.zh-Hans.png`));
  await context.close();
});

test("a link to another state shows none of the prerendered figures before its scripts draw its own", async () => {
  const context = await state.browser.newContext();
  await context.route(`**/${MODEL}`, (route) => route.abort());
  const page = await context.newPage();
  const query = `?params=${encodeURIComponent('{"do_sample":true,"temperature":0.7}')}`;
  await page.goto(state.site.base + query, { waitUntil: "commit" });
  await page.waitForSelector("#finding", { state: "attached" });
  // Until the scripts have drawn this call's figures, the other ones are not shown.
  const early = await page.evaluate(() => document.documentElement.classList.contains("other-state") || Boolean(document.documentElement.dataset.drawn));
  assert.equal(early, true);
  await page.getByTestId("kept-hf").filter({ hasText: /^50$/ }).waitFor({ timeout: 60_000 });
  assert.equal(await page.getByTestId("finding").isVisible(), true);
  await context.close();
});
