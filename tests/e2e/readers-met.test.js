// What readers, writers and teachers met, each as they meet it: an embed that says what is wrong
// where its figures would be and what loading its model gives, a 640 × 480 frame that holds its
// rows, a short table in a box its size, a row that opens as its name does, the write-up's note
// for the write-up's call only, figures that say when they are another chat's, synthetic tokens
// named at every size, exercise links that keep their language and keep the teacher view out of a
// student's path, a phone that asks before 98 MB, and Chinese that the catalog writes (units,
// colons, dashes).
import { test } from "node:test";
import assert from "node:assert/strict";
import { BASE, MODEL, openPage, useBrowser, waitFigures } from "./harness.js";

const browser = useBrowser();

/** A page at `viewport` on `query`, its first figures up, every request for the model recorded
 * and never answered. */
async function withoutModel(query, viewport = { width: 1280, height: 800 }) {
  const page = await browser.browser.newPage({ viewport });
  const models = [];
  await page.route(`**/${MODEL}`, () => { models.push(Date.now()); });
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(BASE + query);
  await waitFigures(page);
  return { page, models, errors };
}

test("an embed says what is wrong with its link where its figures are, and what loading the model gives; the ties lab's offers no model", async () => {
  const { page } = await withoutModel("?embed=1&view=nonsense", { width: 720, height: 600 });
  const said = page.getByTestId("embed-error");
  await said.filter({ hasText: /view/ }).waitFor();
  assert.equal(await said.isVisible(), true);
  assert.match(await page.locator("#load-model").textContent(), /^Load the model \(\d+ MB\): generate, and any chat$/);
  await page.close();
  const ties = await withoutModel(`?embed=1&preset=ties&logits=3,2,2,1&params=${encodeURIComponent('{"do_sample":true,"top_k":2}')}`, { width: 720, height: 600 });
  assert.equal(await ties.page.locator("#load-model").isVisible(), false, "synthetic logits need no model");
  // Synthetic tokens have no text: each is named by its id, in an embed too.
  const names = await ties.page.locator("#compare-table tr.token-row th .token-label").allTextContents();
  assert.ok(names.length >= 3 && names.every((name) => /^#\d$/.test(name)), JSON.stringify(names));
  await ties.page.close();
});

test("a 640 × 480 embed fits its frame with five whole token rows, and opened causes start at the first new one", async () => {
  for (const lang of ["en", "zh-Hans"]) {
    const { page } = await withoutModel(`?embed=1&lang=${lang}`, { width: 640, height: 480 });
    const fit = async () => page.evaluate(() => {
      const box = document.getElementById("compare-box").getBoundingClientRect();
      const rows = [...document.querySelectorAll("#compare-table tbody tr.token-row")]
        .filter((tr) => { const r = tr.getBoundingClientRect(); return r.top >= box.top && r.bottom <= box.bottom + 0.5; });
      return { height: document.documentElement.scrollHeight, width: document.documentElement.scrollWidth, rows: rows.length };
    });
    const closed = await fit();
    assert.ok(closed.height <= 480 && closed.width <= 640, `${lang}: the embed is ${closed.width} × ${closed.height}`);
    assert.ok(closed.rows >= 5, `${lang}: ${closed.rows} whole token rows in view`);
    await page.locator("#causes button.link-button").click();
    const open = await fit();
    assert.ok(open.height <= 480 && open.rows >= 5, `${lang}, causes open: ${JSON.stringify(open)}`);
    // The list shows the first cause the click added at its top, not its end.
    const offset = await page.evaluate(() => {
      const list = document.getElementById("causes");
      const first = list.querySelectorAll(":scope > li:not(.more-causes)")[1];
      return Math.round(first.getBoundingClientRect().top - list.getBoundingClientRect().top);
    });
    assert.ok(Math.abs(offset) <= 1, `${lang}: the first new cause is ${offset} px from the list's top`);
    await page.close();
  }
});

test("a short table's box is as tall as its table, on the page and in an embed", async () => {
  const greedy = `?params=${encodeURIComponent('{"do_sample": false}')}`;
  for (const [query, viewport] of [[greedy, { width: 1280, height: 800 }], [`${greedy}&embed=1`, { width: 720, height: 600 }]]) {
    const { page } = await withoutModel(query, viewport);
    const [box, table] = await Promise.all(["#compare-box", "#compare-table"].map((s) => page.locator(s).boundingBox()));
    assert.ok(box.height <= table.height + 4, `${query}: a ${Math.round(table.height)} px table in a ${Math.round(box.height)} px box`);
    await page.close();
  }
});

test("a click anywhere on a token's row opens its detail, in view below the table's head", async () => {
  const { page } = await withoutModel("?embed=1", { width: 720, height: 600 });
  const row = page.locator("#compare-table tr.token-row").nth(8);
  await row.locator("td").last().click();
  const detail = page.getByTestId("token-detail");
  await detail.waitFor();
  const [box, head] = await Promise.all([detail.boundingBox(), page.locator("#compare-table tr.tv").boundingBox()]);
  assert.ok(box.y >= head.y + head.height - 1, "the detail opens below the sticky head, not under it");
  await page.close();
});

test("the write-up's note stands under the write-up's call only, and in an embed too", async () => {
  const { page } = await withoutModel("?embed=1", { width: 720, height: 600 });
  await page.getByTestId("reference-note").filter({ hasText: /write-up/ }).waitFor();
  assert.equal(await page.getByTestId("reference-note").isVisible(), true);
  await page.close();
  const greedy = await withoutModel(`?params=${encodeURIComponent('{"do_sample":false}')}`);
  await greedy.page.getByTestId("finding").filter({ hasText: /greedily/ }).waitFor();
  assert.equal(await greedy.page.getByTestId("reference-note").isVisible(), false);
  await greedy.page.close();
});

test("figures of the chat before say so while another chat's wait for the model", async () => {
  const { page } = await withoutModel("");
  await page.fill("#user", "Name a colour.");
  await page.getByRole("button", { name: "Inspect" }).click();
  await page.getByTestId("figures-stale").filter({ hasText: "previous chat" }).waitFor();
  await page.close();
});

test("an exercise set's links keep the page's language, and a student's panel has no link to the answers", async () => {
  const { page } = await openPage(browser, "?exercises=default&lang=zh-Hans", async () => {}, { model: false });
  await page.locator("#ex-student-link").waitFor({ state: "attached" });
  assert.match(await page.locator("#ex-student-link").getAttribute("href"), /[?&]lang=zh-Hans/);
  assert.equal(await page.locator("#ex-teacher-link").count(), 0, "no teacher view in the student's path");
  await page.close();
  const teacher = await openPage(browser, "?exercises=default&teacher=1&lang=zh-Hans", async () => {}, { model: false });
  const link = teacher.page.locator("#ex-teacher-link");
  await link.waitFor({ state: "attached" });
  assert.match(await link.getAttribute("href"), /teacher=1/);
  assert.match(await link.getAttribute("href"), /lang=zh-Hans/);
  await teacher.page.close();
});

test("a phone asks before downloading the model, and its first screen and answer need none", async () => {
  const { page, models, errors } = await withoutModel("", { width: 390, height: 844 });
  await page.locator("#completion button[data-outside-hf]").first().waitFor({ state: "attached" });
  await page.waitForTimeout(1500);
  assert.deepEqual(models, [], "no download without asking");
  assert.equal(await page.locator("#load-model").isVisible(), true);
  assert.deepEqual(errors, []);
  await page.close();
});

test("in Chinese, port captions and Monte Carlo's times are the catalog's words", async () => {
  const { page } = await withoutModel("?lang=zh-Hans");
  // The estimate times this browser once its section is in sight.
  await page.getByTestId("mc-estimate").scrollIntoViewIfNeeded();
  await page.getByTestId("mc-estimate").filter({ hasText: /大约要 \d+ (秒|分钟)$/ }).waitFor({ timeout: 60_000 });
  await page.getByTestId("port-box").locator("summary").first().click();
  const caption = page.locator("#port-list .port-request > p").first();
  await caption.waitFor({ state: "attached", timeout: 60_000 });
  const text = await caption.textContent();
  assert.match(text, /：generate\(/);
  assert.doesNotMatch(text, /: /, "no ASCII colon in a Chinese caption");
  assert.match(await page.locator("#port-list .port-item summary").first().textContent(), /——/);
  await page.close();
});
