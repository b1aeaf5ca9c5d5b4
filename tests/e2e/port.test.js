// "Port this call" on the page: each column's request, its verdict and its code are the core's
// (the CLI's `port` for the same step), on the shipped step before any model; they follow the
// call while the panel is open; a call transformers refuses leaves nothing to port and says why.
import { test } from "node:test";
import assert from "node:assert/strict";
import { cliPort, openPage, PRESETS, useBrowser } from "./harness.js";

const browser = useBrowser();

/** Each column's block as the page shows it. */
const shown = (page) => page.locator("#port-list > .port-item").evaluateAll((items) => items.map((item) => ({
  column: item.dataset.column,
  verdict: item.querySelector("p").textContent,
  calls: [...item.querySelectorAll(".port-request > p:first-child code")].map((c) => c.textContent),
  code: [...item.querySelectorAll(".port-request pre code")].map((c) => c.textContent),
})));

/** What the page should show for `params`, from the CLI. */
const expected = (params) => cliPort(params).map(({ column, fixed, this_step: step, verdict }) => ({
  column,
  verdict: verdict.text,
  calls: [fixed, step].filter(Boolean).map((r) => r.call),
  code: [fixed, step].filter(Boolean).map((r) => r.code).filter(Boolean),
}));

test("the requests, verdicts and code are the CLI's, from the shipped step, and follow the call", async () => {
  const { page, errors } = await openPage(browser, "", async () => {}, { model: false });
  await page.getByText("The request that makes each runtime sample").click();
  await page.locator("#port-list > .port-item").first().waitFor();
  assert.deepEqual(await shown(page), expected(PRESETS["top_k 40, top_p 0.9"]));
  const vllm = page.getByTestId("port-vllm");
  await vllm.locator("summary").click();
  assert.match(await vllm.locator("pre code").first().textContent(), /SamplingParams\(temperature=0\.7, top_k=40, top_p=0\.9\)/);

  await page.getByRole("button", { name: "temp 0.7", exact: true }).click();
  await page.waitForFunction(() => document.querySelector("#port-list .port-request code")?.textContent === "generate(do_sample=True, temperature=0.7, top_k=50, top_p=1.0)");
  assert.deepEqual(await shown(page), expected(PRESETS["temp 0.7"]));
  assert.deepEqual(errors, []);
});

test("a call transformers refuses has nothing to port, and the page keeps the call", async () => {
  const { page, errors } = await openPage(browser, "", async () => {}, { model: false });
  await page.getByText("The request that makes each runtime sample").click();
  await page.locator("#port-list > .port-item").first().waitFor();
  const refused = '{"do_sample": true, "top_p": -0.5}';
  await page.locator("#params").fill(refused);
  await page.locator("#run").click();
  await page.getByText(/^Nothing to port: .*top_p/).waitFor();
  assert.equal(await page.locator("#port-list > .port-item").count(), 0);
  assert.equal(await page.locator("#params").inputValue(), refused);
  assert.deepEqual(errors, []);
});

test("where nothing agrees the nearest request stands alone, and every snippet defines what it uses", async () => {
  const { page } = await openPage(browser, "", async () => {}, { model: false });
  await page.getByText("The request that makes each runtime sample").click();
  await page.locator("#port-list > .port-item").first().waitFor();
  // DFlash has nothing but a temperature: no request agrees, and none repeats the nearest's code.
  const dflash = page.getByTestId("port-dflash");
  assert.equal(await dflash.locator(".port-request").count(), 1);
  for (const name of ["sglang", "ollama"]) {
    const code = await page.getByTestId(`port-${name}`).locator("pre code").first().textContent();
    assert.match(code, /^prompt = /m, `${name} defines the prompt it sends`);
  }
  assert.match(await page.getByTestId("port-sglang").locator("pre code").first().textContent(), /^server = /m);
});
