// The lab in Simplified Chinese: every sentence a reader sees on the page, the embed, the
// exercises (student and teacher), the glossary and "Port this call" is the catalog's Chinese —
// English stays only in code, names and a library's own quoted words. The language comes from
// the link, else the reader's last choice, else the browser; it survives a reload and a link.
import { test } from "node:test";
import assert from "node:assert/strict";
import { BASE, openPage, useBrowser, waitFigures } from "./harness.js";

const browser = useBrowser();

/** Names and words that stay as they are in every language: products, columns, units, code. */
const NAMES = /\b(transformers(\.js)?|candle|vLLM|SGLang|mlx-lm|Ollama|llama\.cpp|llama-server|wllama|DFlash|Hugging Face|Hub|SmolLM2[\w.-]*|Instruct|Q4_1|SIMD|OpenAI|PyTorch|torch|numpy|JavaScript|Python|Rust|JSON|CSV|PNG|UTF-8|GGUF|safetensors|TopKThenTopP|LogitsProcessor|Sampling::\w+|sample_f|make_sampler|SamplingParams|TemperatureLogitsWarper|MB|KB|tok\/s|nats|TV|max \|Δp\||English|sampling-lab|exact|fast|generate|server|ValueError|RuntimeError|TypeError|libc\+\+|std::\w+|argpartition|multinomial|argmax|softmax|logits|top_[kp]|min_p|typical_p|do_sample|temperature|seed|None|True|False|null|chat|token|tokens|bytes?)\b/gi;

/** Every text a reader sees on `page` (in `root`) that reads as an English sentence: three
 * English words in a row, once code, quotes of a library's words and names are taken out. */
async function englishSentences(page, root = "body") {
  const texts = await page.locator(root).evaluate((top) => {
    const shown = [];
    const walker = document.createTreeWalker(top, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.closest("code, pre, script, style, .sampling, .token-label, .chip, #rendered, #call-code, .thresholds tbody th, .completion-text, .spec-token, .compare-toggle, select, option")) continue;
      const style = getComputedStyle(parent);
      if (style.display === "none" || style.visibility === "hidden" || parent.closest("[hidden], details:not([open]) > :not(summary)")) continue;
      if (!parent.getClientRects().length) continue;
      shown.push(node.textContent);
    }
    return shown;
  });
  return texts
    .map((text) => text.replace(/“[^”]*”|"[^"]*"|‘[^’]*’|`[^`]*`/g, " ").replace(NAMES, " ").replace(/[\w.]*[_()=:/{}[\]][\w.,=()]*/g, " "))
    .filter((text) => /\b[A-Za-z]{2,}\s+[A-Za-z]{2,}\s+[A-Za-z]{2,}\b/.test(text));
}

test("?lang=zh-Hans: the page, its glossary and “Port this call” say every sentence in Chinese", async () => {
  const { page, errors } = await openPage(browser, "?lang=zh-Hans", async (p) => p.setViewportSize({ width: 1280, height: 800 }), { model: false });
  assert.equal(await page.evaluate(() => document.documentElement.lang), "zh-Hans");
  assert.match(await page.getByTestId("finding").textContent(), /transformers 这里留下 \d+ 个候选/);
  await page.screenshot({ path: "target/screenshots/zh-desktop.png" });
  await page.locator("#glossary summary").click();
  await page.locator("#port-box summary").click();
  await page.locator("#port-list > .port-item").first().waitFor();
  for (const item of await page.locator("#port-list > .port-item summary").all()) await item.click();
  assert.deepEqual(await englishSentences(page), []);
  assert.deepEqual(errors, []);
  await page.close();
});

test("?lang=zh-Hans in an embed and on a phone: Chinese, CJK glyphs drawn, nothing wider than the frame", async () => {
  for (const [name, viewport, query] of [["embed", { width: 720, height: 600 }, "?lang=zh-Hans&embed=1"], ["phone", { width: 390, height: 844 }, "?lang=zh-Hans"]]) {
    const page = await browser.browser.newPage({ viewport });
    await page.goto(BASE + query);
    await waitFigures(page);
    assert.deepEqual(await englishSentences(page), [], name);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), `${name}: nothing wider than the frame`);
    // A CJK glyph is drawn as a glyph, not a box: its width is a full em, as Noto CJK draws it.
    const widths = await page.evaluate(() => {
      const probe = document.createElement("span");
      probe.style.cssText = "font-size: 20px; position: absolute;";
      document.body.append(probe);
      const width = (text) => { probe.textContent = text; return probe.getBoundingClientRect().width; };
      const out = { han: width("谢谢你"), box: width("\u{10FFFD}\u{10FFFD}\u{10FFFD}") };
      probe.remove();
      return out;
    });
    assert.ok(Math.abs(widths.han - 60) < 3, `${name}: three Han characters are three ems wide (${widths.han})`);
    await page.screenshot({ path: `target/screenshots/zh-${name}.png` });
    await page.close();
  }
});

test("the exercises in Chinese, for the student and in the teacher view", async () => {
  for (const query of ["?lang=zh-Hans&exercises=default", "?lang=zh-Hans&exercises=default&teacher=1"]) {
    const page = await browser.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(BASE + query);
    await page.getByTestId("exercise-task").filter({ hasText: /[\u4e00-\u9fff]/ }).waitFor({ timeout: 60_000 });
    await page.locator(".ex-teacher summary").click();
    assert.deepEqual(await englishSentences(page, "#exercises"), [], query);
    assert.match(await page.locator("#ex-guide-link").getAttribute("href"), /exercise-guide\.zh-Hans\.html$/);
    await page.close();
  }
});

test("the switcher changes the language at once, the link keeps it, and a reload and a shared link come back in it", async () => {
  const { page } = await openPage(browser, "", async () => {}, { model: false });
  assert.equal(await page.evaluate(() => document.documentElement.lang), "en");
  const english = await page.getByTestId("finding").textContent();
  await page.getByTestId("lang").selectOption("zh-Hans");
  await page.getByTestId("finding").filter({ hasText: /个候选/ }).waitFor();
  assert.notEqual(await page.getByTestId("finding").textContent(), english);
  await page.waitForURL(/lang=zh-Hans/);
  await page.reload();
  await waitFigures(page);
  assert.equal(await page.evaluate(() => document.documentElement.lang), "zh-Hans");
  const other = await browser.browser.newPage();
  await other.goto(page.url());
  await waitFigures(other);
  assert.equal(await other.evaluate(() => document.documentElement.lang), "zh-Hans");
  // Back to English: remembered for a visit without `lang` in its link.
  await page.getByTestId("lang").selectOption("en");
  await page.getByTestId("finding").filter({ hasText: /^transformers keeps/ }).waitFor();
  await page.goto(BASE);
  await waitFigures(page);
  assert.equal(await page.evaluate(() => document.documentElement.lang), "en");
  await other.close();
  await page.close();
});

test("the core's refusals of bad input are said in Chinese, and again in English after a switch", async () => {
  const { page, errors } = await openPage(browser, "?lang=zh-Hans", async () => {}, { model: false });
  const error = page.getByTestId("error");
  await page.locator("#params").fill('{"do_sample": tru');
  await page.locator("#run").click();
  await error.filter({ hasText: /^参数不是有效的 JSON：第 1 行第 \d+ 列/ }).waitFor();
  assert.deepEqual(await englishSentences(page, "#error"), []);
  await page.getByTestId("lang").selectOption("en");
  await error.filter({ hasText: /^params are not valid JSON: .* at line 1, column \d+$/ }).waitFor();
  await page.getByTestId("lang").selectOption("zh-Hans");
  await page.locator("#params").fill('{"do_sample": true, "topk": 5}');
  await page.locator("#run").click();
  await error.filter({ hasText: "generate() 没有参数 `topk`；支持的有：" }).waitFor();
  assert.deepEqual(await englishSentences(page, "#error"), []);
  assert.deepEqual(errors, []);
  await page.close();
});

test("refused arguments keep the last figures, which say so, and a switch says them all in the other language", async () => {
  const { page, errors } = await openPage(browser, "?lang=en", async () => {}, { model: false });
  await waitFigures(page);
  const stale = page.getByTestId("figures-stale");
  const original = await page.locator("#params").inputValue();
  assert.equal(await stale.isHidden(), true);
  await page.locator("#params").fill('{"do_sample": true, "top_kk": 5}');
  await stale.filter({ hasText: "The arguments in the box have changed: Inspect to see their figures." }).waitFor();
  await page.locator("#run").click();
  await page.getByTestId("error").filter({ hasText: "unknown generate() argument `top_kk`" }).waitFor();
  await stale.filter({ hasText: /^These figures are still those of the last arguments that worked/ }).waitFor();
  await page.getByTestId("lang").selectOption("zh-Hans");
  await page.getByTestId("finding").filter({ hasText: /个候选/ }).waitFor();
  await stale.filter({ hasText: /^这些图仍是上一次可用参数的结果/ }).waitFor();
  await page.getByTestId("error").filter({ hasText: "generate() 没有参数 `top_kk`" }).waitFor();
  assert.deepEqual(await englishSentences(page), [], "every figure, cause and label is said again in Chinese");
  await page.locator("#params").fill(original);
  await page.locator("#run").click();
  await stale.waitFor({ state: "hidden" });
  assert.equal(await page.getByTestId("error").textContent(), "");
  assert.deepEqual(errors, []);
  await page.close();
});

test("a browser that prefers Chinese gets Chinese without a parameter", async () => {
  const context = await browser.browser.newContext({ locale: "zh-CN" });
  const page = await context.newPage();
  await page.goto(BASE);
  await waitFigures(page);
  assert.equal(await page.evaluate(() => document.documentElement.lang), "zh-Hans");
  assert.match(await page.getByTestId("finding").textContent(), /个候选/);
  await context.close();
});
