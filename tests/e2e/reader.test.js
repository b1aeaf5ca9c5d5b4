// The page explains itself to a reader who just arrived: what it is for, what each column and
// figure means, what a byte token is, which preset is on; a token's row answers for every
// column; generation, the answer and the speculative view behave for the keyboard and say what
// they show; and the bugs a tour of the page found stay fixed (newlines, marks outside hf at
// preset "0", queued tooltips, overlapping Monte Carlo ticks, cut panel labels, dark-mode chart
// text).
import { test } from "node:test";
import assert from "node:assert/strict";
import { cliColumns, openPage, useBrowser } from "./harness.js";

const browser = useBrowser();

/** Opens the page at `viewport`, ready, with the figures of the default call on screen. */
async function ready(query = "", viewport = { width: 1280, height: 800 }, colorScheme = "light") {
  const { page, errors } = await openPage(browser, query, (p) => p.emulateMedia({ colorScheme }).then(() => p.setViewportSize(viewport)));
  await page.getByTestId("kept-hf").filter({ hasText: /^\d+$/ }).waitFor({ timeout: 60_000 });
  return { page, errors };
}

async function generate(page, tokens = "64") {
  await page.getByLabel("max new tokens").fill(tokens);
  await page.getByRole("button", { name: "Generate" }).click();
  await page.locator("#gen-stats").filter({ hasText: "tokens" }).waitFor({ timeout: 120_000 });
}

/** WCAG's contrast ratio of two CSS colours, as the browser resolves them. */
async function contrast(page, foreground, background) {
  const [fg, bg] = await page.evaluate((colours) => colours.map((c) => {
    const probe = document.createElement("span");
    probe.style.color = c;
    document.body.append(probe);
    const rgb = getComputedStyle(probe).color.match(/\d+(\.\d+)?/g).slice(0, 3).map(Number);
    probe.remove();
    return rgb;
  }), [foreground, background]);
  const luminance = (rgb) => {
    const [r, g, b] = rgb.map((v) => { const s = v / 255; return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [light, dark] = [luminance(fg), luminance(bg)].sort((a, b) => b - a);
  return (light + 0.05) / (dark + 0.05);
}

test("the first screen says what the page is for, and every column and figure links to its definition", async () => {
  const { page } = await ready();
  const purpose = page.locator(".purpose");
  assert.match(await purpose.textContent(), /samples from.*why they differ/s);
  assert.ok((await purpose.boundingBox()).y < 120, "the purpose is the first thing under the title");
  const links = page.locator(".figures-table a.term[href^='#term-']");
  const names = await links.evaluateAll((all) => all.map((a) => [a.getAttribute("href"), a.title]));
  // Six columns and the figures' headers (kept, TV, max |Δp|, mass outside, entropy).
  assert.ok(names.length >= 11, names.join("\n"));
  for (const [href, title] of names) {
    const entry = page.locator(`${href} + dd`);
    assert.equal(await entry.textContent(), title, `${href}'s tooltip is its glossary entry`);
  }
  const definitions = await page.locator("#glossary-list dd").allTextContents();
  assert.ok(definitions.some((d) => /transformers\.js.*4\.3/.test(d)), "a column's definition names its library and version");
  assert.ok(definitions.some((d) => /wllama 3\.13|llama\.cpp/.test(d)));
  await links.first().click();
  assert.equal(await page.locator("#glossary").getAttribute("open"), "", "a link opens the glossary at its entry");
  await page.close();
});

test("a byte token is explained in its row's detail and the glossary; the detail lists every column's p and rank", async () => {
  const { page } = await ready();
  const definitions = await page.locator("#glossary-list dd").allTextContents();
  assert.ok(definitions.some((d) => /UTF-8 character.*1\/3/.test(d)), "the glossary says what a byte token and its place are");
  await page.locator('#compare-table tr.token-row[data-token="177"] button').click();
  const detail = page.getByTestId("token-detail");
  await detail.waitFor();
  assert.match(await detail.textContent(), /⟨E6⟩: bytes 1\/3 of a UTF-8 character; the model completes it as “.”/);
  const ranks = await detail.locator("li").allTextContents();
  assert.equal(ranks.length, cliColumns().length, "a rank under every column");
  assert.match(ranks[0], /rank 1 of 24$/, "hf keeps 24 tokens and ranks ⟨E6⟩ first");
  assert.match(ranks[3], /rank 1 of 49,152$/, "DFlash keeps every token");
  await page.close();
});

test("at preset \"0\", where transformers refuses the call, no mark says mass outside hf", async () => {
  const { page } = await ready();
  await page.locator("[data-preset='zero-0']").click();
  await page.getByTestId("error").filter({ hasText: /temperature/ }).waitFor();
  assert.equal(await page.locator("#compare-table .outside").count(), 0);
  const legend = await page.locator("#chart-legend li").allTextContents();
  assert.ok(!legend.some((l) => l.includes("mass outside hf")), legend.join(", "));
  await page.close();
});

test("the preset on is pressed, and none is once an argument changes; the ties lab says its logits are synthetic", async () => {
  const { page } = await ready();
  const pressed = () => page.locator("[data-preset][aria-pressed='true']").evaluateAll((all) => all.map((b) => b.dataset.preset));
  await page.locator("[data-preset='top-k-40']").click();
  await page.getByTestId("kept-hf").filter({ hasText: /^40$/ }).waitFor();
  assert.deepEqual(await pressed(), ["top-k-40"]);
  await page.locator("#value-temperature").fill("0.8");
  await page.locator("#value-temperature").blur();
  await page.waitForFunction(() => !document.querySelector("[data-preset][aria-pressed='true']"));
  await page.locator("[data-preset='ties']").click();
  await page.locator("#synthetic-note").waitFor();
  assert.deepEqual(await pressed(), ["ties"]);
  assert.ok(await page.locator(".prompt").evaluate((el) => el.classList.contains("unused")), "the chat is greyed out");
  assert.equal(await page.locator("#json-box").getAttribute("open"), "", "the logits are on show");
  await page.close();
});

test("generated newlines break the line, Generate brings the answer into view with focus on it, and the answer is one tab stop", async () => {
  const { page } = await ready();
  await page.locator("[data-preset='temp-0.7']").click();
  await page.locator("#seed").fill("0");
  await generate(page);
  const answer = page.locator("#completion");
  assert.equal(await page.evaluate(() => document.activeElement.id), "completion", "focus is on the answer");
  const box = await page.locator("#answer").boundingBox();
  assert.ok(box.y >= 0 && box.y < 800, `the answer is in view (top at ${box.y})`);
  const text = await answer.innerText();
  const marks = await answer.locator("button").evaluateAll((all) => all.reduce((n, b) => n + (b.textContent.match(/↵/g)?.length ?? 0), 0));
  assert.ok(marks > 0, "seed 0's answer holds newlines");
  assert.equal(text.split("\n").length - 1, marks, "each newline is a line break, not glued text");
  assert.equal(await answer.locator("button[tabindex='0']").count(), 1, "one tab stop");
  await page.keyboard.press("Tab");
  assert.equal(await page.evaluate(() => document.activeElement.dataset.step), "0");
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  assert.equal(await page.evaluate(() => document.activeElement.dataset.step), "2");
  await page.keyboard.press("End");
  const last = await answer.locator("button").last().getAttribute("data-step");
  assert.equal(await page.evaluate(() => document.activeElement.dataset.step), last);
  await page.keyboard.press("Tab");
  assert.equal(await page.evaluate(() => document.activeElement.closest("#completion")), null, "Tab leaves the answer");
  await page.close();
});

test("a token's tooltip follows the focus at once, not a queue of earlier ones, and names the probability it shows", async () => {
  const { page } = await ready();
  await generate(page, "40");
  const last = (await page.locator("#completion button").count()) - 1;
  assert.ok(last >= 10, `${last + 1} tokens`);
  await page.locator("#completion button").first().focus();
  for (let i = 0; i < last; i++) await page.keyboard.press("ArrowRight");
  const tooltip = page.getByTestId("alternatives");
  // Asked quickly, the last one wins; the earlier requests are superseded, not answered in turn.
  await tooltip.filter({ hasText: new RegExp(`^step ${last}: .*Its p hf`) }).waitFor({ timeout: 3_000 });
  assert.match(await tooltip.textContent(), /the model's own \(softmax of the raw logits\) [\d.]+/);
  await page.keyboard.press("Enter");
  await page.getByTestId("branch-form").waitFor();
  const options = await page.locator("#branch-token option").allTextContents();
  assert.ok(options.every((o) => /— the model's own p [\d.]+$/.test(o)), options.slice(0, 3).join(" | "));
  await page.close();
});

test("temperature 1e-5 reads without contradiction: plurals, ordinals, and why a TV of 0.0000 is not agreement", async () => {
  const { page } = await ready();
  await page.locator("[data-preset='zero-1e-5']").click();
  await page.getByTestId("kept-hf").filter({ hasText: /^50$/ }).waitFor();
  const causes = await page.getByTestId("causes").textContent();
  assert.doesNotMatch(causes, /\b1 tokens\b|\b\d+-th\b|\b[23]th\b/);
  assert.match(causes, /keeps 1 token\b/);
  await page.close();
});

test("the speculative view has a legend and τ in a line, shows its progress, can be stopped, and marks nothing past the answer's end as kept", async () => {
  const { page } = await ready();
  const legend = await page.locator(".spec-legend").textContent();
  for (const word of ["kept", "rejected", "not verified", "past the end", "own"]) assert.ok(legend.includes(word), `legend: ${word}`);
  assert.match(await page.locator(".spec-terms").textContent(), /τ.*acceptance length.*E\[τ\]/s);
  await page.getByLabel("max new tokens").fill("64");
  await page.getByRole("button", { name: "Speculate" }).click();
  await page.getByTestId("spec-status").filter({ hasText: /^round \d+ · \d+ of at most 64 tokens$/ }).waitFor({ timeout: 60_000 });
  assert.equal(await page.locator("#spec-progress").isVisible(), true);
  await page.getByRole("button", { name: "Stop", exact: true }).click();
  await page.getByTestId("spec-status").filter({ hasText: /cancelled/ }).waitFor({ timeout: 60_000 });
  assert.equal(await page.locator("#spec-progress").isVisible(), false);
  // A full run to the end of the answer: after the round's <|im_end|>, nothing is kept.
  await page.getByLabel("max new tokens").fill("48");
  await page.getByRole("button", { name: "Speculate" }).click();
  await page.getByTestId("spec-status").filter({ hasText: /mean τ/ }).waitFor({ timeout: 120_000 });
  const afterEnd = await page.locator(".spec-round").evaluateAll((rows) => rows.flatMap((row) => {
    const chips = [...row.querySelectorAll(".spec-token")];
    const end = chips.findIndex((c) => c.textContent === "<|im_end|>" && /accepted|bonus/.test(c.className));
    return end < 0 ? [] : chips.slice(end + 1).filter((c) => /accepted|bonus/.test(c.className)).map((c) => c.textContent);
  }));
  assert.deepEqual(afterEnd, []);
  await page.close();
});

test("on a phone the prompt, Generate and the presets come right after the story, the thresholds' code does not break mid-word, and their table scrolls inside the page's width", async () => {
  const { page } = await ready("", { width: 390, height: 844 });
  const top = (selector) => page.locator(selector).first().evaluate((el) => el.getBoundingClientRect().top + scrollY);
  const story = await top(".first-screen");
  const [prompt, presets, button, speculative, monteCarlo] = await Promise.all(
    ["#user", "#presets", "#generate", ".speculative", ".monte-carlo"].map(top));
  assert.ok(story < prompt && prompt < button && button < presets, `${story} < ${prompt} < ${button} < ${presets}`);
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390, "nothing is wider than the phone");
  assert.ok(button < speculative && button < monteCarlo, `Generate ${button}, speculative ${speculative}, Monte Carlo ${monteCarlo}`);
  const broken = await page.locator(".thresholds code").evaluateAll((codes) => codes.filter((code) => {
    // A code cut mid-word has a line that starts inside a word: its text's words, rendered, span lines.
    const range = document.createRange();
    return code.textContent.split(/(?<=[ (,.=_])/).some((word, i, words) => {
      const start = words.slice(0, i).join("").length;
      range.setStart(code.firstChild, start);
      range.setEnd(code.firstChild, start + word.length);
      return range.getClientRects().length > 1;
    });
  }).map((code) => code.textContent));
  assert.deepEqual(broken, []);
  await page.close();
});

test("in dark mode the charts' text and grid follow the page's colours, at 4.5:1 or more against the card", async () => {
  const { page } = await ready("", { width: 1280, height: 800 }, "dark");
  const { text, card } = await page.evaluate(() => ({
    text: window.Chart.defaults.color,
    card: getComputedStyle(document.documentElement).getPropertyValue("--card").trim(),
  }));
  assert.ok(await contrast(page, text, card) >= 4.5, `${text} on ${card}`);
  await page.getByLabel("Panels").check();
  await page.waitForFunction(() => window.Chart.getChart("chart-hf"));
  const ticks = await page.evaluate(() => window.Chart.getChart("chart-hf").scales.y.options.ticks.color);
  assert.equal(ticks, text, "the panels' ticks are drawn in the page's colour");
  await page.close();
});

test("Monte Carlo's x axis labels do not overlap", async () => {
  const { page } = await ready();
  await page.getByLabel("draws per port").fill("10000");
  await page.getByRole("button", { name: "Draw", exact: true }).click();
  await page.getByTestId("mc-status").filter({ hasText: /^done$/ }).waitFor({ timeout: 120_000 });
  await page.waitForFunction(() => window.Chart.getChart("chart-convergence")?.data.datasets.length > 0);
  // Its legend names each curve's column as the table's heads do, not by the column's id.
  const legend = await page.evaluate(() => window.Chart.getChart("chart-convergence").data.datasets.map((d) => d.label));
  assert.ok(legend.includes("literal candle port: TV") && legend.includes("corrected candle port: TV"), legend.join(" | "));
  const overlaps = await page.evaluate(() => {
    const chart = window.Chart.getChart("chart-convergence");
    const items = chart.scales.x.getLabelItems();
    if (items.some((item) => item.options.rotation)) return ["the labels are turned to fit"];
    const spans = items.map((item) => {
      chart.ctx.font = item.font.string;
      const width = chart.ctx.measureText(String(item.label)).width;
      return [item.options.translation[0] - width / 2, item.options.translation[0] + width / 2, item.label];
    }).sort((a, b) => a[0] - b[0]);
    return spans.slice(1).filter(([left], i) => left < spans[i][1]).map(([, , label], i) => `${spans[i][2]} | ${label}`);
  });
  assert.deepEqual(overlaps, []);
  await page.close();
});

test("the panels view at 720 px shows every token label whole", async () => {
  const { page } = await ready("?view=panels", { width: 720, height: 900 });
  const cut = await page.evaluate(() => [...document.querySelectorAll(".panel canvas")].flatMap((canvas) => {
    const chart = window.Chart.getChart(canvas);
    if (!chart) return [];
    return chart.scales.y.getLabelItems().filter((item) => {
      chart.ctx.font = item.font.string;
      const width = chart.ctx.measureText(String(item.label)).width;
      // Labels are right-aligned at their x: cut when they start left of the canvas.
      return item.options.translation[0] - width < -0.5;
    }).map((item) => `${canvas.id}: ${item.label}`);
  }));
  assert.deepEqual(cut, []);
  await page.close();
});
