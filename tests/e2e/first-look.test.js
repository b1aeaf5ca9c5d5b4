// What a reader meets first, with no model asked for: the finding in one sentence, whole causes,
// an embed that states its call and sends its names to the full page's glossary, a skip link to
// Inspect and Generate, and Monte Carlo saying what it draws and how long it will take.
import { test } from "node:test";
import assert from "node:assert/strict";
import { BASE, cliInspect, openPage, useBrowser, waitFigures } from "./harness.js";

const browser = useBrowser();
const EMBED = `${BASE}?embed=1&params=${encodeURIComponent('{"do_sample":true,"temperature":0.7}')}`;

async function embed() {
  const page = await browser.browser.newPage({ viewport: { width: 720, height: 600 } });
  await page.goto(EMBED);
  await waitFigures(page);
  return page;
}

test("the finding is the core's sentence, and the causes show whole: two, then “Show N more”", async () => {
  const { page, errors } = await openPage(browser, "", async () => {}, { model: false });
  await waitFigures(page);
  const report = cliInspect({ do_sample: true, temperature: 0.7, top_k: 40, top_p: 0.9 });
  assert.equal(await page.getByTestId("finding").textContent(), report.finding.text);
  const items = page.locator("#causes > li:not(.more-causes)");
  assert.equal(await items.count(), report.causes.length);
  assert.ok(report.causes.length > 2, "the reference call has more than two causes");
  const visible = await items.evaluateAll((lis) => lis.map((li) => !li.hidden));
  assert.deepEqual(visible, report.causes.map((_, i) => i < 2));
  const more = page.getByRole("button", { name: `Show ${report.causes.length - 2} more causes` });
  await more.click();
  assert.equal(await items.evaluateAll((lis) => lis.every((li) => !li.hidden)), true);
  await page.getByRole("button", { name: "Show fewer" }).click();
  // A cause is never cut: each shown one's box is within the list's.
  const cut = await page.locator("#causes").evaluate((list) => [...list.children].filter((li) => !li.hidden)
    .some((li) => li.getBoundingClientRect().bottom > list.getBoundingClientRect().bottom + 1));
  assert.equal(cut, false);
  assert.deepEqual(errors, []);
});

test("an embed states its call and its chat above the figures, and its column names open the full page's glossary", async () => {
  const page = await embed();
  const call = await page.getByTestId("embed-call").textContent();
  assert.match(call, /^generate\(do_sample=True, temperature=0\.7\) → the token after “How do you say thank you in Chinese\?” and “In Chinese, you can say "”$/);
  const [full] = await Promise.all([page.waitForEvent("popup"), page.locator('#compare-table th[data-column="hf"] a.term').click()]);
  await full.locator("#term-hf").waitFor();
  assert.doesNotMatch(full.url(), /embed=1/);
  assert.equal(await full.locator("#glossary").getAttribute("open"), "", "the glossary is open at the entry");
  await full.waitForFunction(() => {
    const box = document.getElementById("term-hf").getBoundingClientRect();
    return box.top >= 0 && box.bottom <= innerHeight;
  });
  await full.close();
  await page.close();
});

test("the first Tab stop is a skip link to Inspect and Generate", async () => {
  const { page } = await openPage(browser, "", async () => {}, { model: false });
  await waitFigures(page);
  await page.keyboard.press("Tab");
  assert.equal(await page.evaluate(() => document.activeElement.id), "skip-link");
  assert.equal(await page.locator("#skip-link").isVisible(), true, "it shows when it has the focus");
  await page.keyboard.press("Enter");
  assert.equal(await page.evaluate(() => document.activeElement.id), "generate");
  await page.close();
});

test("Monte Carlo names every column it draws and says how long a run will take before it starts", async () => {
  const { page } = await openPage(browser, "", async () => {}, { model: false });
  await waitFigures(page);
  const drawing = await page.locator("#mc-results > article").evaluateAll((sides) => sides.map((side) => side.id.replace(/^mc-/, "")));
  const sides = drawing.length;
  assert.ok(sides >= 4, `${sides} columns draw`);
  const title = await page.locator("#mc-title").textContent();
  for (const name of drawing) {
    const label = await page.locator(`#figures tr[data-column="${name}"] .column-name`).textContent();
    assert.ok(title.includes(label.trim()), `“${title}” names ${label}`);
  }
  // Before the first run: a short timing run of this browser, once the section is in view.
  await page.locator("#mc-run").scrollIntoViewIfNeeded();
  await page.getByTestId("mc-estimate").filter({ hasText: /^[\d,]+ draws in all: about \d+ (s|min) here$/ }).waitFor({ timeout: 60_000 });
  await page.getByLabel("draws per port").fill("2000");
  // Every progress line the run writes, as the reader would have seen it.
  await page.getByTestId("mc-status").evaluate((status) => {
    window.progressSeen = [];
    new MutationObserver(() => window.progressSeen.push(status.textContent)).observe(status, { childList: true, characterData: true, subtree: true });
  });
  await page.getByRole("button", { name: "Draw", exact: true }).click();
  await page.getByTestId("mc-status").filter({ hasText: "done" }).waitFor({ timeout: 300_000 });
  // The progress counts every worker's draws: it nears the end before the end (one worker's
  // count alone stops near its share, then jumps to done).
  const counts = (await page.evaluate(() => window.progressSeen)).map((line) => /^([\d,]+) \/ ([\d,]+) draws/.exec(line))
    .filter(Boolean).map(([, done, total]) => [Number(done.replaceAll(",", "")), Number(total.replaceAll(",", ""))]);
  assert.ok(counts.length > 2, `the run said its progress: ${counts.length} lines`);
  const [total] = counts.map(([, t]) => t);
  assert.equal(total, 2000 * sides);
  assert.ok(Math.max(...counts.map(([done]) => done)) >= 0.8 * total, `the progress reached ${Math.max(...counts.map(([d]) => d))} of ${total}`);
  await page.getByLabel("draws per port").fill("10000");
  assert.match(await page.getByTestId("mc-estimate").textContent(), new RegExp(`^${(10000 * sides).toLocaleString("en")} draws in all: about \\d+ (s|min) here$`));
  await page.close();
});
