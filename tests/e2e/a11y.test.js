// Accessibility: axe-core (through @axe-core/playwright) finds no serious or critical violation on
// the page, its panels view, the embed and the exercises, in light and dark schemes; and the
// keyboard alone reaches a preset, runs it, reaches a generated token, inspects it and branches
// there; the speculative view and the branch controls after a run.
import { test } from "node:test";
import assert from "node:assert/strict";
import { AxeBuilder } from "@axe-core/playwright";
import { BASE, useBrowser, waitFigures, waitReady } from "./harness.js";

const browser = useBrowser();

async function seriousViolations(page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(" | ")}`);
}

for (const [name, query, colorScheme, viewport = { width: 1280, height: 800 }] of [
  ["the page", "", "light"],
  ["the page in dark mode", "", "dark"],
  ["the page on a phone", "", "light", { width: 390, height: 844 }],
  ["the panels view", "?view=panels", "light"],
  ["the panels view in dark mode", "?view=panels", "dark"],
  ["the embed", "?embed=1", "light", { width: 720, height: 600 }],
  ["the exercises", "?exercises=default", "light"],
  ["the ties lab", "?preset=ties&logits=3,2,2,1&params=%7B%22do_sample%22:true,%22top_k%22:2%7D", "light"],
]) {
  test(`axe: no serious or critical violation on ${name}`, async () => {
    // AxeBuilder needs a page of a context of its own.
    const context = await browser.browser.newContext({ colorScheme, viewport });
    const page = await context.newPage();
    await page.goto(BASE + query);
    await waitFigures(page);
    await page.getByTestId("kept-hf").filter({ hasText: /^\d+$/ }).waitFor({ state: "attached", timeout: 120_000 });
    assert.deepEqual(await seriousViolations(page), []);
    await context.close();
  });
}

test("keyboard only: tab to a preset, run it, generate, reach a generated token, see its alternatives, inspect it and branch there", async () => {
  const page = await browser.browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(BASE);
  await waitReady(page);
  const focused = () => page.evaluate(() => ({ preset: document.activeElement?.dataset?.preset ?? null, id: document.activeElement?.id ?? "", step: document.activeElement?.dataset?.step ?? null }));
  const tabUntil = async (wanted, limit = 120) => {
    for (let i = 0; i < limit; i++) {
      await page.keyboard.press("Tab");
      if (wanted(await focused())) return;
    }
    assert.fail("the keyboard never got there");
  };
  await tabUntil((f) => f.preset === "top-k-40");
  await page.keyboard.press("Enter");
  await page.getByTestId("kept-hf").filter({ hasText: /^40$/ }).waitFor();
  await tabUntil((f) => f.id === "max-new-tokens");
  await page.keyboard.press("Control+A");
  await page.keyboard.type("4");
  await tabUntil((f) => f.id === "generate");
  await page.keyboard.press("Enter");
  await page.locator("#gen-stats").filter({ hasText: "tokens" }).waitFor({ timeout: 60_000 });
  // Generate hands the focus to the answer: one Tab reaches its first token, the arrows the rest.
  assert.equal((await focused()).id, "completion");
  await page.keyboard.press("Tab");
  assert.equal((await focused()).step, "0");
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  assert.equal((await focused()).step, "2");
  // Focus alone shows the token's alternatives, with the token itself among hf's.
  const tooltip = page.getByTestId("alternatives");
  await tooltip.filter({ hasText: "step 2" }).waitFor();
  const shaded = await page.locator("#completion [data-step='2']").getAttribute("data-probability");
  const underHf = /hf ([\d.]+)/.exec(await tooltip.locator(".alt-chosen").textContent())[1];
  assert.equal(underHf, Number(shaded).toFixed(3), "the shade is the probability hf gave the token (an hf generation)");
  await page.keyboard.press("Enter");
  await page.getByTestId("inspecting").filter({ hasText: "generated token 2" }).waitFor();
  // …and branch there: the form's button, reached by Tab, goes on from another token.
  await page.getByTestId("branch-form").waitFor();
  await tabUntil((f) => f.id === "branch-go", 40);
  await page.keyboard.press("Enter");
  await page.locator("#gen-stats").filter({ hasText: "decoded after the branch" }).waitFor({ timeout: 60_000 });
  await page.close();
});

test("axe: no serious or critical violation after a speculative run and a branched answer", async () => {
  const context = await browser.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(BASE);
  await waitReady(page);
  await page.getByLabel("max new tokens").fill("6");
  await page.getByRole("button", { name: "Speculate" }).click();
  await page.getByTestId("spec-status").filter({ hasText: /mean τ/ }).waitFor({ timeout: 120_000 });
  await page.getByRole("button", { name: "Generate" }).click();
  await page.locator("#gen-stats").filter({ hasText: "tokens" }).waitFor({ timeout: 60_000 });
  await page.locator("#completion [data-step='2']").click();
  await page.getByTestId("branch-form").waitFor();
  await page.getByRole("button", { name: "Branch", exact: true }).click();
  await page.getByTestId("branches").waitFor();
  assert.deepEqual(await seriousViolations(page), []);
  await context.close();
});
