// The page's picture as a reader sees it: one table of the step's most probable tokens under
// every column, transformers and the compared columns (the literal and the corrected candle port
// unless a link says otherwise) wide, with bars; marks a reader compares at least 6 px thick,
// measured from the drawing at desktop, phone and embed size; tokens named by the character
// they begin; the comparison kept in links; and the bugs a tour of the page found, each held.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { BASE, MODEL, cliInspect, openPage, useBrowser, waitFigures } from "./harness.js";
import { LANGUAGES } from "../../www/shared/languages.js";

const browser = useBrowser();
const SIZES = [["desktop", { width: 1280, height: 800 }, ""], ["phone", { width: 390, height: 844 }, ""], ["embed", { width: 720, height: 600 }, "?embed=1"]];

/** The shipped step of the reference chat, as `make steps` wrote it. */
const shipped = () => JSON.parse(readFileSync("steps/index.json", "utf8")).steps[0];

/** Every mark of the table a reader compares: the bars of the wide columns and the shaded cells
 * of the narrow ones, with their sizes as drawn. */
async function marks(page) {
  return page.locator("#compare-table").evaluate((table) => {
    const size = (el) => { const r = el.getBoundingClientRect(); return { width: r.width, height: r.height }; };
    return {
      bars: [...table.querySelectorAll("tbody td.cell.wide .bar")].map(size),
      cells: [...table.querySelectorAll("tbody td.cell.narrow:not(.cut)")].map(size),
      wide: [...table.querySelectorAll("thead tr.names th.column-head.wide")].map((th) => th.dataset.column),
      heads: table.querySelectorAll("thead tr.names th.column-head").length,
    };
  });
}

for (const [name, viewport, query] of SIZES) {
  test(`${name}: the table opens on transformers, the literal and the corrected port, every mark at least 6 px`, async () => {
    const page = await browser.browser.newPage({ viewport });
    const requested = [];
    page.on("request", (r) => requested.push(r.url()));
    await page.goto(BASE + query);
    await waitFigures(page);
    const drawn = await marks(page);
    assert.deepEqual(drawn.wide, ["hf", "literal", "corrected"]);
    assert.equal(drawn.heads, await page.locator("#figures tr").count(), "every column has its head");
    assert.ok(drawn.bars.length >= 3 * 8, `${drawn.bars.length} bars`);
    for (const mark of [...drawn.bars, ...drawn.cells]) assert.ok(mark.height >= 6, `a mark ${JSON.stringify(mark)} at ${name}`);
    assert.ok(drawn.cells.every((c) => c.width >= 6), "a narrow cell is at least 6 px wide");
    // Nothing of the page reaches past the viewport's width; the table scrolls inside its box.
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), "the page does not scroll sideways");
    // The token labels are whole: none cut by the box's left edge.
    const box = await page.locator("#compare-box").boundingBox();
    for (const label of await page.locator("#compare-table tbody th.token").all()) {
      const at = await label.boundingBox();
      if (at) assert.ok(at.x >= box.x - 1, `a label starts at ${at.x}, left of its box at ${box.x}`);
    }
    if (name === "embed") assert.equal(requested.some((u) => u.endsWith(".gguf")), false, "no model before the reader asks");
    await page.screenshot({ path: `target/screenshots/picture-${name}.png` });
    await page.close();
  });
}

test("the table's sticky heads never cover its first token, at every size and in every language", async () => {
  for (const lang of LANGUAGES) {
    for (const [name, viewport, query] of SIZES) {
      const page = await browser.browser.newPage({ viewport });
      await page.goto(`${BASE}${query}${query ? "&" : "?"}lang=${lang}`);
      await waitFigures(page);
      const [heads, first] = await page.locator("#compare-table").evaluate((table) => [
        // The cells are what is sticky: their boxes are where the heads are drawn.
        Math.max(...[...table.querySelectorAll("thead th, thead td")].map((cell) => cell.getBoundingClientRect().bottom)),
        table.querySelector("tbody tr").getBoundingClientRect().top,
      ]);
      assert.ok(first >= heads - 0.5, `${lang}, ${name}: the first token's row starts at ${first}, under heads ending at ${heads}`);
      await page.close();
    }
  }
});

test("a byte token's label is the character the model completes it to, from the shipped step, with no model request", async () => {
  const page = await browser.browser.newPage({ viewport: { width: 720, height: 600 } });
  const requested = [];
  page.on("request", (r) => requested.push(r.url()));
  await page.goto(`${BASE}?embed=1`);
  await waitFigures(page);
  const completions = new Map(shipped().completions.map((c) => [c.token, c.text]));
  const rows = await page.locator("#compare-table tbody tr.token-row").evaluateAll((trs) => trs.map((tr) => ({
    token: Number(tr.dataset.token), glyph: tr.querySelector(".glyph")?.textContent ?? null, bytes: tr.querySelector(".bytes")?.textContent ?? null,
  })));
  const named = rows.filter((r) => completions.has(r.token));
  assert.ok(named.length >= 4, `${named.length} byte tokens among the rows`);
  for (const row of named) {
    assert.equal(row.glyph, completions.get(row.token), `token ${row.token}`);
    assert.match(row.bytes, /^⟨[0-9A-F]{2}⟩.* \d(–\d)?\/\d$/, `its bytes and their place beside it: ${row.bytes}`);
  }
  assert.equal(requested.some((u) => u.endsWith(".gguf")), false);
  await page.close();
});

test("the shipped completions equal what the page's own model computes for the same chat", async () => {
  // The model named by its path is not the site's default: no shipped step, the model answers.
  const { page } = await openPage(browser, `?model=./${MODEL}`);
  const expected = new Map(shipped().completions.map((c) => [c.token, c.text]));
  await page.waitForFunction(() => document.querySelectorAll("#compare-table .glyph").length >= 4, null, { timeout: 60_000 });
  const glyphs = await page.locator("#compare-table tbody tr.token-row").evaluateAll((trs) => trs
    .filter((tr) => tr.querySelector(".glyph")).map((tr) => [Number(tr.dataset.token), tr.querySelector(".glyph").textContent]));
  // The same chat: every byte token the table names is one the build named.
  const compared = glyphs.filter(([token]) => expected.has(token));
  assert.ok(compared.length >= 4, `${compared.length} of the shipped completions among the rows`);
  for (const [token, glyph] of compared) assert.equal(glyph, expected.get(token), `token ${token}`);
  await page.close();
});

test("a new chat's byte tokens are named once the model is there, the figures drawn before", async () => {
  const { page } = await openPage(browser);
  await page.getByLabel("User message").fill("How do you say good morning in Chinese?");
  await page.getByLabel("Assistant prefix").fill('In Chinese, "');
  // Every state the table passes through, from the click to the named byte tokens; `before`, the
  // reference chat's rows.
  const before = await page.evaluate(() => {
    const table = document.getElementById("compare-table");
    // The rows and their figures: a new chat may open on the same byte tokens as the last.
    const tokens = () => [...table.querySelectorAll("tbody tr.token-row")]
      .map((tr) => `${tr.dataset.token} ${[...tr.querySelectorAll(".p")].map((p) => p.textContent)}`).join(";");
    window.tableStates = [];
    new MutationObserver(() => window.tableStates.push({
      tokens: tokens(), bytes: table.querySelectorAll(".bytes").length, glyphs: table.querySelectorAll(".glyph").length,
    })).observe(table, { childList: true, subtree: true });
    return tokens();
  });
  await page.getByRole("button", { name: "Inspect" }).click();
  // The reference chat's rows had their characters already: wait for the new chat's.
  await page.waitForFunction((old) => window.tableStates.some((s) => s.tokens !== old && s.glyphs >= 2), before, { timeout: 60_000 });
  const states = (await page.evaluate(() => window.tableStates)).filter((s) => s.tokens && s.tokens !== before);
  assert.ok(states[0].bytes >= 2 && states[0].glyphs === 0,
    `the new chat's figures came first, its byte tokens as bytes: ${JSON.stringify(states[0])}`);
  assert.ok(states.at(-1).glyphs >= 2, "then the model named them");
  await page.close();
});

test("the comparison is kept in links: another column is one click away and a link restores it", async () => {
  const { page } = await openPage(browser, "", async () => {}, { model: false });
  await page.locator('#compare-table th[data-column="vllm"] button.compare-toggle').click();
  await page.waitForURL(/cols=literal%2Ccorrected%2Cvllm/);
  await page.locator('#compare-table[data-compared="literal,corrected,vllm"]').waitFor();
  await page.getByTestId("finding").filter({ hasText: "vLLM" }).waitFor();
  await page.locator('#compare-table th[data-column="literal"] button.compare-toggle').click();
  await page.waitForURL(/cols=corrected%2Cvllm/);
  const link = page.url();
  const other = await browser.browser.newPage();
  await other.goto(link);
  await waitFigures(other);
  assert.equal(await other.locator("#compare-table").getAttribute("data-compared"), "corrected,vllm");
  const wide = await other.locator("#compare-table thead th.column-head.wide").evaluateAll((ths) => ths.map((th) => th.dataset.column));
  assert.deepEqual(wide, ["hf", "corrected", "vllm"]);
  await other.close();
  await page.close();
});

test("the finding speaks to the pair on screen, and the reference chat says why its numbers are not the write-up's", async () => {
  const { page } = await openPage(browser, "", async () => {}, { model: false });
  const report = cliInspect({ do_sample: true, temperature: 0.7, top_k: 40, top_p: 0.9 });
  assert.equal(await page.getByTestId("finding").textContent(), report.finding.text);
  assert.equal(report.finding.id, "finding-compare-2");
  const note = await page.getByTestId("reference-note").textContent();
  assert.match(note, /0\.9208.*kept 31 where transformers kept 14.*0\.850.*keeps all 40/s);
  await page.getByTestId("write-up-load").click();
  assert.equal(await page.locator("#hub-repo").inputValue(), "HuggingFaceTB/SmolLM2-135M-Instruct");
  await page.getByLabel("User message").fill("Name a colour.");
  await page.getByLabel("User message").press("Enter");
  await page.getByRole("button", { name: "Inspect" }).click();
  await page.locator("#reference-note[hidden]").waitFor({ state: "attached" });
  await page.close();
});

test("embed: a token's detail opens under its row, the table and the causes stay in the 600 px frame", async () => {
  const page = await browser.browser.newPage({ viewport: { width: 720, height: 600 } });
  await page.goto(`${BASE}?embed=1`);
  await waitFigures(page);
  const table = await page.locator("#compare-box").boundingBox();
  await page.locator("#compare-table tbody tr.token-row").nth(3).locator("button").click();
  const detail = page.getByTestId("token-detail");
  await detail.waitFor();
  const after = await page.locator("#compare-box").boundingBox();
  assert.equal(Math.round(after.height), Math.round(table.height), "the table keeps its size");
  // The detail is a row of the table, not a box laid over it.
  assert.equal(await detail.evaluate((el) => el.closest("#compare-table") !== null), true);
  await page.getByRole("button", { name: /Show \d+ more causes/ }).click();
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  assert.ok(height <= 600, `with every cause open the embed is ${height} px tall`);
  const box = await page.locator("#compare-box").boundingBox();
  assert.ok(box.y + box.height <= 600 && box.height >= 100, `the table stays in the frame: ${JSON.stringify(box)}`);
  await page.close();
});

test("the rows are the most probable tokens in order, none skipped, in every size", async () => {
  for (const [, viewport, query] of SIZES) {
    const page = await browser.browser.newPage({ viewport });
    await page.goto(BASE + query);
    await waitFigures(page);
    const report = cliInspect({ do_sample: true, temperature: 0.7, top_k: 40, top_p: 0.9 });
    const rows = await page.locator("#compare-table tbody tr.token-row").evaluateAll((trs) => trs.map((tr) => Number(tr.dataset.token)));
    const hf = report.hf.support.map(([id]) => id);
    assert.deepEqual(rows.slice(0, hf.length), hf.slice(0, rows.length), "transformers' tokens first, most probable first");
    await page.close();
  }
});

test("the panels' axis ends on a step, like its other ticks", async () => {
  const { page } = await openPage(browser, "?view=panels", async () => {}, { model: false });
  await page.locator("#chart-hf").waitFor();
  await page.waitForFunction(() => window.Chart?.getChart("chart-hf")?.scales.x);
  const ticks = await page.evaluate(() => window.Chart.getChart("chart-hf").scales.x.ticks.map((t) => t.value));
  const steps = ticks.slice(1).map((v, i) => +(v - ticks[i]).toFixed(9));
  assert.ok(steps.every((s) => s === steps[0]), `ticks ${ticks.join(", ")}`);
  await page.close();
});

test("phone: the temperature table's reasons wrap at words within the screen, and the page does not scroll sideways", async () => {
  const page = await browser.browser.newPage({ viewport: { width: 390, height: 844 } });
  await page.goto(BASE);
  await waitFigures(page);
  await page.getByTestId("thresholds").locator("tr").first().waitFor();
  const overflow = await page.locator(".thresholds .scroll-x").evaluate((box) => box.scrollWidth - box.clientWidth);
  assert.ok(overflow <= 1, `the table is ${overflow} px wider than its box`);
  const broken = await page.getByTestId("thresholds").locator("td:nth-child(3)").evaluateAll((tds) => tds.filter((td) => {
    const style = getComputedStyle(td);
    return style.wordBreak === "break-all" || style.overflowWrap === "anywhere";
  }).length);
  assert.equal(broken, 0, "no reason is cut mid-word");
  await page.close();
});

test("after a branch, no alternatives tooltip covers the branch form and the branches left behind", async () => {
  const { page } = await openPage(browser);
  await page.getByLabel("max new tokens").fill("6");
  await page.getByRole("button", { name: "Generate" }).click();
  await page.locator("#gen-stats").filter({ hasText: "tokens" }).waitFor({ timeout: 60_000 });
  await page.locator("#completion [data-step='2']").click();
  await page.getByTestId("branch-form").waitFor();
  await page.getByRole("button", { name: "Branch", exact: true }).click();
  await page.getByTestId("branches").waitFor();
  await page.locator("#gen-stats").filter({ hasText: "decoded after the branch" }).waitFor({ timeout: 60_000 });
  await page.waitForTimeout(400);
  assert.equal(await page.getByTestId("alternatives").isVisible(), false);
  await page.close();
});

test("an exercise's hidden figures stay hidden: no top_k greyed in at 50, no port spelling it out", async () => {
  const page = await browser.browser.newPage();
  await page.goto(`${BASE}?exercises=default`);
  await page.getByTestId("exercise-task").waitFor();
  assert.equal(await page.locator("body.exercise-open").count(), 1);
  assert.notEqual(await page.locator("#value-top_k").getAttribute("placeholder"), "50");
  assert.equal(await page.locator(".port").isVisible(), false);
  await page.close();
});
