// The page in Debian's Chromium: the real model loads in a worker and the headline figures on
// screen are the ones `sampling-lab inspect --model` prints for the same inputs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { BASE, PRESETS, cliInspect, cliInspectLogits, openPage, useBrowser, waitReady } from "./harness.js";

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
  await page.getByTestId("rendered").filter({ hasText: "onerror" }).waitFor({ state: "attached" });
  assert.match(await page.getByTestId("rendered").textContent(), /<\|im_start\|>user\n<img src=x onerror="alert\(1\)"><script>/);
  assert.ok(Number(await page.locator("#context-count").textContent()) > 46);
  assert.equal(await page.locator("#chips img, #chips script, .panels img").count(), 0);
  assert.equal(dialogs, 0);
  assert.deepEqual(errors, []);
});

test("a copied link restores prompt, parameters and the inspected step on a fresh page", async () => {
  const { page } = await openPage(browser);
  await page.getByLabel("System message (optional)").fill("You are terse.");
  await page.getByLabel("User message").fill("Name a colour.");
  await page.getByLabel("Assistant prefix").fill("");
  await page.getByLabel(/generate\(\) keyword arguments/).fill('{"do_sample": true, "temperature": 0.7}');
  await page.getByLabel("max new tokens").fill("6");
  await page.getByRole("button", { name: "Generate" }).click();
  await page.locator("#gen-stats").filter({ hasText: "tokens" }).waitFor({ timeout: 60_000 });
  await page.locator("#completion [data-step='2']").click();
  await page.getByLabel(/generate\(\) keyword arguments/).fill('{"do_sample": true, "temperature": 0.7, "top_k": 5}');
  await page.getByRole("button", { name: "Inspect" }).click();
  await page.getByTestId("kept-hf").filter({ hasText: /^5$/ }).waitFor();
  const tokens = await page.locator("#completion [data-token]").evaluateAll((els) => els.map((e) => e.dataset.token));
  const figures = await figuresOn(page);
  await page.getByRole("button", { name: "Copy link" }).click();
  const link = await page.getByLabel("Link to this state").inputValue();

  const other = await browser.browser.newPage();
  await other.goto(link);
  await other.getByTestId("inspecting").filter({ hasText: "generated token 2" }).waitFor({ timeout: 120_000 });
  await other.locator("#gen-stats").filter({ hasText: "tokens" }).waitFor({ timeout: 60_000 });
  await other.getByTestId("kept-hf").filter({ hasText: /^5$/ }).waitFor();
  assert.equal(await other.getByLabel("System message (optional)").inputValue(), "You are terse.");
  assert.equal(await other.getByLabel("User message").inputValue(), "Name a colour.");
  assert.deepEqual(await other.locator("#completion [data-token]").evaluateAll((els) => els.map((e) => e.dataset.token)), tokens);
  assert.deepEqual(await figuresOn(other), figures);
  assert.equal(await other.getByTestId("error").textContent(), "");
});

/** The headline figures as the page prints them, from a CLI report. */
function figuresOf(report) {
  const kept = (entry) => (entry.error ? "error" : String(entry.kept));
  return [kept(report.hf), kept(report.literal), kept(report.corrected),
    report.compare.literal.tv.toFixed(4), report.compare.corrected.tv.toFixed(4)];
}

async function figuresOn(page) {
  const ids = ["kept-hf", "kept-literal", "kept-corrected", "tv-literal", "tv-corrected"];
  return Promise.all(ids.map((id) => page.getByTestId(id).textContent()));
}

test("embed mode shows the panels without the page's controls, with a link back", async () => {
  const { page } = await openPage(browser, "?embed=1&preset=top-k-40&params=%7B%22do_sample%22%3Atrue%2C%22top_k%22%3A40%7D");
  await page.getByTestId("kept-hf").filter({ hasText: /^40$/ }).waitFor();
  assert.equal(await page.getByRole("button", { name: "Generate" }).isVisible(), false);
  for (const control of ["#exercises-link", "#hub-repo", "#model-file"]) assert.equal(await page.locator(control).isVisible(), false, control);
  assert.equal(await page.locator("#panel-literal").isVisible(), true);
  const back = page.getByRole("link", { name: /Open in sampling-lab/ });
  assert.doesNotMatch(await back.getAttribute("href"), /embed=/);
  assert.match(await back.getAttribute("href"), /top_k/);
  await page.setViewportSize({ width: 720, height: 480 });
  await page.screenshot({ path: "target/screenshots/embed.png" });
});

test("a hostile link is shown as text, its bad fields are named, and defaults stand in", async () => {
  let dialogs = 0;
  const page = await browser.browser.newPage();
  page.on("dialog", (d) => { dialogs += 1; d.dismiss(); });
  const hostile = '<img src=x onerror="alert(1)">';
  const query = new URLSearchParams({ user: hostile, params: "<script>alert(2)</script>", step: "-1", evil: "1" });
  await page.goto(`${BASE}?${query}`);
  await waitReady(page);
  const error = page.getByTestId("error");
  await error.filter({ hasText: "“params” is not valid JSON" }).waitFor();
  assert.match(await error.textContent(), /“step” must be a whole number/);
  assert.match(await error.textContent(), /unknown link field “evil”/);
  assert.equal(await page.getByLabel("User message").inputValue(), hostile);
  await page.getByTestId("rendered").filter({ hasText: "onerror" }).waitFor({ state: "attached" });
  assert.equal(await page.getByLabel(/generate\(\) keyword arguments/).inputValue(), '{"do_sample":true,"temperature":0.7,"top_k":40,"top_p":0.9}');
  await page.getByTestId("kept-hf").filter({ hasText: /^\d+$/ }).waitFor();
  assert.equal(await page.locator("body img, body script").count(), 0);
  assert.equal(dialogs, 0);
});

test("the other presets: SmolLM2's settings, greedy, transformers' temperature error, and the ties lab", async () => {
  const { page, errors } = await openPage(browser);
  const smollm2 = cliInspect({ do_sample: true, temperature: 0.2, top_p: 0.9 });
  await page.getByRole("button", { name: "SmolLM2's recommended" }).click();
  await page.getByTestId("kept-hf").filter({ hasText: new RegExp(`^${smollm2.hf.kept}$`) }).waitFor();
  assert.equal(await page.getByTestId("tv-literal").textContent(), smollm2.compare.literal.tv.toFixed(4));

  await page.getByRole("button", { name: "greedy", exact: true }).click();
  await page.getByTestId("kept-hf").filter({ hasText: /^1$/ }).waitFor();
  const greedy = cliInspect({});
  assert.deepEqual(await figuresOn(page), figuresOf(greedy));

  await page.getByRole("button", { name: "temperature=0, sampling on" }).click();
  await page.getByTestId("error").filter({ hasText: "`temperature` (=0) has to be a strictly positive float" }).waitFor();
  await page.getByTestId("causes").filter({ hasText: "silently decodes greedily" }).waitFor();

  await page.getByRole("button", { name: "ties lab" }).click();
  await page.getByTestId("kept-hf").filter({ hasText: /^3$/ }).waitFor();
  const ties = cliInspectLogits([3, 2, 2, 1], { do_sample: true, top_k: 2 });
  assert.deepEqual(await figuresOn(page), figuresOf(ties));
  assert.equal(await page.getByTestId("kept-literal").textContent(), "2");
  assert.match(await page.getByTestId("causes").textContent(), /2 tokens share the 2-th highest score/);
  assert.equal(await page.locator("#chart-literal").getAttribute("data-bars"), "2");
  assert.equal(await page.locator("#chart-hf").getAttribute("data-highlighted"), "1");
  assert.deepEqual(errors, []);
});

test("the explanation and the charts follow the settings", async () => {
  const { page } = await openPage(browser);
  await page.getByRole("button", { name: "temp 0.7", exact: true }).click();
  await page.getByTestId("causes").filter({ hasText: "transformers uses top_k=50" }).waitFor();
  assert.ok(Number(await page.locator("#chart-literal").getAttribute("data-highlighted")) > 0, "tokens only the literal port keeps are highlighted");
  await page.getByRole("button", { name: "top_k 40, top_p 0.9" }).click();
  await page.getByTestId("causes").filter({ hasText: "skips the nucleus and keeps all 40" }).waitFor();
  await page.getByLabel("log scale").check();
  await page.waitForURL(/log=1/);
});

test("Monte Carlo draws on two workers off the main thread, agrees with the CLI, and can be stopped", async () => {
  const { page, errors } = await openPage(browser);
  const params = { do_sample: true, temperature: 0.7 };
  await page.getByRole("button", { name: "temp 0.7", exact: true }).click();
  await page.getByTestId("kept-hf").filter({ hasText: /^50$/ }).waitFor();
  await page.getByLabel("draws per port").fill("20000");
  await page.getByRole("button", { name: "Draw", exact: true }).click();
  await page.getByTestId("mc-status").filter({ hasText: "done" }).waitFor({ timeout: 120_000 });
  const cli = cliInspect(params, ["--draws", "20000", "--seed", "0"]).monte_carlo;
  for (const name of ["literal", "corrected"]) {
    assert.equal(await page.getByTestId(`mc-check-${name}`).textContent(), "consistent");
    const outside = parseFloat(await page.getByTestId(`mc-outside-${name}`).textContent()) / 100;
    assert.ok(Math.abs(outside - cli[name].outside_hf) < 0.01, `${name}: ${outside} vs ${cli[name].outside_hf}`);
  }
  assert.ok(Number(await page.getByTestId("mc-distinct-literal").textContent()) > 50, "the literal port draws tokens hf never picks");
  assert.equal(await page.getByTestId("mc-outside-corrected").textContent(), "0.00 %");
  assert.ok(page.workers().some((w) => w.url().endsWith("/draws.js")), "the draw worker took half of the draws");

  await page.getByLabel("draws per port").fill("5000000");
  await page.getByRole("button", { name: "Draw", exact: true }).click();
  await page.getByTestId("mc-status").filter({ hasText: /\d+ \/ 10,000,000 draws/ }).waitFor();
  await page.getByRole("button", { name: "Stop drawing" }).click();
  await page.getByTestId("mc-status").filter({ hasText: "stopped after" }).waitFor();
  await page.getByRole("button", { name: "top_k 40", exact: true }).click();
  await page.getByTestId("kept-hf").filter({ hasText: /^40$/ }).waitFor();
  assert.deepEqual(errors, []);
});

test("a draw worker that dies leaves its half to the page's worker, which draws the same", async () => {
  const drawn = async (sabotage) => {
    const { page, errors } = await openPage(browser);
    await page.getByRole("button", { name: "temp 0.7", exact: true }).click();
    await page.getByTestId("kept-hf").filter({ hasText: /^50$/ }).waitFor();
    await page.getByLabel("draws per port").fill("3000");
    await page.getByRole("button", { name: "Draw", exact: true }).click();
    if (sabotage) {
      await page.getByTestId("mc-status").filter({ hasText: /draws\/s/ }).waitFor();
      await page.evaluate(() => window.dispatchEvent(new Event("sampling-lab:trap-draws")));
    }
    await page.getByTestId("mc-status").filter({ hasText: "done" }).waitFor({ timeout: 120_000 });
    const fields = ["draws", "distinct", "outside", "tv", "check", "top"];
    const figures = await Promise.all(["literal", "corrected"].flatMap((name) => fields.map((f) => page.locator(`#mc-${f}-${name}`).textContent())));
    await page.close();
    return { figures, errors };
  };
  const shared = await drawn(false);
  const alone = await drawn(true);
  assert.deepEqual(alone.figures, shared.figures);
  assert.deepEqual(alone.errors, []);
});

test("arguments one by one: not passed, passed, passed as None, and the implicit top_k on show", async () => {
  const { page } = await openPage(browser);
  await page.getByRole("button", { name: "temp 0.7", exact: true }).click();
  assert.equal(await page.getByLabel("top_k", { exact: true }).isChecked(), false);
  await page.locator("#effective-top_k").filter({ hasText: "→ 50 (default · implicit)" }).waitFor();
  await page.getByLabel("top_k", { exact: true }).check();
  await page.getByLabel(/^top_k value/).fill("None");
  await page.getByLabel(/^top_k value/).dispatchEvent("input");
  assert.equal(await page.getByLabel(/generate\(\) keyword arguments/).inputValue(), '{"do_sample": true, "temperature": 0.7, "top_k": null}');
  await page.getByTestId("kept-hf").filter({ hasText: /^49152$/ }).waitFor();
  await page.getByLabel(/^temperature value/).fill("1.0");
  await page.getByLabel(/^temperature value/).dispatchEvent("input");
  assert.match(await page.getByLabel(/generate\(\) keyword arguments/).inputValue(), /"temperature": 1\.0/);
  await page.getByLabel(/^temperature value/).fill("hot");
  await page.getByLabel(/^temperature value/).dispatchEvent("input");
  await page.getByTestId("error").filter({ hasText: "temperature: “hot” is not a number" }).waitFor();
});

test("the distributions export as CSV and JSON, and a chart as PNG", async () => {
  const { page } = await openPage(browser);
  await page.getByRole("button", { name: "top_k 40, top_p 0.9" }).click();
  await page.getByTestId("kept-literal").filter({ hasText: /^40$/ }).waitFor();
  const saved = async (name) => {
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name, exact: true }).click()]);
    return readFileSync(await download.path());
  };
  const csv = (await saved("CSV")).toString("utf8").trim().split("\n");
  assert.equal(csv[0], "token_id,token,p_hf,p_literal,p_corrected");
  assert.equal(csv.length - 1, 40, "one row per token any side keeps");
  assert.equal(csv.filter((row) => row.endsWith(",0,0")).length, 0);
  assert.equal(csv.filter((row) => /,0,[^,]+,0$/.test(row)).length, 16, "16 tokens only the literal port keeps");
  const json = JSON.parse((await saved("JSON")).toString("utf8"));
  assert.equal(json.hf.kept, 24);
  const png = await saved("literal chart PNG");
  assert.equal(png.subarray(1, 4).toString("latin1"), "PNG");
});

test("each port's Rust code is on the page for exactly these settings", async () => {
  const { page } = await openPage(browser);
  await page.getByRole("button", { name: "top_k 40, top_p 0.9" }).click();
  await page.getByTestId("kept-literal").filter({ hasText: /^40$/ }).waitFor();
  const cli = cliInspect({ do_sample: true, temperature: 0.7, top_k: 40, top_p: 0.9 });
  assert.equal(await page.getByTestId("code-literal").textContent(), cli.code.literal);
  assert.equal(await page.getByTestId("code-corrected").textContent(), cli.code.corrected);
  assert.match(cli.code.corrected, /Sampling::TopP \{ p: 0\.9, temperature: 0\.7 \}/);
  assert.match(cli.code.literal, /Sampling::TopKThenTopP \{ k: 40, p: 0\.9, temperature: 0\.7 \}/);
});

test("exercises: a task is checked against the core's figures, wrong and then right, with its explanation", async () => {
  const { page, errors } = await openPage(browser, "?exercises=default");
  await page.getByTestId("exercise-task").filter({ hasText: "How many tokens can transformers draw" }).waitFor();
  assert.equal(await page.locator(".panels").isVisible(), false, "the figures that answer the task stay hidden");
  await page.getByLabel("Your answer (a number of tokens)").fill("49152");
  await page.getByRole("button", { name: "Check" }).click();
  await page.getByTestId("exercise-result").filter({ hasText: "Not quite: the hf distribution keeps 50 tokens." }).waitFor();
  await page.getByTestId("exercise-explanation").filter({ hasText: "transformers fills top_k=50" }).waitFor();
  await page.getByLabel("Your answer (a number of tokens)").fill("50");
  await page.getByRole("button", { name: "Check" }).click();
  await page.getByTestId("exercise-result").filter({ hasText: /^Right/ }).waitFor();

  await page.getByRole("button", { name: "Next" }).click();
  await page.getByRole("button", { name: "Next" }).click();
  await page.getByTestId("exercise-task").filter({ hasText: "ignores top_p" }).waitFor();
  await page.waitForURL(/task=2/);
  await page.getByLabel("Your generate() arguments (JSON)").fill('{"do_sample": true, "temperature": 0.7, "top_k": 40, "top_p": 0.5}');
  await page.getByRole("button", { name: "Check" }).click();
  await page.getByTestId("exercise-result").filter({ hasText: /^Not quite/ }).waitFor();
  await page.getByLabel("Your generate() arguments (JSON)").fill('{"do_sample": true, "temperature": 0.7, "top_k": 5, "top_p": 0.95}');
  await page.getByRole("button", { name: "Check" }).click();
  await page.getByTestId("exercise-result").filter({ hasText: /^Right: the top 5 tokens hold/ }).waitFor();

  await page.getByRole("button", { name: "Next" }).click();
  await page.getByLabel("Ties at the k-th score: transformers keeps all of them").check();
  await page.getByRole("button", { name: "Check" }).click();
  await page.getByTestId("exercise-result").filter({ hasText: /^Right/ }).waitFor();
  assert.deepEqual(errors, []);
});

test("an exercise set from elsewhere is refused by name", async () => {
  const page = await browser.browser.newPage();
  await page.goto(`${BASE}?exercises=evil/..%2F..%2Fx.json`);
  await waitReady(page);
  await page.getByTestId("error").filter({ hasText: "“exercises” must be “default” or the path of a .json file on this site" }).waitFor();
  await page.goto(`${BASE}?exercises=missing.json`);
  await page.getByTestId("error").filter({ hasText: "The exercises could not be opened: exercises missing.json: HTTP 404" }).waitFor();
});
