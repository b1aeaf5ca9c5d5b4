// The page in Debian's Chromium: the real model loads in a worker and the headline figures on
// screen are the ones `sampling-lab inspect --model` prints for the same inputs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { PRESETS, cliInspect, openPage, useBrowser } from "./harness.js";

const browser = useBrowser();

test("each reference preset shows the kept counts and TV that the CLI prints", async () => {
  const { page, errors } = await openPage(browser);
  const kept = [];
  for (const [label, params] of Object.entries(PRESETS)) {
    const cli = cliInspect(params);
    await page.getByRole("button", { name: label, exact: true }).click();
    await page.getByTestId("kept-hf").filter({ hasText: new RegExp(`^${cli.hf.kept}$`) }).waitFor();
    await page.getByTestId("kept-literal").filter({ hasText: new RegExp(`^${cli.literal.kept}$`) }).waitFor();
    assert.equal(await page.getByTestId("kept-corrected").textContent(), String(cli.corrected.kept), label);
    assert.equal(await page.getByTestId("tv-literal").textContent(), cli.compare.literal.tv.toFixed(4), label);
    assert.equal(await page.getByTestId("tv-corrected").textContent(), cli.compare.corrected.tv.toFixed(4), label);
    kept.push(Number(await page.getByTestId("kept-hf").textContent()));
  }
  assert.deepEqual(kept, [50, 49152, 40, 58, 24]);
  await page.screenshot({ path: "target/screenshots/demo-desktop.png", fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: "target/screenshots/demo-phone.png", fullPage: true });
  assert.deepEqual(errors, []);
});

test("an invalid parameter shows transformers' error and the page keeps working", async () => {
  const { page } = await openPage(browser);
  await page.getByLabel(/generate\(\) keyword arguments/).fill('{"do_sample": true, "temperature": 0.0}');
  await page.getByRole("button", { name: "Inspect" }).click();
  await page.getByTestId("error").filter({ hasText: "`temperature` (=0.0) has to be a strictly positive float" }).waitFor();
  assert.equal(await page.getByTestId("kept-literal").textContent(), "1");
  await page.getByLabel(/generate\(\) keyword arguments/).fill('{"do_sample": tru');
  await page.getByRole("button", { name: "Inspect" }).click();
  await page.getByTestId("error").filter({ hasText: "not valid JSON" }).waitFor();
  await page.getByRole("button", { name: "top_k 40", exact: true }).click();
  await page.getByTestId("kept-hf").filter({ hasText: /^40$/ }).waitFor();
  assert.equal(await page.getByTestId("error").textContent(), "");
});

test("markup in the prompt is shown as text, never run", async () => {
  const { page, errors } = await openPage(browser);
  let dialogs = 0;
  page.on("dialog", (d) => { dialogs += 1; d.dismiss(); });
  const hostile = '<img src=x onerror="alert(1)"><script>alert(2)</script>';
  await page.getByLabel("User message").fill(hostile);
  await page.getByLabel("User message").press("Enter");
  await page.getByLabel("User message").blur();
  await page.locator("#chips .chip").filter({ hasText: "<" }).first().waitFor();
  assert.equal(await page.locator("#chips img, #chips script, .panels img").count(), 0);
  assert.equal(dialogs, 0);
  assert.deepEqual(errors, []);
});
